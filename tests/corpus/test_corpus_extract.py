"""Rule-track extraction: every field of every bundled document, labels in both CPL numberings, flags."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_fixtures import HAS_REPORTLAB, PDF_NAME, RAW_DOCS

from jiancha.corpus.extract import LABEL_FROM_ARTICLES, LABEL_FROM_WORDING, extract_document, label_of
from jiancha.corpus.ingest import parse_document
from jiancha.corpus.text import normalize_case_number, parse_date_iso
from jiancha.law.articles import parse_articles
from jiancha.law.labels import Decision
from jiancha.law.phrases import FACT_LEAD_IN_RE, POLICE_VERSION_RE

BUNDLED = sorted(p.name for p in RAW_DOCS.iterdir() if p.suffix in (".txt", ".html"))


def _doc_result(report, name: str):
    extracted = [e for e in report.extracted if Path(e.path).name == name]
    rejected = [r for r in report.rejects if Path(r.path).name == name]
    return extracted, rejected


def test_bundled_documents_are_all_expected(expected):
    assert len(BUNDLED) == 18
    assert set(BUNDLED) | {PDF_NAME} == set(expected["documents"])


@pytest.mark.parametrize("name", BUNDLED + [PDF_NAME])
def test_every_field_of_each_document(name, report, expected):
    if name == PDF_NAME and not HAS_REPORTLAB:
        pytest.skip("reportlab (dev extra) is needed to generate the PDF fixture")
    exp = expected["documents"][name]
    extracted, rejected = _doc_result(report, name)
    if "rejected" in exp:
        assert not extracted
        assert len(rejected) == 1
        assert rejected[0].stage == exp["rejected"]["stage"]
        assert exp["rejected"]["reason_contains"] in rejected[0].reason
        return
    assert not rejected, rejected
    assert len(extracted) == len(exp["records"])
    for got, want in zip(extracted, exp["records"], strict=True):
        assert got.record.to_dict() == want["record"]
        assert got.label_source == want["label_source"]
        assert got.numbering == want["cpl_numbering"]
        assert list(got.flags) == want.get("flags", [])


def test_every_label_in_both_numberings(report):
    seen = {(e.record.decision, e.numbering) for e in report.extracted if e.label_source == LABEL_FROM_ARTICLES}
    assert seen >= {(d.value, n) for d in Decision for n in ("2012", "2018")}


def test_totals(report):
    s = report.summary()
    n_pdf = 1 if HAS_REPORTLAB else 0
    assert s["documents"] == 18 + n_pdf
    assert s["records"] == 17 + n_pdf          # d09, d10: one record per person (or unit) decided on
    assert s["flagged_records"] == 1           # d14: contradictory basis, kept and flagged
    assert s["rejected"] == 3                  # a judgment, a news page, a duplicate
    assert s["label_source"] == {"articles": 15 + n_pdf, "wording": 1, "none": 1}
    assert s["flags"] == {"label_contradictory": 1}
    y = s["yield"]
    assert y["total"] == {"seen": 18 + n_pdf, "extracted": 14 + n_pdf, "flagged": 1, "rejected": 3}
    assert y["by_class"]["not_a_decision"] == {"seen": 2, "extracted": 0, "flagged": 0, "rejected": 2}
    # the duplicate of d01 counts under d01's class
    assert y["by_class"]["相对不起诉"]["rejected"] == 1


def test_police_version_then_the_procuratorates_findings_are_the_facts(records_by_id):
    rec = records_by_id["某检一部刑不诉〔2020〕7号"]
    assert "侦查认定" not in rec.fact and "审查认定" not in rec.fact   # lead-ins stripped
    assert rec.fact.startswith("2019年5月至8月间，陈某某以帮助他人办理工程承包为由，骗取被害人刘某人民币30万元")
    assert "\n2019年5月，陈某某与被害人刘某商谈合作" in rec.fact


def test_repeated_facts_section_kept_once(records_by_id):
    rec = records_by_id["某检公诉刑诉〔2016〕102号"]
    assert rec.fact.count("贩卖甲基苯丙胺") == 1 and rec.fact.count("认定上述事实的证据如下") == 1


def test_defence_counsel_removed_and_multi_suspects(records_by_id):
    assert "辩护人" not in records_by_id["某检一部刑不诉〔2020〕7号"].person_info
    same = records_by_id["某检刑诉〔2021〕88号"]          # two suspects, one decision → one record
    assert same.person_info.count("被告人") == 2
    a, b = records_by_id["某检刑不诉〔2023〕9号-1"], records_by_id["某检刑不诉〔2023〕9号-2"]
    assert (a.decision, b.decision) == ("相对不起诉", "存疑不起诉")
    assert "冯某某" not in a.person_info and "吴某" not in b.person_info
    assert a.fact == b.fact and a.procedure == b.procedure


@pytest.mark.parametrize("text,date", [
    ("二〇二一年三月五日", "2021-03-05"), ("二零一五年十月十二日", "2015-10-12"),
    ("二〇二三年二月二十八日", "2023-02-28"), ("2016年4月18日", "2016-04-18"), ("２０２０年９月１０日", "2020-09-10"),
    ("二〇一九年十二月三十一日", "2019-12-31"),
])
def test_parse_date_iso(text, date):
    assert parse_date_iso(text) == date


@pytest.mark.parametrize("raw,norm", [
    ("某检 公诉刑不诉 〔２０１５〕 ５ 号", "某检公诉刑不诉〔2015〕5号"),
    ("某检刑不诉 [２０２１] １２ 号", "某检刑不诉〔2021〕12号"),
    ("某检公诉刑诉[2016]102号", "某检公诉刑诉〔2016〕102号"),
    ("京某检刑不诉〔2019〕156号", "京某检刑不诉〔2019〕156号"),
])
def test_normalize_case_number(raw, norm):
    assert normalize_case_number(raw) == norm


@pytest.mark.parametrize("lead", ["经依法审查查明：", "本院审查查明：", "经审查认定：", "经本院依法审查查明：",
                                  "经本院审查认定：", "本院经审查认定：", "经依法审查认定：", "经审查查明：",
                                  "经本院审查并两次退回补充侦查，本院审查认定："])
def test_fact_lead_ins(lead):
    m = FACT_LEAD_IN_RE.match(lead + "2020年")
    assert m is not None and m.end() == len(lead)


def test_police_version_pattern():
    assert POLICE_VERSION_RE.match("经某某市公安局侦查认定：2019年")
    assert not POLICE_VERSION_RE.match("本案由某某市公安局侦查终结")


def _label(text: str, date: str = "2020-01-01"):
    from jiancha.law.cpl import detect_numbering

    refs = parse_articles(text)
    return label_of(text, refs, detect_numbering(date, refs))


def test_label_from_articles_beats_wording():
    r = _label("本院认为，证据不足。依据《中华人民共和国刑事诉讼法》第一百七十七条第二款的规定，决定不起诉。")
    assert (r.decision, r.source) == (Decision.DISCRETIONARY, LABEL_FROM_ARTICLES)


def test_label_2012_numbering_by_date():
    r = _label("依照《中华人民共和国刑事诉讼法》第一百七十二条的规定，提起公诉。", date="2016-05-01")
    assert r.decision is Decision.PROSECUTE


def test_label_wording_only_and_flags():
    r = _label("本院认为，犯罪情节轻微，不需要判处刑罚。依照刑事诉讼法的有关规定，决定不起诉。")
    assert (r.decision, r.source) == (Decision.DISCRETIONARY, LABEL_FROM_WORDING)
    missing = _label("本院认为，决定对某某不起诉。")
    assert missing.decision is None and "no legal basis" in missing.reason
    ambiguous = _label("本院认为，犯罪情节轻微，不需要判处刑罚；且证据不足。决定不起诉。")
    assert ambiguous.decision is None and "ambiguous" in ambiguous.reason


def test_indictment_with_non_prosecution_basis_is_flagged():
    text = ("某某县人民检察院\n起诉书\n某检刑诉〔2020〕1号\n被告人甲某，男。\n本案由某某县公安局侦查终结。\n"
            "经依法审查查明：\n2020年1月1日，被告人甲某盗窃手机一部，价值人民币3000元。\n"
            "本院认为，依据《中华人民共和国刑事诉讼法》第一百七十七条第二款的规定，决定不起诉。\n2020年5月6日")
    [result] = extract_document(parse_document(text))
    assert result.flags == ("label_type_conflict",) and result.record.decision == ""
    assert "contradicts the document type" in result.record.extra["flag_detail"]


def test_missing_sections_give_a_flagged_record_not_a_rejection():
    text = "某某县人民检察院\n不起诉决定书\n某检刑不诉〔2020〕2号\n被不起诉人甲某，男。\n本案由某某县公安局侦查终结。\n2020年5月6日"
    [result] = extract_document(parse_document(text))
    assert result.flags == ("no_fact", "no_reasoning", "label_unresolved")
    assert result.record.extra["flags"] == list(result.flags)
    assert result.record.person_info == "被不起诉人甲某，男。"
    assert result.record.procedure == "本案由某某县公安局侦查终结。"
    assert result.record.date == "2020-05-06"


def test_files_without_text_count_as_unreadable_not_as_non_decisions(tmp_path):
    from jiancha.corpus.outcomes import REJECTED, UNREADABLE, YieldTable, process_path

    encrypted = Path(__file__).parents[1] / "util" / "blind_office" / "dev" / "jiami_qisushu.doc"
    (tmp_path / "scan.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\0" * 64)
    (tmp_path / "news.txt").write_text("某某区检察院召开公开听证会\n本网讯……", encoding="utf-8")
    table = YieldTable()
    for path in (encrypted, tmp_path / "scan.jpg", tmp_path / "news.txt"):
        outcome = process_path(path)
        assert outcome.state == REJECTED
        table.add(outcome)
    rows = table.rows()
    assert rows[UNREADABLE] == {"seen": 2, "extracted": 0, "flagged": 0, "rejected": 2}
    assert rows["not_a_decision"]["seen"] == 1
