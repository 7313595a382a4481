"""Rewards: exact values on hand-written completions, for every rule, in both modes."""

from __future__ import annotations

import pytest

from jiancha.errors import ConfigError
from jiancha.pdp.parsing import parse_answer
from jiancha.train.rewards import (
    ProcessWeights,
    article_f1,
    class_balance_weights,
    make_outcome_reward,
    make_process_reward,
    outcome_reward,
    process_reward,
    score_outcome,
    score_process,
)

DNP, SNP, P = "相对不起诉", "法定不起诉", "起诉"


def answer(decision_line: str = "决定：相对不起诉", *, articles: str = "刑法：第一百三十三条之一",
           analysis: str = "犯罪情节轻微。", think: str = "") -> str:
    return f"{think}【适用法条】\n{articles}\n【审查分析】\n{analysis}\n【最终结论】\n{decision_line}"


# (case, text, gold, reference reward, default reward)
CASES = [
    ("correct", answer(), DNP, 1.0, 1.0),
    ("wrong label", answer("决定：起诉"), DNP, 0.1, 0.1),
    ("trailing ；", answer("决定：相对不起诉；"), DNP, 1.0, 1.0),
    ("trailing ，", answer("决定：相对不起诉，"), DNP, 1.0, 1.0),
    ("markdown **", answer("决定：**相对不起诉**"), DNP, 1.0, 1.0),
    ("ascii colon", answer("决定: 相对不起诉"), DNP, 1.0, 1.0),
    ("value on the next line", answer("决定：\n相对不起诉"), DNP, 1.0, 1.0),
    ("synonym", answer("决定：酌定不起诉"), DNP, 0.0, 1.0),
    ("code", answer("决定：DNP"), DNP, 0.0, 1.0),
    ("sentence after the label", answer("决定：相对不起诉。理由如上"), DNP, 0.0, 1.0),
    ("not a label", answer("决定：不起诉"), DNP, 0.0, 0.0),
    ("no decision line", answer("建议相对不起诉"), DNP, 0.0, 0.0),
    ("bare label line", answer("相对不起诉"), DNP, 0.0, 1.0),
    ("missing analysis section",
     "【适用法条】\n刑法：第一百三十三条之一\n【最终结论】\n决定：相对不起诉", DNP, 0.0, 1.0),
    ("blank analysis", answer(analysis="  \n "), DNP, 0.0, 1.0),
    ("extra bracket", answer(analysis="【注意】情节轻微。"), DNP, 0.0, 1.0),
    ("section twice", answer() + "\n【最终结论】\n决定：相对不起诉", DNP, 0.0, 1.0),
    ("wrong order",
     "【适用法条】\n无\n【最终结论】\n决定：相对不起诉\n【审查分析】\n情节轻微。", DNP, 0.0, 1.0),
    ("think block stripped", answer(think="<think>【最终结论】决定：起诉</think>\n"), DNP, 1.0, 1.0),
    ("only reasoning", "<think>想一想", DNP, 0.0, 0.0),
    ("empty", "", DNP, 0.0, 0.0),
    ("gold not a label", answer(), "不起诉", 0.1, 0.1),
    ("wrong NP class", answer("决定：法定不起诉"), DNP, 0.1, 0.1),
]


@pytest.mark.parametrize(("case", "text", "gold", "ref", "default"), CASES, ids=[c[0] for c in CASES])
def test_outcome_reward_rules_in_both_modes(case, text, gold, ref, default):
    assert score_outcome(text, gold, compat="reference") == ref
    assert score_outcome(text, gold, compat="default") == default
    # the TRL-signature functions give the same values, for plain and conversational completions
    conv = [{"role": "assistant", "content": text}]
    assert make_outcome_reward("reference")(prompts=[None], completions=[conv], decision=[gold]) == [ref]
    assert outcome_reward(prompts=[None], completions=[text], decision=[gold]) == [default]


def test_reference_reward_accepts_what_reference_evaluation_rejects():
    text = answer("决定：相对不起诉；")
    assert parse_answer(text, compat="reference").valid is False   # evaluation (reference parser) rejects
    assert score_outcome(text, DNP, compat="reference") == 1.0       # the published reward accepts


def test_outcome_reward_needs_the_gold_column_and_logs_per_class():
    with pytest.raises(ConfigError, match="gold column 'decision'"):
        outcome_reward(prompts=[None], completions=["x"])
    with pytest.raises(ConfigError, match="2 values for 1 completions"):
        outcome_reward(prompts=[None], completions=["x"], decision=[DNP, P])
    logged = {}
    out = outcome_reward(prompts=[None] * 3, completions=[answer(), answer("决定：起诉"), "乱写"],
                         decision=[DNP, DNP, P], log_metric=lambda k, v: logged.__setitem__(k, v))
    assert out == [1.0, 0.1, 0.0]
    assert logged["pdp/outcome/DNP"] == pytest.approx(0.55)
    assert logged["pdp/outcome/P"] == 0.0
    assert logged["pdp/valid"] == pytest.approx(2 / 3)
    with pytest.raises(ConfigError):
        make_outcome_reward("strict")  # type: ignore[arg-type]


GOLD_ARTICLES = ["cl:第一百三十三条之一", "cpl:第一百七十七条第二款"]


def test_process_reward_components_exact():
    both = answer(articles="刑法：第一百三十三条之一\n刑事诉讼法：第一百七十七条第二款")
    s = score_process(both, DNP, GOLD_ARTICLES)
    assert (s.decision, s.level1, s.articles, s.format, s.total) == (1.0, 1.0, 1.0, 1.0, pytest.approx(1.0))
    # wrong label, same Level-1 (both NP); one of two gold articles: P 1, R 1/2, F1 2/3
    s = score_process(answer("决定：法定不起诉"), DNP, GOLD_ARTICLES)
    assert (s.decision, s.level1, s.articles, s.format) == (0.0, 1.0, pytest.approx(2 / 3), 1.0)
    assert s.total == pytest.approx(0.2 + 0.2 * 2 / 3 + 0.1)
    # wrong Level-1, no article right
    s = score_process(answer("决定：起诉", articles="刑法：第二百六十四条"), DNP, GOLD_ARTICLES)
    assert (s.decision, s.level1, s.articles, s.total) == (0.0, 0.0, 0.0, pytest.approx(0.1))
    # invalid answers score 0 everywhere, even when no article is cited and gold has none
    assert score_process("乱写一通", DNP, []).total == 0.0
    # weights from the config
    w = ProcessWeights(decision=1.0, level1=0.0, articles=0.0, format=0.0)
    assert score_process(answer("决定：法定不起诉"), DNP, GOLD_ARTICLES, weights=w).total == 0.0
    with pytest.raises(ConfigError):
        ProcessWeights(decision=-1.0)


def test_process_reward_article_normalisation():
    # Arabic numerals and 《》 are normalised like evaluation does
    arabic = answer(articles="刑法：第133条之一\n刑事诉讼法：第177条第2款")
    assert score_process(arabic, DNP, GOLD_ARTICLES).articles == 1.0
    # gold from a 2016 document cites 2012 CPL numbers (173(2) = 2018 177(2))
    assert score_process(arabic, DNP, ["cl:第一百三十三条之一", "cpl:第一百七十三条第二款"],
                         gold_date="2016-05-01").articles == 1.0
    # paragraph missing: wrong at exact level, right at article level
    no_para = answer(articles="刑法：第一百三十三条之一\n刑事诉讼法：第一百七十七条")
    assert score_process(no_para, DNP, GOLD_ARTICLES).articles == pytest.approx(0.5)
    assert score_process(no_para, DNP, GOLD_ARTICLES, match="article").articles == 1.0
    assert article_f1(set(), set()) == 1.0 and article_f1({"a"}, set()) == 0.0


def test_process_reward_reference_mode_uses_the_reference_format_rules():
    text = answer("决定：酌定不起诉")            # a synonym: valid for evaluation, not for the reference
    assert score_process(text, DNP, GOLD_ARTICLES).decision == 1.0
    assert score_process(text, DNP, GOLD_ARTICLES, compat="reference").total == 0.0


def test_process_reward_function_class_balance_and_logging():
    texts = [answer(), answer("决定：起诉", articles="刑法：第二百六十四条")]
    golds = [DNP, P]
    arts = [GOLD_ARTICLES, ["cl:第二百六十四条", "cpl:第一百七十六条"]]
    plain = process_reward(prompts=[None, None], completions=texts, decision=golds, relevant_articles=arts)
    assert plain == [pytest.approx(0.5 + 0.2 + 0.2 * 2 / 3 + 0.1), pytest.approx(1.0 - 0.2 * (1 - 2 / 3))]
    weights = class_balance_weights([P, P, P, DNP])
    assert weights == {P: pytest.approx(2 / 3), DNP: pytest.approx(2.0)}
    logged = {}
    scaled = make_process_reward(class_weights=weights)(
        prompts=[None, None], completions=texts, decision=golds, relevant_articles=arts,
        log_metric=lambda k, v: logged.__setitem__(k, v))
    assert scaled == [pytest.approx(plain[0] * 2.0), pytest.approx(plain[1] * 2 / 3)]
    assert logged["pdp/process/decision"] == 1.0
    assert logged["pdp/process/articles"] == pytest.approx(2 / 3)
    assert logged["pdp/process/DNP"] == pytest.approx(scaled[0])
    assert set(logged) >= {"pdp/process/level1", "pdp/process/format", "pdp/process/P"}


def _parity_texts() -> list[str]:
    """Every parse vector of tests/pdp, every case above, and combinations of decision-line variants."""
    import itertools
    import json
    from pathlib import Path

    vectors = json.loads((Path(__file__).parents[1] / "pdp" / "vectors" / "parse_vectors.json")
                         .read_text(encoding="utf-8"))
    texts = [v["text"] for v in vectors] + [c[1] for c in CASES]
    keys = ["决定：", "决定:", "决定为：", "处理决定：", "决定：\n", ""]
    values = [DNP, SNP, P, "不起诉", "酌定不起诉", "DNP", "相对不起诉（酌定不起诉）", "起诉或不起诉", ""]
    ends = ["", "。", "；", "**", "。理由如上"]
    thinks = ["", "<think>想想</think>", "<think>没想完"]
    for key, value, end, think in itertools.product(keys, values, ends, thinks):
        texts.append(answer(f"{key}{value}{end}", think=think))
    return texts


def test_default_outcome_reward_uses_the_evaluation_parser():
    """Default mode: the reward's validity and decision are exactly those of ``parse_answer`` (one parser)."""
    texts = _parity_texts()
    assert len(texts) > 800
    for text in texts:
        parsed = parse_answer(text, compat="default")
        for gold in (DNP, P):
            want = 0.0 if not parsed.valid else 1.0 if parsed.decision == gold else 0.1
            assert score_outcome(text, gold) == want, text
        assert outcome_reward(prompts=[None], completions=[text], decision=[DNP]) == [score_outcome(text, DNP)]
