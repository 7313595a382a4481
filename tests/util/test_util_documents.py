"""Document files read as text whatever they were saved as (``jiancha._util.documents``)."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

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
    assert doc.text.splitlines() == ["本院认为，被告人张某", "公诉机关\t某县人民检察院", "审判长\t王某", "书记员"]


def test_a_zip_that_is_no_word_document_says_so(tmp_path):
    p = tmp_path / "b.docx"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("content.xml", "<x/>")
    with pytest.raises(UnreadableDocument, match=r"not a readable Word \.docx .*save it again as \.docx or \.txt"):
        read_document_text(p)
    with pytest.raises(UnreadableDocument, match="not a readable Word"):
        docx_text(b"PK\x03\x04 truncated", p)


_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@pytest.mark.parametrize("name, data, message, kind", [
    ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, r"a Word file: a damaged compound file .*; save it as \.docx",
     "damaged"),
    ("a.wps", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504, "a WPS file: a damaged compound file .*; save it as .docx", "damaged"),
    ("a.pdf", b"<html>not a pdf</html>", r"not a \.pdf file inside \(it starts b'<html>no'\)", "damaged"),
    ("a.doc", b"\x00\x01\xfe\xff binary", r"no document format this reader knows \(Word .*save it as \.docx", "unknown"),
    ("a.docx", b"", "an empty file", "empty"),
    ("scan.doc", b"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG image, not a document .*run OCR on it", "image"),
    ("x.docx", _OLE + b"\0" * 504, "a Word file: a damaged compound file", "damaged"),
])
def test_formats_without_readable_text_name_what_to_save_them_as(tmp_path, name, data, message, kind):
    p = tmp_path / name
    p.write_bytes(data)
    with pytest.raises(UnreadableDocument, match=message) as err:
        read_document_text(p)
    assert str(p) in str(err.value) and err.value.kind == kind


DATA = Path(__file__).parent / "data"
#: The body of ``data/judgment.doc`` and ``data/judgment.rtf`` (LibreOffice 7.4 saved an HTML page as both): a
#: table (a row per line, its cells separated by tabs), a bold run inside 本院认为, a hyperlink field, a
#: manual line break and an ideographic space.
JUDGMENT_LINES = [
    "浙江省杭州市西湖区人民法院", "刑事判决书", "（2023）浙0106刑初501号", "公诉机关浙江省杭州市西湖区人民检察院。",
    "被告人沈某，男，汉族，初中文化，无业。",
    "经审理查明：2023年9月1日晚，被告人沈某持水果刀威胁被害人韩某，劫取其现金人民币1,200元。",
    "扣押物品\t数量", "水果刀\t1把",
    "本院认为，被告人沈某以暴力胁迫方法劫取他人财物，其行为已构成抢劫罪。依照《中华人民共和国刑法》第二百六十三条之规定，判决如下：",
    "被告人沈某犯抢劫罪，判处有期徒刑四年，并处罚金人民币八千元。", "（刑期从判决执行之日起计算。）", "审判员\u3000王某"]


@pytest.mark.parametrize("name, kind", [("judgment.doc", "doc"), ("judgment.rtf", "rtf")])
def test_word_97_binaries_and_rtf_are_read(tmp_path, name, kind):
    doc = read_document_text(DATA / name)
    assert (doc.kind, doc.text.splitlines()) == (kind, JUDGMENT_LINES)
    (tmp_path / "a.wps").write_bytes((DATA / name).read_bytes())   # WPS files in the Word format are read too
    assert read_document_text(tmp_path / "a.wps").text == doc.text


def _patched_fib(tmp_path, at: int, value: bytes) -> Path:
    """``judgment.doc`` with ``value`` written at ``at`` of its FIB (the WordDocument stream's first sector)."""
    data = bytearray((DATA / "judgment.doc").read_bytes())
    fib = next(at for at in range(512, len(data), 512) if data[at: at + 2] == b"\xec\xa5")   # wIdent 0xA5EC
    data[fib + at: fib + at + len(value)] = value
    (tmp_path / "x.doc").write_bytes(bytes(data))
    return tmp_path / "x.doc"


@pytest.mark.parametrize("at, value, message, kind", [
    (10, b"\x00\x03", "a password-protected", "encrypted"),    # flags: fEncrypted and fWhichTblStm set
    (2, b"\x68\x00", r"a Word 6 / 95 document \(nFib 0x68\)", "old"),
    (0, b"\x00\x00", r"not a Word document inside the compound file \(no FIB\)", "unknown"),
])
def test_word_binaries_this_reader_cannot_take_say_why(tmp_path, at, value, message, kind):
    with pytest.raises(UnreadableDocument, match=f"a Word file: {message}.*; save it as .docx or .txt") as err:
        read_document_text(_patched_fib(tmp_path, at, value))
    assert err.value.kind == kind


def test_word_control_characters_and_nested_fields():
    from jiancha._util.word97 import visible_text

    raw = ("第\x13 PAGE \\* MERGEFORMAT \x141\x15页\r"
           "详见\x13 HYPERLINK \"http://a\" \x14《\x13 REF x \x14刑法\x15》\x15\x0b下一行\x0c"
           "甲\x07乙\x07\x07脚注\x02引用\x01图\x1e\x1f")
    assert visible_text(raw) == "第1页\n详见《刑法》\n下一行\n甲\t乙\n脚注引用图-"
    assert visible_text("\x13 unclosed \x14结果") == "结果"
    # empty (or merged) cells also give two marks in a row: later rows are counted against the first row's width
    table = "序号\x07物品\x07价值\x07\x071\x07\x07480\x07\x07合计\x07\x07\x07\x07后文\r二\x07表\x07\x07"
    assert visible_text(table) == "序号\t物品\t价值\n1\t\t480\n合计\t\t\n后文\n二\t表\n"


def test_rtf_as_wps_and_word_write_it():
    from jiancha._util.rtf import rtf_text

    gbk = "被告人张某犯盗窃罪".encode("gbk")
    hexed = "".join(f"\\'{b:02x}" for b in gbk).encode()
    wps = (rb"{\rtf1\ansi\ansicpg936\deff0{\fonttbl{\f0\fnil\fcharset134 \'cb\'ce\'cc\'e5;}{\f1\fcharset0 Arial;}}"
           rb"{\colortbl;\red0\green0\blue0;}{\*\generator WPS Office}{\header {\f0 \'d2\'b3\'c3\'bc}}"
           rb"\pard\f0 " + hexed + rb"\f1  (2018)\tab No.1\par}")
    assert rtf_text(wps) == "被告人张某犯盗窃罪 (2018)\tNo.1\n"
    word = (rb"{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}}\uc2 \u26412\'b1\'be\u38498\'d4\'ba\uc1{\b\u35748?}\u20026?"
            rb"\line \u-10174\'3f\u-8265\'3f\~{\footnote \u33050?}\{\}\\\par "
            rb"{\field{\*\fldinst HYPERLINK \"http://a\"}{\fldrslt \u38142?}}\cell\row"
            rb"{\v hidden}{\v\v0 shown}{\pict\bin6 }}{{\par}")
    assert rtf_text(word) == "本院认为\n\U00020bb7\u00a0{}\\\n链\nshown"


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


def test_a_piece_table_of_8_bit_and_utf16_pieces_in_any_order():
    import struct

    from jiancha._util.word97 import _raw_main_text

    word = bytearray(300)
    word[100:103] = b"abc"                        # stored one byte each, at fc / 2
    word[200:204] = "本院".encode("utf-16-le")
    word[150:154] = "认为".encode("utf-16-le")     # a later piece stored earlier in the stream (a fast save)
    cps = (0, 3, 5, 7, 9)                         # the last piece lies beyond ccpText (a footnote's text)
    pcds = [(200 | 0x40000000), 200, 150, 250]
    plc = struct.pack("<5I", *cps) + b"".join(struct.pack("<HIH", 0, fc, 0) for fc in pcds)
    clx = b"\x01\x02\x00\xaa\xbb" + b"\x02" + struct.pack("<I", len(plc)) + plc   # a Prc before the piece table
    assert _raw_main_text(bytes(word), clx, ccp_text=7, fc_clx=0, lcb_clx=len(clx)) == "abc本院认为"
