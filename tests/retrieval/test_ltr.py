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
        "quantity_log_ratio": 0.0, "quantity_both": 0.0, "marker_jaccard": 0.0,
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
    assert col["cooc_jaccard"] == [0.0, 0.0] and col["cooc_jaccard_z"] == [0.0, 0.0]   # no collection given


def test_charge_links_from_the_collections_cooccurrence():
    # 故意伤害罪 in 4 documents, 寻衅滋事罪 in 3, both in 2: J = 2 / (4 + 3 - 2); 诈骗罪 never with 故意伤害罪
    co = ltr.ChargeCooccurrence.fit([("故意伤害罪",), ("故意伤害罪",), ("故意伤害罪", "寻衅滋事罪"),
                                     ("寻衅滋事罪", "故意伤害罪", "故意伤害罪"), ("寻衅滋事罪",), ("诈骗罪",)])
    assert co.counts["故意伤害罪"] == 4 and co.jaccard("寻衅滋事罪", "故意伤害罪") == pytest.approx(0.4)
    assert co.jaccard("故意伤害罪", "诈骗罪") == 0.0 and co.jaccard("未知罪", "未知罪") == 0.0
    q = ltr.compute_query_side(["故意伤害罪"], "殴打")
    docs = [ltr.compute_doc_side(c, c, "殴打", "", "") for c in
            (["故意伤害罪"], ["寻衅滋事罪"], ["诈骗罪"], ["故意伤害罪", "寻衅滋事罪"])]
    x = ltr.compute_query_features(q, docs, {}, cooccurrence=co)
    link = x[:, ltr.FEATURE_NAMES.index("cooc_jaccard")]
    assert link.tolist() == pytest.approx([0.0, 0.4, 0.0, 0.4])      # a shared charge itself is not a link
    z = x[:, ltr.FEATURE_NAMES.index("cooc_jaccard_z")]
    assert z.tolist() == pytest.approx([-1.0, 1.0, -1.0, 1.0])


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


@pytest.mark.parametrize("model", ltr.MODELS)
def test_saved_model_is_json_and_predicts_the_same(model, tmp_path):
    xs, ys = _synthetic(12)
    cfg = ltr.LTRConfig(model=model, n_estimators=20, min_samples_leaf=3)
    m = ltr.fit_model(list(xs.values()), list(ys.values()), cfg)
    ltr.save_model(tmp_path / "m.json", m, cfg, list(xs), {"dataset": "lecard-v1"})
    blob = json.loads((tmp_path / "m.json").read_text())          # plain JSON, no pickle
    assert blob["format"] == ltr.MODEL_FORMAT and blob["train_queries"][:3] == ["0", "1", "2"]
    back, cfg2, _ = ltr.load_model(tmp_path / "m.json")
    x = np.random.default_rng(1).normal(size=(7, len(ltr.FEATURE_NAMES)))
    assert cfg2 == cfg and np.allclose(ltr.predict_scores(back, x, cfg2), ltr.predict_scores(m, x, cfg))


def test_gbrt_trees_reproduce_scikit_learn():
    from sklearn.ensemble import GradientBoostingRegressor

    xs, ys = _synthetic(10)
    cfg = ltr.LTRConfig(model="gbrt", n_estimators=15, min_samples_leaf=3)
    m = ltr.fit_model(list(xs.values()), list(ys.values()), cfg)
    ref = GradientBoostingRegressor(n_estimators=15, learning_rate=cfg.learning_rate, max_depth=cfg.max_depth,
                                    min_samples_leaf=3, subsample=cfg.subsample, random_state=cfg.seed)
    ref.fit(np.vstack(list(xs.values())), np.concatenate(list(ys.values())))
    x = np.random.default_rng(2).normal(size=(9, len(ltr.FEATURE_NAMES)))
    assert np.allclose(m.predict(x), ref.predict(x))


def test_load_model_refuses_other_files_with_one_message(tmp_path):
    for name, content in [("text.txt", "hello"), ("list.json", "[1, 2]"), ("old.json", '{"format": "x"}')]:
        (tmp_path / name).write_text(content)
        with pytest.raises(ConfigError, match="cannot read ltr model .*expected a JSON model written by --save-model"):
            ltr.load_model(tmp_path / name)


def test_cross_validation_never_trains_on_a_test_query(monkeypatch):
    xs, ys = _synthetic(10)
    folds = ltr.kfold_by_query(list(xs), 5, 13)
    seen: list[set[int]] = []
    real_fit = ltr.fit_model

    def spy(train_x, train_y, config):
        seen.append({id(x) for x in train_x})
        return real_fit(train_x, train_y, config)

    monkeypatch.setattr("jiancha.retrieval.ltr.model.fit_model", spy)
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
    run, manifest, ds, qrels = ltr.run_ltr(base, v1, cfg, cache=tmp_path / "c", save_model_path=tmp_path / "m.json")
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
        ltr.run_ltr(base, v1, cfg, cache=tmp_path / "c", load_model_path=tmp_path / "m.json")


def test_train_on_one_query_set_apply_to_another(v1, tmp_path):
    base = RetrievalSpec("lecard-v1", method="charge")
    (tmp_path / "train.json").write_text(json.dumps({"1": {"12": 3, "11": 2, "13": 1}}))
    run, manifest, _, qrels = ltr.run_ltr(base, v1, cache=tmp_path / "c", train_qrels_path=tmp_path / "train.json",
                                          save_model_path=tmp_path / "m.json")
    assert set(qrels) == {"2"} and manifest["excluded_train_queries"] == ["1"]
    assert manifest["training"]["mode"] == "trained on --train-qrels"
    loaded = ltr.run_ltr(base, v1, cache=tmp_path / "c", load_model_path=tmp_path / "m.json")
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
    assert json.loads(res.stdout)["num_queries"] == 2
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
    (tmp_path / "notes.txt").write_text("not a model")
    res = r.invoke(app, ["retrieval", "eval", *common, "--method", "ltr", "--load-model", str(tmp_path / "notes.txt"),
                         "--out", str(tmp_path / "lm")])
    assert res.exit_code != 0 and "cannot read ltr model" in str(res.exception)


def test_charge_classifier_learns_charges_from_verdicts():
    from jiancha.retrieval.charge_model import ChargeClassifier

    texts = ["窃取手机一部", "窃取现金", "秘密窃取财物", "骗取钱款", "冒充客服骗取", "虚构事实骗取"]
    labels = ["盗窃罪"] * 3 + ["诈骗罪"] * 3
    clf = ChargeClassifier.fit(texts, labels)
    assert clf.predict(["被告人窃取他人手机", "被告人骗取被害人钱款"]) == [("盗窃罪",), ("诈骗罪",)]
    assert clf.predict(["窃取"], k=2) == [("盗窃罪", "诈骗罪")]
    with pytest.raises(ConfigError, match="fewer than two charges"):
        ChargeClassifier.fit(texts[:2], ["盗窃罪", ""])


def test_predicted_query_charges_come_from_the_classifier(v1, tmp_path):
    base = RetrievalSpec("lecard-v1", method="charge")
    _, manifest, _, _ = ltr.run_ltr(base, v1, ltr.LTRConfig(folds=2, query_charges="predicted", dense="none"),
                                      cache=tmp_path / "c")
    assert all(len(c) == 2 for c in manifest["query_charges"].values())
    assert manifest["spec"]["ltr"]["query_charges"] == "predicted"
    assert manifest["spec"]["ltr"]["predicted_balanced"] is False


def test_predicted_query_charges_can_weigh_every_charge_alike(v1, tmp_path, monkeypatch):
    from jiancha.retrieval import charge_model

    fits = []
    fit = charge_model.ChargeClassifier.fit.__func__
    monkeypatch.setattr(charge_model.ChargeClassifier, "fit", classmethod(
        lambda cls, *a, **kw: fits.append(kw.get("balanced")) or fit(cls, *a, **kw)))
    config = ltr.LTRConfig(folds=2, query_charges="predicted", predicted_balanced=True, dense="none")
    _, manifest, _, _ = ltr.run_ltr(RetrievalSpec("lecard-v1", method="charge"), v1, config, cache=tmp_path / "c")
    assert fits == [True] and manifest["spec"]["ltr"]["predicted_balanced"] is True


def test_ensemble_is_the_sum_of_its_members_standardised_per_query():
    xs, ys = _synthetic(8)
    cfg = ltr.LTRConfig(model="ensemble")
    m = ltr.fit_model(list(xs.values()), list(ys.values()), cfg)
    parts = [ltr.fit_model(list(xs.values()), list(ys.values()), ltr.LTRConfig(model=k)) for k in ltr.ENSEMBLE_MEMBERS]
    x = next(iter(xs.values()))
    z = [(p.predict(x) - p.predict(x).mean()) / p.predict(x).std() for p in parts]
    assert np.allclose(ltr.predict_scores(m, x, cfg), z[0] + z[1])
    assert ltr.LTRConfig().model == "ensemble"


def test_char_bigram_cosines_use_collection_idf():
    from jiancha.retrieval.ltr.chargrams import CharBigramIndex

    idx = CharBigramIndex.fit(["盗窃现金", "盗窃手机", "故意伤害"], min_df=1, max_df=1.0)
    got = idx.cosines("盗窃现金", np.array([0, 1, 2]))
    w_common, w_rare = math.log(4 / 3) + 1, math.log(2) + 1          # idf of 盗窃 (2 of 3 texts), of the others
    assert got == pytest.approx([1.0, w_common**2 / (w_common**2 + 2 * w_rare**2), 0.0])
    assert CharBigramIndex.fit(["甲乙", "甲乙"]).cosines("甲乙", [0]).tolist() == [1.0]   # falls back to min_df 1


def test_a_query_without_a_charge_field_takes_the_charges_its_text_names(tmp_path):
    from lecard_fixtures import write_v2

    root = write_v2(tmp_path / "v2")
    base = RetrievalSpec("lecard-v2", method="charge", scope="pool")
    _, manifest, _, _ = ltr.run_ltr(base, root, ltr.LTRConfig(folds=2, dense="none"), cache=tmp_path / "c")
    # each LeCaRDv2 query holds its indictment (公诉机关指控被告人犯盗窃罪。…): those charges, not a classifier's two
    assert manifest["query_charges"] == {"5": ["盗窃罪"], "10": ["诈骗罪"], "7": ["抢劫罪"]}
