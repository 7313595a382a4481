"""Parse a model's charge answer: a JSON object ``{"charges": [...]}`` (or a bare list), tolerant of reasoning
before ``</think>``, code fences and surrounding prose; charges are kept only when they are candidates."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from jiancha.law.charges import CRIME_SUFFIX
from jiancha.ljp.prompts import JSON_KEY

THINK_END = "</think>"
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
#: Failure reasons.
REASONS = ("empty_output", "no_json", "bad_shape")


@dataclass(frozen=True)
class ParsedCharges:
    charges: tuple[str, ...]          # candidates, in answer order, deduplicated
    valid: bool                       # the answer held a JSON list of charges
    unknown: tuple[str, ...] = ()     # names given that are not candidates (after normalisation)
    reason: str | None = None         # one of REASONS when not valid


def _json_candidates(text: str) -> list[str]:
    out = [text]
    out += [m.group(1) for m in _FENCE.finditer(text)]
    for open_, close in (("{", "}"), ("[", "]")):
        i, j = text.find(open_), text.rfind(close)
        if 0 <= i < j:
            out.append(text[i:j + 1])
    return out


def normalise_charge(name: str, candidates: frozenset[str]) -> str:
    """``盗窃罪`` → ``盗窃`` when the candidate list uses the CAIL form without 罪 (and vice versa)."""
    name = name.strip().strip("\"'“”《》")
    if name in candidates:
        return name
    if name.endswith(CRIME_SUFFIX) and name[:-len(CRIME_SUFFIX)] in candidates:
        return name[:-len(CRIME_SUFFIX)]
    if name + CRIME_SUFFIX in candidates:
        return name + CRIME_SUFFIX
    return name


def parse_charges(text: str | None, candidates: tuple[str, ...] | frozenset[str]) -> ParsedCharges:
    """Charges from one answer.

    >>> parse_charges('思考</think>```json\\n{"charges": ["盗窃罪", "抢劫", "飞行"]}\\n```', ("盗窃", "抢劫"))
    ParsedCharges(charges=('盗窃', '抢劫'), valid=True, unknown=('飞行',), reason=None)
    """
    cands = frozenset(candidates)
    if not text or not text.strip():
        return ParsedCharges((), False, reason="empty_output")
    if THINK_END in text:
        text = text.split(THINK_END, 1)[1]
    for chunk in _json_candidates(text.strip()):
        try:
            data = json.loads(chunk)
        except json.JSONDecodeError:
            continue
        items = data.get(JSON_KEY) if isinstance(data, dict) else data
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            return ParsedCharges((), False, reason="bad_shape")
        found: list[str] = []
        unknown: list[str] = []
        for x in items:
            name = normalise_charge(x, cands)
            target = found if name in cands else unknown
            if name and name not in target:
                target.append(name)
        return ParsedCharges(tuple(found), True, tuple(unknown))
    return ParsedCharges((), False, reason="no_json")
