"""Stage 1, collection format: read .txt / .html / .pdf / .docx documents (:mod:`jiancha._util.documents`), keep
the document body, type and dedupe.

A raw page from a procuratorate website carries navigation, banners (来源 / 发布时间 / 责任编辑 / 浏览次数 /
打印本页 …) and the document. ``read_document`` keeps the body from the procuratorate header (or the title)
to the signature date, with one paragraph per line (lines wrapped by a page, a ``<br>`` or a scan joined back),
full-width digits normalised and page furniture dropped, or a Rejection saying why a text is not a
起诉书 / 不起诉决定书; ``list_documents`` lists a folder. Duplicates by case number are rejected by
``jiancha.corpus.outcomes.DuplicateFilter``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jiancha._util.documents import DOCUMENT_SUFFIXES, DocumentText, pdf_pages, read_document_text, wrap_width
from jiancha.corpus.text import is_date_line, normalize_case_number, normalize_line
from jiancha.errors import DataError
from jiancha.law.phrases import (
    CASE_NUMBER_LABEL_RE,
    CASE_NUMBER_RE,
    COUNSEL_LINE_RE,
    FACT_LEAD_IN_RE,
    INDICTMENT_KINDS,
    LIST_ITEM_START_RE,
    OTHER_DOCUMENT_TITLES,
    PAGE_FURNITURE_RE,
    PAGE_MARK_INLINE_RE,
    PAGE_NUMBER_INLINE_RE,
    PAGE_NUMBER_LINE_RE,
    PROCURATORATE,
    PROCURATORATE_NAME_RE,
    PROSECUTORIAL_TITLES,
    REASONING_END_RE,
    REASONING_START_RE,
    REPRESENTATIVE_HEADER_RE,
    SECTION_HEADING_RE,
    SIGNATURE_THEN_DATE_RE,
    SUSPECT_HEADER_RE,
)

#: File suffixes read by ``list_documents``.
SUFFIXES: tuple[str, ...] = DOCUMENT_SUFFIXES

#: Website furniture: source, publication time, editor, views, print/close links, breadcrumbs, copyright.
BANNER_RE = re.compile(
    r"^(?:信息)?来源[：:]|发布(?:时间|日期)[：:]|责任编辑[：:]|浏览(?:次数|量)[：:]|点击(?:数|量|次数)[：:]|"
    r"打印本页|关闭窗口|当前位置[：:]|您现在的位置|^首页|字体[：:]|版权所有|备案号|^作者[：:]|^编辑[：:]"
)
_PDF_BREAK_AFTER = tuple("。：:；;！？」”")
#: Endings no paragraph has (a comma, an opening bracket, a function word: ``…法定代理人吴国梁，系``): the next line
#: continues it even when it looks like a paragraph's opening (``被不起诉人吴某某之父。``).
_CONTINUES = tuple("，,、（(“《系的于在与和及对向将被把为是从即之第")
#: Longest running header (``深圳市人民检察院起诉书 深检刑诉〔2021〕207号``).
RUNNING_HEADER_MAX = 60
#: Openings of a paragraph: list items and the sections of a decision.
_PARAGRAPH_OPENINGS = (LIST_ITEM_START_RE, SUSPECT_HEADER_RE, REPRESENTATIVE_HEADER_RE, COUNSEL_LINE_RE,
                       re.compile(r"^本案(?:由|系|经|于)"), FACT_LEAD_IN_RE, REASONING_START_RE, REASONING_END_RE)
#: A court's name (the header of a judgment, which is rejected by its title).
_COURT_NAME_RE = re.compile(r"^[\u4e00-\u9fff]{2,40}人民法院$")


@dataclass(frozen=True)
class RawDocument:
    """A document body: ``lines`` are its paragraphs, ``title_index`` the line of the title."""

    path: str
    doc_type: str                # a PROSECUTORIAL_TITLES value
    title: str
    case_number: str | None      # normalised
    lines: tuple[str, ...]
    title_index: int
    source_url: str = ""


@dataclass(frozen=True)
class Rejection:
    """A document or record left out, and why (``stage``: ingest / extract / check)."""

    path: str
    reason: str
    stage: str = "ingest"
    case_number: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"path": self.path, "stage": self.stage, "reason": self.reason, "case_number": self.case_number}


def pdf_to_text(path: str | Path) -> str:
    """Text layer of a PDF, with lines wrapped by the page width joined back into paragraphs."""
    return _pdf_paragraphs(pdf_pages(path))


def _pdf_paragraphs(pages: list[str] | tuple[str, ...]) -> str:
    lines: list[str] = []
    for page in pages:
        kept = _without_page_number([normalize_line(x) for x in page.splitlines()])
        # the page's running header, where the page break cut a sentence (…第十五条的规 / 某某县人民检察院 / 定，…)
        if kept and lines and not lines[-1].endswith(_PDF_BREAK_AFTER) and not _is_short_heading(lines[-1]) \
                and _is_running_header(kept[0].replace(" ", "")):
            kept = kept[1:]
        lines.extend(kept)
    return "\n".join(join_wrapped(drop_furniture(lines, bare_numbers=False)))


def _without_page_number(lines: list[str], edge: int = 3) -> list[str]:
    """A page's lines without its page number: ``- 3 -`` anywhere, a bare ``3`` among its first or last ``edge``
    lines (elsewhere a bare number is text: a table cell, ``200`` / ``个``)."""
    kept = [ln for ln in lines if ln]
    near_edge = set(range(min(edge, len(kept)))) | set(range(max(0, len(kept) - edge), len(kept)))
    return [ln for i, ln in enumerate(kept) if not (PAGE_NUMBER_LINE_RE.fullmatch(ln) and (
        i in near_edge or not ln[0].isdigit() or not ln[-1].isdigit()))]


def drop_furniture(lines: list[str], bare_numbers: bool = True) -> list[str]:
    """``lines`` without page furniture: page numbers, rules and seal marks (``PAGE_FURNITURE_RE``), numbered
    section headings (``SECTION_HEADING_RE``: ``三、侦查机关认定的事实``, which would run into the next line), and
    running headers: the second and later printings of a short line naming a procuratorate or a case number (a bare
    procuratorate line is left to the segmentation: the signature repeats it), and any heading line (the title,
    with the procuratorate or the case number) inside the body, i.e. after the first suspect's paragraph (a web
    page's own heading may come before the document's), and a procuratorate, title or case-number line right after
    a page mark that cut a sentence (the next page's header). ``bare_numbers=False`` keeps a line that is only a
    number (a PDF's pages have had their page numbers taken off their edges; elsewhere such a line is a table cell). Dropped before wrapped lines are joined, so that a
    sentence a page break cuts (``…第十六条第`` / header / ``（四）项…``) joins up again."""
    keys = [ln.replace(" ", "") for ln in lines]
    counts = Counter(keys)
    seen: set[str] = set()
    out: list[str] = []
    titled = in_body = False
    mid_sentence_break = False    # a page mark just passed while a sentence was still open
    for line, key in zip(lines, keys, strict=True):
        if not key:
            continue
        if (PAGE_FURNITURE_RE.match(key) and (bare_numbers or not PAGE_NUMBER_LINE_RE.fullmatch(key))) \
                or _is_page_footer(key):
            # a page number alone, or a footer naming the page (not a web page's date line, 2019-12-06)
            page_mark = PAGE_NUMBER_INLINE_RE.fullmatch(key) is not None or ("页" in key and _is_page_footer(key))
            mid_sentence_break = page_mark and bool(out) and not out[-1].rstrip().endswith(_PDF_BREAK_AFTER) \
                and not _is_short_heading(out[-1])
            continue
        if SECTION_HEADING_RE.match(key):
            continue
        if mid_sentence_break and _is_running_header(key):
            continue    # the next page's running header, printed inside the sentence the page break cut
        mid_sentence_break = False
        heading = len(key) <= RUNNING_HEADER_MAX and _title_of(key) is not None
        # the case number right under the title is the document's own, even when a web page's metadata printed
        # it before
        own_number = bool(out) and _title_of(out[-1].replace(" ", "")) is not None and not in_body \
            and CASE_NUMBER_RE.fullmatch(key) is not None
        running = (counts[key] > 1 and key in seen and len(key) <= RUNNING_HEADER_MAX and not own_number
                   and not PROCURATORATE_NAME_RE.match(key) and key not in PROSECUTORIAL_TITLES
                   and (PROCURATORATE in key or CASE_NUMBER_RE.search(key))) or (heading and in_body)
        titled = titled or heading
        in_body = in_body or (titled and SUSPECT_HEADER_RE.match(key) is not None)
        seen.add(key)
        if not running:   # the first printing of a header line is the document's own heading
            out.append(PAGE_MARK_INLINE_RE.sub("", line))
    return out


def _is_running_header(key: str) -> bool:
    """A line a page may print at its top: a procuratorate's name, a title or a case number, short."""
    return len(key) <= RUNNING_HEADER_MAX and bool(
        PROCURATORATE_NAME_RE.match(key) or _title_of(key) is not None or CASE_NUMBER_RE.fullmatch(key))


def _is_page_footer(key: str) -> bool:
    """A running header or footer that carries a page mark (``某县人民检察院 第 1 页 共 2 页``): a page mark
    besides a procuratorate's name, a title or a case number and nothing else. Dropped whole, so that the name
    does not split the sentence or date the page break cuts (``2016年6`` / footer / ``月28日``)."""
    rest = PAGE_NUMBER_INLINE_RE.sub("", key)
    if rest == key or len(rest) > RUNNING_HEADER_MAX:
        return False
    return (PROCURATORATE in rest or _title_of(rest) is not None or CASE_NUMBER_RE.fullmatch(rest) is not None
            or rest.endswith(tuple(PROSECUTORIAL_TITLES)))   # 渝检一分院不起诉决定书 第 1 页 共 2 页


def join_wrapped(lines: list[str]) -> list[str]:
    """Lines wrapped by a page width, a ``<br>`` or a scan joined back into paragraphs: a line that does not end a
    sentence continues on the next, unless that one starts a paragraph (a heading, a list item, a section
    opening such as 本案由 / 本院认为 / 犯罪嫌疑人…) and the line before could end one (``_CONTINUES``). Where the
    text is wrapped at a fixed width (:func:`jiancha._util.documents.wrap_width`), a line that fills it continues
    whatever the next one starts with (``…听取了`` / ``辩护人的意见，…``). A line with a tab (a table row) is
    never joined."""
    width = wrap_width(lines)
    out: list[str] = []
    last = ""   # the line read before this one (a paragraph in ``out`` may be several lines)
    for line in lines:
        if not line:
            continue
        prev = out[-1] if out else ""
        full = width is not None and len(last) >= width - 1 and not _is_short_heading(line)
        # a table row (cells separated by tabs) is a line of its own, never a wrapped one
        wrapped = prev and "\t" not in prev + line and not prev.endswith(_PDF_BREAK_AFTER) \
            and not _is_short_heading(prev) and (
            full or not _starts_paragraph(line) or (prev.endswith(_CONTINUES) and not _is_short_heading(line)))
        if wrapped:
            out[-1] = prev + line
        else:
            out.append(line)
        last = line
    return out


def _is_short_heading(line: str) -> bool:
    s = line.replace(" ", "")
    return (s in PROSECUTORIAL_TITLES or s in OTHER_DOCUMENT_TITLES or bool(PROCURATORATE_NAME_RE.match(s))
            or (len(s) <= RUNNING_HEADER_MAX and _title_of(s) is not None)
            or bool(_COURT_NAME_RE.match(s)) or is_date_line(s) or normalize_case_number(s) == s)


def _starts_paragraph(line: str) -> bool:
    s = line.replace(" ", "")
    return _is_short_heading(s) or any(p.match(s) for p in _PARAGRAPH_OPENINGS) or BANNER_RE.search(s) is not None


def read_text(path: str | Path) -> str:
    """The text of one file (:func:`jiancha._util.documents.read_document_text`; a PDF's wrapped lines joined)."""
    return read_text_and_url(path)[0]


def read_text_and_url(path: str | Path) -> tuple[str, str]:
    """``read_text`` and the page's canonical URL ('' when the file does not say)."""
    doc = read_document_text(path)
    return paragraphs(doc), doc.url


def paragraphs(doc: DocumentText) -> str:
    """A document's text with one paragraph per line (a PDF's page-wrapped lines joined, its furniture dropped)."""
    return _pdf_paragraphs(doc.pages or (doc.text,)) if doc.kind == "pdf" else doc.text


def _title_of(line: str) -> str | None:
    """The title a heading line holds: the bare title or the procuratorate's name and the title, either of them
    followed on the same line by the case number (``不起诉决定书　某检刑不诉〔2020〕58号``)."""
    found = _title_and_case_number(line)
    return found[0] if found else None


def _title_and_case_number(line: str) -> tuple[str, str | None] | None:
    """(title, normalised case number printed after it on the line, or None) of a heading line, else None."""
    if "书" not in line:   # every title ends in 书: most lines are rejected here, cheaply
        return None
    s = line.replace(" ", "")
    if len(s) > RUNNING_HEADER_MAX:
        return None
    for title in PROSECUTORIAL_TITLES:
        at = s.find(title)
        if at < 0:
            continue
        head, rest = s[:at], s[at + len(title):]
        if PROSECUTORIAL_TITLES[title] == "indictment":
            head = next((head.removesuffix(k) for k in INDICTMENT_KINDS if head.endswith(k)), head)
        if head and not PROCURATORATE_NAME_RE.match(head):
            continue
        if not rest:
            return title, None
        rest = rest.removeprefix("（").removeprefix("(").removesuffix("）").removesuffix(")")
        if CASE_NUMBER_RE.fullmatch(rest):
            return title, normalize_case_number(rest)
    return None


def _other_title(lines: list[str]) -> str | None:
    for line in lines[:15]:
        s = line.replace(" ", "")
        for title in OTHER_DOCUMENT_TITLES:
            if s == title or s.endswith(title) and len(s) <= len(title) + 30 and "人民" in s:
                return title
    return None


def _title_line(lines: list[str]) -> int | None:
    """Index of the document's heading: of the heading lines before the first suspect's paragraph, the last (a
    web page may print its own heading, 不起诉决定书（某检…号）, above the document's); None without one."""
    titles = [i for i, ln in enumerate(lines) if _title_of(ln)]
    if not titles:
        return None
    first_person = next((i for i in range(titles[0], len(lines)) if SUSPECT_HEADER_RE.match(lines[i])), None)
    return titles[0] if first_person is None else max(i for i in titles if i < first_person)


def parse_document(text: str, path: str = "<text>", source_url: str = "") -> RawDocument | Rejection:
    """Find the document body in ``text`` and type it; a Rejection says why when it is not a prosecutorial one."""
    raw = [normalize_line(ln) for ln in text.splitlines()]
    lines = document_lines(text)
    title_at = _title_line(lines)
    if title_at is None:
        other = _other_title(lines)
        if other:
            return Rejection(path, f"not a prosecutorial document: title {other} (expected 起诉书 or 不起诉决定书)")
        return Rejection(path, "no document title 起诉书 / 不起诉决定书 found; not a prosecutorial document")
    found = _title_and_case_number(lines[title_at])
    assert found is not None
    title, case_number = found
    start = title_at - 1 if title_at > 0 and PROCURATORATE_NAME_RE.match(lines[title_at - 1].replace(" ", "")) \
        else title_at
    date_lines = [i for i, ln in enumerate(lines) if i > title_at and is_date_line(ln)]
    end = date_lines[-1] + 1 if date_lines else len(lines)
    body = tuple(_drop_repeated_headers(lines[start:end], title_at - start))
    for ln in body[title_at - start + 1: title_at - start + 4] if case_number is None else ():
        case_number = normalize_case_number(ln)
        if case_number:
            break
    if case_number is None:
        case_number = _metadata_case_number(lines[:start]) or _number_opening_a_banner(raw, lines[title_at])
    if case_number is None and not date_lines and not any(SUSPECT_HEADER_RE.match(ln) for ln in body):
        # a page that only names the kind of document as its heading, a list of decisions or an index
        return Rejection(path, f"heading {title} with no case number, person or date under it; not a decision")
    return RawDocument(path=path, doc_type=PROSECUTORIAL_TITLES[title], title=title, case_number=case_number,
                       lines=body, title_index=title_at - start, source_url=source_url)


def document_lines(text: str) -> list[str]:
    """The paragraphs of a document's text: lines normalised, web banners and page furniture dropped, wrapped
    lines joined, a signature and date printed on one line split."""
    raw = [normalize_line(ln) for ln in text.splitlines()]
    lines = join_wrapped(drop_furniture([ln for ln in raw if ln and not BANNER_RE.search(ln)]))
    return [part for ln in lines for part in _split_signature_date(ln)]


def _split_signature_date(line: str) -> list[str]:
    """A signature line with the date run on (``代理检察员衣晓彤二〇一三年十二月九日``) as two lines, else the line.

    >>> _split_signature_date("代理检察员衣晓彤二〇一三年十二月九日")
    ['代理检察员衣晓彤', '二〇一三年十二月九日']
    """
    m = SIGNATURE_THEN_DATE_RE.match(line)
    return [m["sig"], m["date"]] if m and is_date_line(m["date"]) else [line]


def _number_opening_a_banner(raw: list[str], title: str) -> str | None:
    """The case number that opens a line of page furniture right after the title, which was dropped as a banner
    (``洪检一部刑不诉〔2023〕58号发布时间：2023-02-20 浏览次数：312``), or None."""
    at = next((k for k, ln in enumerate(raw) if ln == title), None)
    for ln in [ln for ln in raw[at + 1:] if ln][:2] if at is not None else ():
        s = ln.replace(" ", "").replace("\u3000", "")
        s = s[label.end():] if (label := CASE_NUMBER_LABEL_RE.match(s)) else s   # 文书编号：…号　　发布日期：…
        if (m := CASE_NUMBER_RE.match(s)) is not None:
            return normalize_case_number(m.group(0))
    return None


def _metadata_case_number(lines: list[str]) -> str | None:
    """The case number of a web page's metadata before the document (``文书编号：某检刑不诉〔2019〕8号``, the label
    and the number in one line or in two table cells), or None."""
    for k, ln in enumerate(lines):
        if (label := CASE_NUMBER_LABEL_RE.search(ln)) is not None:
            number = normalize_case_number(" ".join([ln[label.end():], *lines[k + 1: k + 2]]))
            if number:
                return number
    return None


def _drop_repeated_headers(body: list[str], title_index: int) -> list[str]:
    """``body`` without the running headers of a printed document: after the case number, a line that repeats
    the procuratorate, the title or the case number, or another heading line (procuratorate and title), is page
    furniture (the signature procuratorate is kept: it is the last such line and ends the text)."""
    head = {ln.replace(" ", "") for ln in body[: title_index + 2]}
    head |= {ln.replace(" ", "") for ln in body[title_index + 1:] if _title_of(ln)}   # 某市人民检察院不起诉决定书
    last_named = max((i for i, ln in enumerate(body) if PROCURATORATE_NAME_RE.match(ln.replace(" ", ""))), default=-1)
    return [ln for i, ln in enumerate(body)
            if i <= title_index + 1 or i == last_named or ln.replace(" ", "") not in head]


def read_document(path: str | Path) -> RawDocument | Rejection:
    """Read and parse one file; see ``parse_document``."""
    text, url = read_text_and_url(path)
    return parse_document(text, path=str(path), source_url=url)


def list_documents(input_dir: str | Path) -> list[Path]:
    """Document files under ``input_dir`` (recursive), sorted by path for a deterministic order; a single
    document file is a list of one."""
    root = Path(input_dir)
    if root.is_file():
        if root.suffix.lower() not in SUFFIXES:
            raise DataError(f"not a document file (suffix {root.suffix or 'none'}); pass a folder of documents or "
                            f"one file ending in {', '.join(SUFFIXES)}", path=str(root))
        return [root]
    if not root.is_dir():
        raise DataError(f"no such folder or file; pass a folder of documents or one file ending in "
                        f"{', '.join(SUFFIXES)}", path=str(root))
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
