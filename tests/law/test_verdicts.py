"""A verdict's sentence for each charge and the sentence to serve (jiancha.law.verdicts)."""

from __future__ import annotations

from jiancha.law.penalties import LIFE_MONTHS, Penalty, parse_penalty
from jiancha.law.verdicts import (
    describe_verdict,
    parse_sentencing,
    sentencing_by_defendant,
    served_months,
)


def test_several_charges_are_described_with_the_sentence_to_serve_not_the_total():
    verdict = ("被告人王某犯受贿罪，判处有期徒刑十一年，并处罚金人民币一百万元；犯滥用职权罪，判处有期徒刑三年，总和刑期有期徒刑十四年，"
               "决定执行有期徒刑十二年六个月，并处罚金人民币一百万元。如不服本判决…")
    assert describe_verdict(verdict) == "受贿罪有期徒刑11年，滥用职权罪有期徒刑3年，决定执行有期徒刑12年6个月，并处罚金100万元"
    s = parse_sentencing(verdict)
    assert s.executed == Penalty("有期徒刑", 150, fine=True, fine_yuan=1e6) and s.decided and not s.combined_with_prior
    assert [c for c, _ in s.charges] == ["受贿", "滥用职权"]


def test_the_crimes_of_a_prior_sentence_are_not_this_verdicts_charges():
    verdict = ("被告人乔某犯寻衅滋事罪，判处有期徒刑一年；与原判决犯抢劫罪、故意伤害罪判处有期徒刑十年，并处罚金4000元并罚，"
               "决定执行有期徒刑十年六个月，并处罚金4000元。")
    s = parse_sentencing(verdict)
    assert s.charges == (("寻衅滋事", Penalty("有期徒刑", 12)),) and s.combined_with_prior
    assert s.executed == Penalty("有期徒刑", 126, fine=True, fine_yuan=4000.0)
    assert describe_verdict(verdict) == "寻衅滋事罪有期徒刑1年，与前罪并罚，决定执行有期徒刑10年6个月，并处罚金4000元"
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
    assert s.executed == Penalty("有期徒刑", 16, suspended=True, fine=True, probation_months=24, fine_yuan=15000.0)
    assert s.describe() == ("帮助信息网络犯罪活动罪有期徒刑8个月，掩饰、隐瞒犯罪所得罪有期徒刑1年，"
                            "决定执行有期徒刑1年4个月（缓刑2年），并处罚金1.5万元")


def test_accessory_penalties_are_read_and_described():
    life = parse_sentencing("被告人甲犯故意杀人罪，判处死刑，缓期二年执行，剥夺政治权利终身。二、对被告人甲限制减刑。").executed
    assert (life.rights_deprived, life.commutation_limited) == ("终身", True)
    assert life.describe() == "死刑缓期二年执行，限制减刑，剥夺政治权利终身"
    term = parse_penalty("判处有期徒刑十五年，剥夺政治权利一年六个月，并处没收个人全部财产，驱逐出境")
    assert (term.rights_deprived, term.confiscation, term.expulsion, term.fine) == ("1年6个月", True, True, False)
    assert term.describe() == "有期徒刑15年，剥夺政治权利1年6个月，并处没收个人全部财产，驱逐出境"
    assert term.describe(accessory=False) == "有期徒刑15年"
    # confiscating what the crime gained or used is no penalty
    plain = parse_penalty("判处有期徒刑一年，并处罚金二千元；违法所得予以没收，没收作案工具")
    assert not plain.confiscation and plain.describe() == "有期徒刑1年，并处罚金2000元"
    # a limited commutation of a suspended death sentence only
    assert not parse_sentencing("被告人乙犯抢劫罪，判处无期徒刑。对被告人乙限制减刑。").executed.commutation_limited


def test_a_sentence_runs_past_a_bracketed_term_and_on_to_its_accessory_penalties():
    s = parse_sentencing("被告人张某犯故意伤害罪，判处有期徒刑十年（刑期从判决执行之日起计算。即自2013年12月3日起至2023年12月2日"
                         "止）。剥夺政治权利一年。")
    assert s.executed == Penalty("有期徒刑", 120, rights_deprived="1年")


def test_what_a_ruling_quashes_is_not_the_sentence_and_a_restated_upheld_charge_counts_once():
    ruling = ("一、维持某法院刑事判决第一项中对被告人田某犯盗窃罪的定罪量刑部分，即被告人田某犯盗窃罪，判处有期徒刑八个月；"
              "二、撤销该判决第一项中对被告人田某犯抢劫罪的量刑部分及数罪并罚部分，即被告人田某犯抢劫罪，判处有期徒刑十年，"
              "决定执行有期徒刑十年六个月。三、上诉人（原审被告人）田某犯盗窃罪，判处有期徒刑八个月；犯抢劫罪，判处有期徒刑"
              "三年，决定执行有期徒刑三年六个月。本判决为终审判决。")
    s = parse_sentencing(ruling)
    assert [(c, p.months) for c, p in s.charges] == [("盗窃", 8), ("抢劫", 36)] and s.executed.months == 42
    # items not numbered: the quashing clause ends where the appellant's new sentence begins
    unnumbered = ("维持原判对被告人孙某的定罪量刑，即被告人孙某犯非法采矿罪，判处有期徒刑三年；撤销原判对被告人周某的量刑部分，即"
                  "被告人周某犯非法采矿罪，判处有期徒刑二年；上诉人（原审被告人）周某犯非法采矿罪，判处有期徒刑一年六个月。")
    assert [(n, s.executed.months) for n, s in sentencing_by_defendant(unnumbered)] == [("孙某", 36), ("周某", 18)]
    # a suspension revoked (撤销…缓刑) is no quashing of this verdict's sentence
    revoked = "撤销某法院对被告人王某宣告的缓刑；被告人王某犯盗窃罪，判处有期徒刑一年，与前罪判处的有期徒刑二年并罚，决定执行有期徒刑二年十个月。"
    assert [c for c, _ in parse_sentencing(revoked).charges] == ["盗窃"]


def test_a_limited_commutation_quashed_is_not_one():
    ruling = ("一、维持原判第一项，即被告人马某犯抢劫罪，判处死刑，缓期二年执行，剥夺政治权利终身；被告人高某犯抢劫罪，判处无期徒刑，"
              "剥夺政治权利终身；二、撤销原判第二项，即对被告人马某限制减刑。本判决为终审判决。")
    assert [(n, s.executed.commutation_limited) for n, s in sentencing_by_defendant(ruling)] == [("马某", False),
                                                                                                ("高某", False)]
    kept = ruling.replace("二、撤销原判第二项，即对被告人马某限制减刑。", "二、对被告人马某限制减刑。")
    assert [s.executed.commutation_limited for _, s in sentencing_by_defendant(kept)] == [True, False]


def test_the_longest_sentence_to_serve_counts_fixed_term_prison():
    assert served_months("一、被告人甲犯盗窃罪，判处有期徒刑三年；二、被告人乙犯盗窃罪，判处拘役五个月。") == 36.0
    assert served_months("被告人甲犯受贿罪，判处有期徒刑十年；犯滥用职权罪，判处有期徒刑三年，总和刑期十三年，"
                         "决定执行有期徒刑十二年。") == 144.0           # the sentence to serve, not the total
    assert served_months("被告人甲犯故意杀人罪，判处死刑，缓期二年执行。") == LIFE_MONTHS
    assert served_months("被告人甲犯妨害公务罪，判处罚金人民币三千元。") == 0.0     # a fine alone: no prison
    assert served_months("准许上诉人撤回上诉。") is None


def test_the_probation_term_and_the_amounts_a_verdict_states_are_read():
    p = parse_penalty("判处有期徒刑三年，缓刑四年（缓刑考验期限，从判决确定之日起计算），并处罚金人民币五千元（已缴纳）")
    assert (p.probation_months, p.fine_yuan) == (48, 5000.0) and p.describe() == "有期徒刑3年（缓刑4年），并处罚金5000元"
    assert parse_penalty("判处拘役三个月，缓刑考验期限为六个月").probation_months == 6
    # a term the verdict does not state, and a fine without an amount
    vague = parse_penalty("判处有期徒刑一年，宣告缓刑，并处罚金（罚金于判决生效后十日内缴纳）")
    assert (vague.probation_months, vague.fine_yuan) == (None, None) and vague.describe() == "有期徒刑1年（缓刑），并处罚金"
    part = parse_penalty("判处有期徒刑十年，并处罚金人民币二万元、没收个人财产人民币十万元")
    assert (part.fine_yuan, part.confiscation_yuan, part.confiscation_all) == (20000.0, 100000.0, False)
    assert part.describe() == "有期徒刑10年，并处罚金2万元、没收财产10万元"
    assert parse_penalty("判处罚金人民币三万元").describe() == "单处罚金3万元"
