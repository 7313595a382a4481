"""Metrics on hand-built cases with exact expected values (protocol §4 conventions)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jiancha.pdp import metrics as M

P, DNP, SNP, IENP = "起诉", "相对不起诉", "法定不起诉", "存疑不起诉"
# one run: gold / pred; record 7 has an invalid gold label (skipped for decisions, kept for articles)
GOLD = [P, P, DNP, DNP, SNP, IENP, "不起诉"]
PRED = [P, DNP, DNP, None, P, IENP, P]
# articles: pred / gold sets per record
A_PRED = [{"a", "b"}, set(), {"a"}, {"a"}, {"c"}, {"a", "b"}, set()]
A_GOLD = [{"a"}, set(), set(), {"a"}, {"a", "b"}, {"b", "c"}, {"a"}]


def block(gold=GOLD, pred=PRED, a_pred=A_PRED, a_gold=A_GOLD, both_empty=1.0):
    arts = M.article_scores(a_pred, a_gold, both_empty=both_empty)
    return M.compute_block(M.encode_labels(gold), M.encode_labels(pred), arts)


def test_level2_per_class_invalid_is_false_negative_only():
    b = block()
    pc = b["decision_per_class"]
    assert pc[P] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "count": 2}
    assert pc[DNP] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "count": 2}
    assert pc[SNP] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "count": 1}
    assert pc[IENP] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "count": 1}
    assert b["decision_level2_macro_f1"] == pytest.approx(0.5)
    assert b["decision_level2_accuracy"] == pytest.approx(0.5)
    assert b["decision_level2_micro"] == pytest.approx({"precision": 0.6, "recall": 0.5, "f1": 6 / 11})


def test_level1():
    b = block()
    assert b["level1_per_class"]["起诉"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "count": 2}
    np_ = b["level1_per_class"]["不起诉"]
    assert np_["count"] == 4
    assert (np_["precision"], np_["recall"], np_["f1"]) == pytest.approx((2 / 3, 0.5, 4 / 7))
    assert b["decision_level1_macro_f1"] == pytest.approx(15 / 28)
    assert b["decision_level1_micro"]["f1"] == pytest.approx(6 / 11)
    assert b["decision_level1_accuracy"] == pytest.approx(0.5)


def test_level1_differs_from_level2_when_errors_stay_within_not_prosecute():
    # DNP→SNP and SNP→IENP are Level-2 errors but Level-1 hits (both 不起诉)
    b = block(gold=[DNP, SNP, P], pred=[SNP, IENP, P], a_pred=[set()] * 3, a_gold=[set()] * 3)
    assert b["decision_level2_accuracy"] == pytest.approx(1 / 3)
    assert b["decision_level1_accuracy"] == 1.0
    assert b["decision_level1_macro_f1"] == 1.0 and b["decision_level1_micro"]["f1"] == 1.0


def test_counts():
    b = block()
    assert (b["decision_parse_fail_count"], b["decision_eval_count"], b["reference_parse_fail_count"]) == (1, 6, 1)


def test_micro_f1_formula():
    b = block()
    correct, n, n_valid = 3, 6, 5
    assert b["decision_level2_micro"]["f1"] == pytest.approx(2 * correct / (n + n_valid))


def test_articles_reference_both_empty_scores_one():
    b = block()
    assert b["articles_precision"] == pytest.approx(3 / 7)
    assert b["articles_recall"] == pytest.approx(0.5)
    assert b["articles_f1"] == pytest.approx(19 / 42)


def test_articles_default_both_empty_left_out():
    b = block(both_empty=math.nan)
    assert b["articles_precision"] == pytest.approx(1 / 3)
    assert b["articles_recall"] == pytest.approx(5 / 12)
    assert b["articles_f1"] == pytest.approx(13 / 36)


def test_zero_support_classes_count_in_macro():
    b = block(gold=[P, P], pred=[P, P], a_pred=[set(), set()], a_gold=[set(), set()])
    assert b["decision_level2_macro_f1"] == pytest.approx(0.25)
    assert b["decision_level1_macro_f1"] == pytest.approx(0.5)
    assert b["decision_per_class"][SNP] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "count": 0}


def test_all_invalid_and_no_valid_gold():
    b = block(gold=[P, DNP], pred=[None, "起 诉"], a_pred=[set(), set()], a_gold=[set(), set()])
    assert b["decision_level2_accuracy"] == 0.0 and b["decision_level2_micro"]["f1"] == 0.0
    assert b["decision_parse_fail_count"] == 2
    b = block(gold=["x", None], pred=[P, P], a_pred=[set(), set()], a_gold=[set(), set()])
    assert b["decision_eval_count"] == 0 and b["reference_parse_fail_count"] == 2
    assert b["decision_level2_macro_f1"] == 0.0 and b["articles_f1"] == 1.0


def test_unequal_runs_mean_and_se():
    gold = GOLD + [P, DNP, IENP]
    pred = PRED + [P, DNP, P]
    a_pred, a_gold = A_PRED + [set()] * 3, A_GOLD + [set()] * 3
    arts = M.article_scores(a_pred, a_gold)
    res = M.compute_runs(M.encode_labels(gold), M.encode_labels(pred), arts, [0] * 7 + [1] * 3)
    assert set(res["per_run"]) == {"0", "1"}
    assert res["per_run"]["0"]["decision_level2_macro_f1"] == pytest.approx(0.5)
    assert res["per_run"]["1"]["decision_level2_macro_f1"] == pytest.approx(5 / 12)
    assert res["mean_se"]["level2_macro_f1"] == pytest.approx({"mean": 11 / 24, "se": 1 / 24})
    assert res["pooled"]["decision_level2_macro_f1"] == pytest.approx(10 / 21)
    assert res["pooled"]["decision_eval_count"] == 9
    # articles: run 1 has three both-empty records (1.0 each)
    assert res["mean_se"]["articles_f1"]["mean"] == pytest.approx((19 / 42 + 1) / 2)


def test_mean_se_keys_and_one_run():
    res = M.compute_runs(M.encode_labels(GOLD), M.encode_labels(PRED), M.article_scores(A_PRED, A_GOLD), [3] * 7)
    expected = {"level1_macro_f1", "level1_micro_f1", "level2_macro_f1", "level2_micro_f1", "articles_f1",
                "level1_f1_起诉", "level1_f1_不起诉", f"level2_f1_{P}", f"level2_f1_{DNP}", f"level2_f1_{SNP}",
                f"level2_f1_{IENP}"}
    assert expected <= set(res["mean_se"])
    assert all(v["se"] == 0.0 for v in res["mean_se"].values())
    assert res["mean_se"]["level2_macro_f1"]["mean"] == pytest.approx(0.5)


def test_mean_se_ddof1():
    assert M.mean_se([0.2, 0.4, 0.9]) == pytest.approx((0.5, np.std([0.2, 0.4, 0.9], ddof=1) / math.sqrt(3)))
    assert M.mean_se([0.7]) == (0.7, 0.0)


def test_confusion_has_invalid_column_and_skips_invalid_gold():
    t = M.confusion_table(M.encode_labels(GOLD), M.encode_labels(PRED))
    assert t["columns"] == [P, DNP, SNP, IENP, "INVALID"]
    assert t["matrix"] == [[1, 1, 0, 0, 0], [0, 1, 0, 0, 1], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0]]
    t1 = M.confusion_table(M.encode_labels(GOLD), M.encode_labels(PRED), level=1)
    assert t1["matrix"] == [[1, 1, 0], [1, 2, 1]]


def test_bootstrap_is_seeded_and_exact_for_perfect_predictions():
    gold = M.encode_labels([P, DNP, SNP, IENP] * 5)
    codes = np.arange(20)
    ci = M.bootstrap_ci(gold, gold, np.ones(20), codes, n_boot=200, seed=1)
    assert ci["decision_level2_accuracy"] == [1.0, 1.0] and ci["articles_f1"] == [1.0, 1.0]
    pred = M.encode_labels([P, P, SNP, None] * 5)
    a = M.bootstrap_ci(gold, pred, np.zeros(20), codes, n_boot=200, seed=1)
    assert a == M.bootstrap_ci(gold, pred, np.zeros(20), codes, n_boot=200, seed=1)
    assert a != M.bootstrap_ci(gold, pred, np.zeros(20), codes, n_boot=200, seed=2)
    lo, hi = a["decision_level2_accuracy"]
    assert lo <= 0.5 <= hi and lo < hi


def test_bootstrap_resamples_cases_not_records():
    # two runs of the same case always agree with each other: resampled accuracy only takes values k/n_cases
    gold = M.encode_labels([P, DNP] * 2)
    pred = M.encode_labels([P, P] * 2)
    ci = M.bootstrap_ci(gold, pred, np.zeros(4), np.array([0, 1, 0, 1]), n_boot=500, seed=0)
    assert set(ci["decision_level2_accuracy"]) <= {0.0, 0.5, 1.0}


def test_breakdown():
    gold = M.encode_labels([P, P, DNP, DNP])
    pred = M.encode_labels([P, DNP, DNP, None])
    b = M.breakdown(gold, pred, ["2015", "2015", "2020", None])
    assert set(b) == {"2015", "2020"}
    assert b["2015"]["n"] == 2 and b["2015"]["level2_accuracy"] == 0.5
    assert b["2020"]["level2_accuracy"] == 1.0 and b["2020"]["invalid_rate"] == 0.0
    assert b["2015"]["level2_macro_f1"] == pytest.approx((2 / 3) / 4)


def test_group_codes_natural_order():
    codes, uniq = M.group_codes(["10", "2", "0", "2", "1:0"])
    assert uniq == ["0", "2", "10", "1:0"]
    assert codes.tolist() == [2, 1, 0, 1, 3]


def test_bootstrap_chunking_does_not_change_results():
    gold = M.encode_labels([P, DNP, SNP, IENP, P, P] * 7)
    pred = M.encode_labels([P, P, SNP, None, DNP, P] * 7)
    codes = np.arange(42) // 2
    arts = np.where(np.arange(42) % 3 == 0, np.nan, np.linspace(0, 1, 42))
    whole = M.bootstrap_ci(gold, pred, arts, codes, n_boot=300, seed=5)
    chunked = M.bootstrap_ci(gold, pred, arts, codes, n_boot=300, seed=5, chunk_cells=21 * 7)
    assert whole.keys() == chunked.keys()
    for k in whole:
        assert whole[k] == pytest.approx(chunked[k])
