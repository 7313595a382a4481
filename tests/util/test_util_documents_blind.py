"""Word 97-2003 and RTF files written by LibreOffice from texts made by someone who had not read the readers
(``blind_office``: dev and sealed reported apart): each paragraph one line, in order; table cells, numbered items
and the text around footnote anchors present; field codes, style and font names and RTF syntax absent; an
encrypted file refused with its reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha._util.documents import UnreadableDocument, read_document_text

ROOT = Path(__file__).parent / "blind_office"


def _cases():
    for part in ("dev", "sealed"):
        for gold in json.loads((ROOT / part / "gold.json").read_text(encoding="utf-8")):
            yield pytest.param(part, gold, id=f"{part}/{gold['file']}")


@pytest.mark.parametrize(("part", "gold"), list(_cases()))
def test_blind_office_document(part, gold):
    path = ROOT / part / gold["file"]
    if gold["kind"] == "unreadable":
        with pytest.raises(UnreadableDocument) as err:
            read_document_text(path)
        assert err.value.kind == "encrypted"
        assert path.name in str(err.value)
        return
    text = read_document_text(path).text
    lines = [line.strip() for line in text.splitlines()]
    at = 0
    for want in gold["lines"]:
        assert want in lines[at:], f"line missing or out of order: {want[:40]}"
        at = lines.index(want, at) + 1
    for want in gold.get("cells", []) + gold.get("contains", []):
        assert want in text
    for unwanted in gold.get("absent", []):
        assert unwanted not in text
