"""Stage 2 (rule track): a parsed document → PDP-Bench records.

The label comes from the legal basis of the decision, through ``jiancha.law.cpl`` in the document's own CPL
numbering (2012 or 2018); decision wording is used only when no article decides it. A 不起诉决定书 yields one
record per person decided on (``<case number>-<k>``, each with its own person paragraphs and the reasoning that
concerns it); a 起诉书 one record, unless its defendants receive different decisions. A decision document is
never dropped: a section that cannot be found, a missing case number, or a basis that is contradictory, missing
or at odds with the document type gives a *flagged* record (``Extracted.flags``, reason codes in ``FLAG_CODES``;
the record's ``extra["flags"]`` carries them into the records file, where ``build check`` lists them), with an
empty decision when none can be read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from jiancha.corpus.ingest import RawDocument
from jiancha.corpus.places import province_in_text, province_of
from jiancha.corpus.sections import MISSING_CODES, Sections, Suspect, police_version, split_sections
from jiancha.corpus.text import parse_date_iso
from jiancha.datasets.records import PDPRecord
from jiancha.errors import ParseError
from jiancha.law.articles import ArticleRef, canonical_sort, parse_articles
from jiancha.law.cpl import decision_from_articles, detect_numbering
from jiancha.law.labels import Decision
from jiancha.law.phrases import (
    DECISION_CLAUSE_RE,
    DECISION_STATEMENT_RE,
    DECISION_WORDING,
    PROCURATORATE_NAME_RE,
)

#: Where a label came from.
LABEL_FROM_ARTICLES = "articles"
LABEL_FROM_WORDING = "wording"

#: Reason codes of a flagged record: the sections not found (``sections.MISSING_CODES``), then these.
NO_CASE_NUMBER = "no_case_number"
LABEL_UNRESOLVED = "label_unresolved"        # no decisive article and no (or ambiguous) decision wording
LABEL_CONTRADICTORY = "label_contradictory"  # the cited articles decide for different labels
LABEL_TYPE_CONFLICT = "label_type_conflict"  # the decision does not fit the document type (起诉 in 不起诉决定书)
FLAG_CODES: tuple[str, ...] = (*MISSING_CODES, NO_CASE_NUMBER, LABEL_UNRESOLVED, LABEL_CONTRADICTORY,
                               LABEL_TYPE_CONFLICT)
#: Key of the flags in ``PDPRecord.extra`` (written to the records file), and of the label problem's wording.
FLAGS_KEY = "flags"
FLAG_DETAIL_KEY = "flag_detail"

#: The decisions a document type can carry.
_TYPE_DECISIONS: dict[str, frozenset[Decision]] = {
    "indictment": frozenset({Decision.PROSECUTE}),
    "non_prosecution": frozenset({Decision.DISCRETIONARY, Decision.STATUTORY, Decision.INSUFFICIENT_EVIDENCE}),
}


@dataclass(frozen=True)
class Extracted:
    """One record of the rule track, with how its label was found (None when it was not), the CPL numbering of
    its articles and the reason codes it is flagged with (empty: a clean record)."""

    record: PDPRecord
    path: str
    label_source: str | None
    numbering: str
    flags: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.flags)


@dataclass(frozen=True)
class LabelResult:
    decision: Decision | None
    source: str | None
    reason: str | None = None
    code: str | None = None   # LABEL_* reason code when decision is None


def label_of(text: str, refs: list[ArticleRef], numbering: str) -> LabelResult:
    """Decision of a reasoning text: the cited CPL provisions decide; wording only when none is cited."""
    by_articles = decision_from_articles(refs, numbering)
    if by_articles.decision is not None:
        return LabelResult(by_articles.decision, LABEL_FROM_ARTICLES)
    if by_articles.reason and by_articles.reason.startswith("contradictory"):
        return LabelResult(None, None, by_articles.reason, LABEL_CONTRADICTORY)
    hits = [label for label, pat in DECISION_WORDING.items() if pat.search(text)]
    if len(hits) == 1:
        return LabelResult(Decision(hits[0]), LABEL_FROM_WORDING)
    if hits:
        return LabelResult(None, None, f"no decisive article and ambiguous decision wording ({', '.join(hits)})",
                           LABEL_UNRESOLVED)
    return LabelResult(None, None, "no legal basis for the decision (no decisive CPL article, no decision wording)",
                       LABEL_UNRESOLVED)


def _paragraph_targets(paragraph: str, suspects: tuple[Suspect, ...]) -> list[int]:
    """Indices of the suspects a decision paragraph is about (from its decision clause, else its mentions)."""
    m = DECISION_CLAUSE_RE.search(paragraph)
    scope = m["who"] if m else paragraph
    return [k for k, s in enumerate(suspects) if s.mention_re().search(scope)]


def _per_suspect_reasoning(sec: Sections) -> list[list[str]] | None:
    """Reasoning paragraphs of each suspect when separate paragraphs decide for separate suspects, else None."""
    n = len(sec.suspects)
    if n < 2:
        return None
    shared: list[str] = []
    own: list[list[str]] = [[] for _ in range(n)]
    for paragraph in sec.reasoning_lines:
        targets = _paragraph_targets(paragraph, sec.suspects)
        if not targets or len(targets) == n:
            shared.append(paragraph)
        else:
            for k in targets:
                own[k].append(paragraph)
    if any(not o for o in own):
        return None
    return [[p for p in sec.reasoning_lines if p in shared or p in own[k]] for k in range(n)]


def _base_record(doc: RawDocument, sec: Sections, record_id: str) -> PDPRecord:
    date = None
    if sec.signature_date_line:
        try:
            date = parse_date_iso(sec.signature_date_line)
        except ParseError:
            date = None
    return PDPRecord(
        id=record_id,
        person_info="\n".join(sec.person_lines),
        procedure="\n".join(sec.procedure_lines),
        fact=_facts(sec),
        decision="",
        relevant_articles=(),
        date=date,
        province=_province(doc, sec),
        raw_reasoning_and_decision="\n".join(sec.reasoning_lines),
        source_url=doc.source_url,
    )


def _through_decision(text: str) -> str:
    """The reasoning up to the end of the last sentence that states the decision: what it cites after that (a
    rights notice, what becomes of the proceeds: 依照…第二百九十八条的规定另行处理) is not the decision's basis.

    >>> _through_decision("本院认为，…决定对甲某不起诉。对违法所得，依照第二百九十八条另行处理。")
    '本院认为，…决定对甲某不起诉。'
    """
    last = None
    for last in DECISION_STATEMENT_RE.finditer(text):
        pass
    end = text.find("。", last.end()) if last is not None else -1
    return text if end < 0 else text[: end + 1]


def _facts(sec: Sections) -> str:
    """The facts of a record: the investigators' version where the document gives one (XX公安局移送审查起诉认定：),
    then the procuratorate's own findings, which add to it or correct it (a findings line that only says they
    agree, 查明的事实与侦查机关认定的事实一致, adds nothing)."""
    return "\n".join([*police_version(sec), *sec.fact_lines])


def _province(doc: RawDocument, sec: Sections) -> str | None:
    """From the procuratorate in the header, else in the signature, else the province the text names most."""
    names = [sec.procuratorate, *(ln.replace(" ", "") for ln in reversed(doc.lines)
                                  if PROCURATORATE_NAME_RE.match(ln.replace(" ", "")))]
    for name in names:
        if name and (found := province_of(name)):
            return found
    return province_in_text("\n".join(doc.lines))


def _flagged(rec: PDPRecord, flags: list[str], detail: str | None) -> PDPRecord:
    if not flags:
        return rec
    extra = {**rec.extra, FLAGS_KEY: list(dict.fromkeys(flags))}
    if detail:
        extra[FLAG_DETAIL_KEY] = detail
    return replace(rec, extra=extra)


def extract_document(doc: RawDocument) -> list[Extracted]:
    """Records of one decision document; what could not be read is flagged on the records (see module doc)."""
    sec = split_sections(doc)
    flags = list(sec.missing)
    if not doc.case_number:
        flags.append(NO_CASE_NUMBER)
    case_id = doc.case_number or Path(doc.path).stem
    base = _base_record(doc, sec, case_id)
    reasoning = base.raw_reasoning_and_decision
    all_refs = parse_articles(reasoning)
    numbering = detect_numbering(base.date, all_refs)
    allowed = _TYPE_DECISIONS[doc.doc_type]

    def decide(text: str) -> tuple[LabelResult, list[str]]:
        refs = parse_articles(_through_decision(text))
        result = label_of(text, refs, numbering)
        if result.decision is not None and result.decision not in allowed:
            result = LabelResult(None, None, f"decision {result.decision.value} contradicts the document type "
                                             f"{doc.title}", LABEL_TYPE_CONFLICT)
        return result, canonical_sort([r.canonical() for r in refs])

    split = _per_suspect_reasoning(sec)
    if split is None and doc.doc_type == "non_prosecution" and len(sec.suspects) > 1:
        split = [list(sec.reasoning_lines)] * len(sec.suspects)   # one decision on several people
    if split is not None:
        results = [decide("\n".join(paragraphs)) for paragraphs in split]
        if (doc.doc_type == "non_prosecution" or len({r.decision for r, _ in results}) > 1) \
                and all(r.decision for r, _ in results):
            out = []
            for k, (suspect, paragraphs, (res, articles)) in enumerate(
                    zip(sec.suspects, split, results, strict=True), start=1):
                assert res.decision is not None and res.source is not None
                rec = replace(base, id=f"{case_id}-{k}", person_info="\n".join(suspect.lines),
                              raw_reasoning_and_decision="\n".join(paragraphs), decision=res.decision.value,
                              relevant_articles=tuple(articles))
                out.append(Extracted(_flagged(rec, flags, None), doc.path, res.source, numbering, tuple(flags)))
            return out
    res, articles = decide(reasoning)
    if res.decision is None:
        flags.append(res.code or LABEL_UNRESOLVED)
    rec = replace(base, decision=res.decision.value if res.decision else "", relevant_articles=tuple(articles))
    flags = list(dict.fromkeys(flags))
    return [Extracted(_flagged(rec, flags, res.reason), doc.path, res.source, numbering, tuple(flags))]
