"""Stage 3, refinement checks on the model inputs (person_info, procedure, fact), each finding with its span.

Checks (ids are stable, used in reports and filters):

- ``address_leak``: a form of address that reveals the decision (被不起诉人 / 被不起诉单位 / 被告人 / 被告单位);
- ``conclusion_leak``: a conclusory phrase that reveals the decision (证据确实、充分 / 情节轻微…不需要判处刑罚 /
  不构成犯罪 / 证据不足 …), except 证据不足 / 事实不清、证据不足 given as the reason a case was returned for
  supplementary investigation (…证据不足，退回公安机关补充侦查: a procedural event, see ``is_procedural_return``);
- ``reasoning_in_fact``: the procuratorate's reasoning inside the facts (本院认为 / 其行为已构成 …);
- ``fact_too_short``: facts shorter than ``MIN_FACT_CHARS`` characters (evidence list excluded);
- ``evidence_not_list``: no evidence list, or evidence described in prose rather than numbered items;
- ``extraction``: a reason code the extraction flagged the record with (a section not found, no case number,
  a label that could not be read; ``jiancha.corpus.extract.FLAG_CODES``), one finding per code.

``rewrite_addresses`` replaces the leaking forms of address with 犯罪嫌疑人 (犯罪嫌疑单位 for units).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jiancha.corpus.extract import FLAG_DETAIL_KEY, FLAGS_KEY
from jiancha.datasets.records import PDP_INPUT_FIELDS, PDPRecord
from jiancha.law.phrases import (
    CONCLUSORY_RE,
    EVIDENCE_HEADING_RE,
    EVIDENCE_ITEM_RE,
    LEAKING_ADDRESS_RE,
    LEAKING_ADDRESSES,
    REASONING_IN_FACT_RE,
    SUPPLEMENTARY_INVESTIGATION_RE,
)

CHECKS: tuple[str, ...] = ("address_leak", "conclusion_leak", "reasoning_in_fact", "fact_too_short",
                           "evidence_not_list", "extraction")
#: Facts (before the evidence list) shorter than this cannot support a decision.
MIN_FACT_CHARS = 40
#: Characters of context shown around a finding.
CONTEXT = 12


@dataclass(frozen=True)
class Finding:
    """One problem: which record, check, field, the offending span and where it is."""

    record_id: str
    check: str
    field: str
    span: str
    start: int
    end: int
    context: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"id": self.record_id, "check": self.check, "field": self.field, "span": self.span,
                "start": self.start, "end": self.end, "context": self.context}


def _finding(rec: PDPRecord, check: str, field: str, text: str, m: re.Match[str] | tuple[int, int]) -> Finding:
    start, end = (m.start(), m.end()) if isinstance(m, re.Match) else m
    ctx = text[max(0, start - CONTEXT): end + CONTEXT]
    return Finding(rec.id, check, field, text[start:end], start, end, ctx)


def split_evidence(fact: str) -> tuple[str, str]:
    """(facts proper, evidence part starting at the evidence heading); evidence is '' without a heading."""
    m = EVIDENCE_HEADING_RE.search(fact)
    if not m:
        return fact, ""
    line_start = fact.rfind("\n", 0, m.start()) + 1
    return fact[:line_start].rstrip(), fact[line_start:]


#: Conclusory phrases that may also be the stated reason for a 退回补充侦查 (a procedural step, not the decision).
RETURN_REASON_RE = re.compile(r"(?:事实不清[、，,]?\s*)?证据不足")
#: Where a clause ends for ``is_procedural_return``: sentence and semicolon marks, line breaks.
CLAUSE_END_RE = re.compile(r"[。；;！!？?\n]")


def is_procedural_return(text: str, m: re.Match[str]) -> bool:
    """Whether a conclusory match is the reason a case was returned for supplementary investigation: the match is
    证据不足 / 事实不清、证据不足 and 补充侦查 follows later in the same clause (up to 。；), with no other
    conclusory phrase in between. ``证据不足，不符合起诉条件`` stays a leak."""
    if not RETURN_REASON_RE.fullmatch(m.group(0)):
        return False
    end = CLAUSE_END_RE.search(text, m.end())
    rest = text[m.end(): end.start() if end else len(text)]
    after = SUPPLEMENTARY_INVESTIGATION_RE.search(rest)
    return after is not None and not CONCLUSORY_RE.search(rest, 0, after.start())


def check_record(rec: PDPRecord) -> list[Finding]:
    """All findings of one record, in field then position order."""
    out: list[Finding] = [Finding(rec.id, "extraction", "", str(code), 0, 0, str(rec.extra.get(FLAG_DETAIL_KEY, "")))
                          for code in rec.extra.get(FLAGS_KEY, ())]
    for field in PDP_INPUT_FIELDS:
        text: str = getattr(rec, field)
        out += [_finding(rec, "address_leak", field, text, m) for m in LEAKING_ADDRESS_RE.finditer(text)]
        out += [_finding(rec, "conclusion_leak", field, text, m) for m in CONCLUSORY_RE.finditer(text)
                if not is_procedural_return(text, m)]
    fact = rec.fact
    out += [_finding(rec, "reasoning_in_fact", "fact", fact, m) for m in REASONING_IN_FACT_RE.finditer(fact)]
    facts_proper, evidence = split_evidence(fact)
    if len(re.sub(r"\s", "", facts_proper)) < MIN_FACT_CHARS:
        out.append(_finding(rec, "fact_too_short", "fact", fact, (0, len(facts_proper))))
    if not evidence:
        out.append(_finding(rec, "evidence_not_list", "fact", fact, (len(fact), len(fact))))
    else:
        body = evidence.split("\n", 1)
        items = EVIDENCE_ITEM_RE.findall(body[1] if len(body) > 1 else evidence)
        if len(items) < 2:
            start = len(fact) - len(evidence)
            out.append(_finding(rec, "evidence_not_list", "fact", fact, (start, len(fact))))
    return out


def rewrite_addresses(rec: PDPRecord) -> PDPRecord:
    """The record with leaking forms of address in the input fields replaced by neutral ones."""
    changes = {f: LEAKING_ADDRESS_RE.sub(lambda m: LEAKING_ADDRESSES[m.group(0)], getattr(rec, f))
               for f in PDP_INPUT_FIELDS}
    return replace(rec, **changes)
