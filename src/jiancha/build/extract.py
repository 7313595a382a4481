"""Stage 2 (rule track): a parsed document → PDP-Bench records.

The label comes from the legal basis of the decision, through ``jiancha.law.cpl`` in the document's own CPL
numbering (2012 or 2018); decision wording is used only when no article decides it, and a document whose basis
is contradictory, missing or at odds with its type is flagged (a Rejection), never guessed. A document whose
suspects receive different decisions yields one record per suspect (``<case number>-<k>``); otherwise one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jiancha.build.ingest import RawDocument, Rejection
from jiancha.build.places import province_of
from jiancha.build.sections import SectionError, Sections, Suspect, split_sections
from jiancha.build.text import parse_date_iso
from jiancha.datasets.records import PDPRecord
from jiancha.errors import ParseError
from jiancha.law.articles import ArticleRef, canonical_sort, parse_articles
from jiancha.law.cpl import decision_from_articles, detect_numbering
from jiancha.law.labels import Decision
from jiancha.law.phrases import DECISION_CLAUSE_RE, DECISION_WORDING

#: Where a label came from.
LABEL_FROM_ARTICLES = "articles"
LABEL_FROM_WORDING = "wording"

#: The decisions a document type can carry.
_TYPE_DECISIONS: dict[str, frozenset[Decision]] = {
    "indictment": frozenset({Decision.PROSECUTE}),
    "non_prosecution": frozenset({Decision.DISCRETIONARY, Decision.STATUTORY, Decision.INSUFFICIENT_EVIDENCE}),
}


@dataclass(frozen=True)
class Extracted:
    """One record of the rule track, with how its label was found and the CPL numbering of its articles."""

    record: PDPRecord
    path: str
    label_source: str
    numbering: str


@dataclass(frozen=True)
class LabelResult:
    decision: Decision | None
    source: str | None
    reason: str | None = None


def label_of(text: str, refs: list[ArticleRef], numbering: str) -> LabelResult:
    """Decision of a reasoning text: the cited CPL provisions decide; wording only when none is cited."""
    by_articles = decision_from_articles(refs, numbering)
    if by_articles.decision is not None:
        return LabelResult(by_articles.decision, LABEL_FROM_ARTICLES)
    if by_articles.reason and by_articles.reason.startswith("contradictory"):
        return LabelResult(None, None, by_articles.reason)
    hits = [label for label, pat in DECISION_WORDING.items() if pat.search(text)]
    if len(hits) == 1:
        return LabelResult(Decision(hits[0]), LABEL_FROM_WORDING)
    if hits:
        return LabelResult(None, None, f"no decisive article and ambiguous decision wording ({', '.join(hits)})")
    return LabelResult(None, None, "no legal basis for the decision (no decisive CPL article, no decision wording)")


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


def _base_record(doc: RawDocument, sec: Sections) -> PDPRecord:
    date = None
    if sec.signature_date_line:
        try:
            date = parse_date_iso(sec.signature_date_line)
        except ParseError:
            date = None
    assert doc.case_number is not None
    return PDPRecord(
        id=doc.case_number,
        person_info="\n".join(sec.person_lines),
        procedure="\n".join(sec.procedure_lines),
        fact="\n".join(sec.fact_lines),
        decision="",
        relevant_articles=(),
        date=date,
        province=province_of(sec.procuratorate) if sec.procuratorate else None,
        raw_reasoning_and_decision="\n".join(sec.reasoning_lines),
        source_url=doc.source_url,
    )


def extract_document(doc: RawDocument) -> list[Extracted] | Rejection:
    """Records of one document, or a Rejection (stage ``extract``) saying what is missing or contradictory."""
    if not doc.case_number:
        return Rejection(doc.path, "no case number (expected e.g. 某检刑不诉〔2021〕12号 under the title)",
                         stage="extract")
    try:
        sec = split_sections(doc)
    except SectionError as exc:
        return Rejection(doc.path, str(exc), stage="extract", case_number=doc.case_number)
    base = _base_record(doc, sec)
    reasoning = base.raw_reasoning_and_decision
    all_refs = parse_articles(reasoning)
    numbering = detect_numbering(base.date, all_refs)
    allowed = _TYPE_DECISIONS[doc.doc_type]

    def decide(text: str) -> tuple[LabelResult, list[str]]:
        refs = parse_articles(text)
        result = label_of(text, refs, numbering)
        if result.decision is not None and result.decision not in allowed:
            result = LabelResult(None, None, f"decision {result.decision.value} contradicts the document type "
                                             f"{doc.title}")
        return result, canonical_sort([r.canonical() for r in refs])

    split = _per_suspect_reasoning(sec)
    if split is not None:
        results = [decide("\n".join(paragraphs)) for paragraphs in split]
        if len({r.decision for r, _ in results}) > 1 and all(r.decision for r, _ in results):
            out = []
            for k, (suspect, paragraphs, (res, articles)) in enumerate(
                    zip(sec.suspects, split, results, strict=True), start=1):
                assert res.decision is not None and res.source is not None
                rec = replace(base, id=f"{doc.case_number}-{k}", person_info="\n".join(suspect.lines),
                              raw_reasoning_and_decision="\n".join(paragraphs), decision=res.decision.value,
                              relevant_articles=tuple(articles))
                out.append(Extracted(rec, doc.path, res.source, numbering))
            return out
    res, articles = decide(reasoning)
    if res.decision is None or res.source is None:
        return Rejection(doc.path, f"label flagged: {res.reason}", stage="extract", case_number=doc.case_number)
    rec = replace(base, decision=res.decision.value, relevant_articles=tuple(articles))
    return [Extracted(rec, doc.path, res.source, numbering)]
