"""A verdict's sentence for each charge and the sentence to serve (jiancha.law.verdicts)."""

from __future__ import annotations

from jiancha.law.verdicts import Penalty, describe_verdict, parse_sentencing, sentencing_by_defendant


def test_several_charges_are_described_with_the_sentence_to_serve_not_the_total():
    verdict = ("被告人王某犯受贿罪，判处有期徒刑十一年，并处罚金人民币一百万元；犯滥用职权罪，判处有期徒刑三年，总和刑期有期徒刑十四年，"
               "决定执行有期徒刑十二年六个月，并处罚金人民币一百万元。如不服本判决…")
    assert describe_verdict(verdict) == "受贿罪有期徒刑11年，滥用职权罪有期徒刑3年，决定执行有期徒刑12年6个月，并处罚金"
    s = parse_sentencing(verdict)
    assert s.executed == Penalty("有期徒刑", 150, fine=True) and s.decided and not s.combined_with_prior
    assert [c for c, _ in s.charges] == ["受贿", "滥用职权"]


def test_the_crimes_of_a_prior_sentence_are_not_this_verdicts_charges():
    verdict = ("被告人乔某犯寻衅滋事罪，判处有期徒刑一年；与原判决犯抢劫罪、故意伤害罪判处有期徒刑十年，并处罚金4000元并罚，"
               "决定执行有期徒刑十年六个月，并处罚金4000元。")
    s = parse_sentencing(verdict)
    assert s.charges == (("寻衅滋事", Penalty("有期徒刑", 12)),) and s.combined_with_prior
    assert s.executed == Penalty("有期徒刑", 126, fine=True)
    assert describe_verdict(verdict) == "寻衅滋事罪有期徒刑1年，与前罪并罚，决定执行有期徒刑10年6个月，并处罚金"
    revoked = "被告人陈某犯盗窃罪，判处有期徒刑六个月，与前犯交通肇事罪判处的有期徒刑三年并罚，决定执行有期徒刑三年三个月。"
    assert [c for c, _ in parse_sentencing(revoked).charges] == ["盗窃"]


def test_a_quashed_judgment_re_sentenced_is_not_combined_with_a_prior_one():
    s = parse_sentencing("撤销原判，改判被告人甲犯盗窃罪，判处有期徒刑一年；犯诈骗罪，判处有期徒刑二年，数罪并罚，决定执行有期徒刑二年六个月。")
    assert not s.combined_with_prior and [c for c, _ in s.charges] == ["盗窃", "诈骗"] and s.executed.months == 30


def test_one_sentence_per_charge_without_a_sentence_to_serve_is_not_broken_down():
    # the same name twice (two people de-identified alike): no 决定执行, so nothing claims one
    verdict = "被告人郭某犯滥伐林木罪，判处有期徒刑七个月。被告人郭某犯滥伐林木罪，判处有期徒刑八个月。被告人董某犯滥伐林木罪，判处拘役五个月。"
    assert describe_verdict(verdict) == "郭某 有期徒刑8个月；董某 拘役5个月"
    assert [(n, s.decided, len(s.charges)) for n, s in sentencing_by_defendant(verdict)] == [("郭某", False, 2),
                                                                                            ("董某", False, 1)]


def test_a_suspension_on_the_sentence_to_serve_is_not_each_charges():
    s = parse_sentencing("被告人钱某犯帮助信息网络犯罪活动罪，判处有期徒刑8个月；犯掩饰、隐瞒犯罪所得罪，判处有期徒刑1年；"
                         "决定执行有期徒刑1年4个月，缓刑2年，并处罚金人民币1.5万元。")
    assert s.charges == (("帮助信息网络犯罪活动", Penalty("有期徒刑", 8)), ("掩饰、隐瞒犯罪所得", Penalty("有期徒刑", 12)))
    assert s.executed == Penalty("有期徒刑", 16, suspended=True, fine=True)
    assert s.describe() == ("帮助信息网络犯罪活动罪有期徒刑8个月，掩饰、隐瞒犯罪所得罪有期徒刑1年，"
                            "决定执行有期徒刑1年4个月（缓刑），并处罚金")
