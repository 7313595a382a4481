"""Prosecution Decision Prediction: prompts, answer parsing, metrics, reports, the evaluation runner."""
