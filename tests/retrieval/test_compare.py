"""Paired comparison of runs: KELLER's NDCG, bootstrap interval, randomisation test, floor and ceiling, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from jiancha.retrieval import metrics as M
from jiancha.retrieval.compare import (
    compare_per_query,
    compare_runs,
    oracle_run,
    paired_bootstrap,
    random_run,
    randomisation_test,
)
from jiancha.retrieval.trec import parse_json_run


def test_keller_ndcg_by_hand():
    # gains 2^(g-1): [1, 4, 0]; ideal from the list's own gains [4, 1, 0]
    dcg = 1 / math.log2(2) + 4 / math.log2(3)
    idcg = 4 / math.log2(2) + 1 / math.log2(3)
    assert M.keller_ndcg(["a", "b", "c"], {"a": 1, "b": 3, "c": 0}, 10) == pytest.approx(dcg / idcg)
    # a judged grade-3 document missing from the list does not enter the ideal (unlike the official metric)
    assert M.keller_ndcg(["a"], {"a": 1, "z": 3}, 10) == 1.0
    assert M.lecard_v1_ndcg(["a"], {"a": 1, "z": 3}, 10) < 1.0
    assert M.keller_ndcg(["c"], {"c": 0}, 10) == 0.0


def test_bootstrap_and_randomisation():
    assert paired_bootstrap(np.array([0.5, 0.5])) == (0.5, 0.5)
    d = np.array([0.1] * 20)
    lo, hi = paired_bootstrap(d)
    assert lo == pytest.approx(0.1) and hi == pytest.approx(0.1)
    # all 20 differences positive: only the all-plus sign vector (and none other) is as extreme
    assert randomisation_test(d, n=2000) < 0.01
    assert randomisation_test(np.zeros(5)) == 1.0
    sym = np.array([0.1, -0.1] * 10)
    assert randomisation_test(sym, n=2000) == 1.0
    lo, hi = paired_bootstrap(sym)
    assert lo < 0 < hi


def test_compare_per_query_counts_wins():
    a = {"1": {"m": 0.9}, "2": {"m": 0.5}, "3": {"m": 0.4}}
    b = {"1": {"m": 0.8}, "2": {"m": 0.5}, "3": {"m": 0.6}}
    r = compare_per_query(a, b, ["1", "2", "3"], "m", n=500)
    assert (r.wins, r.ties, r.losses) == (1, 1, 1)
    assert r.delta == pytest.approx((0.1 + 0.0 - 0.2) / 3)


def test_floor_and_ceiling_bracket_any_run():
    qrels = {"1": {"a": 3, "b": 0, "c": 1, "d": 2}, "2": {"e": 0, "f": 3, "g": 3}}
    oracle = oracle_run(qrels)
    assert [d for d, _ in oracle["1"]] == ["a", "d", "c", "b"]
    rr = random_run(qrels, seed=0)
    assert sorted(d for d, _ in rr["1"]) == ["a", "b", "c", "d"]
    worst = {q: list(reversed(v)) for q, v in oracle.items()}
    cmp = compare_runs("lecard-v1", {"oracle-a": oracle, "worst": worst}, qrels, n=200, n_random=50)
    assert cmp.queries == ("1", "2")
    t = cmp.metrics
    assert t["oracle"]["ndcg@10"] == pytest.approx(1.0) == t["oracle-a"]["ndcg@10"]
    floor = next(v for k, v in t.items() if k.startswith("random"))
    assert t["worst"]["ndcg@10"] <= floor["ndcg@10"] <= 1.0
    assert cmp.paired[0].metric == "ndcg@10" and cmp.paired[0].delta > 0


def test_json_rankings():
    run = parse_json_run({"7": {"x": 0.2, "y": 0.9, "a": 0.2}, "8": ["q", "p"]})
    assert [d for d, _ in run["7"]] == ["y", "a", "x"] and [d for d, _ in run["8"]] == ["q", "p"]


def test_cli_compare(tmp_path):
    from lecard_fixtures import write_v1

    from jiancha.cli.main import app

    root = write_v1(tmp_path / "v1")
    from jiancha.retrieval.pipeline import load_qrels

    qrels = load_qrels("lecard-v1", root)
    (tmp_path / "a.json").write_text(json.dumps({q: {d: g for d, g in gr.items()} for q, gr in qrels.items()}))
    (tmp_path / "b.json").write_text(json.dumps({q: sorted(gr) for q, gr in qrels.items()}))
    res = CliRunner().invoke(app, ["retrieval", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"),
                                   "--data-dir", str(root), "--samples", "200", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["queries"] == sorted(qrels, key=lambda q: (len(q), q))
    assert {p["metric"] for p in out["paired"]} >= {"ndcg@10", "kndcg@10", "map"}
    assert "oracle" in out["metrics"]
    (tmp_path / "empty.json").write_text("{}")
    res = CliRunner().invoke(app, ["retrieval", "compare", str(tmp_path / "a.json"), str(tmp_path / "empty.json"),
                                   "--data-dir", str(root)])
    assert res.exit_code != 0 and "empty.json: the run ranks no query" in str(res.exception)
    res = CliRunner().invoke(app, ["retrieval", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"),
                                   "--data-dir", str(root), "--dataset", "lecard-v2"])
    assert res.exit_code != 0 and "compare supports --dataset lecard-v1" in str(res.exception)


def test_cli_compare_warns_when_no_document_is_judged_and_bounds_p(tmp_path):
    from lecard_fixtures import write_v1

    from jiancha.cli.main import app
    from jiancha.cli.retrieval import _p_text

    root = write_v1(tmp_path / "v1")
    from jiancha.retrieval.pipeline import load_qrels

    qrels = load_qrels("lecard-v1", root)
    (tmp_path / "a.json").write_text(json.dumps({q: sorted(gr) for q, gr in qrels.items()}))
    (tmp_path / "x.json").write_text(json.dumps({q: ["X" + d for d in sorted(gr)] for q, gr in qrels.items()}))
    res = CliRunner().invoke(app, ["retrieval", "compare", str(tmp_path / "a.json"), str(tmp_path / "x.json"),
                                   "--data-dir", str(root), "--samples", "200"])
    assert res.exit_code == 0, res.output
    n = sum(len(g) for g in qrels.values())
    assert (f"warning: none of the {n} documents {tmp_path / 'x.json'} ranks for labelled queries has a label"
            in " ".join(res.output.split()))
    assert "a.json ranks" not in res.output
    assert _p_text(1 / 10_001, 10_000) == "< 0.0001" and _p_text(0.0123, 10_000) == "0.0123"
