"""Logging for the recipes: every trainer log line to ``metrics.jsonl`` and a compact line on the console.

The RL log lines carry what TRL computes (``reward``, ``rewards/<fn>/mean``, ``frac_reward_zero_std``,
``completions/mean_length``, ``completions/clipped_ratio`` ...) plus what the PDP rewards add through TRL's
``log_metric`` (``pdp/<reward>/<CODE>`` per-class means, ``pdp/process/<component>``, ``pdp/valid``) and, with
dynamic sampling, ``dynamic_sampling/*``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from jiancha._util.jsonl import append_jsonl

#: Keys shown on the console line, when present, in this order.
CONSOLE_KEYS = ("loss", "reward", "rewards/outcome/mean", "rewards/process/mean", "frac_reward_zero_std",
                "completions/mean_length", "completions/clipped_ratio", "dynamic_sampling/kept_group_frac",
                "learning_rate")


def clean_log(logs: dict[str, Any]) -> dict[str, Any]:
    """JSON-safe copy: NaN/inf become None, tensors and numpy scalars become floats.

    >>> clean_log({"a": float("nan"), "b": 1})
    {'a': None, 'b': 1}
    """
    out: dict[str, Any] = {}
    for k, v in logs.items():
        if hasattr(v, "item") and callable(v.item):
            v = v.item()
        if isinstance(v, float) and not math.isfinite(v):
            v = None
        out[k] = v
    return out


def format_console_line(step: int, logs: dict[str, Any]) -> str:
    """``step 3 | loss 0.12 | reward 0.55 | ...`` with the keys of ``CONSOLE_KEYS`` that are present."""
    parts = [f"step {step}"]
    for k in CONSOLE_KEYS:
        v = logs.get(k)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            parts.append(f"{k} {v:.4g}")
    per_class = [f"{k.rsplit('/', 1)[1]} {v:.3g}" for k, v in logs.items()
                 if k.startswith("pdp/") and k.count("/") == 2 and not k.startswith("pdp/process/")
                 and isinstance(v, (int, float))]
    if per_class:
        parts.append("per class: " + ", ".join(per_class))
    return " | ".join(parts)


class JsonlMetricsCallback(TrainerCallback):
    """Append each ``on_log`` dict (with step and epoch) to a JSONL file; print a compact console line."""

    def __init__(self, path: str | Path, *, console: Any = None):
        self.path = Path(path)
        self.console = console
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not logs or not state.is_world_process_zero:
            return
        row = {"step": state.global_step, "epoch": state.epoch, **clean_log(logs)}
        append_jsonl(self.path, row, fsync=False)
        if self.console is not None:
            self.console.print(format_console_line(state.global_step, row), highlight=False)
