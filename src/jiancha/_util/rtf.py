"""The visible text of an RTF document (Word, WPS and LibreOffice write them), one paragraph per line and one
table row per line with its cells separated by tabs.

RTF is groups ``{…}``, control words ``\\word`` with an optional signed number and one optional space, control
symbols ``\\x`` and text. Characters outside 7-bit ASCII come either as ``\\uN`` (a UTF-16 code unit, negative above
32767, followed by ``\\ucN`` fallback characters to skip, 1 unless set) or as ``\\'hh`` bytes in the code page of
the current font (its ``\\fcharset`` in the font table: 134 is GBK) or of the document (``\\ansicpg``); GBK needs
two bytes per character, so bytes are gathered and decoded together.

Groups that are not text are skipped: those opened by ``\\*`` (ignorable destinations, field instructions among
them, so a field shows its result ``\\fldrslt``), the font, colour, style and list tables, document information,
pictures, objects, headers, footers and footnotes; so are hidden text (``\\v``) and ``\\bin`` data.
"""

from __future__ import annotations

import re

from jiancha.errors import DataError

_TOKEN = re.compile(rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z])|([{}])|([\r\n]+)|([^\\{}\r\n]+)")

#: Destinations whose group holds no body text.
_SKIPPED = frozenset({
    "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "listtable", "listoverridetable", "revtbl",
    "rsidtbl", "generator", "xmlnstbl", "themedata", "colorschememapping", "latentstyles", "datastore", "header",
    "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf", "footnote", "annotation", "bkmkstart",
    "bkmkend", "fldinst", "pn", "pnseclvl", "shpinst", "nonshppict", "filetbl", "mmathPr", "userprops",
})
_BREAKS = {"par": "\n", "line": "\n", "sect": "\n", "page": "\n", "cell": "\t", "row": "\n", "nestcell": "\t",
           "nestrow": "\n", "tab": "\t",
           "emdash": "—", "endash": "–", "lquote": "‘", "rquote": "’", "ldblquote": "“", "rdblquote": "”",
           "bullet": "•", "emspace": "\u2003", "enspace": "\u2002"}
_SYMBOLS = {"~": "\u00a0", "_": "-", "-": "", "{": "{", "}": "}", "\\": "\\", "\n": "\n", "\r": "\n"}
_ROW_END_RE = re.compile(r"[ \t]*\t\n")
#: \fcharset → code page (the ones Chinese documents use, and their neighbours).
_CHARSETS = {0: 1252, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254, 177: 1255, 178: 1256,
             186: 1257, 204: 1251, 222: 874, 238: 1250}


class RtfError(DataError):
    """An RTF file this reader cannot take; the message says why."""


class _Group:
    """What a group inherits from the one around it: skipped, hidden text (``\\v``), \\uc count, font."""

    __slots__ = ("font", "hidden", "skip", "uc")

    def __init__(self, skip: bool = False, uc: int = 1, font: int | None = None, hidden: bool = False) -> None:
        self.skip, self.uc, self.font, self.hidden = skip, uc, font, hidden

    def copy(self) -> _Group:
        return _Group(self.skip, self.uc, self.font, self.hidden)


def _font_codepages(data: bytes) -> dict[int, int]:
    """Font number → code page, from the ``\\fcharset`` of each font table entry."""
    out: dict[int, int] = {}
    start = data.find(b"\\fonttbl")
    if start < 0:
        return out
    for m in re.finditer(rb"\\f(\d+)[^{}]*?\\fcharset(\d+)", data[start: start + 200_000]):
        font, charset = int(m.group(1)), int(m.group(2))
        if charset in _CHARSETS:
            out.setdefault(font, _CHARSETS[charset])
    return out


def rtf_text(data: bytes) -> str:
    """The visible text of the RTF document ``data`` (see the module docstring).

    >>> rtf_text(rb"{\\rtf1\\ansi\\ansicpg936{\\fonttbl{\\f0\\fcharset134 SimSun;}}\\f0 \\'b1\\'be\\b \\'d4\\'ba\\b0 "
    ...          rb"\\u35748?\\u20026?\\par{\\field{\\*\\fldinst PAGE}{\\fldrslt 1}}}")
    '本院认为\\n1'
    """
    if not data.lstrip().startswith(b"{\\rtf"):
        raise RtfError("not an RTF document (it does not start with {\\rtf)")
    m = re.search(rb"\\ansicpg(\d+)", data[:2000])
    default_cp = int(m.group(1)) if m else 1252
    fonts = _font_codepages(data)
    out: list[str] = []
    pending = bytearray()            # \'hh bytes not yet decoded
    pending_cp = default_cp
    stack: list[_Group] = []
    group = _Group()
    skip_chars = 0                   # fallback characters still to drop after a \uN

    def codepage() -> int:
        return fonts.get(group.font, default_cp) if group.font is not None else default_cp

    def flush() -> None:
        nonlocal pending
        if pending:
            out.append(bytes(pending).decode(f"cp{pending_cp}", errors="replace"))
            pending = bytearray()

    pos = 0
    while (tok := _TOKEN.match(data, pos)) is not None:
        pos = tok.end()
        word, num, hexbyte, symbol, brace, newline, text = tok.groups()
        if word == b"bin" and num:   # raw bytes (a picture's), which may hold any byte, braces too
            pos += int(num)
            continue
        if brace == b"{":
            flush()
            stack.append(group)
            group = group.copy()
            continue
        if brace == b"}":
            flush()
            group = stack.pop() if stack else _Group()
            skip_chars = 0
            continue
        if newline:
            continue
        if symbol == b"*":
            group.skip = True
            continue
        if group.skip:
            continue
        if word == b"v":
            group.hidden = num != b"0"
            continue
        if group.hidden:
            continue
        if word is not None:
            name = word.decode("ascii")
            if skip_chars and name != "u":
                skip_chars = 0
            if name in _SKIPPED:
                flush()
                group.skip = True
            elif name == "u":
                flush()
                out.append(chr(int(num) % 65536))
                skip_chars = group.uc
            elif name == "uc":
                group.uc = int(num or 1)
            elif name == "f" and num is not None:
                flush()
                group.font = int(num)
            elif name in _BREAKS:
                flush()
                out.append(_BREAKS[name])
            continue
        if hexbyte is not None:
            if skip_chars:
                skip_chars -= 1
                continue
            cp = codepage()
            if pending and cp != pending_cp:
                flush()
            pending_cp = cp
            pending.append(int(hexbyte, 16))
            continue
        flush()
        if symbol is not None:
            if skip_chars:
                skip_chars -= 1
                continue
            out.append(_SYMBOLS.get(symbol.decode("latin-1"), ""))
            continue
        chunk = text.decode(f"cp{codepage()}", errors="replace") if max(text) > 0x7F else text.decode("ascii")
        if skip_chars:
            dropped = min(skip_chars, len(chunk))
            chunk, skip_chars = chunk[dropped:], skip_chars - dropped
        out.append(chunk)
    flush()
    # \uN gives UTF-16 code units: join the surrogate pairs of characters beyond the BMP.
    text = "".join(out).encode("utf-16", "surrogatepass").decode("utf-16", errors="replace")
    return _ROW_END_RE.sub("\n", text)   # a row: its cells separated by tabs, none after the last
