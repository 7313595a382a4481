"""Ingest: HTML/PDF to lines, banners dropped, document types, rejection reasons, deduplication."""

from __future__ import annotations

import pytest
from corpus_fixtures import HAS_REPORTLAB, PDF_SOURCE

from jiancha._util.documents import html_to_text
from jiancha.corpus.ingest import Rejection, parse_document, pdf_to_text, read_document
from jiancha.corpus.pipeline import iter_outcomes
from jiancha.errors import DataError


def test_html_keeps_line_structure_and_drops_scripts():
    html = ("<html><head><title>T</title><script>var a=1;</script></head><body><div>一</div>"
            "<p>二<br>三</p><p>四 &amp; 五</p></body></html>")
    assert [ln for ln in html_to_text(html).splitlines() if ln.strip()] == ["一", "二", "三", "四 & 五"]


def test_banners_and_navigation_dropped(raw_dir):
    doc = parse_document(html_to_text((raw_dir / "d02_snp_2018.html").read_text(encoding="utf-8")))
    text = "\n".join(doc.lines)
    for banner in ("来源", "发布时间", "浏览次数", "责任编辑", "打印本页", "首页", "备案号"):
        assert banner not in text
    assert doc.lines[0] == "江苏省某某县人民检察院" and doc.lines[-1] == "2022年6月20日"
    assert doc.doc_type == "non_prosecution" and doc.title_index == 1


def test_spaced_title_and_fullwidth_digits():
    doc = parse_document("某某县人民检察院\n起 诉 书\n某检刑诉〔２０２０〕 ３ 号\n被告人甲某。\n２０２０年５月６日")
    assert (doc.doc_type, doc.case_number) == ("indictment", "某检刑诉〔2020〕3号")
    assert doc.lines[-1] == "2020年5月6日"


@pytest.mark.parametrize("text,reason", [
    ("某某区人民法院\n刑事判决书\n（2021）某0000刑初1号", "title 刑事判决书"),
    ("某某区检察院开展开放日活动\n5月17日，某某区人民检察院举办活动。", "no document title"),
])
def test_non_prosecutorial_rejected(text, reason):
    r = parse_document(text, path="x")
    assert isinstance(r, Rejection) and reason in r.reason


def test_duplicates_by_normalised_case_number(tmp_path):
    body = "某某县人民检察院\n不起诉决定书\n{}\n被不起诉人甲某。\n2020年1月2日"
    (tmp_path / "a.txt").write_text(body.format("某检刑不诉〔2020〕1号"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(body.format("某检刑不诉 [２０２０] １ 号"), encoding="utf-8")
    out = list(iter_outcomes(sorted(tmp_path.iterdir())))
    assert out[0].state == "flagged" and out[0].rejection is None   # no facts or reasoning: kept, flagged
    assert out[1].state == "rejected" and out[1].rejection.reason.startswith("duplicate of a.txt")
    assert out[1].label == out[0].label == "undecided"


def test_gb18030_text(tmp_path):
    p = tmp_path / "g.txt"
    p.write_bytes("某某县人民检察院\n不起诉决定书\n某检刑不诉〔2020〕9号\n被不起诉人甲某。\n2020年1月2日".encode("gb18030"))
    doc = read_document(p)
    assert doc.case_number == "某检刑不诉〔2020〕9号"


@pytest.mark.skipif(not HAS_REPORTLAB, reason="reportlab (dev extra) generates the PDF fixture")
def test_pdf_text_layer_rejoins_wrapped_lines(tmp_path):
    from pdfgen import write_text_pdf

    source = PDF_SOURCE.read_text(encoding="utf-8")
    pdf = write_text_pdf(source, tmp_path / "doc.pdf")
    paragraphs = [ln.strip() for ln in source.splitlines() if ln.strip()]
    assert pdf_to_text(pdf).splitlines() == paragraphs


def test_unreadable_pdf(tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf")
    with pytest.raises(DataError, match="unreadable PDF"):
        pdf_to_text(bad)


_PAGE = ("<html><body><table><tr><td>文书编号：</td><td>吴检诉刑不诉〔2019〕88号</td><td>发布日期：</td><td>2019-06-04</td>"
         "</tr></table><p>江苏省苏州市吴中区人民检察院</p><p>不起诉决定书</p>{number}"
         "<p>被不起诉人蒯国庆，男，1979年4月8日生。</p><p>本院认为，……决定对蒯国庆不起诉。</p><p>2019年5月30日</p></body></html>")


@pytest.mark.parametrize("number", ["<p>吴检诉刑不诉〔2019〕88号</p>", ""], ids=["under-the-title", "metadata-only"])
def test_case_number_printed_in_a_pages_metadata_too(number):
    # the copy under the title is the document's own, not a running header; without it the metadata's is taken
    doc = parse_document(html_to_text(_PAGE.format(number=number)))
    assert not isinstance(doc, Rejection) and doc.case_number == "吴检诉刑不诉〔2019〕88号"


def test_case_number_opening_a_banner_line_under_the_title():
    page = ("<p>武汉市洪山区人民检察院</p><p>不起诉决定书</p><p>洪检一部刑不诉〔2023〕58号发布时间：2023-02-20 10:14 "
            "浏览次数：312</p><p>被不起诉人江山，男。</p><p>本院认为，……决定对江山不起诉。</p><p>2023年2月1日</p>")
    doc = parse_document(html_to_text(page))
    assert not isinstance(doc, Rejection) and doc.case_number == "洪检一部刑不诉〔2023〕58号"


def test_case_number_with_di():
    doc = parse_document("西安市雁塔区人民检察院\n不起诉决定书\n雁检刑不诉[2014]第27号\n被不起诉人权某，男。\n2014年5月6日")
    assert not isinstance(doc, Rejection) and doc.case_number == "雁检刑不诉〔2014〕第27号"
