"""The text of a Word 97–2003 binary document (``.doc``, and the WPS files that use the same format), read from the
piece table as [MS-DOC] describes it; no formatting.

A ``.doc`` is a compound file (OLE2) whose ``WordDocument`` stream opens with the FIB. The FIB names which table
stream holds the document's tables (``0Table`` or ``1Table``, flag ``fWhichTblStm``), the number of characters of
the main text (``ccpText``) and where the CLX lies in the table stream (``fcClx`` / ``lcbClx``). The CLX ends with
the piece table: n + 1 character positions then n piece descriptors, each giving where the piece's characters lie
in ``WordDocument`` and whether they are stored one byte each (cp1252, at fc / 2) or as UTF-16LE (at fc). Chinese
text is always UTF-16LE.

The main text (the first ``ccpText`` characters; footnotes, headers and text boxes follow it and are left out) uses
control characters for structure: ``\\r`` ends a paragraph, ``\\x0b`` is a manual line break, ``\\x0c`` a page or
section break, ``\\x0e`` a column break, ``\\x07`` ends a table cell (and, once more, a row), ``\\x13 code \\x14 result
\\x15`` is a field whose result is what the reader sees (PAGE, HYPERLINK …), and ``\\x01 \\x02 \\x05 \\x08``
anchor pictures, footnote and comment marks.
"""

from __future__ import annotations

import io
import struct

from jiancha.errors import DataError

_WIDENT = 0xA5EC
_LAST_WORD95_NFIB = 0x0068        # Word 6 / 95 (nFib 0x65–0x68) store text without the Word 97 piece table
_FLAG_ENCRYPTED = 0x0100
_FLAG_TABLE1 = 0x0200
_CLX_INDEX = 33                   # fcClx / lcbClx: the 34th pair of FibRgFcLcb97
_CCP_TEXT_INDEX = 3               # ccpText: the 4th value of FibRgLw97

#: Control characters of the main text → what the reader sees; those mapped to '' are anchors with no text.
_CONTROL = {"\r": "\n", "\x0b": "\n", "\x0c": "\n", "\x0e": "\n",
            "\x01": "", "\x02": "", "\x05": "", "\x08": "", "\x1e": "-", "\x1f": "", "\x00": ""}
_FIELD_BEGIN, _FIELD_SEPARATOR, _FIELD_END = "\x13", "\x14", "\x15"
_CELL = "\x07"


class WordBinaryError(DataError):
    """A Word binary this reader cannot take; the message says why, ``kind`` is encrypted / old / damaged /
    unknown (another Office file)."""

    def __init__(self, message: str, kind: str = "damaged") -> None:
        super().__init__(message)
        self.kind = kind


def _u16(data: bytes, at: int) -> int:
    return struct.unpack_from("<H", data, at)[0]


def _u32(data: bytes, at: int) -> int:
    return struct.unpack_from("<I", data, at)[0]


def _fib(word: bytes) -> tuple[int, int, int, bool]:
    """(ccpText, fcClx, lcbClx, table stream is 1Table) from the FIB at the start of ``WordDocument``."""
    if len(word) < 34 or _u16(word, 0) != _WIDENT:
        raise WordBinaryError("not a Word document inside the compound file (no FIB)", "unknown")
    nfib, flags = _u16(word, 2), _u16(word, 10)
    if nfib <= _LAST_WORD95_NFIB:
        raise WordBinaryError(f"a Word 6 / 95 document (nFib {nfib:#x}), older than Word 97", "old")
    if flags & _FLAG_ENCRYPTED:
        raise WordBinaryError("a password-protected (encrypted) Word document", "encrypted")
    at = 32
    csw = _u16(word, at)
    at += 2 + 2 * csw
    cslw = _u16(word, at)
    lw_at = at + 2
    at = lw_at + 4 * cslw
    cb_fclcb = _u16(word, at)
    if cslw <= _CCP_TEXT_INDEX or cb_fclcb <= _CLX_INDEX or at + 2 + 8 * cb_fclcb > len(word):
        raise WordBinaryError("a damaged Word document (short FIB)")
    ccp_text = _u32(word, lw_at + 4 * _CCP_TEXT_INDEX)
    fc_clx, lcb_clx = struct.unpack_from("<II", word, at + 2 + 8 * _CLX_INDEX)
    return ccp_text, fc_clx, lcb_clx, bool(flags & _FLAG_TABLE1)


def _pieces(clx: bytes) -> list[tuple[int, int, int, bool]]:
    """(cp start, cp end, byte offset, stored as cp1252) of each piece of the piece table in ``clx``."""
    at = 0
    while at < len(clx) and clx[at] == 0x01:            # Prc: property modifiers, skipped
        at += 3 + struct.unpack_from("<h", clx, at + 1)[0]
    if at + 5 > len(clx) or clx[at] != 0x02:
        raise WordBinaryError("a damaged Word document (no piece table)")
    lcb = _u32(clx, at + 1)
    plc = clx[at + 5: at + 5 + lcb]
    n = (len(plc) - 4) // 12
    if n < 1:
        raise WordBinaryError("a damaged Word document (empty piece table)")
    cps = struct.unpack_from(f"<{n + 1}I", plc, 0)
    out = []
    for i in range(n):
        fc_raw = _u32(plc, 4 * (n + 1) + 8 * i + 2)
        compressed = bool(fc_raw & 0x40000000)
        fc = fc_raw & 0x3FFFFFFF
        out.append((cps[i], cps[i + 1], fc // 2 if compressed else fc, compressed))
    return out


def _raw_main_text(word: bytes, table: bytes, ccp_text: int, fc_clx: int, lcb_clx: int) -> str:
    parts = []
    for cp_start, cp_end, offset, compressed in _pieces(table[fc_clx: fc_clx + lcb_clx]):
        if cp_start >= ccp_text:
            break
        n = min(cp_end, ccp_text) - cp_start
        if compressed:
            parts.append(word[offset: offset + n].decode("cp1252", errors="replace"))
        else:
            parts.append(word[offset: offset + 2 * n].decode("utf-16-le", errors="replace"))
    return "".join(parts)


def visible_text(raw: str) -> str:
    """What a reader sees of a main text with Word's control characters: field codes dropped and their results
    kept (fields nest), paragraph, line and page marks as line ends, a table row as one line with its cells
    separated by tabs, anchors removed.

    >>> visible_text("本院\\x13 HYPERLINK \\"http://x\\" \\x14认为\\x15，\\r第\\x13 PAGE \\x141\\x15页\\r甲\\x07乙\\x07\\x07")
    '本院认为，\\n第1页\\n甲\\t乙\\n'
    """
    out = []
    stack: list[bool] = []          # per open field: True while inside its code (before the separator)
    width: int | None = None        # cells per row of the table being read, once its first row has ended
    cells = 0                       # cells of the current row read so far
    for i, ch in enumerate(raw):
        if ch == _CELL and not any(stack):
            # The text marks a cell's end and, once more, the row's: the mark after a row's last cell is the
            # row's own. An empty cell also gives two marks in a row, so the first row (a table's header, seldom
            # empty) gives the width and later rows are counted against it.
            row_end = (raw[i - 1] == _CELL and cells > 0) if width is None else cells == width
            if row_end:
                width, cells = cells, 0
                if out and out[-1] == "\t":
                    out[-1] = "\n"
                else:
                    out.append("\n")
            else:
                cells += 1
                out.append("\t")
        elif ch == "\r" and cells == 0 and not any(stack):
            width = None                # a paragraph outside a row: the next table may be another width
            out.append("\n")
        elif ch == _FIELD_BEGIN:
            stack.append(True)
        elif ch == _FIELD_SEPARATOR:
            if stack:
                stack[-1] = False
        elif ch == _FIELD_END:
            if stack:
                stack.pop()
        elif any(stack):
            continue
        else:
            out.append(_CONTROL.get(ch, ch))
    return "".join(out)


def word97_text(data: bytes) -> str:
    """The main text of the Word 97–2003 binary ``data`` (see the module docstring), one paragraph per line.
    Raises WordBinaryError when it holds no Word 97 text this reader can take."""
    import olefile

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError, struct.error) as exc:
        raise WordBinaryError(f"a damaged compound file ({exc})") from None
    try:
        if ole.exists("EncryptedPackage"):     # how Office stores a password-protected .docx / .xlsx
            raise WordBinaryError("a password-protected (encrypted) Office document", "encrypted")
        if not ole.exists("WordDocument"):
            raise WordBinaryError("a compound file without a Word document inside (an Excel or other Office file?)",
                                  "unknown")
        word = ole.openstream("WordDocument").read()
        ccp_text, fc_clx, lcb_clx, table1 = _fib(word)
        name = "1Table" if table1 else "0Table"
        if not ole.exists(name):
            raise WordBinaryError(f"a damaged Word document (no {name} stream)")
        table = ole.openstream(name).read()
        return visible_text(_raw_main_text(word, table, ccp_text, fc_clx, lcb_clx))
    except (OSError, ValueError, struct.error, IndexError) as exc:   # a stream shorter than its tables say
        raise WordBinaryError(f"a damaged Word document ({exc})") from None
    finally:
        ole.close()
