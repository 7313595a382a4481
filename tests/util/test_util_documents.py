"""Document files read as text whatever they were saved as (``jiancha._util.documents``)."""

from __future__ import annotations

import importlib.util
import zipfile

import pytest

from jiancha._util.documents import (
    DocumentText,
    UnreadableDocument,
    docx_text,
    join_full_lines,
    read_document_text,
)

_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _docx(path, body: str):
    """A minimal Word package: the parts a reader needs, the body as Word writes it (runs, tables)."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                                          'package/2006/content-types"/>')
        z.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                                        f'<w:document {_W}><w:body>{body}</w:body></w:document>')
    return path


def test_docx_paragraphs_runs_tables_tabs_and_breaks(tmp_path):
    body = ('<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>本院</w:t></w:r><w:proofErr w:type="spellStart"/>'
            '<w:r><w:t xml:space="preserve">认为，被告人</w:t></w:r><w:r><w:t>张某</w:t></w:r></w:p>'
            '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>公诉机关</w:t></w:r></w:p></w:tc>'
            '<w:tc><w:p><w:r><w:t>某县人民检察院</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'
            '<w:p><w:r><w:t>审判长</w:t><w:tab/><w:t>王某</w:t><w:br/><w:t>书记员</w:t></w:r></w:p>')
    doc = read_document_text(_docx(tmp_path / "a.docx", body))
    assert (doc.kind, doc.encoding) == ("docx", "")
    assert doc.text.splitlines() == ["本院认为，被告人张某", "公诉机关", "某县人民检察院", "审判长\t王某", "书记员"]


def test_a_zip_that_is_no_word_document_says_so(tmp_path):
    p = tmp_path / "b.docx"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("content.xml", "<x/>")
    with pytest.raises(UnreadableDocument, match=r"not a readable Word \.docx .*save it again as \.docx or \.txt"):
        read_document_text(p)
    with pytest.raises(UnreadableDocument, match="not a readable Word"):
        docx_text(b"PK\x03\x04 truncated", p)


@pytest.mark.parametrize("name, data, message", [
    ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, r"a Word 97–2003 binary \(\.doc\); save it as \.docx"),
    ("a.wps", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, "a WPS file; save it as .docx or .txt"),
    ("a.rtf", rb"{\rtf1\ansi\ansicpg936 {\f0 \'b1\'be\'d4\'ba}}", "an RTF file; save it as .docx or .txt"),
    ("a.pdf", b"<html>not a pdf</html>", r"not a \.pdf file inside \(it starts b'<html>no'\)"),
    ("a.doc", b"\x00\x01\xfe\xff binary", r"neither text, HTML, \.docx nor PDF inside .*save it as \.docx"),
])
def test_formats_without_readable_text_name_what_to_save_them_as(tmp_path, name, data, message):
    p = tmp_path / name
    p.write_bytes(data)
    with pytest.raises(UnreadableDocument, match=message) as err:
        read_document_text(p)
    assert str(p) in str(err.value)


def test_a_txt_file_in_another_encoding_is_an_error_naming_it(tmp_path):
    from jiancha.errors import DataError

    (tmp_path / "a.txt").write_bytes(b"\xff\xfe\x00\xd8 binary")
    with pytest.raises(DataError, match="a.txt: cannot decode; expected UTF-8 or GB18030") as err:
        read_document_text(tmp_path / "a.txt")
    assert not isinstance(err.value, UnreadableDocument)


def test_a_doc_that_is_an_html_page_or_text_is_read_by_its_content(tmp_path):
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"><title>判决书</title>'
            '<script>var a = "本院认为";</script><style>p {}</style></head><body><div>本院认为，被告人张某</div>'
            '<div>判决如下：</div></body></html>')
    (tmp_path / "a.doc").write_bytes(page.encode("gb18030"))
    doc = read_document_text(tmp_path / "a.doc")
    assert (doc.kind, doc.encoding) == ("html", "gb18030")
    assert [ln for ln in doc.text.splitlines() if ln] == ["本院认为，被告人张某", "判决如下："]
    (tmp_path / "b.doc").write_bytes("\ufeff本院认为，被告人李某".encode())
    assert read_document_text(tmp_path / "b.doc") == DocumentText("本院认为，被告人李某", "txt", "utf-8-sig")
    (tmp_path / "c.htm").write_text("\ufeff<!DOCTYPE html><p>甲</p>", encoding="utf-8")
    assert read_document_text(tmp_path / "c.htm").text.strip() == "甲"


def test_lines_are_joined_only_where_the_page_wrapped_them():
    typed = "公诉机关指控：被告人张某盗窃。\n本院认为，被告人张某构成盗窃罪。\n判决如下："
    assert join_full_lines(typed) == typed
    reasoning = "本院认为，被告人张某构成盗窃罪，依照《中华人民共和国刑法》第二百六十四条之规定，判决如下："
    wrapped = ["一二三四五六七八九十" * 3] * 8 + ["一二三。", reasoning[:30], reasoning[30:]]
    assert len(reasoning[:30]) == 30 and len(reasoning[30:]) < 29   # a paragraph's last line is shorter
    assert join_full_lines("\n".join(wrapped)).splitlines() == ["一二三四五六七八九十" * 24 + "一二三。", reasoning]


@pytest.mark.skipif(importlib.util.find_spec("reportlab") is None, reason="reportlab (dev extra) writes the PDFs")
def test_pdf_text_layer_and_a_scan_without_one(tmp_path):
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(tmp_path / "a.pdf"), pagesize=A4)
    c.setFont("STSong-Light", 12)
    for i, line in enumerate(["某某县人民法院", "刑事判决书", "本院认为，被告人张某构成盗窃罪。"]):
        c.drawString(72, 760 - 20 * i, line)
    c.save()
    doc = read_document_text(tmp_path / "a.pdf")
    assert doc.kind == "pdf" and doc.text.splitlines() == ["某某县人民法院", "刑事判决书", "本院认为，被告人张某构成盗窃罪。"]
    c = canvas.Canvas(str(tmp_path / "scan.pdf"), pagesize=A4)
    c.rect(72, 72, 400, 600, fill=1)
    c.save()
    with pytest.raises(UnreadableDocument, match="a PDF without a text layer"):
        read_document_text(tmp_path / "scan.pdf")
