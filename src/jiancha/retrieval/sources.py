"""Collections of judgments read for a case index: LeCaRD v1 / v2 candidate files, court documents (text, HTML,
Word .docx, PDF), JSONL exports; each as a :class:`CaseDoc` (facts, charges, the penalty or decision, canonical
articles).

``read_case_docs`` takes a folder of ``.json`` / ``.jsonl`` files and documents (in subfolders or not) or one
``.jsonl`` export; a document's text (:mod:`jiancha._util.documents`: UTF-8 or GB18030, a PDF's page-wrapped
lines joined) is split into facts, reasoning and verdict (:mod:`jiancha.law.judgment`). A file that cannot be
read (a JSON file that is not JSON, a .txt in neither UTF-8 nor GB18030) or holds no case (empty, a JSON value
without a text field, an encrypted or Word 6/95 document, a PDF without a text layer) is skipped and listed in a
:class:`SourceReport` with what to save it as: one bad file of thousands does not stop an index. A ``.jsonl``
export's malformed line still raises DataError naming its line, as the export is one file. :func:`fold_duplicates`
keeps one of identical copies.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from jiancha._util.documents import (
    DOCUMENT_SUFFIXES,
    DocumentText,
    UnreadableDocument,
    join_full_lines,
    read_document_text,
)
from jiancha.errors import ConfigError, DataError
from jiancha.law.phrases import COURT_CASE_NUMBER_RE


@dataclass(frozen=True)
class CaseDoc:
    """One judgment or decision of a collection: ``decision`` is the sentence or the prosecution decision."""

    id: str
    fact: str
    charges: tuple[str, ...] = ()
    decision: str = ""
    articles: tuple[str, ...] = ()
    also: tuple[str, ...] = ()      # ids of identical copies folded into this one when indexed
    case_number: str = ""           # the court's, as its header prints it (（2021）浙0106刑初345号), '' when none
    accused: tuple[str, ...] = ()   # where the court finds no charge (an acquittal): those the prosecution brought

    @property
    def about(self) -> tuple[str, ...]:
        """The charges the case is about: those found, else those accused (an acquittal of 故意伤害罪 is a precedent
        for a 故意伤害 case)."""
        return self.charges or self.accused


def finder():
    """The charge finder of case retrieval (:func:`~jiancha.retrieval.charge.find_case_charges`)."""
    from jiancha.retrieval.charge import find_case_charges

    return find_case_charges


def criminal_law_article(number: int) -> str:
    """The canonical citation of Criminal Law article ``number``: ``cl:第二百六十四条``."""
    from jiancha.law.articles import ArticleRef, Law

    return ArticleRef(Law.CRIMINAL_LAW, number).canonical()


def cited_criminal_law(texts) -> tuple[str, ...]:
    """The Criminal Law provisions ``texts`` cite, canonical (条之N and 款 kept: 第一百三十三条之一 is another
    article than 第一百三十三条), in order of first citation, without repeats."""
    from jiancha.law.articles import Law, parse_articles

    out: dict[str, None] = {}
    for t in texts:
        if t:
            out.update((r.canonical(), None) for r in parse_articles(t) if Law(r.law) is Law.CRIMINAL_LAW)
    return tuple(out)


def _from_candidate(obj: dict, doc_id: str) -> CaseDoc:
    from jiancha.law.verdicts import UPHELD, describe_verdict
    from jiancha.retrieval.charge import document_charges, find_case_charges, named_charges

    fact = str(obj.get("ajjbqk") or obj.get("fact") or "")
    reason = str(obj.get("cpfxgc") or obj.get("reason") or "")
    result = str(obj.get("pjjg") or obj.get("result") or "")
    given = tuple(str(c) for c in obj.get("charge") or ())
    # charges named as such (…罪), not acts (参与赌博) or the titles and prior convictions the reasoning cites
    charges = document_charges((result, reason, fact), given, named_charges, extra=(reason,))
    # an acquittal: the charges the prosecution brought, in the header's 公诉机关指控… or the facts
    accused = () if charges else document_charges((result, reason, fact, str(obj.get("header") or "")), given,
                                                  find_case_charges)
    numbers = [int(a) for a in obj.get("article") or () if str(a).strip().isdigit()]
    articles = (tuple(criminal_law_article(a) for a in numbers) if numbers
                else cited_criminal_law((reason, result)))
    context = f"{obj.get('header', '')}\n{fact}"
    decision = describe_verdict(result, context=context)
    if not articles and UPHELD in decision:   # a ruling that upholds cites the procedure law; the judgment it
        articles = cited_criminal_law((context,))   # upholds, quoted in its facts, cites the Criminal Law
    head = str(obj.get("header") or obj.get("qw") or "")[:400]
    number = COURT_CASE_NUMBER_RE.search(head.replace(" ", ""))
    return CaseDoc(doc_id, fact or str(obj.get("qw") or ""), charges, decision, articles,
                   case_number=number.group(0) if number else "", accused=accused)


@dataclass
class SourceReport:
    """What reading a source left out or read differently: (path, why) of each skipped file, and the files decoded
    as GB18030 rather than UTF-8."""

    skipped: list[tuple[str, str]] = field(default_factory=list)
    gb18030: list[str] = field(default_factory=list)

    def lines(self, shown: int = 5) -> list[str]:
        """Warnings for the user, one line each (the first ``shown`` skipped files named)."""
        out = []
        if self.skipped:
            named = "; ".join(f"{p} ({why})" for p, why in self.skipped[:shown])
            more = f"; and {len(self.skipped) - shown} more" if len(self.skipped) > shown else ""
            out.append(f"skipped {len(self.skipped)} files: {named}{more}")
        if self.gb18030:
            out.append(f"read {len(self.gb18030)} files as GB18030 (not UTF-8): {', '.join(self.gb18030[:shown])}"
                       + (" …" if len(self.gb18030) > shown else ""))
        return out


#: Suffixes of the files read: JSON documents and exports, and documents (:mod:`jiancha._util.documents`).
_READ_SUFFIXES: tuple[str, ...] = (".json", ".jsonl", *DOCUMENT_SUFFIXES)
#: Fields of a JSON document that hold a case's facts or its full text (LeCaRD v1 names first).
_TEXT_FIELDS: tuple[str, ...] = ("ajjbqk", "fact", "qw", "cpfxgc", "reason", "pjjg", "result")


def _read_jsonl(p: Path, find, seen: dict[str, str]) -> Iterator[CaseDoc]:
    """The documents of a ``.jsonl`` export; ``seen`` maps each id read so far to where it was read, and an id
    read twice is an error (two documents under one id would be one result and one judged document)."""
    from jiancha.law.articles import normalize_article_string
    from jiancha.retrieval.charge import document_charges

    for lineno, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            o = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(f"not JSON ({e})", path=str(p), line=lineno) from None
        fact = o.get("fact") if isinstance(o, dict) else None
        if not isinstance(fact, str):
            raise DataError("expected a JSON object whose 'fact' is the case's facts as text"
                            + ("" if isinstance(o, dict) else f", not a JSON {type(o).__name__}"),
                            path=str(p), line=lineno, field="fact")
        doc_id = str(o.get("id", lineno))
        if doc_id in seen:
            raise DataError(f"id {doc_id!r} is also that of {seen[doc_id]}; give each document its own id",
                            path=str(p), line=lineno, field="id")
        seen[doc_id] = f"{p} line {lineno}"
        given = tuple(o.get("charges") or ())
        charges = document_charges((f"{o.get('procedure', '')}\n{fact}",), given, find)
        yield CaseDoc(doc_id, fact, charges, str(o.get("decision", "")),
                      tuple(normalize_article_string(str(a)) or str(a) for a in o.get("relevant_articles") or ()))


def judgment_text(f: Path) -> DocumentText:
    """The text of the court document at ``f`` (a PDF's page-wrapped lines joined, so that 本院认 | 为 reads
    本院认为); UnreadableDocument for a format without readable text."""
    doc = read_document_text(f)
    return replace(doc, text=join_full_lines(doc.text)) if doc.kind == "pdf" else doc


def _read_document(f: Path, doc_id: str, report: SourceReport) -> CaseDoc | None:
    """A court document as text, HTML, .docx or PDF (:func:`judgment_text`), split into facts, reasoning and
    verdict (:mod:`jiancha.law.judgment`)."""
    from jiancha.law.judgment import split_judgment

    try:
        doc = judgment_text(f)
    except UnreadableDocument as exc:
        report.skipped.append((str(f), exc.message))
        return None
    except DataError as exc:   # text in neither UTF-8 nor GB18030: one file of many, not a reason to stop
        report.skipped.append((str(f), f"{exc.message}; save it as UTF-8"))
        return None
    text = doc.text
    if not text.strip():
        report.skipped.append((str(f), "empty"))
        return None
    if doc.encoding == "gb18030":
        report.gb18030.append(str(f))
    parts = split_judgment(text)
    return _from_candidate({"fact": parts.fact or text, "reason": parts.reason, "result": parts.result,
                            "header": parts.header}, doc_id)


def read_case_docs(src: str | os.PathLike, report: SourceReport | None = None) -> Iterator[CaseDoc]:
    """The documents of ``src`` (see the module docstring), in sorted path order: a ``.jsonl`` export, or a folder of
    ``.json`` files, documents and ``.jsonl`` exports (a case index folder inside it is left out); what is skipped
    is noted in ``report``."""
    report = report if report is not None else SourceReport()
    p = Path(src)
    find = finder()
    seen: dict[str, str] = {}
    if p.is_file() and p.suffix == ".jsonl":
        yield from _read_jsonl(p, find, seen)
        return
    if not p.exists():
        raise ConfigError(f"{p}: no such file or folder; give a folder of documents or a .jsonl file")
    if not p.is_dir():
        raise ConfigError(f"{p} is neither a folder of documents nor a .jsonl file; give one of those")
    indexes = {x.parent for x in p.rglob("index.json") if (x.parent / "docs.jsonl").is_file()}
    if p in indexes:
        raise ConfigError(f"{p} is a case index, not a folder of documents; give the folder it was built from")
    report.skipped += [(str(i), "a case index folder") for i in sorted(indexes)]
    files = []
    for x in sorted(p.rglob("*")):
        if not x.is_file() or any(i == x.parent or i in x.parents for i in indexes):
            continue
        if x.suffix.lower() in _READ_SUFFIXES:
            files.append(x)
    if not files:
        raise ConfigError(f"{p} holds no documents ({', '.join(_READ_SUFFIXES)})")
    ids = {f: f.stem if f.parent == p else f"{f.parent.name}/{f.stem}" for f in files if f.suffix.lower() != ".jsonl"}
    for f, doc_id in ids.items():   # before reading any: a clash found after minutes of reading would waste them
        if doc_id in seen:
            raise DataError(f"id {doc_id!r} is also that of {seen[doc_id]} (an id is the file's name without its "
                            "suffix, after its folder's name below the top); rename one, or keep one copy of each "
                            "judgment", path=str(f))
        seen[doc_id] = str(f)
    for f in files:
        doc_id = ids.get(f, "")
        suffix = f.suffix.lower()
        if suffix == ".jsonl":
            yield from _read_jsonl(f, find, seen)
        elif suffix != ".json":
            doc = _read_document(f, doc_id, report)
            if doc is not None:
                yield doc
        else:
            try:
                obj = json.loads(f.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                report.skipped.append((str(f), f"not a JSON document ({e})"))
                continue
            if not isinstance(obj, dict):
                report.skipped.append((str(f), f"a JSON {type(obj).__name__}, not an object"))
            elif not any(str(obj.get(k) or "").strip() for k in _TEXT_FIELDS):
                report.skipped.append((str(f), f"no text in any of {', '.join(_TEXT_FIELDS)}"))
            else:
                yield _from_candidate(obj, doc_id)


def fold_duplicates(docs: Iterable[CaseDoc]) -> list[CaseDoc]:
    """One document per distinct content (facts, charges, decision, articles), the first in order, with the ids of
    the later identical copies in ``also``: a collection gathered per query (LeCaRD v1's pools) holds the same
    judgment under several ids, and each copy would take a place in the results.

    >>> a, b, c = CaseDoc("1/7", "盗窃手机"), CaseDoc("2/7", "盗窃手机"), CaseDoc("3", "抢劫")
    >>> [(d.id, d.also) for d in fold_duplicates([a, b, c])]
    [('1/7', ('2/7',)), ('3', ())]
    """
    first: dict[tuple, int] = {}
    out: list[CaseDoc] = []
    for d in docs:
        key = (d.fact, d.charges, d.decision, d.articles)
        if key in first:
            i = first[key]
            out[i] = replace(out[i], also=out[i].also + (d.id,))
        else:
            first[key] = len(out)
            out.append(d)
    return out
