"""Split a prosecutorial document body into the PDP-Bench sections by the document's structure.

Order in a 起诉书 / 不起诉决定书: procuratorate, title, case number, suspect paragraphs (with defence-counsel
lines), procedure (本案由… / …移送本院审查起诉), facts (the investigators' version, then the procuratorate's own
findings after a lead-in such as 经依法审查查明：, with the evidence list), reasoning and decision (本院认为… /
经本院审查认为… / 经本院审查并退回补充侦查，本院仍然认为…), then appeal notices, salutation, signature and
date. The reasoning is found first (the last section before the tail), then the procedure before it, then the
facts between them: by a lead-in when there is one, else as what follows the procedural paragraphs. The
investigators' version (XX公安局移送审查起诉认定：…) is kept apart (``investigator_lines``): the record's facts are
that version followed by the procuratorate's own findings, which add to it or correct it (a 存疑不起诉 decision
often has no findings of its own). The procuratorate's analysis of the evidence (经本院审查，…) before its
conclusion opens the reasoning. A section that cannot be found is named in
``Sections.missing`` (reason codes, see ``MISSING_CODES``); nothing raises. Pure functions over
``RawDocument.lines``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiancha.corpus.ingest import RawDocument
from jiancha.corpus.text import is_date_line, normalize_case_number
from jiancha.law.phrases import (
    COUNSEL_LINE_RE,
    DECISION_STATEMENT_RE,
    DOUBT_RE,
    FACT_LEAD_IN_RE,
    FINDINGS_AGREE_RE,
    PERSON_HEADING_RE,
    POLICE_VERSION_RE,
    PROCEDURAL_EVENT_RE,
    PROCEDURE_START_RE,
    PROCURATORATE_NAME_RE,
    PROCURATORATE_SPEAKING_RE,
    PSEUDONYM_MARK,
    PSEUDONYM_SUFFIXES,
    REASONING_END_RE,
    REASONING_START_RE,
    SUSPECT_HEADER_RE,
)

#: Reason codes of sections that could not be found (a flagged record, never a rejection).
NO_PERSON_INFO = "no_person_info"
NO_PROCEDURE = "no_procedure"
NO_FACT = "no_fact"
NO_REASONING = "no_reasoning"
NO_DATE = "no_date"
MISSING_CODES: tuple[str, ...] = (NO_PERSON_INFO, NO_PROCEDURE, NO_FACT, NO_REASONING, NO_DATE)


@dataclass(frozen=True)
class Suspect:
    """One suspect (person or unit) of the person block: name as written and its paragraphs."""

    address: str
    name: str
    lines: tuple[str, ...]

    def mention_re(self) -> re.Pattern[str]:
        """Matches the name but not a longer 某-form (王某 must not match 王某某)."""
        return re.compile(re.escape(self.name) + f"(?![{PSEUDONYM_MARK}{PSEUDONYM_SUFFIXES}])")


@dataclass(frozen=True)
class Sections:
    procuratorate: str
    suspects: tuple[Suspect, ...]
    person_lines: tuple[str, ...]       # counsel lines removed
    counsel_lines: tuple[str, ...]
    procedure_lines: tuple[str, ...]
    investigator_lines: tuple[str, ...]  # the police's version when the procuratorate gives its own findings
    fact_lines: tuple[str, ...]
    reasoning_lines: tuple[str, ...]
    signature_date_line: str | None
    missing: tuple[str, ...] = ()        # MISSING_CODES of the sections not found


def _strip_lead_in(line: str) -> str:
    """The line without its lead-in (经依法审查查明：)."""
    m = FACT_LEAD_IN_RE.match(line)
    return line[m.end():].strip() if m else line


def _is_end_line(line: str) -> bool:
    s = line.replace(" ", "")
    return bool(REASONING_END_RE.match(s) or PROCURATORATE_NAME_RE.match(s) or is_date_line(s))


def _without_running_names(lines: list[str]) -> list[str]:
    """``lines`` without a procuratorate's name printed as a page header inside the text: a bare name line is
    the signature only when the tail follows it (a date, a signature or notice line, or the end)."""
    out = []
    for k, line in enumerate(lines):
        if PROCURATORATE_NAME_RE.match(line.replace(" ", "")):
            after = lines[k + 1: k + 3]
            if after and not any(_is_end_line(a) for a in after):
                continue
        out.append(line)
    return out


def _suspects(person_lines: list[str]) -> tuple[Suspect, ...]:
    out: list[tuple[str, str, list[str]]] = []
    for line in person_lines:
        m = SUSPECT_HEADER_RE.match(line)
        if m:
            out.append((m["address"], m["name"], [line]))
        elif out:
            out[-1][2].append(line)
    return tuple(Suspect(a, n, tuple(ls)) for a, n, ls in out)


def _split_inline(lines: list[str]) -> list[str]:
    """Paragraphs with the reasoning cut off where it opens inside another paragraph (…。本院认为，…)."""
    if any(REASONING_START_RE.match(ln) for ln in lines):
        return lines
    for k, line in enumerate(lines):
        for m in _SENTENCE_START_RE.finditer(line):
            rest = line[m.start():].lstrip()
            if m.start() and rest.startswith(_INLINE_REASONING_OPENERS) and REASONING_START_RE.match(rest):
                return [*lines[:k], line[: m.start()].rstrip(), rest, *lines[k + 1:]]
    return lines


def _inline_fact_start(lines: list[str], lo: int, hi: int) -> tuple[int, int] | None:
    """(line, offset) of the first sentence in ``lines[lo:hi]`` that opens the facts (a lead-in or the police's
    version) after a sentence end inside a paragraph, or None."""
    for k in range(lo, hi):
        line = lines[k]
        for m in _SENTENCE_START_RE.finditer(line):
            if m.start() and _is_fact_start(line[m.start():]):
                return k, m.start()
    return None


_SENTENCE_START_RE = re.compile(r"(?<=[。；;])")
#: How a paragraph of the procuratorate's own examination of the evidence opens (经本院审查，… / 经审查，…).
_EXAMINATION_OPENER_RE = re.compile(r"^(?:经本院(?:依法)?审查|本院(?:依法)?经审查|经(?:依法)?审查|本院审查)(?:后)?[，,]")
#: How a reasoning opening inside a paragraph starts (the procuratorate speaking: 本院… / 经本院… / 经审查…).
_INLINE_REASONING_OPENERS = ("本院", "经本院", "经审查", "经依法审查", "综上")


def _first(lines: list[str], lo: int, hi: int, pred) -> int | None:
    return next((k for k in range(lo, hi) if pred(lines[k])), None)


#: A procedure paragraph that opens with the person's address (``被不起诉人谭立新涉嫌受贿一案，由本院…侦查终结``):
#: no comma before 一案, where a person's paragraph has one after the name (``被不起诉人谭立新，男，…``).
_CASE_OF_PERSON_RE = re.compile(r"^[^，,。；;（(]{1,60}?一案[，,]?(?:由|经|于)")


def _is_procedure_start(line: str) -> bool:
    return bool(PROCEDURE_START_RE.match(line)) and (not SUSPECT_HEADER_RE.match(line)
                                                      or _CASE_OF_PERSON_RE.match(line) is not None)


def _is_fact_start(line: str) -> bool:
    return bool(FACT_LEAD_IN_RE.match(line) or POLICE_VERSION_RE.match(line))


def split_sections(doc: RawDocument) -> Sections:
    """Sections of ``doc``; sections not found are empty and named in ``missing``."""
    lines = list(doc.lines)
    i = doc.title_index + 1
    if i < len(lines) and doc.case_number and normalize_case_number(lines[i]) == doc.case_number:
        i += 1
    procuratorate = lines[0].replace(" ", "") if doc.title_index > 0 else ""
    date_line = lines[-1] if lines and is_date_line(lines[-1]) else None
    body = _split_inline(_without_running_names(lines[i:]))
    # the tail (appeal notice, salutation, signature, date) ends the text; the reasoning is the last section
    n = len(body)
    r = _first(body, 0, n, lambda ln: bool(REASONING_START_RE.match(ln)))
    if r is None:
        r = _reasoning_by_decision(body)
    if r is not None:
        stop = _first(body, r + 1, n, _is_end_line)
        reasoning = body[r: stop if stop is not None else n]
    else:
        reasoning = []
        r = _first(body, 0, n, _is_end_line)
        r = n if r is None else r
    p = _first(body, 0, r, lambda ln: _is_procedure_start(ln) and not _is_fact_start(ln))
    f = _first(body, (p + 1) if p is not None else 0, r, _is_fact_start)
    if reasoning and f is not None:
        # the procuratorate's analysis of the evidence before its conclusion (经本院审查，证人某某的证言…。本院认为…)
        k = r
        # that doubts it (a finding of fact with its proof stays in the facts: 经本院审查，某某已因病死亡。上述事实有…)
        while k - 1 > f and _EXAMINATION_OPENER_RE.match(body[k - 1]) and not _is_fact_start(body[k - 1]) \
                and not PROCEDURAL_EVENT_RE.match(body[k - 1]) and DOUBT_RE.search(body[k - 1]):
            k -= 1
        if k < r:
            reasoning = body[k: r] + reasoning
            r = k
    if p is not None and f is None and (cut := _inline_fact_start(body, p, r)) is not None:
        # the facts open inside a procedural paragraph (…移送本院审查起诉。经依法审查查明：…)
        k, at = cut
        body = [*body[:k], body[k][:at].rstrip(), body[k][at:].lstrip(), *body[k + 1:]]
        r, f = r + 1, k + 1
    if p is not None and f is None:
        # no lead-in: the facts follow the procedural paragraphs
        f = next((k for k in range(p + 1, r) if not PROCEDURAL_EVENT_RE.match(body[k])), None)
    person_end = p if p is not None else (f if f is not None else r)
    person: list[str] = []
    counsel: list[str] = []
    for line in body[:person_end]:
        if not PERSON_HEADING_RE.match(line):
            (counsel if COUNSEL_LINE_RE.match(line) else person).append(line)
    procedure = body[p: f if f is not None else r] if p is not None else []
    if not person and (moved := [ln for ln in procedure if _is_person_paragraph(ln)]):
        # the procedure told first, the person's paragraph after it (本案由…移送审查起诉。⏎被不起诉人龙某，男，…)
        person = moved
        procedure = [ln for ln in procedure if ln not in moved]
    fact_block = body[f:r] if f is not None else []
    investigator, fact = _own_findings(fact_block)
    missing = [code for code, present in ((NO_PERSON_INFO, person), (NO_PROCEDURE, procedure),
                                          (NO_FACT, fact or investigator), (NO_REASONING, reasoning),
                                          (NO_DATE, date_line)) if not present]
    return Sections(procuratorate=procuratorate, suspects=_suspects(person), person_lines=tuple(person),
                    counsel_lines=tuple(counsel), procedure_lines=tuple(procedure),
                    investigator_lines=tuple(investigator), fact_lines=tuple(fact),
                    reasoning_lines=tuple(reasoning), signature_date_line=date_line, missing=tuple(missing))


#: What follows the name in a person's paragraph: sex, birth, identity number or ethnicity (``，男，1979年出生``),
#: or a unit's seat, code or representative.
_PARTICULARS_RE = re.compile(r"[，,（(][^。]{0,40}?(?:[，,（(][男女][，,。）)]|出生|生于|身份证|[^，,]{1,5}族[，,]|"
                             r"住所地?|统一社会信用代码|组织机构代码|法定代表人)")


def _is_person_paragraph(line: str) -> bool:
    """Whether ``line`` is a suspect's paragraph: the form of address, the name and the person's particulars
    (``被不起诉人龙某，男，1979年出生``), not a procedural sentence that opens with them (``被不起诉人X涉嫌…一案``)."""
    m = SUSPECT_HEADER_RE.match(line)
    return m is not None and _PARTICULARS_RE.match(line, m.end()) is not None


def _reasoning_by_decision(body: list[str]) -> int | None:
    """Start of a reasoning that no lead-in opens (本院审查认定，…的行为…决定对某作出不起诉决定): the last paragraph
    before the tail that states the decision closes it, and the reasoning opens at the nearest paragraph at or
    before it in which the procuratorate speaks (本院… / 经审查…), else at that paragraph itself. None when no
    paragraph states the decision, or when the one found opens the document (the procedure comes before it)."""
    tail = _first(body, 0, len(body), _is_end_line)
    tail = len(body) if tail is None else tail
    d = next((k for k in range(tail - 1, -1, -1) if DECISION_STATEMENT_RE.search(body[k])), None)
    if d is None:
        return None
    procedure = _first(body, 0, d, _is_procedure_start)
    if procedure is None:
        return None
    opener = next((k for k in range(d, procedure, -1) if PROCURATORATE_SPEAKING_RE.match(body[k])
                   and not PROCEDURAL_EVENT_RE.match(body[k])), None)
    return opener if opener is not None else d


def _without_police_lead_in(line: str) -> str:
    """``line`` without the lead-in of the investigators' version (XX公安局移送审查起诉认定：), if it has one."""
    m = POLICE_VERSION_RE.match(line)
    return line[m.end():].strip() if m else line


def police_version(sec: Sections) -> list[str]:
    """The investigators' version of the facts without its lead-in, the lines of ``sec.investigator_lines`` that
    say something and that the procuratorate's findings do not repeat."""
    own = {re.sub(r"\s+", "", ln) for ln in sec.fact_lines}
    return [t for ln in sec.investigator_lines
            if (t := _without_police_lead_in(ln)) and re.sub(r"\s+", "", t) not in own]


def _own_findings(block: list[str]) -> tuple[list[str], list[str]]:
    """(investigators' version, the procuratorate's own findings without lead-ins and repeated lines)."""
    police = [k for k, ln in enumerate(block) if POLICE_VERSION_RE.match(ln) and not FACT_LEAD_IN_RE.match(ln)]
    own = [k for k, ln in enumerate(block) if FACT_LEAD_IN_RE.match(ln)]
    start = 0
    if police:
        after = [k for k in own if k > police[-1]]
        start = after[0] if after else 0
    elif own:
        start = own[0]
    fact: list[str] = []
    seen: set[str] = set()
    for k, line in enumerate(block[start:], start=start):
        text = _strip_lead_in(line) if FACT_LEAD_IN_RE.match(line) else line
        if text is not line and not FINDINGS_AGREE_RE.match(text):   # 经本院依法审查查明：某公安局起诉意见书认定，…
            text = _without_police_lead_in(text)
        if k == start and not own:
            # the police's version is the facts: its lead-in (XX公安局移送审查起诉认定：) is not
            text = _without_police_lead_in(line)
        key = re.sub(r"\s+", "", text)
        if not key or key in seen or FINDINGS_AGREE_RE.match(key):
            continue
        seen.add(key)
        fact.append(text)
    return block[:start], fact

