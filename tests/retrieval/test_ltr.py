"""The learned re-ranker (``--method ltr``): features on a hand-built pair, folds, cross-validation that never
trains on a test query, training/applying on separate query sets, the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from lecard_fixtures import write_v1
from typer.testing import CliRunner

from jiancha.errors import ConfigError
from jiancha.retrieval import ltr
from jiancha.retrieval.pipeline import RetrievalSpec


def test_text_parsers():
    assert ltr.parse_amounts("窃取现金3,000元及价值1.5万元的手机，另有元宝") == [3000.0, 15000.0]
    assert ltr.parse_prison_months("判处有期徒刑三年六个月，并处罚金人民币五千元") == 42.0
    assert ltr.parse_prison_months("判处有期徒刑十个月；犯盗窃罪判处有期徒刑二年") == 24.0
    assert ltr.parse_prison_months("判处拘役四个月，缓刑六个月") == 0.0
    assert ltr.parse_prison_months("判处无期徒刑") == 600.0
    assert ltr.parse_prison_months("驳回上诉") is None
    assert [ltr.term_band(m) for m in (None, 0.0, 35.0, 36.0, 120.0, 121.0)] == [-1, 0, 1, 2, 2, 3]
    assert ltr.circumstances("被告人系累犯，到案后自首") == frozenset({"累犯", "自首"})


def test_pair_features_on_a_hand_built_pair():
    q = ltr.compute_query_side(["盗窃罪"], "被告人张某自首，窃取现金3000元。")
    d = ltr.compute_doc_side(
        charges=["盗窃罪", "诈骗罪"], verdict_charges=["盗窃罪"], fact="被告人李某系累犯，自首，骗取30000元。",
        reason="本院认为……依照《中华人民共和国刑法》第二百六十四条、第六十七条第一款之规定",
        result="被告人李某犯盗窃罪，判处有期徒刑三年六个月。")
    assert q.articles == frozenset({264}) and d.articles == frozenset({264, 67})
    f = ltr.compute_pair_features(q, d)
    assert f == pytest.approx({
        "tier": 2.5, "tier_verdict": 3.0, "shared": 1.0, "primary": 1.0, "jaccard": 0.5, "exact": 0.0,
        "shared_verdict": 1.0, "primary_verdict": 1.0, "jaccard_verdict": 1.0, "n_doc_charges": 2.0,
        "n_query_charges": 1.0, "same_section": 1.0, "same_chapter": 1.0,      # 264 and 266: chapter 5
        "article_overlap": 1.0, "article_jaccard": 0.5,
        "amount_log_ratio": math.log10(30001) - math.log10(3001), "amount_both": 1.0, "amount_none": 0.0,
        "circ_jaccard": 0.5, "circ_shared": 1.0, "term_months_log": math.log1p(42), "term_band": 2.0,
        "fact_len_log_ratio": abs(math.log((1 + len(q.fact)) / (1 + len(d.fact)))),
    })
    # a candidate of another chapter sharing nothing
    other = ltr.compute_doc_side(["交通肇事罪"], ["交通肇事罪"], "驾车撞人", "", "判处拘役三个月")
    g = ltr.compute_pair_features(q, other)
    assert (g["tier"], g["shared"], g["same_section"], g["same_chapter"], g["article_overlap"]) == (0, 0, 0, 0, 0)
    assert (g["amount_both"], g["term_band"]) == (0.0, 0.0)


def test_query_feature_matrix_columns():
    q = ltr.compute_query_side(["盗窃罪"], "窃取")
    docs = [ltr.compute_doc_side(["盗窃罪"], ["盗窃罪"], "窃取", "", ""),
            ltr.compute_doc_side(["诈骗罪"], ["诈骗罪"], "骗取", "", "")]
    x = ltr.compute_query_features(q, docs, {"bm25_fact": np.array([2.0, 1.0])})
    assert x.shape == (2, len(ltr.FEATURE_NAMES))
    col = {n: x[:, i].tolist() for i, n in enumerate(ltr.FEATURE_NAMES)}
    assert col["tier"] == [3.0, 0.0]
    assert col["bm25_fact_raw"] == [2.0, 1.0] and col["bm25_fact_z"] == [1.0, -1.0]
    assert col["bm25_fact_rank"] == [0.0, 0.5] and col["qld_reason_z"] == [0.0, 0.0]


def test_kfold_by_query_is_balanced_seeded_and_checked():
    ids = [str(i) for i in range(1, 12)]
    a = ltr.kfold_by_query(ids, 5, 13)
    assert a == ltr.kfold_by_query(list(reversed(ids)), 5, 13)          # input order does not matter
    assert sorted(np.bincount(list(a.values())).tolist()) == [2, 2, 2, 2, 3]
    assert a != ltr.kfold_by_query(ids, 5, 14)
    assert ltr.parity_folds(["4", "7"]) == {"4": 0, "7": 1}
    with pytest.raises(ConfigError, match="cannot split 11 labelled queries into 12 folds"):
        ltr.kfold_by_query(ids, 12, 0)


def _synthetic(n_queries: int = 8, n_docs: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    xs, ys = {}, {}
    for q in range(n_queries):
        y = rng.integers(0, 4, n_docs).astype(float)
        x = rng.normal(size=(n_docs, len(ltr.FEATURE_NAMES)))
        x[:, 0] = y + 0.1 * rng.normal(size=n_docs)        # "tier" predicts the grade
        xs[str(q)], ys[str(q)] = x, y
    return xs, ys


@pytest.mark.parametrize("model", ltr.MODELS)
def test_models_learn_an_ordering_deterministically(model):
    xs, ys = _synthetic(20)
    cfg = ltr.LTRConfig(model=model, n_estimators=30, learning_rate=0.2, min_samples_leaf=5)
    m = ltr.fit_model(list(xs.values()), list(ys.values()), cfg)
    x_new = np.zeros((3, len(ltr.FEATURE_NAMES)))
    x_new[:, 0] = [0.0, 3.0, 1.5]
    s = ltr.predict_scores(m, x_new, cfg)
    assert np.argsort(-s).tolist() == [1, 2, 0]
    again = ltr.predict_scores(ltr.fit_model(list(xs.values()), list(ys.values()), cfg), x_new, cfg)
    assert s.tolist() == again.tolist()


def test_cross_validation_never_trains_on_a_test_query(monkeypatch):
    xs, ys = _synthetic(10)
    folds = ltr.kfold_by_query(list(xs), 5, 13)
    seen: list[set[int]] = []
    real_fit = ltr.fit_model

    def spy(train_x, train_y, config):
        seen.append({id(x) for x in train_x})
        return real_fit(train_x, train_y, config)

    monkeypatch.setattr(ltr, "fit_model", spy)
    scores, trained_on = ltr.cross_validate(xs, ys, folds, ltr.LTRConfig())
    assert len(seen) == 5 and set(scores) == set(xs)
    for fold, train in trained_on.items():
        test = {q for q, f in folds.items() if f == fold}
        assert not test & set(train) and len(train) == 8
        assert not {id(xs[q]) for q in test} & seen[fold]


def test_config_errors():
    xs, ys = _synthetic(2)
    with pytest.raises(ConfigError, match="unknown ltr model 'svm'"):
        ltr.fit_model(list(xs.values()), list(ys.values()), ltr.LTRConfig(model="svm"))
    with pytest.raises(ConfigError, match="unknown ltr features"):
        ltr.fit_model(list(xs.values()), list(ys.values()), ltr.LTRConfig(features=("nope",)))


@pytest.fixture
def v1(tmp_path, monkeypatch):
    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path / "cache"))
    return write_v1(tmp_path / "v1")


def test_run_ltr_cross_validates_on_the_fixture(v1, tmp_path):
    base = RetrievalSpec("lecard-v1", method="charge")
    cfg = ltr.LTRConfig(folds=2)
    run, manifest, ds, qrels = ltr.run_ltr(base, v1, cfg, cache=tmp_path / "c", save_model_path=tmp_path / "m.pkl")
    assert set(run) == {"1", "2", "3"} and set(qrels) == {"1", "2"}
    assert {q: sorted(d for d, _ in run[q]) for q in run} == {q: sorted(p) for q, p in ds.pools.items()}
    tr = manifest["training"]
    assert tr["mode"] == "cross-validation" and tr["folds"] == 2 and tr["seed"] == 13
    for fold, train in tr["train_queries_per_fold"].items():
        assert not {q for q, f in tr["fold_of_query"].items() if str(f) == fold} & set(train)
    assert manifest["evaluated_queries"] == ["1", "2"] and manifest["excluded_train_queries"] == []
    again = ltr.run_ltr(base, v1, cfg, cache=tmp_path / "c")
    assert again[0] == run and again[1]["spec_key"] == manifest["spec_key"]
    # the saved model (trained on both labelled queries) cannot be evaluated on this dataset's labels
    with pytest.raises(ConfigError, match="every labelled query of lecard-v1 was used for training"):
        ltr.run_ltr(base, v1, cfg, cache=tmp_path / "c", load_model_path=tmp_path / "m.pkl")


def test_train_on_one_query_set_apply_to_another(v1, tmp_path):
    base = RetrievalSpec("lecard-v1", method="charge")
    (tmp_path / "train.json").write_text(json.dumps({"1": {"12": 3, "11": 2, "13": 1}}))
    run, manifest, _, qrels = ltr.run_ltr(base, v1, cache=tmp_path / "c", train_qrels_path=tmp_path / "train.json",
                                          save_model_path=tmp_path / "m.pkl")
    assert set(qrels) == {"2"} and manifest["excluded_train_queries"] == ["1"]
    assert manifest["training"]["mode"] == "trained on --train-qrels"
    loaded = ltr.run_ltr(base, v1, cache=tmp_path / "c", load_model_path=tmp_path / "m.pkl")
    assert loaded[0] == run and set(loaded[3]) == {"2"}
    assert loaded[1]["training"]["train_queries"] == ["1"]
    (tmp_path / "bad.json").write_text(json.dumps({"99": {"12": 3}}))
    with pytest.raises(ConfigError, match="not queries of lecard-v1"):
        ltr.run_ltr(base, v1, cache=tmp_path / "c", train_qrels_path=tmp_path / "bad.json")
    (tmp_path / "junk.pkl").write_bytes(b"not a model")
    with pytest.raises(ConfigError, match="cannot read ltr model"):
        ltr.run_ltr(base, v1, cache=tmp_path / "c", load_model_path=tmp_path / "junk.pkl")


def test_cli_ltr(v1, tmp_path):
    from jiancha.cli.main import app

    r = CliRunner()
    common = ["--dataset", "lecard-v1", "--data-dir", str(v1), "--cache-dir", str(tmp_path / "c")]
    res = r.invoke(app, ["retrieval", "eval", *common, "--method", "ltr", "--cv-split", "parity",
                         "--out", str(tmp_path / "ev"), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["num_queries"] == 2
    manifest = json.loads((tmp_path / "ev" / "manifest.json").read_text())
    assert manifest["spec"]["method"] == "ltr" and manifest["training"]["split"] == "parity"
    res = r.invoke(app, ["retrieval", "run", *common, "--method", "ltr", "--cv-folds", "2", "--out", str(tmp_path / "l.trec")])
    assert res.exit_code == 0, res.output
    assert "3 queries" in res.output and (tmp_path / "l.trec.manifest.json").exists()
    res = r.invoke(app, ["retrieval", "eval", *common, "--method", "bm25", "--seed", "3",
                         "--out", str(tmp_path / "b")])
    assert res.exit_code != 0 and "--seed has no effect with --method bm25" in str(res.exception)
    res = r.invoke(app, ["retrieval", "eval", *common, "--method", "ltr", "--doc-field", "qw",
                         "--out", str(tmp_path / "q")])
    assert res.exit_code != 0 and "--doc-field has no effect with --method ltr" in str(res.exception)
