"""End to end: every method on tiny LeCaRD v1 / v2 corpora in the official layouts, the bundled mini corpus,
the CLI (eval / run / score) and the refusal to mix runs made under other settings."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from lecard_fixtures import write_v1, write_v2
from typer.testing import CliRunner

from jiancha.errors import ConfigError, ResumeMismatchError
from jiancha.retrieval.evaluate import V1_METRICS
from jiancha.retrieval.pipeline import METHODS, RetrievalSpec, run_and_evaluate, run_retrieval
from jiancha.retrieval.trec import read_trec_run

LEXICAL = [m for m in METHODS if m != "dense"]


@pytest.fixture
def v2(tmp_path):
    return write_v2(tmp_path / "v2")


@pytest.fixture
def v1(tmp_path, monkeypatch):
    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path / "cache"))
    return write_v1(tmp_path / "v1")


@pytest.mark.parametrize("method", LEXICAL)
def test_v2_methods_rank_the_same_scene_first(v2, tmp_path, method):
    res = run_and_evaluate("lecard-v2", v2, method, cache=tmp_path / "c", out=tmp_path / "out")
    assert res["num_queries"] == 2                         # queries 5 and 10 have a grade >= 2
    assert res["metrics"]["recall@100"] == 1.0 and res["metrics"]["hit@10"] == 1.0
    run = read_trec_run(tmp_path / "out" / "run.trec")
    assert set(run) == {"5", "7", "10"} and len(run["5"]) == 12
    assert run["5"][0][0] in {"100", "101", "102"}           # a theft judgment first
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["spec"]["method"] == method and manifest["spec"]["doc_field"] == "fact"
    assert manifest["data"]["fingerprint"] and "packages" in manifest["environment"]
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert metrics["metrics"]["recall@100"] == 1.0 and "5" in metrics["per_query"]


def test_v2_charge_method_puts_every_same_charge_judgment_first(v2, tmp_path):
    run, manifest, _ = run_retrieval(RetrievalSpec("lecard-v2", method="charge"), v2, cache=tmp_path / "c")
    assert {d for d, _ in run["10"][:3]} == {"106", "107", "108"}      # the three fraud judgments
    assert manifest["charge_matcher"] == "jiancha.retrieval.charge.find_case_charges"


def test_v2_pool_scope_and_depth(v2, tmp_path):
    run, _, _ = run_retrieval(RetrievalSpec("lecard-v2", scope="pool", depth=5), v2, cache=tmp_path / "c")
    assert all(len(v) == 5 for v in run.values())


@pytest.mark.parametrize("method", LEXICAL)
def test_v1_methods_rerank_the_judged_pool(v1, tmp_path, method):
    res = run_and_evaluate("lecard-v1", v1, method, cache=tmp_path / "c")
    assert res["num_queries"] == 2 and set(res["metrics"]) == set(V1_METRICS)
    run, _, _ = run_retrieval(RetrievalSpec("lecard-v1", method=method), v1, cache=tmp_path / "c")
    assert set(run) == {"1", "2", "3"}                     # unlabelled query 3 is ranked too
    assert {d for d, _ in run["1"]} == {"11", "12", "13"}
    assert {d for d, _ in run["2"][:2]} == {"21", "22"}


def test_v1_all_pool(v1, tmp_path):
    run, _, _ = run_retrieval(RetrievalSpec("lecard-v1", pool="all"), v1, cache=tmp_path / "c")
    assert len(run["1"]) == 4


def test_bundled_mini_corpus_runs_with_every_default(tmp_path, monkeypatch):
    from importlib import resources

    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path / "cache"))
    root = resources.files("jiancha").joinpath("data/mini_retrieval")
    assert root.joinpath("label/qrels.trec").is_file()
    res = run_and_evaluate("lecard-v2", str(root), "fuse")
    n_queries = len(root.joinpath("query/test_query.json").read_text(encoding="utf-8").splitlines())
    assert n_queries == 12 and res["num_queries"] == n_queries      # every bundled query is judged and evaluated
    assert 0 < res["metrics"]["ndcg@10"] <= 1
    assert list((tmp_path / "cache" / "retrieval").glob("*/tokens/*/tokens.npz"))


def test_spec_validation_messages():
    with pytest.raises(ConfigError, match="unknown method 'bm52'.*bm25"):
        RetrievalSpec("lecard-v2", method="bm52").resolved()
    with pytest.raises(ConfigError, match="unknown candidate field 'facts'"):
        RetrievalSpec("lecard-v2", doc_field="facts").resolved()
    with pytest.raises(ConfigError, match="unknown method 'bm52'.*ltr"):     # the message lists every method
        RetrievalSpec("lecard-v2", method="bm52").resolved()
    assert RetrievalSpec("lecard-v2", method="dense").resolved().dense.model == "e5"   # bundled default, written out
    assert RetrievalSpec("lecard-v2", method="bm25").resolved().dense.model == ""       # no encoder when none is used
    assert RetrievalSpec("lecard-v1", doc_field="ajjbqk+cpfxgc").resolved().doc_field == "fact+reason"


def test_refuses_to_mix_runs_in_one_out_dir(v2, tmp_path):
    run_and_evaluate("lecard-v2", v2, "bm25", cache=tmp_path / "c", out=tmp_path / "out")
    run_and_evaluate("lecard-v2", v2, "bm25", cache=tmp_path / "c", out=tmp_path / "out")   # same settings: ok
    with pytest.raises(ResumeMismatchError, match="other settings") as err:
        run_and_evaluate("lecard-v2", v2, "qld", cache=tmp_path / "c", out=tmp_path / "out")
    assert "spec.method: 'bm25' (stored) → 'qld' (now)" in str(err.value)   # names what differs


def test_cli_run_file_is_not_overwritten_by_a_run_under_other_settings(v2, tmp_path):
    from jiancha.cli.main import app

    common = ["--dataset", "lecard-v2", "--data-dir", str(v2), "--cache-dir", str(tmp_path / "c"), "--out",
              str(tmp_path / "r.trec")]
    r = CliRunner()
    assert r.invoke(app, ["retrieval", "run", *common, "--method", "bm25"]).exit_code == 0
    before = (tmp_path / "r.trec").read_bytes()
    assert r.invoke(app, ["retrieval", "run", *common, "--method", "bm25"]).exit_code == 0   # same settings: ok
    res = r.invoke(app, ["retrieval", "run", *common, "--method", "qld"])
    assert res.exit_code != 0 and "spec.method" in str(res.exception)
    assert (tmp_path / "r.trec").read_bytes() == before


def test_index_is_persisted_and_reused(v2, tmp_path):
    run_and_evaluate("lecard-v2", v2, "bm25", cache=tmp_path / "c")
    idx = list((tmp_path / "c" / "retrieval").glob("*/bm25-*"))
    assert len(idx) == 1 and (idx[0] / "params.index.json").exists()
    again = run_and_evaluate("lecard-v2", v2, "bm25", cache=tmp_path / "c")
    assert again == run_and_evaluate("lecard-v2", v2, "bm25", cache=tmp_path / "c2")


# ---------------------------------------------------------------- CLI

def test_cli_eval_run_score(v2, tmp_path):
    from jiancha.cli.main import app

    r = CliRunner()
    common = ["--dataset", "lecard-v2", "--data-dir", str(v2), "--cache-dir", str(tmp_path / "c")]
    res = r.invoke(app, ["retrieval", "eval", *common, "--method", "bm25", "--k1", "0.9", "--b", "0.4",
                         "--out", str(tmp_path / "ev"), "--json"])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.stdout)
    assert printed["num_queries"] == 2 and "recall@100" in printed["metrics"] and "hit@100" in printed["metrics"]
    res = r.invoke(app, ["retrieval", "run", *common, "--method", "fuse", "--out", str(tmp_path / "f.trec")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "f.trec.manifest.json").exists()
    res = r.invoke(app, ["retrieval", "score", str(tmp_path / "ev" / "run.trec"), "--dataset", "lecard-v2",
                         "--data-dir", str(v2), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == printed
    res = r.invoke(app, ["retrieval", "score", str(tmp_path / "f.trec"), "--dataset", "lecard-v2",
                         "--data-dir", str(v2), "--setting", "test"])
    assert res.exit_code == 0 and "recall@100" in res.output


def test_cli_error_is_one_red_line_and_exit_2(v2, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "jiancha", "retrieval", "eval", "--dataset", "lecard-v2",
                           "--data-dir", str(v2), "--method", "bm52", "--out", str(tmp_path / "o")],
                          check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "unknown method 'bm52'" in proc.stderr


def test_lecard_v2_path_with_real_queries_and_qrels(tmp_path):
    """Real LeCaRDv2 queries and qrels (../shared) with candidates the test writes: a judged candidate's fact is
    the query fact when graded >= 2, another query's fact otherwise."""
    from sharedpaths import shared_path

    src = shared_path("data", "lecard_v2")
    lines = (src / "query" / "test_query.json").read_text(encoding="utf-8").splitlines()[:4]
    queries = [json.loads(x) for x in lines]
    ids = {str(q["id"]) for q in queries}
    root = tmp_path / "v2real"
    for sub in ("query", "label", "candidate", "others"):
        (root / sub).mkdir(parents=True)
    (root / "query" / "test_query.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [r for r in (src / "label" / "relevence.trec").read_text().splitlines() if r.split()[0] in ids]
    (root / "label" / "relevence.trec").write_text("\n".join(rows) + "\n")
    (root / "others" / "stopword.txt").write_text((src / "others" / "stopword.txt").read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    facts = {str(q["id"]): q["fact"] for q in queries}
    other = {q: facts[min(ids - {q})] for q in ids}
    for r in rows:
        qid, _, pid, grade = r.split()
        fact = facts[qid] if int(grade) >= 2 else other[qid]
        (root / "candidate" / f"{pid}.json").write_text(json.dumps({"pid": 0, "fact": fact, "qw": fact,
                                                                    "charge": [], "article": []},
                                                                   ensure_ascii=False), encoding="utf-8")
    res = run_and_evaluate("lecard-v2", root, "bm25", cache=tmp_path / "c", setting="test")
    assert res["num_queries"] == 4
    # a pid judged for two queries keeps the last text written, so not every query can be perfect
    assert res["metrics"]["recall@100"] == 1.0 and res["metrics"]["hit@10"] == 1.0
    assert res["metrics"]["mrr"] >= 0.75


def test_cli_score_counts_and_warns_about_unknown_and_missing_queries(v2, tmp_path):
    from jiancha.cli.main import app
    from jiancha.retrieval.evaluate import evaluate
    from jiancha.retrieval.pipeline import load_qrels

    run_file = tmp_path / "ext.trec"
    run_file.write_text("5 Q0 100 1 3.0 ext\n5 Q0 101 2 2.0 ext\n999 Q0 100 1 1.0 ext\nx1 Q0 101 1 1.0 ext\n")
    res = CliRunner().invoke(app, ["retrieval", "score", str(run_file), "--dataset", "lecard-v2",
                                   "--data-dir", str(v2), "--json"])
    assert res.exit_code == 0, res.output
    expected = evaluate("lecard-v2", read_trec_run(run_file), load_qrels("lecard-v2", v2)).to_json()
    assert json.loads(res.stdout) == expected                      # warnings never reach the JSON
    err = " ".join(res.stderr.split())
    assert (f"warning: 2 of 3 queries in {run_file} have no relevance labels in lecard-v2 (zero-shot) "
            "(unknown query ids?) and are not scored: 'x1', '999'") in err
    assert f"warning: 2 labelled queries of lecard-v2 (zero-shot) are absent from {run_file} and score 0: '7', '10'" \
        in err


def test_cli_score_of_a_complete_run_prints_no_warning(v2, tmp_path):
    from jiancha.cli.main import app

    run_file = tmp_path / "all.trec"
    run_file.write_text("5 Q0 100 1 3.0 t\n7 Q0 103 1 1.0 t\n10 Q0 106 1 2.0 t\n")
    res = CliRunner().invoke(app, ["retrieval", "score", str(run_file), "--dataset", "lecard-v2",
                                   "--data-dir", str(v2), "--json"])
    assert res.exit_code == 0 and res.stderr == ""


def test_progress_bars_go_to_stderr_only(capsys, monkeypatch):
    """The pipeline has no progress display of its own (it used to offer one writing to stdout); the CLI's
    draws on standard error even on a terminal, so --json output stays pure."""
    from jiancha.cli.retrieval import _progress
    from jiancha.retrieval import pipeline

    assert not hasattr(pipeline, "rich_progress")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    assert list(_progress(range(3), "tokenising", 3)) == [0, 1, 2]
    out, err = capsys.readouterr()
    assert out == "" and "tokenising" in err


def test_v2_queries_that_name_no_charge_have_them_guessed(v2, tmp_path, monkeypatch):
    from jiancha.retrieval import charge_model
    from jiancha.retrieval.charge import ChargeConfig

    path = v2 / "query" / "test_query.json"
    queries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps({**q, "query": q["fact"]}, ensure_ascii=False) + "\n" for q in queries),
                    encoding="utf-8")   # the indictment's 公诉机关指控…罪 removed: no charge named
    bm25, _, _ = run_retrieval(RetrievalSpec("lecard-v2", method="bm25"), v2, cache=tmp_path / "c")
    off = RetrievalSpec("lecard-v2", method="charge", charge=ChargeConfig(guess_charges=False))
    unguessed, _, _ = run_retrieval(off, v2, cache=tmp_path / "c")
    assert [d for d, _ in unguessed["10"]] == [d for d, _ in bm25["10"]]   # every candidate in tier 0
    assert max(s for _, s in unguessed["10"]) < 1                           # a score is its tier + BM25 in [0, 1)
    too_few, _, _ = run_retrieval(RetrievalSpec("lecard-v2", method="charge"), v2, cache=tmp_path / "c")
    assert too_few == unguessed                                          # 12 candidates: no classifier
    monkeypatch.setattr(charge_model, "MIN_TRAINING_DOCS", 2)
    guessed, _, _ = run_retrieval(RetrievalSpec("lecard-v2", method="charge"), v2, cache=tmp_path / "c")
    assert {d for d, _ in guessed["10"][:3]} == {"106", "107", "108"}    # the three fraud judgments
    assert min(s for _, s in guessed["10"][:3]) > 1 > max(s for _, s in guessed["10"][3:])   # in a tier above
    assert {d for d, _ in guessed["5"][:3]} == {"100", "101", "102"}     # the three theft judgments
    fits = []
    fit = charge_model.ChargeClassifier.fit.__func__
    monkeypatch.setattr(charge_model.ChargeClassifier, "fit", classmethod(
        lambda cls, *a, **kw: fits.append(kw.get("balanced")) or fit(cls, *a, **kw)))
    balanced = RetrievalSpec("lecard-v2", method="charge", charge=ChargeConfig(guess_balanced=True))
    _, manifest, _ = run_retrieval(balanced, v2, cache=tmp_path / "c")
    assert fits == [True] and manifest["spec"]["charge"]["guess_balanced"] is True
