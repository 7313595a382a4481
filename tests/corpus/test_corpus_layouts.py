"""Segmentation by structure: reasoning lead-ins, police allegations as facts, page furniture, OCR noise,
reasoning inside a paragraph, flagged records; one file as input; the same output on several workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jiancha.cli.main import app
from jiancha.corpus.extract import extract_document
from jiancha.corpus.ingest import Rejection, list_documents, parse_document
from jiancha.corpus.pipeline import extract_folder
from jiancha.corpus.text import normalize_line
from jiancha.errors import DataError

runner = CliRunner()

HEAD = "某某县人民检察院\n不起诉决定书\n某检刑不诉〔2020〕3号\n被不起诉人甲某，男，1980年出生。\n"
PROCEDURE = "本案由某某县公安局侦查终结，以被不起诉人甲某涉嫌盗窃罪，于2020年3月1日移送本院审查起诉。\n"
FACT = "2020年1月1日，被不起诉人甲某在某某超市窃得白酒两瓶，价值人民币300元。"
SNP_BASIS = "依据《中华人民共和国刑事诉讼法》第一百七十七条第一款的规定，决定对甲某不起诉。"
IENP_BASIS = "依据《中华人民共和国刑事诉讼法》第一百七十五条第四款的规定，决定对甲某不起诉。"
TAIL = "\n被不起诉人如不服本决定，可以自收到本决定书后七日以内向本院申诉。\n某某县人民检察院\n2020年5月6日"


def _one(text: str):
    [e] = extract_document(parse_document(text))
    return e


@pytest.mark.parametrize("lead", ["本院认为，", "经本院审查认为，", "本院经审查认为，", "本院审查认为，", "经审查，本院认为，",
                                  "经本院审查并退回补充侦查，本院仍然认为，", "本院经审查并两次退回补充侦查后认为，",
                                  "本院经审查并听取被害人家属意见后认为，", "本院经审查并二次退回补充侦查，认为：",
                                  "本院经审查，并经退回补充侦查，认为", "经审查并退回补充侦查一次，本院认为，"])
def test_reasoning_lead_ins(lead):
    reasoning = lead + "甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    e = _one(HEAD + PROCEDURE + "经依法审查查明：\n" + FACT + "\n" + reasoning + TAIL)
    assert not e.flags
    assert e.record.raw_reasoning_and_decision == reasoning
    assert e.record.fact == FACT and e.record.decision == "法定不起诉"


def test_police_allegation_is_the_fact_when_the_procuratorate_gives_none():
    allegation = "某某县公安局移送审查起诉认定：" + FACT
    reasoning = "经本院审查并退回补充侦查，本院仍然认为某某县公安局认定的犯罪事实不清、证据不足，不符合起诉条件。" + IENP_BASIS
    e = _one(HEAD + PROCEDURE + allegation + "\n" + reasoning + TAIL)
    assert not e.flags and e.record.decision == "存疑不起诉"
    assert e.record.fact == FACT          # the lead-in of the allegation is not part of the facts
    assert e.record.procedure == PROCEDURE.strip()


def test_facts_without_lead_in_follow_the_procedural_paragraphs():
    more = "本院受理后，于2020年3月2日已告知被不起诉人有权委托辩护人，依法讯问了被不起诉人，审查了全部案件材料。\n"
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    e = _one(HEAD + PROCEDURE + more + FACT + "\n" + reasoning + TAIL)
    assert e.record.procedure == (PROCEDURE + more).strip()
    assert e.record.fact == FACT and not e.flags


def test_reasoning_opening_inside_the_fact_paragraph():
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    e = _one(HEAD + PROCEDURE + "经依法审查查明：" + FACT + reasoning + TAIL)
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == reasoning


def test_page_furniture_running_headers_and_ocr_spacing_are_dropped():
    reasoning = "本 院 认 为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    text = (HEAD + PROCEDURE + "经依法审查查明：\n" + FACT[:20] + "\n第 1 页 共 2 页\n某某县人民检察院\n不起诉决定书\n"
            + FACT[20:] + "\n" + reasoning + "\n（院印）" + TAIL.replace("2020年5月6日", "二O二O年五月六日"))
    e = _one(text)
    assert e.record.fact == FACT     # the next page's header dropped, the sentence the page break cut joins up
    assert e.record.raw_reasoning_and_decision == reasoning.replace("本 院 认 为", "本院认为")
    assert e.record.date == "2020-05-06" and not e.flags


def test_normalize_line_ocr_and_spacing():
    assert normalize_line("本 院 认 为，二O二一年 ３月") == "本院认为，二〇二一年3月"
    assert normalize_line("1986 年 3 月 12 日出生，人民币 5000 元") == "1986年3月12日出生，人民币5000元"
    assert normalize_line("3　　王某某　　人民币2万元") == "3 王某某人民币2万元"    # a number before a name stays apart
    assert normalize_line("Tom Lee 驾驶 车辆") == "Tom Lee 驾驶车辆"


def test_a_decision_without_reasoning_is_flagged_and_kept(tmp_path):
    (tmp_path / "a.txt").write_text(HEAD + PROCEDURE + "经依法审查查明：\n" + FACT + TAIL, encoding="utf-8")
    report = extract_folder(tmp_path)
    assert not report.rejects
    [e] = report.extracted
    assert e.flags == ("no_reasoning", "label_unresolved") and e.record.fact == FACT
    assert report.summary()["yield"]["by_class"]["undecided"] == {"seen": 1, "extracted": 0, "flagged": 1,
                                                                  "rejected": 0}


def test_one_file_is_an_input_and_other_paths_say_what_is_expected(tmp_path):
    doc = tmp_path / "a.txt"
    doc.write_text(HEAD + PROCEDURE + "经依法审查查明：\n" + FACT + "\n本院认为，" + SNP_BASIS + TAIL, encoding="utf-8")
    assert list_documents(doc) == [doc]
    notes = tmp_path / "notes.md"
    notes.write_text("x", encoding="utf-8")
    with pytest.raises(DataError, match="not a document file.*one file ending in .txt"):
        list_documents(notes)
    with pytest.raises(DataError, match="no such folder or file"):
        list_documents(tmp_path / "missing")
    out = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["build", "extract", str(doc), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert [json.loads(line)["decision"] for line in out.read_text(encoding="utf-8").splitlines()] == ["法定不起诉"]
    r = runner.invoke(app, ["build", "extract", str(tmp_path / "missing"), "--out", str(out)])
    assert r.exit_code != 0 and "no such folder or file" in str(r.exception)  # main() maps it to exit 2


def test_workers_give_the_same_output(raw_dir: Path, tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for out, n in ((one, "1"), (two, "2")):
        r = runner.invoke(app, ["build", "extract", str(raw_dir), "--out", str(out), "--workers", n])
        assert r.exit_code == 0, r.output
    assert one.read_text(encoding="utf-8") == two.read_text(encoding="utf-8")
    assert (json.loads(Path(f"{one}.yield.json").read_text(encoding="utf-8"))
            == json.loads(Path(f"{two}.yield.json").read_text(encoding="utf-8")))
    c1, c2 = tmp_path / "c1.jsonl", tmp_path / "c2.jsonl"
    for out, n in ((c1, "1"), (c2, "2")):
        r = runner.invoke(app, ["build", "deid", str(one), "--out", str(out), "--workers", n])
        assert r.exit_code == 0, r.output
    assert c1.read_text(encoding="utf-8") == c2.read_text(encoding="utf-8")
    assert "张伟明" not in c1.read_text(encoding="utf-8")


def test_facts_and_reasoning_opening_inside_the_procedure_paragraph():
    allegation = "某某县公安局移送审查起诉认定：" + FACT
    reasoning = "经本院审查并退回补充侦查，本院仍然认为现有证据不足，不符合起诉条件。" + IENP_BASIS
    e = _one(HEAD + PROCEDURE.strip() + allegation + reasoning + TAIL)
    assert e.record.procedure == PROCEDURE.strip() and e.record.fact == FACT
    assert e.record.raw_reasoning_and_decision == reasoning and e.record.decision == "存疑不起诉"


def test_a_line_ending_in_a_function_word_continues_even_before_an_opening():
    person = "被不起诉人甲某，男，1980年出生。法定代理人乙某，系\n被不起诉人甲某之父。\n"
    text = HEAD.replace("被不起诉人甲某，男，1980年出生。\n", person) + PROCEDURE + "经依法审查查明：\n" + FACT + \
        "\n本院认为，" + SNP_BASIS + TAIL
    e = _one(text)
    assert e.record.person_info == "被不起诉人甲某，男，1980年出生。法定代理人乙某，系被不起诉人甲某之父。"


def test_examination_with_another_body_speaking_is_not_the_reasoning():
    from jiancha.law.phrases import REASONING_START_RE

    assert not REASONING_START_RE.match("经审查并退回补充侦查，公安机关认为甲某构成盗窃罪。")
    assert not REASONING_START_RE.match("本院经审查并听取被害人意见，被害人认为应当追究。")
    assert not REASONING_START_RE.match("本院审查认定：")


def test_reasoning_without_lead_in_ends_at_the_decision_paragraph():
    # 本院审查认定 opens the facts in most documents; here the paragraph states the decision, so it is the reasoning
    reasoning = ("本院审查认定，被不起诉人甲某的行为情节显著轻微、危害不大，不构成犯罪。依照《中华人民共和国刑事诉讼法》"
                 "第一百七十七条第一款的规定，决定对甲某作出不起诉决定。")
    e = _one(HEAD + PROCEDURE + "经依法审查查明：\n" + FACT + "\n" + reasoning + TAIL)
    assert not e.flags and e.record.raw_reasoning_and_decision == reasoning
    assert e.record.fact == FACT and e.record.decision == "法定不起诉"


@pytest.mark.parametrize("head", [
    "某某县人民检察院\n不起诉决定书　某检刑不诉〔2020〕3号\n",
    "某某县人民检察院不起诉决定书 某检刑不诉〔2020〕3号\n",
    "某某县人民检察院\n不 起 诉 决 定 书\n某检刑不诉［２０２０］３号\n",
])
def test_title_and_case_number_layouts(head):
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    e = _one(head + "被不起诉人甲某，男，1980年出生。\n" + PROCEDURE + "经依法审查查明：\n" + FACT + "\n" + reasoning + TAIL)
    assert e.record.id == "某检刑不诉〔2020〕3号" and not e.flags
    assert e.record.person_info == "被不起诉人甲某，男，1980年出生。"


def test_a_running_heading_inside_a_cut_citation_is_dropped_and_the_citation_joined():
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。依据《中华人民共和国刑事诉讼法》第十六条第"
    after = "（一）项、第一百七十七条第一款的规定，决定对甲某不起诉。"
    doc = parse_document(HEAD + PROCEDURE + "经依法审查查明：\n" + FACT + "\n" + reasoning
                         + "\n- 1 -\n某某县人民检察院不起诉决定书（某检刑不诉〔2020〕3号）\n" + after + TAIL)
    [e] = extract_document(doc)
    assert e.record.raw_reasoning_and_decision == reasoning + after
    assert "cpl:第十六条第（一）项" in e.record.relevant_articles


def test_a_web_pages_own_heading_before_the_document_is_not_its_title():
    text = "案件信息\n不起诉决定书（某检刑不诉〔2020〕3号）\n" + HEAD + PROCEDURE + "经依法审查查明：\n" + FACT + "\n" \
        + "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS + TAIL
    e = _one(text)
    assert e.record.person_info == "被不起诉人甲某，男，1980年出生。" and not e.flags


def test_signature_and_date_in_a_pre_block():
    html = ("<p>某某县人民检察院</p><p>不起诉决定书</p><p>某检刑不诉〔2020〕3号</p><p>被不起诉人甲某，男，1980年出生。</p>"
            f"<p>{PROCEDURE}</p><p>经依法审查查明：</p><p>{FACT}</p>"
            f"<p>本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。{SNP_BASIS}</p>"
            "<pre>\n        检察员  乙某\n        2020年5月6日\n</pre><p>附：案卷材料一册。</p>")
    from jiancha._util.documents import html_to_text

    e = _one(html_to_text(html))
    assert e.record.date == "2020-05-06" and not e.flags


def test_an_allegation_by_a_prison_and_a_record_sealing_order_after_the_decision():
    allegation = "某某监狱移送审查起诉时认定：" + FACT
    reasoning = ("本院经审查并二次退回补充侦查，认为某某监狱认定的犯罪事实不清、证据不足，不符合起诉条件。"
                 "依照《中华人民共和国刑事诉讼法》第一百七十五条第四款的规定，决定对甲某不起诉。")
    sealing = "\n依照《中华人民共和国刑事诉讼法》第二百八十六条的规定，对被不起诉人甲某的相关犯罪记录予以封存。"
    e = _one(HEAD + PROCEDURE + allegation + "\n" + reasoning + sealing + TAIL)
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == reasoning
    assert e.record.relevant_articles == ("cpl:第一百七十五条第四款",) and e.record.decision == "存疑不起诉"


def test_a_list_mark_before_a_date_stays_a_decimal_point_becomes_one():
    assert normalize_line("1．2016年4月26日，价值６７．４万元") == "1．2016年4月26日，价值67.4万元"


def test_the_investigators_version_then_the_procuratorates_findings_are_the_facts():
    police = "某某县公安局移送审查起诉认定：" + FACT
    own = "经本院依法审查查明：案发当晚，甲某在家中，未到过该超市。"
    e = _one(HEAD + PROCEDURE + police + "\n" + own + "\n本院认为，甲某的行为不构成犯罪。" + SNP_BASIS + TAIL)
    assert e.record.fact == FACT + "\n案发当晚，甲某在家中，未到过该超市。"
    # findings that only agree with the investigators' version add nothing
    agree = "经本院依法审查查明的事实与侦查机关认定的事实一致。"
    e = _one(HEAD + PROCEDURE + police + "\n" + agree + "\n本院认为，甲某的行为不构成犯罪。" + SNP_BASIS + TAIL)
    assert e.record.fact == FACT


def test_the_procuratorates_examination_of_the_evidence_opens_the_reasoning():
    doubt = "经本院审查，证人乙某的证言前后矛盾，监控录像未能调取。"
    reasoning = "本院认为，某某县公安局认定的犯罪事实不清、证据不足，不符合起诉条件。" + IENP_BASIS
    e = _one(HEAD + PROCEDURE + "某某县公安局移送审查起诉认定：" + FACT + "\n" + doubt + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT
    assert e.record.raw_reasoning_and_decision == doubt + "\n" + reasoning
    assert e.record.decision == "存疑不起诉"


def test_a_line_that_fills_the_wrap_width_continues_even_before_an_opening():
    procedure = ("本案由某某县公安局侦查终结，以被不起诉人甲某涉嫌盗窃罪，于2020年3月10日移送本院审查起诉。本院受理后，已告知被不"
                 "起诉人有权委托辩护人，依法讯问了被不起诉人，听取了辩护人的意见，审查了全部案件材料。")
    fact = FACT * 3
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    body = HEAD.splitlines()[3] + "\n" + procedure + "\n经依法审查查明：" + fact + "\n" + reasoning + "\n" + TAIL.strip()
    cut = procedure.index("辩护人的意见")
    width = next(w for w in range(15, 40) if cut % w == 0)
    wrapped = "\n".join(p[i: i + width] for p in body.splitlines() for i in range(0, len(p), width))
    assert "\n辩护人的意见" in wrapped   # the cut this test is about
    e = _one("\n".join(HEAD.splitlines()[:3]) + "\n" + wrapped)
    assert e.record.procedure == procedure and e.record.fact == fact
    assert e.record.raw_reasoning_and_decision == reasoning


def test_the_procuratorates_own_investigation_bureau_alleging_is_the_investigators_version():
    police = "本院反贪污贿赂局移送审查起诉认定：" + FACT
    reasoning = "本院经审查认为，本院反贪污贿赂局认定的犯罪事实不清、证据不足，不符合起诉条件。" + IENP_BASIS
    e = _one(HEAD + PROCEDURE.replace("某某县公安局", "本院反贪污贿赂局") + police + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == reasoning


def test_an_allegation_naming_the_charge_before_the_transfer_is_the_investigators_version():
    police = "某某县公安局以被不起诉人甲某涉嫌盗窃罪移送审查起诉认定：" + FACT + "某某县公安局认定，上述白酒系甲某窃得。"
    reasoning = "本院经审查认为，某某县公安局认定的犯罪事实不清、证据不足，不符合起诉条件。" + IENP_BASIS
    e = _one(HEAD + PROCEDURE + police + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT + "某某县公安局认定，上述白酒系甲某窃得。"


def test_a_reasoning_lead_in_naming_the_body_the_case_went_back_to():
    reasoning = ("本院经审查并两次退回侦查机关补充侦查，仍然认为某某县公安局认定的犯罪事实不清、证据不足，不符合起诉条件。"
                 + IENP_BASIS)
    e = _one(HEAD + PROCEDURE + "某某县公安局移送审查起诉认定：" + FACT + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == reasoning


def test_a_lead_in_of_the_case_sent_back_opens_the_reasoning_and_a_finding_s_basis_is_no_fact_lead_in():
    reasoning = "本院经两次退回补充侦查，仍然认为某某县公安局认定的犯罪事实不清、证据不足，不符合起诉条件。" + IENP_BASIS
    e = _one(HEAD + PROCEDURE + "某某县公安局移送审查起诉认定：" + FACT + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == reasoning
    doubts = "经审查，认定甲某盗窃数额的依据主要为乙某的供述，但其供述前后矛盾。"
    e = _one(HEAD + PROCEDURE + "某某县公安局移送审查起诉认定：" + FACT + "\n" + doubts + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == doubts + "\n" + reasoning


def test_an_indictment_with_a_civil_public_interest_claim_is_an_indictment():
    doc = parse_document("某某县人民检察院\n刑事附带民事公益诉讼起诉书\n某检刑附民公诉〔2023〕5号\n被告人甲某，男，1967年出生。\n"
                         + PROCEDURE + "经依法审查查明：\n" + FACT + "\n本院认为，甲某的行为触犯了《中华人民共和国刑法》第二百六十四条，"
                         "应当以盗窃罪追究其刑事责任。\n此致\n某某县人民法院\n2023年3月2日")
    assert doc.doc_type == "indictment" and doc.case_number == "某检刑附民公诉〔2023〕5号"


def test_a_procedure_paragraph_opening_with_the_person_and_a_finding_of_death_stay_apart():
    procedure = "被不起诉人甲某涉嫌盗窃一案，由某某县公安局侦查终结，于2020年3月1日移送本院审查起诉。"
    death = "经本院审查，被不起诉人甲某于2020年4月3日因病死亡。上述事实有医院出具的死亡证明等证据证实。"
    reasoning = "本院认为，被不起诉人甲某已经死亡。依据《中华人民共和国刑事诉讼法》第十六条第（五）项和第一百七十七条第一款的规定，决定对甲某不起诉。"
    e = _one(HEAD + procedure + "\n某某县公安局移送审查起诉认定：" + FACT + "\n" + death + "\n" + reasoning + TAIL)
    assert e.record.procedure == procedure
    assert e.record.fact == FACT + "\n" + death
    assert e.record.raw_reasoning_and_decision == reasoning


def test_a_heading_over_the_person_and_the_person_after_the_procedure():
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    person = "被不起诉人甲某，男，1980年出生。"
    title = "某某县人民检察院\n不起诉决定书\n某检刑不诉〔2020〕3号\n"
    e = _one(title + "被不起诉人的基本情况：\n" + person + "\n" + PROCEDURE + "经依法审查查明：\n" + FACT + "\n" + reasoning + TAIL)
    assert e.record.person_info == person and not e.flags
    e = _one(title + PROCEDURE + person + "\n经依法审查查明：\n" + FACT + "\n" + reasoning + TAIL)
    assert e.record.person_info == person and e.record.procedure == PROCEDURE.strip() and not e.flags


def test_a_page_listing_decisions_is_no_decision_and_a_military_procuratorate_has_a_province():
    page = ("人民检察院案件信息公开网\n不起诉决定书\n延吉市人民检察院不起诉决定书（金某某盗窃案）2019-06-11\n"
            "珲春市人民检察院不起诉决定书（朴某危险驾驶案）2019-06-10\n共 128 条 首页 上一页 3 下一页 尾页")
    assert isinstance(parse_document(page), Rejection)
    e = _one("中国人民解放军西藏军区军事检察院\n不起诉决定书\n藏军检刑不诉〔2014〕3号\n"
             "被不起诉人甲某，男，1993年出生，四川省广安市人。\n" + PROCEDURE + "经依法审查查明：\n" + FACT + "\n"
             "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS + TAIL)
    assert e.record.province == "西藏自治区"


def test_numbered_section_headings_are_no_part_of_the_fields():
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    e = _one("某某县人民检察院\n不起诉决定书\n某检刑不诉〔2020〕3号\n一、被不起诉人基本情况\n被不起诉人甲某，男，1980年出生。\n"
             "二、诉讼经过\n" + PROCEDURE + "三、侦查机关认定的事实\n某某县公安局移送审查起诉认定：" + FACT + "\n"
             "四、不起诉的理由\n" + reasoning + "\n五、告知事项" + TAIL)
    assert e.record.person_info == "被不起诉人甲某，男，1980年出生。" and e.record.procedure == PROCEDURE.strip()
    assert e.record.fact == FACT and e.record.raw_reasoning_and_decision == reasoning


def test_the_version_of_a_unit_of_the_public_security_bureau_before_the_transfer():
    reasoning = "本院认为，甲某的行为情节显著轻微、危害不大，不构成犯罪。" + SNP_BASIS
    e = _one(HEAD + PROCEDURE + "上海市公安局经济犯罪侦查总队移送审查起诉认定：" + FACT + "\n" + reasoning + TAIL)
    assert e.record.fact == FACT


def test_a_pdf_page_number_is_taken_off_the_page_edges_and_a_number_in_a_table_is_kept():
    from jiancha._util.documents import DocumentText
    from jiancha.corpus.ingest import paragraphs

    page1 = "某某县人民检察院\n不起诉决定书\n被盗物品：\n钢管扣件\n200\n个\n价值\n840\n元。\n本院认为，依据《中华人民共和国刑事诉讼法》第十五条的规\n3"
    page2 = "- 4 -\n某某县人民检察院\n定，决定对甲某不起诉。"
    lines = paragraphs(DocumentText(page1 + "\n" + page2, "pdf", pages=(page1, page2))).splitlines()
    assert "200" in "".join(lines) and "840" in "".join(lines)
    assert lines[-1] == "本院认为，依据《中华人民共和国刑事诉讼法》第十五条的规定，决定对甲某不起诉。"
