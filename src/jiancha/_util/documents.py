"""The text of a document file, whatever it was saved as: plain text (UTF-8 or GB18030), an HTML page, a Word
.docx, a Word 97–2003 binary ``.doc`` (and a WPS file in that format; :mod:`jiancha._util.word97`), RTF
(:mod:`jiancha._util.rtf`), a PDF's text layer, and a ``.doc`` that is really HTML or text (court and
procuratorate sites often serve those under that name). Formats only: no legal knowledge, which the readers of
``corpus`` and ``retrieval`` add on top.

``read_document_text`` reads one file by its content (the suffix only decides between equally plausible ones)
and says what it read; a file it cannot read (a scanned PDF without a text layer, an encrypted or Word 6/95
document, a WPS file in Kingsoft's own format) raises :class:`UnreadableDocument` with what to do instead.
"""

from __future__ import annotations

import io
import logging
import re
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

from jiancha._util.io import decode_chinese_text
from jiancha._util.rtf import rtf_text
from jiancha._util.word97 import WordBinaryError, word97_text
from jiancha.errors import DataError

#: Suffixes of document files.
DOCUMENT_SUFFIXES: tuple[str, ...] = (".txt", ".html", ".htm", ".pdf", ".docx", ".doc", ".wps", ".rtf")

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"   # Word 97–2003 .doc, WPS, old Excel: a compound file
_ZIP = b"PK\x03\x04"
_IMAGES = ((b"\xff\xd8\xff", "JPEG"), (b"\x89PNG\r\n", "PNG"), (b"GIF8", "GIF"), (b"II*\x00", "TIFF"),
           (b"MM\x00*", "TIFF"))
_HTML_START = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|div|p|"
                         rb"table|span|title)\b", re.IGNORECASE | re.DOTALL)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"

_BLOCK_TAGS = frozenset({"p", "div", "br", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "table",
                         "ul", "ol", "section", "article", "header", "footer", "center", "pre", "blockquote"})
_SKIP_TAGS = frozenset({"script", "style", "head", "title", "noscript"})


#: Why a file cannot be read, for a reader that words it in its own language.
UNREADABLE_KINDS = ("empty", "image", "scan", "encrypted", "old", "damaged", "unknown")


class UnreadableDocument(DataError):
    """A file in a format that holds no text this module can read; the message says what to save it as, ``kind``
    (one of :data:`UNREADABLE_KINDS`) why."""

    def __init__(self, message: str, *, path: str | None = None, kind: str = "unknown") -> None:
        super().__init__(message, path=path)
        self.kind = kind


@dataclass(frozen=True)
class DocumentText:
    """A file's text and how it was read: ``kind`` txt / html / docx / doc / rtf / pdf, ``encoding`` of a text or HTML file
    ('' for the others), ``url`` the canonical address an HTML page names ('' when none)."""

    text: str
    kind: str
    encoding: str = ""
    url: str = ""
    pages: tuple[str, ...] = ()     # a PDF's text page by page (``text`` joins them)


class _TextExtractor(HTMLParser):
    """HTML → text with one line per block element; script/style/head skipped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.url = ""
        self._skip = 0
        self._pre = 0   # inside <pre>, a line break is a line break

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "link" and (a.get("rel") or "").lower() == "canonical" and a.get("href"):
            self.url = self.url or a["href"]
        elif tag == "meta" and a.get("property") == "og:url" and a.get("content"):
            self.url = self.url or a["content"]
        if tag in _SKIP_TAGS:
            self._skip += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")
        if tag == "pre":
            self._pre += 1

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")
        if tag == "pre":
            self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data if self._pre else data.replace("\n", " "))


def parse_html(html: str) -> tuple[str, str]:
    """(visible text with one block element per line, canonical URL from <link rel=canonical> or og:url)."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts), parser.url


def html_to_text(html: str) -> str:
    """Visible text of an HTML page, one block element per line.

    >>> html_to_text("<html><head><title>x</title></head><body><p>本院认为，</p><p>判决如下：</p></body></html>")
    '\\n本院认为，\\n\\n判决如下：\\n'
    """
    return parse_html(html)[0]


def docx_text(data: bytes, path: str | Path = "") -> str:
    """The paragraphs of a Word .docx (``word/document.xml``), one per line; tabs and line breaks inside a
    paragraph kept; a table row as one line, its cells separated by tabs (a cell's paragraphs by spaces)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            xml = z.read("word/document.xml")
        root = ElementTree.fromstring(xml)
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as exc:
        raise UnreadableDocument(f"not a readable Word .docx ({exc}); save it again as .docx or .txt",
                                 path=str(path), kind="damaged") from None
    body = root.find(f"{_W}body")
    return "\n".join(_docx_blocks(body if body is not None else root))


def _docx_paragraph(para: ElementTree.Element) -> str:
    parts = []
    for el in para.iter():
        if el.tag == f"{_W}t" and el.text:
            parts.append(el.text)
        elif el.tag == f"{_W}tab":
            parts.append("\t")
        elif el.tag in (f"{_W}br", f"{_W}cr"):
            parts.append("\n")
    return "".join(parts)


def _docx_blocks(parent: ElementTree.Element) -> list[str]:
    """Lines of the paragraphs and tables directly under ``parent`` (content controls opened)."""
    lines: list[str] = []
    for el in parent:
        if el.tag == f"{_W}p":
            lines.append(_docx_paragraph(el))
        elif el.tag == f"{_W}tbl":
            for row in el.iter(f"{_W}tr"):
                cells = [" ".join(filter(None, (ln.strip() for ln in _docx_blocks(tc)))) for tc in row.findall(f"{_W}tc")]
                lines.append("\t".join(cells))
        elif el.tag in (f"{_W}sdt", f"{_W}sdtContent", f"{_W}customXml", f"{_W}ins", f"{_W}smartTag"):
            lines.extend(_docx_blocks(el))
    return lines


def pdf_pages(source: str | Path | bytes, path: str | Path = "") -> list[str]:
    """The text layer of each page of a PDF (pypdf), lines as the PDF lays them out; ``source`` is the file or
    its bytes (``path`` then names it in errors)."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    if not isinstance(source, bytes):
        path = source
    # pypdf logs what it repairs (EOF marker not found …); the error below says what matters, in one line
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(source) if isinstance(source, bytes) else str(source))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, OSError, ValueError) as exc:
        raise UnreadableDocument(f"unreadable PDF ({exc}); expected a PDF with a text layer", path=str(path),
                                 kind="damaged") from None
    if not any(p.strip() for p in pages):
        raise UnreadableDocument("a PDF without a text layer (a scan?); run OCR on it or save it as .txt",
                                 path=str(path), kind="scan")
    return pages


def wrap_width(lines: list[str], share: float = 0.4, fewest: int = 8) -> int | None:
    """The width a text is wrapped at (a PDF's text layer; typed paragraphs vary in length): the most common
    length of its lines of ten characters or more, when at least ``share`` of them are within one character of it
    and hardly any is much longer (a line of half-width digits holds more characters), and there are at least
    ``fewest`` such lines; else None.

    >>> wrap_width(["一" * 34] * 7 + ["二" * 12, "三" * 33])
    34
    >>> wrap_width(["一" * n for n in (11, 10, 139, 55, 10, 196, 167, 99, 11, 10)]) is None
    True
    """
    lengths = [len(ln) for ln in lines if len(ln) >= 10]
    if len(lengths) < fewest:
        return None
    mode = max(set(lengths), key=lambda n: (sum(abs(k - n) <= 1 for k in lengths), n))
    near = sum(abs(k - mode) <= 1 for k in lengths)
    over = sum(k > mode * 1.25 for k in lengths)
    return mode if near >= share * len(lengths) and over <= 0.1 * len(lengths) else None


def join_full_lines(text: str) -> str:
    """``text`` with each line that fills its wrap width (:func:`wrap_width`) joined to the next: the page, not
    the writer, broke it. A text not wrapped at a fixed width is returned unchanged.

    >>> page = ["甲" * 20] * 7 + ["乙" * 17 + "本院认", "为，判决如下：", "审判长王某"]
    >>> [line[-11:] for line in join_full_lines("\\n".join(page)).splitlines()]
    ['乙本院认为，判决如下：', '审判长王某']
    """
    lines = [ln.strip() for ln in text.splitlines()]
    width = wrap_width(lines)
    if width is None:
        return text
    out: list[str] = []
    joined = False
    for line in lines:
        if joined and out:
            out[-1] += line
        else:
            out.append(line)
        joined = len(line) >= width - 1
    return "\n".join(out)


def _looks_like_html(data: bytes) -> bool:
    return _HTML_START.match(data[:4096]) is not None


def read_document_text(path: str | Path) -> DocumentText:
    """The text of the file at ``path`` (see the module docstring). Raises :class:`UnreadableDocument` for a
    format that holds no readable text, DataError for a .txt or .html file in neither UTF-8 nor GB18030."""
    p = Path(path)
    return read_document_bytes(p.read_bytes(), p)


def read_document_bytes(data: bytes, name: str | Path) -> DocumentText:
    """``read_document_text`` of a file's bytes (an upload); ``name`` is its file name, whose suffix decides
    between equally plausible formats and which errors name."""
    p = str(name)
    suffix = Path(p).suffix.lower()
    if not data.strip():
        raise UnreadableDocument("an empty file", path=p, kind="empty")
    image = next((kind for magic, kind in _IMAGES if data.startswith(magic)), None)
    if image:
        raise UnreadableDocument(f"a {image} image, not a document (a scan?); run OCR on it or save the text as .txt",
                                 path=p, kind="image")
    if data.startswith(_OLE2):
        try:
            return DocumentText(word97_text(data), "doc")
        except WordBinaryError as exc:
            what = "a WPS file" if suffix == ".wps" else "a Word file"
            raise UnreadableDocument(f"{what}: {exc.message}; save it as .docx or .txt (UTF-8 or GB18030) to read it",
                                     path=p, kind=exc.kind) from None
    if data.lstrip().startswith(b"{\\rtf"):
        return DocumentText(rtf_text(data), "rtf")
    if data.startswith(b"%PDF"):
        pages = tuple(pdf_pages(data, p))
        return DocumentText("\n".join(pages), "pdf", pages=pages)
    if data.startswith(_ZIP):
        return DocumentText(docx_text(data, p), "docx")
    if suffix in (".pdf", ".docx"):
        raise UnreadableDocument(f"not a {suffix} file inside (it starts {data[:8]!r}); save it again", path=p,
                                 kind="damaged")
    try:
        text, enc = decode_chinese_text(data, p)
    except DataError:
        if suffix in (".txt", ".html", ".htm"):
            raise
        raise UnreadableDocument(f"no document format this reader knows (Word .docx / .doc, RTF, PDF, HTML, text; "
                                 f"it starts {data[:8]!r}); save it as .docx or .txt (UTF-8 or GB18030) to read it",
                                 path=p) from None
    if suffix in (".html", ".htm") or _looks_like_html(data.removeprefix(b"\xef\xbb\xbf")):
        body, url = parse_html(text)
        return DocumentText(body, "html", enc, url)
    return DocumentText(text, "txt", enc)
