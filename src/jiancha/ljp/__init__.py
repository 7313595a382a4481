"""CAIL2018 charge prediction, the legal-judgment-prediction (LJP) reference task of the PDP paper: facts in,
charges out as JSON chosen from a candidate list; macro-F1 over labels with support, micro P/R/F1, exact match.

Runs on the same backends, store and batch engine as ``jiancha pdp eval`` (``jiancha.llm``); imports flow
``datasets``, ``llm`` → ``ljp`` and nothing here imports ``jiancha.pdp``."""
