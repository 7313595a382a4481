"""Bridges to the evaluation tools researchers already use: inspect_ai (``inspect_task``) and
lm-evaluation-harness (``lm_eval_task``). Each needs the ``integrations`` extra and is imported only on use."""
