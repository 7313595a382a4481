import json
from importlib import resources

import pytest

from jiancha.law.articles import parse_canonical
from jiancha.law.charges import (
    GROUP_LABELS,
    UNMAPPED_LABELS,
    charge_articles,
    charge_names,
    find_charges,
    iter_charge_matches,
    load_charge_table,
    reduced_forms,
    resolve_charge,
    resolve_label,
    selective_forms,
)


def test_table_provenance_and_size():
    raw = json.loads(resources.files("jiancha.law").joinpath("data/charges.json").read_text(encoding="utf-8"))
    assert raw["provenance"]["builder"] == "scripts/build_charge_table.py"
    assert raw["provenance"]["count"] == len(raw["charges"]) == 483
    names = charge_names()
    assert len(names) == len(set(names)) == 483
    assert all(n.endswith("罪") for n in names)
    for arts in load_charge_table().charges.values():
        for a in arts:
            assert parse_canonical(a).law.value == "cl"


@pytest.mark.parametrize("name, articles", [
    ("盗窃罪", ["cl:第二百六十四条"]),
    ("盗窃", ["cl:第二百六十四条"]),
    ("危险驾驶罪", ["cl:第一百三十三条之一"]),
    ("妨害安全驾驶罪", ["cl:第一百三十三条之二"]),
    ("故意伤害罪", ["cl:第二百三十四条"]),
    ("走私、贩卖、运输、制造毒品罪", ["cl:第三百四十七条"]),
    ("偷税罪", ["cl:第二百零一条"]),
    ("不存在的罪", []),
])
def test_charge_articles(name, articles):
    assert [r.canonical() for r in charge_articles(name)] == articles


@pytest.mark.parametrize("label, expected", [
    ("盗窃", ("盗窃罪",)),
    ("盗窃罪", ("盗窃罪",)),
    ("[走私、贩卖、运输、制造]毒品", ("走私、贩卖、运输、制造毒品罪",)),
    ("【走私、贩卖、运输、制造】毒品罪", ("走私、贩卖、运输、制造毒品罪",)),
    ("偷税", ("逃税罪",)),
    ("窝藏、转移、收购、销售赃物", ("掩饰、隐瞒犯罪所得、犯罪所得收益罪",)),
    ("强制猥亵、侮辱妇女", ("强制猥亵、侮辱罪",)),
    ("徇私舞弊低价折股、出售国有资产罪", ("徇私舞弊低价折股、出售公司、企业资产罪",)),
    ("生产、销售假药", ("生产、销售、提供假药罪",)),
    ("隐匿、故意销毁会计凭证、会计帐簿、财务会计报告", ("隐匿、故意销毁会计凭证、会计账簿、财务会计报告罪",)),
    ("侮辱国歌罪", ("侮辱国旗、国徽、国歌罪",)),
    ("组织、强迫、引诱、容留、介绍卖淫", GROUP_LABELS["组织、强迫、引诱、容留、介绍卖淫"]),
    ("贩卖毒品罪", ("走私、贩卖、运输、制造毒品罪",)),
    ("贩卖、运输毒品", ("走私、贩卖、运输、制造毒品罪",)),
    ("非法持有枪支罪", ("非法持有、私藏枪支、弹药罪",)),
    ("私藏弹药罪", ("非法持有、私藏枪支、弹药罪",)),
    ("容留卖淫罪", ("引诱、容留、介绍卖淫罪",)),
    ("销售伪劣产品", ("生产、销售伪劣产品罪",)),
    ("走私普通货物罪", ("走私普通货物、物品罪",)),
    ("虚开增值税专用发票罪", ("虚开增值税专用发票、用于骗取出口退税、抵扣税款发票罪",)),
    ("非法储存爆炸物罪", ("非法制造、买卖、运输、邮寄、储存枪支、弹药、爆炸物罪",)),
    ("掩饰、隐瞒犯罪所得罪", ("掩饰、隐瞒犯罪所得、犯罪所得收益罪",)),
    ("买卖国家机关证件罪", ("伪造、变造、买卖国家机关公文、证件、印章罪",)),
    ("窝藏罪", ("窝藏、包庇罪",)),
    ("偷越国境罪", ("偷越国（边）境罪",)),
    ("偷越国(边)境", ("偷越国（边）境罪",)),
    ("非法制造罪", ()),  # fragment shared by several names: ambiguous, not resolved
    ("经济犯", ()),
    ("伤害", ()),
    ("", ()),
])
def test_resolve_charge(label, expected):
    assert resolve_charge(label) == expected


def test_resolve_label_single_only():
    assert resolve_label("盗窃") == "盗窃罪"
    assert resolve_label("组织、强迫、引诱、容留、介绍卖淫") is None
    assert resolve_label("走私") is None
    assert "走私武器、弹药罪" in resolve_charge("走私")


@pytest.mark.parametrize("text, expected", [
    ("被告人涉嫌盗窃罪、故意伤害，后又抢劫", ["盗窃罪", "故意伤害罪"]),   # named charges: the bare act 抢劫 is no charge
    ("被告人盗窃、故意伤害他人，后又抢劫", ["盗窃罪", "故意伤害罪", "抢劫罪"]),   # no charge named: the acts it describes
    ("因涉嫌危险驾驶罪于2019年被刑事拘留", ["危险驾驶罪"]),
    ("犯非国家工作人员受贿罪", ["非国家工作人员受贿罪"]),
    ("以受贿罪、非国家工作人员受贿罪追究", ["受贿罪", "非国家工作人员受贿罪"]),
    ("涉嫌走私、贩卖、运输、制造毒品罪", ["走私、贩卖、运输、制造毒品罪"]),
    ("抢劫罪抢劫罪盗窃盗窃罪", ["抢劫罪", "盗窃罪"]),
    ("携带爆炸物进入", []),
    ("造成轻伤害", []),
    ("以偷税罪移送", ["逃税罪"]),
    ("其行为构成交通肇事罪，依照刑法第一百三十三条", ["交通肇事罪"]),
    ("因涉嫌贩卖毒品罪被逮捕，又非法持有枪支罪", ["走私、贩卖、运输、制造毒品罪", "非法持有、私藏枪支、弹药罪"]),
    ("涉嫌贩卖毒品", []),  # partial selective forms only count with 罪
    ("涉嫌窝藏毒品罪、偷越国境罪", ["窝藏、转移、隐瞒毒品、毒赃罪", "偷越国（边）境罪"]),
    ("", []),
])
def test_find_charges(text, expected):
    assert find_charges(text) == expected


def test_matches_are_leftmost_longest_and_non_overlapping():
    matches = iter_charge_matches("涉嫌故意伤害罪")
    assert [(m[0], m[1], m[2]) for m in matches] == [(2, 7, "故意伤害罪")]


def test_all_cail_labels_map(shared_file):
    labels = [x.strip() for x in shared_file("cail2018", "meta", "accu.txt").read_text(
        encoding="utf-8").splitlines() if x.strip()]
    assert len(labels) == 202
    unmapped = [x for x in labels if not resolve_charge(x)]
    assert unmapped == sorted(UNMAPPED_LABELS)
    current = set(charge_names())
    assert all(set(resolve_charge(x)) <= current for x in labels)


def test_all_lecard_charges_map(shared_file):
    path = shared_file("lecard_v1", "data", "others", "criminal charges.txt")
    labels = [x.strip() for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert [x for x in labels if not resolve_charge(x)] == []


def test_pdp_charge_labels_are_found(shared_file):
    path = shared_file("pdp_meta", "police_accusation_distribution_test.json")
    dist = json.loads(path.read_text(encoding="utf-8"))["sample_distribution"]
    # the most frequent single-charge labels are official names and must be found exactly
    top = [d["label"] for d in dist[:20] if "+" not in d["label"]]
    for label in top:
        assert find_charges(label) == list(resolve_charge(label)), label
    # coverage over all single-charge labels, weighted by cases (the rest are extraction fragments: 裁定罪, 物品罪)
    singles = [d for d in dist if "+" not in d["label"]]
    found = sum(d["count"] for d in singles if find_charges(d["label"]))
    assert found / sum(d["count"] for d in singles) > 0.98


def test_rebuilding_the_table_reproduces_the_bundled_file(tmp_path, shared_file, run_script):
    statutes = shared_file("statutes")
    jurex = shared_file("jurex", "crime2article.json")
    out = tmp_path / "charges.json"
    assert run_script("build_charge_table.py", "--statutes", str(statutes), "--jurex", str(jurex),
                      "--out", str(out)) == 0
    bundled = resources.files("jiancha.law").joinpath("data/charges.json").read_text(encoding="utf-8")
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(bundled)


def test_selective_forms():
    assert selective_forms("走私、贩卖、运输、制造毒品罪")[:4] == ["走私毒品罪", "贩卖毒品罪", "运输毒品罪", "制造毒品罪"]
    assert "非法持有枪支罪" in selective_forms("非法持有、私藏枪支、弹药罪")
    assert "私藏枪支罪" in selective_forms("非法持有、私藏枪支、弹药罪")
    assert selective_forms("窝藏、包庇罪") == ["窝藏罪", "包庇罪"]
    assert selective_forms("盗窃罪") == []


@pytest.mark.parametrize("text, expected, everything", [
    ("其行为不构成盗窃罪，构成诈骗罪", ["诈骗罪"], ["盗窃罪", "诈骗罪"]),
    ("其行为不构成贪污罪、受贿罪", [], ["贪污罪", "受贿罪"]),
    ("不构成诈骗罪和合同诈骗罪", [], ["诈骗罪", "合同诈骗罪"]),
    ("对其不以故意伤害罪论处", [], ["故意伤害罪"]),
    ("不应认定为职务侵占罪", [], ["职务侵占罪"]),
    ("其行为不符合诈骗罪的构成要件", [], ["诈骗罪"]),
    ("公诉机关指控被告人犯盗窃罪不能成立", [], ["盗窃罪"]),
    ("指控的抢劫罪、盗窃罪罪名不成立", [], ["抢劫罪", "盗窃罪"]),
    ("未构成抢劫罪", [], ["抢劫罪"]),
    ("涉嫌盗窃罪，经审查，不构成盗窃罪", ["盗窃罪"], ["盗窃罪"]),  # affirmed once: found
    ("应当以抢劫罪论处", ["抢劫罪"], ["抢劫罪"]),
    ("销售不符合安全标准的食品罪", ["生产、销售不符合安全标准的食品罪"], ["生产、销售不符合安全标准的食品罪"]),
    ("不构成盗窃罪，但构成掩饰、隐瞒犯罪所得罪", ["掩饰、隐瞒犯罪所得、犯罪所得收益罪"],
     ["盗窃罪", "掩饰、隐瞒犯罪所得、犯罪所得收益罪"]),
])
def test_find_charges_leaves_out_denied_charges(text, expected, everything):
    assert find_charges(text) == expected
    assert find_charges(text, include_negated=True) == everything


def test_reduced_forms():
    forms = reduced_forms("伪造公司、企业、事业单位、人民团体印章罪")
    assert {"伪造公司印章罪", "伪造事业单位印章罪", "伪造公司、企业印章罪"} <= set(forms)
    assert "伪造罪" not in forms and "公司印章罪" not in forms       # under four characters; an item without its verb
    assert "非法持有枪支弹药罪" in reduced_forms("非法持有、私藏枪支、弹药罪")   # the 、 dropped
    assert "出口退税罪" not in reduced_forms("徇私舞弊发售发票、抵扣税款、出口退税罪")   # the beginning left out: six or more
    assert reduced_forms("盗窃罪") == []


@pytest.mark.parametrize("text, expected", [
    ("被告人犯伪造公司印章罪", ["伪造公司、企业、事业单位、人民团体印章罪"]),
    ("其行为已构成破坏公用电信设施罪", ["破坏广播电视设施、公用电信设施罪"]),
    ("被告人犯隐匿会计凭证罪", ["隐匿、故意销毁会计凭证、会计账簿、财务会计报告罪"]),
    ("被告人犯利用邪教组织破坏法律实施罪", ["组织、利用会道门、邪教组织、利用迷信破坏法律实施罪"]),
    ("以非法携带枪支危及公共安全罪追究", ["非法携带枪支、弹药、管制刀具、危险物品危及公共安全罪"]),
    ("被告人犯国有公司人员滥用职权罪", ["国有公司、企业、事业单位人员滥用职权罪"]),
    ("其行为已构成运送他人偷越边境罪", ["运送他人偷越国（边）境罪"]),
    # a form of several names goes to the one it leaves least out of, when the next leaves out twice as much
    ("被告人犯拐卖妇女罪", ["拐卖妇女、儿童罪"]),
    ("其行为已构成履行合同失职被骗罪", ["签订、履行合同失职被骗罪"]),
    ("犯非法制造罪", []),
])
def test_shortened_names_resolve(text, expected):
    assert find_charges(text) == expected


def test_a_charge_the_court_rejects_is_left_out_unless_the_facts_are_asked_for():
    same_sentence = "本院认为，其行为构成抢劫罪。公诉机关指控被告人犯盗窃罪的罪名不当，本院予以纠正。"
    assert find_charges(same_sentence) == ["抢劫罪"]
    assert find_charges(same_sentence, include_mentions=True) == ["抢劫罪", "盗窃罪"]
    later = "公诉机关指控被告人犯行贿罪。经查，被告人系代表单位实施，不构成行贿罪，其行为构成单位行贿罪。"
    assert find_charges(later) == ["单位行贿罪"]
    assert find_charges(later, include_mentions=True) == ["行贿罪", "单位行贿罪"]
    # the rejection answers a defence's submission: the charge stands
    assert find_charges("对辩护人提出指控的盗窃罪证据不足的意见，本院不予采纳") == ["盗窃罪"]
    assert find_charges("其行为已构成拐骗儿童罪，而非拐卖儿童罪") == ["拐骗儿童罪"]


@pytest.mark.parametrize(("text", "found", "mentioned"), [
    ("公诉机关指控被告人水某犯故意杀人罪。经审理，公诉机关指控的罪名不当，本院予以变更，被告人水某的行为构成故意伤害罪。",
     ["故意伤害罪"], ["故意杀人罪", "故意伤害罪"]),
    ("公诉机关指控被告人甲犯抢劫罪。本院认为，公诉机关指控被告人的罪名有误，应予纠正，被告人甲构成抢夺罪。",
     ["抢夺罪"], ["抢劫罪", "抢夺罪"]),
    # the court names the accused charge too: it stands
    ("公诉机关指控被告人甲犯盗窃罪。指控的罪名不当，本院予以纠正，被告人甲构成盗窃罪、敲诈勒索罪。",
     ["盗窃罪", "敲诈勒索罪"], ["盗窃罪", "敲诈勒索罪"]),
    # of two charges accused, which one is rejected is not said: both stay
    ("公诉机关指控被告人甲犯盗窃罪、诈骗罪。指控该起犯罪的罪名不能成立，被告人甲构成盗窃罪。",
     ["盗窃罪", "诈骗罪"], ["盗窃罪", "诈骗罪"]),
    # a defence's submission that the court answers, and an accusation upheld
    ("公诉机关指控被告人甲犯故意杀人罪。辩护人提出公诉机关指控的罪名不当的意见，本院不予采纳。", ["故意杀人罪"], ["故意杀人罪"]),
    ("公诉机关指控被告人甲犯盗窃罪。公诉机关指控的罪名成立。", ["盗窃罪"], ["盗窃罪"]),
])
def test_a_rejection_that_does_not_name_the_charge_overrules_the_accusation(text, found, mentioned):
    assert find_charges(text) == found
    assert find_charges(text, include_mentions=True) == mentioned


@pytest.mark.parametrize(("text", "found", "mentioned"), [
    ("被告人张某明知是他人盗窃所得的电动车，仍低价收购后转卖。", [], ["盗窃罪"]),
    ("被告人李某将银行卡提供给他人，用于接收电信诈骗资金。", [], ["诈骗罪"]),
    ("被告人明知系上游犯罪诈骗所得款项，仍帮助转账。", [], ["诈骗罪"]),
    # the suspect's own act, alone or with accomplices
    ("被告人王某伙同他人盗窃所得财物价值5000元。", ["盗窃罪"], ["盗窃罪"]),
    ("被告人与他人诈骗所得钱款均分。", ["诈骗罪"], ["诈骗罪"]),
    ("被告人王某盗窃所得赃款用于挥霍。", ["盗窃罪"], ["盗窃罪"]),
    ("被告人赵某明知是犯罪所得而收购，又盗窃手机一部。", ["盗窃罪"], ["盗窃罪"]),
])
def test_a_bare_act_naming_another_persons_offence_is_not_found(text, found, mentioned):
    assert find_charges(text) == found
    assert find_charges(text, include_mentions=True) == mentioned   # what the text is about


@pytest.mark.parametrize(("text", "found"), [
    # an accusation written around its charge, rejected in the same sentence or later without naming it
    ("公诉机关以诈骗罪指控不妥，本院以招摇撞骗罪判处。", ["招摇撞骗罪"]),
    ("公诉机关以贪污罪对被告人刘某提起公诉。本院认为其行为构成职务侵占罪，公诉机关的定性有误，本院予以纠正。", ["职务侵占罪"]),
    ("公诉机关以被告人方某犯非法获取计算机信息系统数据罪提起公诉，庭审中变更指控罪名为侵犯公民个人信息罪。",
     ["侵犯公民个人信息罪"]),
    ("起诉书指控被告人谢某犯寻衅滋事罪。庭审中，公诉机关当庭变更起诉罪名为故意伤害罪。", ["故意伤害罪"]),
    # a defence's proposed charge the court rejects; one it accepts
    ("辩护人提出，其行为应认定为故意伤害罪。经查，辩护意见不能成立，本院不予采纳，应以故意杀人罪定罪处罚。", ["故意杀人罪"]),
    ("辩护人提出被告人的行为应以妨害公务罪论处、公诉机关指控袭警罪不当的辩护意见，本院不予采纳。", ["袭警罪"]),
    ("辩护人提出被告人的行为应认定为盗窃罪的辩护意见成立，本院予以采纳。", ["盗窃罪"]),
    # the accusation the defence disputes is not its proposal; 以…论处 is no accusation
    ("辩护人提出公诉机关以盗窃罪起诉不当的意见，本院不予采纳。", ["盗窃罪"]),
    ("被告人的行为应以妨害公务罪论处。", ["妨害公务罪"]),
])
def test_what_the_court_finds_when_the_accused_charge_is_changed(text, found):
    assert find_charges(text) == found
