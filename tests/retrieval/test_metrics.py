"""Metrics pinned on hand-computed cases, and checked against ir_measures (pytrec_eval) on random runs."""

from __future__ import annotations

import math
import random

import pytest

from jiancha.retrieval import metrics as M
from jiancha.retrieval.evaluate import evaluate_lecard_v1, evaluate_lecard_v2

GRADES = {"a": 3, "b": 2, "c": 0, "d": 1}
RANKED = ["c", "a", "x", "b"]          # x is unjudged (grade 0)


def test_recall_is_fraction_of_relevant_in_top_k():
    assert M.recall_at_k(RANKED, GRADES, 2, threshold=2) == 0.5      # a of {a, b}
    assert M.recall_at_k(RANKED, GRADES, 4, threshold=2) == 1.0
    assert M.recall_at_k(RANKED, GRADES, 4, threshold=1) == pytest.approx(2 / 3)   # a, b of {a, b, d}


def test_hit_rate_differs_from_recall():
    assert M.hit_at_k(RANKED, GRADES, 1, threshold=2) == 0.0
    assert M.hit_at_k(RANKED, GRADES, 2, threshold=2) == 1.0
    assert M.recall_at_k(RANKED, GRADES, 2, threshold=2) == 0.5


def test_precision_average_precision_reciprocal_rank():
    assert M.precision_at_k(RANKED, GRADES, 4, threshold=1) == 0.5
    assert M.precision_at_k(RANKED, GRADES, 10, threshold=1) == 0.2     # short list: missing ranks are misses
    assert M.average_precision(RANKED, GRADES, threshold=2) == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert M.average_precision(RANKED, GRADES, threshold=1) == pytest.approx((1 / 2 + 2 / 4) / 3)
    assert M.reciprocal_rank(RANKED, GRADES, threshold=2) == 0.5
    assert M.reciprocal_rank(["c", "x"], GRADES, threshold=2) == 0.0


def test_ndcg_linear_gain_log2_discount():
    expected = (3 / math.log2(3)) / (3 + 2 / math.log2(3) + 1 / 2)
    assert M.ndcg_at_k(RANKED, GRADES, 3) == pytest.approx(expected)
    assert M.ndcg_at_k(["a", "b", "d"], GRADES, 3) == pytest.approx(1.0)


def test_query_without_relevant_documents_scores_zero():
    none = {"a": 0, "b": 0}
    for value in (M.recall_at_k(["a"], none, 10, 1), M.hit_at_k(["a"], none, 10, 1),
                  M.average_precision(["a"], none, 1), M.reciprocal_rank(["a"], none, 1),
                  M.ndcg_at_k(["a"], none, 10), M.recall_at_k([], GRADES, 10, 1)):
        assert value == 0.0


# ---------------------------------------------------------------- LeCaRD v1 official conventions

def _v1_grades() -> dict[str, int]:
    g = {"d0": 3, "d1": 2}
    g.update({f"d{i}": 0 for i in range(2, 30)})
    g["d30"] = 3                       # 31st key: outside the first 30, counts only in the ideal
    return g


def test_lecard_v1_ndcg_uses_first_30_keys_for_gains_and_all_grades_for_ideal():
    g = _v1_grades()
    dcg = 2 / math.log2(3) + 3 / math.log2(4)            # d30 at rank 1 gains 0
    idcg = 3 + 3 / math.log2(3) + 2 / math.log2(4)
    assert M.lecard_v1_ndcg(["d30", "d1", "d0"], g, 10) == pytest.approx(dcg / idcg)
    # trec-style NDCG would credit d30: the two conventions differ
    assert M.ndcg_at_k(["d30", "d1", "d0"], g, 10) > dcg / idcg


def test_lecard_v1_ndcg_all_zero_gains_contribute_zero_and_mean_divides_by_all_queries():
    g = _v1_grades()
    assert M.lecard_v1_ndcg(["d2", "d3", "d30"], g, 30) == 0.0
    qrels = {"1": g, "2": g}
    run = {"1": [("d0", 2.0), ("d1", 1.0)], "2": [("d2", 1.0)]}
    res = evaluate_lecard_v1(run, qrels)
    one = M.lecard_v1_ndcg(["d0", "d1"], g, 10)
    assert res.metrics["ndcg@10"] == pytest.approx(one / 2)
    assert res.num_queries == 2


def test_lecard_v1_precision_and_map_count_grade_3_only():
    g = _v1_grades()
    assert M.lecard_v1_precision(["d1", "d0", "d30", "d2", "d3"], g, 5) == pytest.approx(2 / 5)
    assert M.lecard_v1_average_precision(["d1", "d0", "d30"], g) == pytest.approx((1 / 2 + 2 / 3) / 2)
    # official AP divides by the grade-3 documents *retrieved* (d30 missing here); trec AP by all of them
    assert M.lecard_v1_average_precision(["d1", "d0"], g) == pytest.approx(0.5)
    assert M.average_precision(["d1", "d0"], g, threshold=3) == pytest.approx(0.25)
    assert M.lecard_v1_average_precision(["d1", "d2"], g) == 0.0


def test_lecard_v1_missing_query_counts_zero():
    g = _v1_grades()
    res = evaluate_lecard_v1({}, {"1": g})
    assert res.metrics == {k: 0.0 for k in res.metrics}


# ---------------------------------------------------------------- LeCaRDv2 query sets

def test_lecard_v2_thresholds_and_query_sets():
    qrels = {"5": {"a": 3, "b": 1}, "7": {"c": 1, "d": 0}, "10": {"e": 0}}
    run = {"5": [("b", 2.0), ("a", 1.0)], "7": [("d", 1.0), ("c", 0.5)], "10": [("e", 1.0)]}
    res = evaluate_lecard_v2(run, qrels)
    assert res.num_queries == 1                              # only query 5 has a grade >= 2
    assert res.metrics["recall@100"] == 1.0
    assert res.metrics["mrr"] == 0.5
    assert res.metrics["hit@10"] == 1.0
    # grade >= 1: queries 5 and 7
    assert res.metrics["mrr[rel>=1]"] == pytest.approx((1.0 + 0.5) / 2)
    assert res.metrics["map[rel>=1]"] == pytest.approx(((1 + 1) / 2 + 0.5) / 2)
    test = evaluate_lecard_v2(run, qrels, setting="test")   # ids 5, 10, ... only: query 7 drops out
    assert test.num_queries == 1 and test.metrics["mrr[rel>=1]"] == 1.0


# ---------------------------------------------------------------- parity with ir_measures

def _random_case(seed: int):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(12):
        qid = str(q + 1)
        docs = [f"d{i}" for i in range(60)]
        judged = rng.sample(docs, 25)
        qrels[qid] = {d: rng.choice([0, 0, 1, 2, 3]) for d in judged}
        ranked = rng.sample(docs, rng.randint(5, 60))
        run[qid] = [(d, float(len(ranked) - i) + rng.random() * 0.5) for i, d in enumerate(ranked)]
    qrels["99"] = {"d1": 0}                               # a query without relevant documents
    run["99"] = [("d1", 1.0)]
    return qrels, run


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_standard_measures_match_ir_measures(seed):
    ir = pytest.importorskip("ir_measures")
    from ir_measures import AP, RR, P, R, Success, nDCG

    qrels, run = _random_case(seed)
    ir_qrels = [ir.Qrel(q, d, g) for q, gs in qrels.items() for d, g in gs.items()]
    ir_run = [ir.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs]
    checks = {
        R(rel=2) @ 10: lambda r, g: M.recall_at_k(r, g, 10, 2),
        R(rel=1) @ 20: lambda r, g: M.recall_at_k(r, g, 20, 1),
        nDCG @ 10: lambda r, g: M.ndcg_at_k(r, g, 10),
        nDCG @ 30: lambda r, g: M.ndcg_at_k(r, g, 30),
        AP(rel=2): lambda r, g: M.average_precision(r, g, 2),
        RR(rel=2): lambda r, g: M.reciprocal_rank(r, g, 2),
        Success(rel=2) @ 5: lambda r, g: M.hit_at_k(r, g, 5, 2),
        P(rel=1) @ 5: lambda r, g: M.precision_at_k(r, g, 5, 1),
    }
    for measure, ours in checks.items():
        theirs = {m.query_id: m.value for m in ir.iter_calc([measure], ir_qrels, ir_run)}
        for qid, gs in qrels.items():
            assert ours([d for d, _ in run[qid]], gs) == pytest.approx(theirs[qid], abs=1e-9), (measure, qid)


def test_lecard_v2_aggregate_equals_ir_measures_on_gold_filtered_qrels():
    ir = pytest.importorskip("ir_measures")
    from ir_measures import R, nDCG

    qrels, run = _random_case(3)
    res = evaluate_lecard_v2(run, qrels)
    gold_q = {q for q, gs in qrels.items() if any(g >= 2 for g in gs.values())}
    ir_qrels = [ir.Qrel(q, d, g) for q, gs in qrels.items() if q in gold_q for d, g in gs.items()]
    ir_run = [ir.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs]
    agg = ir.calc_aggregate([R(rel=2) @ 100, nDCG @ 10], ir_qrels, ir_run)
    assert res.num_queries == len(gold_q)
    assert res.metrics["recall@100"] == pytest.approx(agg[R(rel=2) @ 100])
    assert res.metrics["ndcg@10"] == pytest.approx(agg[nDCG @ 10])
