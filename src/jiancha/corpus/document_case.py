"""The case a document file holds, as the three PDP inputs: a 起诉书 or 不起诉决定书 is split exactly as the dataset
builder splits it (:func:`jiancha.corpus.extract.extract_document`), its own decision kept aside; the police's
起诉意见书 by :mod:`jiancha.corpus.recommendation`; any other document (a judgment, a case summary) gives its whole
text as the facts, for the reader to trim. Used by the workbench's upload and ``jiancha case predict --document``."""

from __future__ import annotations

from dataclasses import dataclass

from jiancha._util.documents import read_document_bytes
from jiancha.corpus.extract import extract_document
from jiancha.corpus.ingest import Rejection, document_lines, paragraphs, parse_document
from jiancha.corpus.recommendation import is_recommendation, split_recommendation
from jiancha.errors import DataError
from jiancha.law.phrases import RECOMMENDATION_TITLE


class NoText(DataError):
    """A readable file with no text in it (an empty page, a form with blank fields)."""


#: The three inputs, in the order a 不起诉决定书 gives them, with their Chinese headings.
CASE_FIELDS = (("person_info", "犯罪嫌疑人信息"), ("procedure", "案件程序"), ("fact", "案件事实"))


@dataclass(frozen=True)
class DocumentCase:
    """``case``: person_info, procedure, fact; ``title`` the prosecutorial title found ('' when the document is
    of another kind and ``case['fact']`` is its whole text); ``decision`` the document's own decision ('' when
    none is found); ``suspects`` how many people it decides on (``case`` holds the first; ``people`` each one's
    person information and decision, when there are several)."""

    case: dict[str, str]
    title: str = ""
    decision: str = ""
    suspects: int = 1
    people: tuple[tuple[str, str], ...] = ()   # (person information, decision) of each person decided on

    @property
    def missing(self) -> list[str]:
        """Chinese headings of the fields a prosecutorial document was split into but left empty."""
        return [zh for key, zh in CASE_FIELDS if self.title and not self.case[key].strip()]


def document_case(data: bytes, name: str) -> DocumentCase:
    """The case in the file ``data`` named ``name`` (see the module docstring). Raises UnreadableDocument (a
    DataError) for a file without readable text, NoText for one whose text is empty, DataError for text in
    neither UTF-8 nor GB18030."""
    text = paragraphs(read_document_bytes(data, name))
    if not text.strip():
        raise NoText("holds no text", path=name)
    doc = parse_document(text, path=name)
    if isinstance(doc, Rejection):
        lines = document_lines(text)
        parts = split_recommendation(lines) if is_recommendation(lines) else None
        if parts is None:
            return DocumentCase({"person_info": "", "procedure": "", "fact": text.strip()})
        return DocumentCase({"person_info": "\n".join(parts.person_lines), "procedure": "\n".join(parts.procedure_lines),
                             "fact": "\n".join(parts.fact_lines)}, RECOMMENDATION_TITLE)
    records = extract_document(doc)
    first = records[0].record
    people = tuple((e.record.person_info, e.record.decision) for e in records) if len(records) > 1 else ()
    return DocumentCase({"person_info": first.person_info, "procedure": first.procedure, "fact": first.fact},
                        doc.title, first.decision, len(records), people)
