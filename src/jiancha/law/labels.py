"""The four prosecutorial decisions of PDP-Bench and their Level-1 grouping.

Identifiers in English, values in Chinese: ``Decision.PROSECUTE.value == "起诉"``.
"""

from __future__ import annotations

from enum import Enum


class Decision(str, Enum):
    """Level-2 labels, in the fixed order used for every table (P, DNP, SNP, IENP)."""

    PROSECUTE = "起诉"                 # P: CPL 2018 art. 176 (2012: 172)
    DISCRETIONARY = "相对不起诉"        # DNP: CPL 2018 art. 177(2) (2012: 173(2))
    STATUTORY = "法定不起诉"            # SNP: CPL 2018 art. 16 + 177(1) (2012: 15 + 173(1))
    INSUFFICIENT_EVIDENCE = "存疑不起诉"  # IENP: CPL 2018 art. 175(4) (2012: 171(4))

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def level1(self) -> Level1:
        return Level1.PROSECUTE if self is Decision.PROSECUTE else Level1.NOT_PROSECUTE

    @classmethod
    def from_code(cls, code: str) -> Decision:
        for d, c in _CODES.items():
            if c.lower() == code.strip().lower():
                return d
        raise ValueError(f"unknown decision code {code!r}; expected one of {', '.join(_CODES.values())}")


class Level1(str, Enum):
    PROSECUTE = "起诉"
    NOT_PROSECUTE = "不起诉"


_CODES = {
    Decision.PROSECUTE: "P",
    Decision.DISCRETIONARY: "DNP",
    Decision.STATUTORY: "SNP",
    Decision.INSUFFICIENT_EVIDENCE: "IENP",
}

#: Label strings in table order.
LEVEL2_LABELS: tuple[str, ...] = tuple(d.value for d in Decision)
LEVEL1_LABELS: tuple[str, ...] = tuple(v.value for v in Level1)

#: Other names for the decisions found in documents and model output (default-mode parsing only).
LABEL_SYNONYMS: dict[str, Decision] = {
    "起诉": Decision.PROSECUTE,
    "提起公诉": Decision.PROSECUTE,
    "公诉": Decision.PROSECUTE,
    "相对不起诉": Decision.DISCRETIONARY,
    "酌定不起诉": Decision.DISCRETIONARY,
    "裁量不起诉": Decision.DISCRETIONARY,
    "相对不诉": Decision.DISCRETIONARY,
    "法定不起诉": Decision.STATUTORY,
    "绝对不起诉": Decision.STATUTORY,
    "法定不诉": Decision.STATUTORY,
    "存疑不起诉": Decision.INSUFFICIENT_EVIDENCE,
    "证据不足不起诉": Decision.INSUFFICIENT_EVIDENCE,
    "存疑不诉": Decision.INSUFFICIENT_EVIDENCE,
}


def level1_of(label: str | None) -> str | None:
    """Level-1 string of a Level-2 label string; None for anything that is not one of the four labels."""
    if label is None:
        return None
    try:
        return Decision(label).level1.value
    except ValueError:
        return None


def is_valid_label(label: object) -> bool:
    return isinstance(label, str) and label in LEVEL2_LABELS
