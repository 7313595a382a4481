"""What became of each input document, and the yield of a build per class.

Every document ends in one of three states: ``extracted`` (clean records), ``flagged`` (records with reason
codes, see ``jiancha.corpus.extract.FLAG_CODES``) or ``rejected`` (not a decision: a judgment, a news page, an
unreadable file, or a duplicate of a document read earlier). A decision document is never rejected for what
could not be read in it.

The yield table counts documents per class: the decision of the document's first record, ``undecided`` when
its label could not be read, ``unreadable`` for files with no text to read (a scan, an encrypted or damaged file,
a text in an unknown encoding: any of them may be a lost decision), ``not_a_decision`` for documents read and found
not to be decisions. A duplicate counts under
the class of its records. The table is printed and recorded by every ``build extract`` / ``build run``, so that
a loss concentrated in one class shows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jiancha.corpus.extract import Extracted, extract_document
from jiancha.corpus.ingest import RawDocument, Rejection, read_document
from jiancha.errors import DataError
from jiancha.law.labels import LEVEL2_LABELS

EXTRACTED = "extracted"
FLAGGED = "flagged"
REJECTED = "rejected"
#: Document states, in table order.
STATES: tuple[str, ...] = (EXTRACTED, FLAGGED, REJECTED)
#: Classes of documents whose label could not be read, of files with no readable text, and of documents that are
#: not decisions.
UNDECIDED = "undecided"
UNREADABLE = "unreadable"
NOT_A_DECISION = "not_a_decision"
#: Rows of the yield table, in order.
YIELD_CLASSES: tuple[str, ...] = (*LEVEL2_LABELS, UNDECIDED, UNREADABLE, NOT_A_DECISION)


@dataclass(frozen=True)
class DocumentOutcome:
    """One input document: its state, class, records (none when rejected) and the rejection if any.
    ``document`` is kept only when asked (the LLM track needs the parsed text)."""

    path: str
    state: str
    label: str
    extracted: tuple[Extracted, ...] = ()
    rejection: Rejection | None = None
    case_number: str | None = None
    document: RawDocument | None = None


def label_of_records(extracted: tuple[Extracted, ...] | list[Extracted]) -> str:
    decision = extracted[0].record.decision if extracted else ""
    return decision or UNDECIDED


def process_path(path: str | Path, keep_document: bool = False) -> DocumentOutcome:
    """Read, type and extract one file (no duplicate check: that needs every earlier document, see
    ``mark_duplicates``)."""
    try:
        doc = read_document(path)
    except DataError as exc:   # the rejection names the file: its reason need not again
        return DocumentOutcome(str(path), REJECTED, UNREADABLE, rejection=Rejection(str(path), exc.message))
    if isinstance(doc, Rejection):
        return DocumentOutcome(str(path), REJECTED, NOT_A_DECISION, rejection=doc)
    extracted = tuple(extract_document(doc))
    state = FLAGGED if any(e.flagged for e in extracted) else EXTRACTED
    return DocumentOutcome(str(path), state, label_of_records(extracted), extracted, None, doc.case_number,
                           doc if keep_document else None)


def process_path_keep(path: str | Path) -> DocumentOutcome:
    return process_path(path, keep_document=True)


@dataclass
class DuplicateFilter:
    """Second and later documents with the same normalised case number become rejections (first one wins, in
    input order)."""

    seen: dict[str, tuple[str, str]] = field(default_factory=dict)   # case number → (path, class)

    def __call__(self, outcome: DocumentOutcome) -> DocumentOutcome:
        cn = outcome.case_number
        if outcome.state == REJECTED or not cn:
            return outcome
        if cn not in self.seen:
            self.seen[cn] = (outcome.path, outcome.label)
            return outcome
        first, label = self.seen[cn]
        reason = f"duplicate of {Path(first).name} (case number {cn})"
        # a duplicate is often a shortened copy; it counts under the class of the document it repeats
        return DocumentOutcome(outcome.path, REJECTED, label,
                               rejection=Rejection(outcome.path, reason, case_number=cn), case_number=cn)


@dataclass
class YieldTable:
    """Documents per class and state (see module doc)."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, outcome: DocumentOutcome) -> None:
        self.counts[(outcome.label, outcome.state)] += 1

    def rows(self) -> dict[str, dict[str, int]]:
        """``{class: {seen, extracted, flagged, rejected}}`` for every class in table order."""
        out: dict[str, dict[str, int]] = {}
        for label in YIELD_CLASSES:
            row = {s: self.counts.get((label, s), 0) for s in STATES}
            out[label] = {"seen": sum(row.values()), **row}
        return out

    def to_dict(self) -> dict[str, Any]:
        rows = self.rows()
        total = {k: sum(r[k] for r in rows.values()) for k in ("seen", *STATES)}
        return {"by_class": rows, "total": total}
