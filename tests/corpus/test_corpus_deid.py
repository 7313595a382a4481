"""De-identification: every planted PII item masked, nothing else changed, residue scan."""

from __future__ import annotations

from dataclasses import replace

import pytest

from jiancha.corpus.deid import (
    DEID_FIELDS,
    deidentify_record,
    find_names,
    header_names,
    kin_names,
    mask_patterns,
    name_mapping,
    scan_residue,
)
from jiancha.datasets.records import PDPRecord


def _apply(text: str, planted: list[list[str]]) -> str:
    for original, masked in planted:
        text = text.replace(original, masked)
    return text


@pytest.mark.parametrize("rid", ["京某检刑不诉〔2019〕156号", "某检一部刑诉〔2019〕301号", "某检刑不诉〔2022〕58号"])
def test_planted_pii_masked_and_nothing_else_changes(rid, records_by_id, expected):
    planted = expected["deid"][rid]
    rec = records_by_id[rid]
    clean = deidentify_record(rec).record
    for f in DEID_FIELDS:
        # replacing exactly the planted items in the original must give the de-identified text
        assert getattr(clean, f) == _apply(getattr(rec, f), planted), f
    every = "\n".join(getattr(clean, f) for f in DEID_FIELDS)
    for original, _ in planted:
        assert original not in every
    assert scan_residue(clean) == []
    # non-text fields untouched
    assert (clean.id, clean.decision, clean.relevant_articles, clean.date, clean.province) == \
        (rec.id, rec.decision, rec.relevant_articles, rec.date, rec.province)


def test_planted_items_were_really_present(records_by_id, expected):
    for rid, planted in expected["deid"].items():
        joined = "\n".join(getattr(records_by_id[rid], f) for f in DEID_FIELDS)
        for original, _ in planted:
            assert original in joined, original
        assert scan_residue(records_by_id[rid]), "the residue scan must see the PII before masking"


def test_records_without_pii_are_unchanged(records_by_id, expected):
    for rid, rec in records_by_id.items():
        if rid in expected["deid"]:
            continue
        assert deidentify_record(rec).record == rec, rid


def test_shared_surnames_get_jia_yi_in_order_of_appearance():
    text = "被告人张丽华骗取被害人张强人民币5万元。证人刘晓燕证实，张强于次日报案。"
    assert find_names(text) == ["张丽华", "张强", "刘晓燕"]
    assert name_mapping(find_names(text), text) == {"张丽华": "张某甲", "张强": "张某乙", "刘晓燕": "刘某某"}


def test_two_and_three_character_names():
    # a third character counts only if the two-character form never occurs without it
    text = "被害人张强办理手续，张强于次日报案。被害人王刚的陈述。证人李秀英证实，李秀英系邻居。"
    assert find_names(text) == ["张强", "王刚", "李秀英"]


def test_existing_mou_form_is_not_reused_for_another_person():
    text = "被不起诉人王某某与被害人王刚发生争执，王刚受伤。"
    assert name_mapping(find_names(text), text) == {"王刚": "王某"}
    text2 = "证人王某证实，被害人王刚受伤，王刚报警。"
    assert name_mapping(find_names(text2), text2) == {"王刚": "王某甲"}


@pytest.mark.parametrize("raw,masked", [
    ("公民身份号码110105198604171234，", "公民身份号码×××，"),
    ("联系电话13812345678。", "联系电话×××。"),
    ("1986年4月17日出生，", "1986年4月出生，"),
    ("驾驶浙A12345号小型轿车", "驾驶浙A×××××号小型轿车"),
    ("银行卡6222021234567890123转账", "银行卡×××转账"),
    ("邮箱abc.d@example.com。", "邮箱×××。"),
    ("微信号wx_abc123联系", "微信号×××联系"),
    ("住某某市望京路18号3幢502室。", "住某某市望京路×号。"),
    ("住某某小区14栋1单元2203室。", "住某某小区×号。"),
    ("住某某村四社26号，", "住某某村×号，"),
    ("住某某路569弄12号1402室", "住某某路×号"),
    ("住某某街1046号3-5-2，", "住某某街×号，"),
    ("护照号码A10473825，", "护照号码×××，"),
    ("身份证号11010519860417123X手机13812345678", "身份证号×××手机×××"),
])
def test_pattern_masks(raw, masked):
    assert mask_patterns(raw) == masked


@pytest.mark.parametrize("keep", [
    "价值人民币7,850元", "2020年11月30日22时许", "血液中乙醇含量为92mg/100ml", "《中华人民共和国刑法》第二百六十四条",
    "某检刑不诉〔2021〕12号", "统一社会信用代码91430000000000000X", "某某市公安局某某分局", "拨打120急救电话",
    "于2019年8月12日移送本院审查起诉", "审查了全部案件材料", "店主全部损失", "分3组行动", "某公刑诉字〔2016〕第117号",
    "共猎捕野猪2头、狍子3只", "陆生野生动物",
])
def test_non_pii_unchanged(keep):
    rec = PDPRecord(id="x", person_info=keep, procedure=keep, fact=keep, decision="起诉",
                    raw_reasoning_and_decision=keep)
    assert deidentify_record(rec).record == rec


def test_residue_scan_reports_leftovers():
    rec = PDPRecord(id="x", person_info="", procedure="", fact="证人王刚称，其电话为13912345678。", decision="起诉")
    kinds = {(r.kind, r.span) for r in scan_residue(rec)}
    assert ("mobile", "13912345678") in kinds and ("name", "王刚") in kinds
    assert scan_residue(replace(rec, fact=deidentify_record(rec).record.fact)) == []


def test_header_names_fix_length_and_skip_units_and_pseudonyms():
    person = ("犯罪嫌疑人欧阳明，男，1990年出生（曾用名欧阳小明），汉族。\n犯罪嫌疑单位某某贸易有限公司，住所地某某市。\n"
              "法定代表人赵大勇，男。\n被不起诉人王某某，女。\n犯罪嫌疑人李明开车")  # last line: no delimiter, no name
    assert header_names(person) == ["欧阳明", "欧阳小明", "赵大勇"]


def test_header_names_are_masked_everywhere_in_the_record():
    # 陈一鸣 never follows a context word outside the person block; 高远 never follows one at all: only the
    # named-entity recogniser finds it (with the context rules alone it stays)
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人陈一鸣，男，1990年出生。",
                    procedure="本案由某某市公安局侦查终结，以犯罪嫌疑人陈一鸣涉嫌危险驾驶罪移送审查起诉。",
                    fact="陈一鸣驾车与朋友高远一起回家。被害人孙丽报警称陈一鸣逃离现场。", decision="起诉",
                    raw_reasoning_and_decision="本院认为，陈一鸣的行为触犯了《中华人民共和国刑法》第一百三十三条之一。")
    rules = deidentify_record(rec, "none")
    assert rules.names == {"陈一鸣": "陈某某", "孙丽": "孙某"}
    res = deidentify_record(rec)
    assert res.names == {"陈一鸣": "陈某某", "高远": "高某", "孙丽": "孙某"}
    for f in DEID_FIELDS:
        assert getattr(res.record, f) == (getattr(rec, f).replace("陈一鸣", "陈某某").replace("孙丽", "孙某")
                                          .replace("高远", "高某")), f
    assert [(m.field, m.text) for m in res.masked if m.text == "高远"] == [("fact", "高远")]


def test_known_header_name_decides_the_length_after_a_cue():
    # without the header, 李明开 could be read as a three-character name (it occurs only once)
    text = "犯罪嫌疑人李明开车撞伤被害人。"
    assert find_names(text) == ["李明"]  # 开 is a verb, never taken as a third character
    assert find_names("犯罪嫌疑人王小燕到案。", known=["王小燕"]) == ["王小燕"]
    assert find_names("证人李秀英证实", known=["李秀"]) == ["李秀"]  # the header's length wins


def test_names_listed_after_a_found_name():
    text = "被告人张伟、李强、王小燕等人共谋。被害人周杰、吴刚二人受伤，证人刘晓燕证实。"
    assert find_names(text) == ["张伟", "李强", "王小燕", "周杰", "吴刚", "刘晓燕"]
    # a list item that is not a name stops the list
    assert find_names("被害人周杰、某某公司受损") == ["周杰"]


def test_masking_is_consistent_across_fields_with_shared_surnames():
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人张丽华，女，1991年出生。", procedure="",
                    fact="张丽华骗取被害人张强人民币5万元，张强报案。", decision="起诉",
                    raw_reasoning_and_decision="本院认为，张丽华骗取张强财物。")
    clean = deidentify_record(rec).record
    assert clean.person_info == "犯罪嫌疑人张某甲，女，1991年出生。"
    assert clean.fact == "张某甲骗取被害人张某乙人民币5万元，张某乙报案。"
    assert clean.raw_reasoning_and_decision == "本院认为，张某甲骗取张某乙财物。"


def test_residue_scan_reports_header_names_anywhere():
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人陈一鸣，男。", procedure="", fact="陈一鸣驾车回家。", decision="起诉")
    assert [(r.field, r.kind, r.span) for r in scan_residue(rec)] == [
        ("person_info", "name", "陈一鸣"), ("fact", "name", "陈一鸣")]
    assert scan_residue(deidentify_record(rec).record) == []


def test_a_foreigners_names_in_both_scripts_get_one_pseudonym():
    rec = PDPRecord(id="x", person_info="被告人颂猜·蓬玛（SOMCHAI PHROMMA），男，泰王国国籍，护照号码AA4718263。",
                    procedure="本案由某某海关缉私局侦查终结，以被告人SOMCHAI PHROMMA涉嫌走私毒品罪移送本院审查起诉。",
                    fact="被告人SOMCHAI PHROMMA携带毒品入境。", decision="起诉")
    res = deidentify_record(rec, "none")
    assert res.names["SOMCHAI PHROMMA"] == res.names["颂猜·蓬玛"]
    every = "\n".join(getattr(res.record, f) for f in DEID_FIELDS)
    assert "SOMCHAI" not in every and "颂猜" not in every and "AA4718263" not in every


def test_a_relative_named_before_a_verb():
    assert kin_names("被害人之妻乌云其其格代表家属出具了谅解书。") == ["乌云其其格"]
