"""Amounts, quantities, penalties and circumstances parsed from Chinese legal text (jiancha.law)."""

from __future__ import annotations

import pytest

from jiancha.law.amounts import log_distance, parse_amounts, parse_quantities
from jiancha.law.circumstances import find_circumstances
from jiancha.law.penalties import parse_prison_months, render_term, term_band


def test_amounts_in_yuan():
    assert parse_amounts("窃取人民币3,723元，另有价值1.2万元的手机及5000余元现金") == [3723.0, 12000.0, 5000.0]
    assert parse_amounts("窃取现金3,000元及价值1.5万元的手机，另有元宝") == [3000.0, 15000.0]
    assert parse_amounts("骗取3，500元") == [3500.0]
    assert parse_amounts("无金额") == []


def test_quantities_in_grams_and_log_distance():
    assert parse_quantities("海洛因5.2克、甲基苯丙胺1.5千克及大麻2公斤") == [5.2, 1500.0, 2000.0]
    assert parse_quantities("无") == []
    # in Chinese numerals, as judgments often write small quantities; 千 before 克 read either way gives one value
    assert parse_quantities("贩卖海洛因五克、甲基苯丙胺二十余克，查获氯胺酮零点零五克") == [5.0, 20.0, 0.05]
    assert parse_quantities("大麻一千克、二十千克、一点五公斤") == [1000.0, 20000.0, 1500.0]
    assert parse_quantities("克服困难，攻克难关，百克，每克三百元") == []
    assert log_distance(9.0, 99.0) == pytest.approx(1.0)
    assert log_distance(None, 5.0) is None


def test_prison_terms_and_bands():
    assert parse_prison_months("判处有期徒刑三年六个月，并处罚金人民币五千元") == 42.0
    assert parse_prison_months("判处有期徒刑十个月；犯盗窃罪判处有期徒刑二年") == 24.0
    assert parse_prison_months("判处有期徒刑2年") == 24.0
    assert parse_prison_months("判处拘役四个月，缓刑六个月") == 0.0
    assert parse_prison_months("判处无期徒刑") == 600.0
    assert parse_prison_months("驳回上诉") is None
    assert [term_band(m) for m in (None, 0.0, 35.0, 36.0, 120.0, 121.0)] == [-1, 0, 1, 2, 2, 3]
    assert [render_term(m) for m in (None, 0.0, 8.0, 600.0)] == ["未知", "非监禁刑", "有期徒刑8个月", "无期徒刑或死刑"]


def test_circumstances():
    assert find_circumstances("被告人系累犯，到案后自首") == frozenset({"累犯", "自首"})
    assert find_circumstances("取得谅解并退赃，系未成年人") == frozenset({"谅解", "退赃", "未成年"})


def test_a_verdict_on_several_defendants_is_described_for_each():
    from jiancha.law.verdicts import describe_verdict

    verdict = ("一、被告单位某某商贸有限公司犯内幕交易罪，判处罚金人民币二百万元。二、被告人李某甲犯内幕交易罪，判处有期徒刑二年，"
               "缓刑三年。三、被告人钟某犯内幕交易罪，判处有期徒刑一年六个月，并处罚金人民币十二万元。四、被告人王某犯内幕交易罪，"
               "免除刑事处罚。五、责令被告人钟某退赔犯罪所得十万元。如不服本判决，可在接到判决书的第二日起十日内上诉。")
    # the suspension is the second defendant's alone; 退赔犯罪所得 is no conviction
    assert describe_verdict(verdict) == ("某某商贸有限公司 单处罚金200万元；李某甲 有期徒刑2年（缓刑3年）；钟某 有期徒刑1年6个月，并处罚金"
                                         "12万元；"
                                         "王某 免予刑事处罚")
    on_appeal = ("一、维持某县人民法院（2016）某刑初221号刑事判决第一项，即被告人甲犯盗窃罪，判处有期徒刑一年。二、撤销该判决第二项、"
                 "第三项，即被告人乙犯盗窃罪，判处有期徒刑三年；被告人丙犯盗窃罪，判处有期徒刑二年。三、上诉人（原审被告人）乙犯盗窃罪，"
                 "判处有期徒刑一年六个月，缓刑二年。")
    assert describe_verdict(on_appeal) == "甲 有期徒刑1年；乙 有期徒刑1年6个月（缓刑2年）"   # what it quashes is not shown
    many = "".join(f"{'一二三四五六'[i]}、被告人{n}犯赌博罪，判处拘役{'一二三四五六'[i]}个月。" for i, n in enumerate("甲乙丙丁戊己"))
    assert describe_verdict(many) == "甲 拘役1个月；乙 拘役2个月；丙 拘役3个月；丁 拘役4个月；等6人"
    assert describe_verdict("被告人胡某、苏某犯组织卖淫罪，各判处有期徒刑六年；被告人毛某犯协助组织卖淫罪，判处有期徒刑三年。") \
        == "胡某 有期徒刑6年；苏某 有期徒刑6年；毛某 有期徒刑3年"   # 各判处: each named
    assert describe_verdict("被告人胡某、苏某犯赌博罪，各判处拘役三个月，缓刑四个月。") == ("胡某 拘役3个月（缓刑4个月）；"
                                                                               "苏某 拘役3个月（缓刑4个月）")
