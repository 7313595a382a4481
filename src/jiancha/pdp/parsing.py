"""Parse a model's answer into a decision and cited articles. Shared by the evaluation scorer and RL rewards.

Two modes: ``compat="reference"`` reproduces the published parser exactly (docs: pdp-protocol §3);
``compat="default"`` is robust to what models really emit and gives a reason code for every failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Compat = Literal["default", "reference"]

#: Failure reason codes (default mode).
REASONS = ("no_conclusion", "no_decision_line", "unknown_label", "empty_output", "truncated")


@dataclass(frozen=True)
class ParsedAnswer:
    decision: str | None                  # one of the four label strings, or None when invalid
    relevant_articles: tuple[str, ...]    # canonical strings (default mode) / raw prefixed strings (reference)
    valid: bool
    reason: str | None = None             # one of REASONS when not valid

    def to_dict(self) -> dict:
        return {"decision": self.decision, "relevant_articles": list(self.relevant_articles),
                "valid": self.valid, "reason": self.reason}


def parse_answer(text: str | None, *, compat: Compat = "default", finish_reason: str | None = None) -> ParsedAnswer:
    """Parse one raw model output. ``finish_reason == "length"`` marks a truncated answer (default mode)."""
    raise NotImplementedError
