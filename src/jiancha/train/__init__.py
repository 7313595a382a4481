"""Training for PDP: class-ratio splits, rewards, and SFT / RLVR (DAPO, GSPO) recipes on TRL.

- ``splits``: the paper's class-ratio training splits, manifest and leakage check (no heavy dependencies);
- ``rewards`` / ``reference_format``: TRL-signature outcome and process rewards (plain Python);
- ``config``: recipe configs (CLI flags = YAML keys), presets in ``presets/``;
- ``data``, ``sft``, ``rl``, ``dynamic_sampling``, ``callbacks``, ``runs``, ``models``: the recipes (extra
  ``train``: torch, transformers, trl, peft, accelerate), imported lazily.

See docs/training.md.
"""
