"""The charge classifier a case index trains on its collection: shares, plain-file persistence, and its use when a
query names no charge."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from jiancha.errors import DataError
from jiancha.retrieval.charge_model import CLASSIFIER_CHARS, MIN_TRAINING_DOCS, ChargeClassifier, _vectoriser
from jiancha.retrieval.search import CaseDoc, SearchIndex

_ACTS = {
    "盗窃罪": ["趁无人之际窃取", "撬锁后秘密窃取", "扒窃", "溜门入户窃取"],
    "诈骗罪": ["冒充客服骗取", "虚构投资项目骗取", "以借款为名骗取", "谎称能办理落户骗取"],
    "故意伤害罪": ["持木棍殴打", "拳打脚踢致被害人轻伤", "持刀捅伤", "用砖块击打被害人头部致轻伤"],
}
_PLACES = ["朝阳区", "海淀区", "南山区", "江北区", "武侯区", "西湖区"]
_THINGS = ["电动车一辆", "现金人民币3000元", "手机一部", "黄金项链一条", "笔记本电脑一台"]


def _collection(n_per_charge: int, seed: int = 7) -> list[CaseDoc]:
    rng = random.Random(seed)
    docs = []
    for charge, acts in _ACTS.items():
        for i in range(n_per_charge):
            fact = (f"{rng.randint(2015, 2022)}年{rng.randint(1, 12)}月，被告人在{rng.choice(_PLACES)}某小区"
                    f"{rng.choice(acts)}被害人{rng.choice(_THINGS)}，涉案{1000 + 37 * i}元。案发后被告人被抓获。")
            docs.append(CaseDoc(f"{charge[:2]}{i}", fact, (charge,), "有期徒刑1年", ()))
    return docs


@pytest.fixture(scope="module")
def collection():
    return _collection(200)


def test_shares_are_a_softmax_over_the_best_charges():
    clf = ChargeClassifier({"窃": 0, "骗": 1}, np.ones(2), np.zeros((4, 2), np.float32),
                           np.array([2.0, 1.0, 0.0, -3.0], np.float32), ("盗窃罪", "诈骗罪", "故意伤害罪", "抢劫罪"))
    e = np.exp([0.0, -1.0, -2.0])
    want = dict(zip(("盗窃罪", "诈骗罪", "故意伤害罪"), (e / e.sum()).tolist(), strict=True))
    assert clf.shares("任何文字", k=3) == pytest.approx(want)
    assert list(clf.shares("任何文字", k=3)) == ["盗窃罪", "诈骗罪", "故意伤害罪"]   # best first
    assert clf.shares("任何文字", k=1) == {"盗窃罪": 1.0}
    half = np.exp([0.0, -2.0])
    assert clf.shares("任何文字", k=2, temperature=0.5) == pytest.approx(
        dict(zip(("盗窃罪", "诈骗罪"), (half / half.sum()).tolist(), strict=True)))


def test_training_twice_gives_the_same_weights(collection):
    docs = collection[::5]
    a, b = (ChargeClassifier.fit([d.fact for d in docs], [d.charges[0] for d in docs]) for _ in range(2))
    assert a.classes == b.classes and np.array_equal(a.coef, b.coef) and np.array_equal(a.intercept, b.intercept)


def test_tfidf_is_scikit_learns_without_scikit_learn(collection):
    docs = collection[::7]
    clf = ChargeClassifier.fit([d.fact for d in docs], [d.charges[0] for d in docs])
    vec = _vectoriser()
    vec.fit([d.fact[:CLASSIFIER_CHARS] for d in docs])
    assert clf.vocab == vec.vocabulary_
    texts = ["被告人在朝阳区某小区窃取电动车一辆。", "Wang某  于2019年\n\n骗取  iPhone", "窃" * 2000, "", "ＸＹＺ"]
    for text in texts:
        want = vec.transform([text[:CLASSIFIER_CHARS]]).toarray()[0]
        got = np.zeros_like(want)
        cols, vals = clf.tfidf(text)
        got[cols] = vals
        assert got == pytest.approx(want, abs=1e-12), text[:20]


def test_an_index_of_enough_judgments_learns_charges_and_keeps_them(collection, tmp_path):
    idx = SearchIndex.build(collection)
    assert idx.charge_model is not None and set(idx.charge_model.classes) == set(_ACTS)
    idx.save(tmp_path / "ix")
    assert json.loads((tmp_path / "ix" / "index.json").read_text(encoding="utf-8"))["charge_model"] is True
    assert {p.name for p in (tmp_path / "ix" / "charges").iterdir()} == {
        "vocab.json", "idf.npy", "coef.npy", "intercept.npy", "model.json"}
    loaded = SearchIndex.load(tmp_path / "ix")
    query = "被告人在某商场趁店员不备窃取柜台上的手机一部"   # names no charge
    assert loaded.charge_model.predict([query], 3) == idx.charge_model.predict([query], 3)
    weights, named = loaded.query_charges(query)
    assert not named and next(iter(weights)) == "盗窃罪" and sum(weights.values()) == pytest.approx(1.0)
    assert weights == pytest.approx(loaded.charge_model.shares(query), abs=1e-3)   # float16 weights on disk
    hits = loaded.search(query, 5)
    assert all(h.guessed and h.shared_charges == ("盗窃罪",) for h in hits)
    assert hits[0].reason.startswith("推定罪名：盗窃罪")
    # a prior conviction's crime is not read as the case's
    prior = "何某曾因诈骗被判处有期徒刑三年，2020年刑满释放。" + query
    assert loaded.query_charges(prior)[0] == loaded.query_charges(query)[0]
    # a query that names its charge is not second-guessed
    weights, named = loaded.query_charges("公诉机关指控被告人犯诈骗罪。被告人窃取手机")
    assert named and weights == {"诈骗罪": 1.0}


def test_without_a_classifier_the_closest_cases_vote(collection, tmp_path):
    small = SearchIndex.build(collection[:MIN_TRAINING_DOCS - 1])
    assert small.charge_model is None
    off = SearchIndex.build(collection, charge_model=False)
    assert off.charge_model is None
    query = "被告人在某商场趁店员不备窃取柜台上的手机一部"
    r = off.rank(query)
    assert off.query_charges(query, r.docs) == off.query_charges(query, r.docs, "soft-rank-text")
    SearchIndex.build(collection).save(tmp_path / "ix")
    off.save(tmp_path / "ix")   # rebuilt without one: the old classifier goes
    assert not (tmp_path / "ix" / "charges").exists()
    assert SearchIndex.load(tmp_path / "ix").charge_model is None
    meta = json.loads((tmp_path / "ix" / "index.json").read_text(encoding="utf-8"))
    del meta["charge_model"]   # an index written before indexes had classifiers
    (tmp_path / "ix" / "index.json").write_text(json.dumps(meta), encoding="utf-8")
    old = SearchIndex.load(tmp_path / "ix")
    assert old.charge_model is None and old.search(query, 3)


def test_a_corrupt_classifier_is_a_one_line_error_naming_it(collection, tmp_path):
    SearchIndex.build(collection).save(tmp_path / "ix")
    (tmp_path / "ix" / "charges" / "coef.npy").write_bytes(b"not an array")
    with pytest.raises(DataError, match=r"corrupt charge classifier .*rebuild the index") as err:
        SearchIndex.load(tmp_path / "ix")
    assert str(tmp_path / "ix" / "charges") in str(err.value)
    SearchIndex.build(collection).save(tmp_path / "ix2")
    np.save(tmp_path / "ix2" / "charges" / "intercept.npy", np.zeros(7, np.float32))
    with pytest.raises(DataError, match="3 classes"):
        SearchIndex.load(tmp_path / "ix2")
    (tmp_path / "ix2" / "charges" / "model.json").write_text("[]", encoding="utf-8")
    with pytest.raises(DataError, match="not a jiancha-charge-classifier/1 model"):
        SearchIndex.load(tmp_path / "ix2")


def test_cli_index_says_how_charges_are_guessed(collection, tmp_path):
    from jiancha.cli.main import app

    src = tmp_path / "cases.jsonl"
    src.write_text("".join(json.dumps({"id": d.id, "fact": d.fact, "charges": list(d.charges)}, ensure_ascii=False)
                           + "\n" for d in collection), encoding="utf-8")
    r = CliRunner().invoke(app, ["retrieval", "index", str(src), "--out", str(tmp_path / "ix")])
    assert r.exit_code == 0, r.output
    assert "guessed by a classifier of 3 charges" in r.output
    r = CliRunner().invoke(app, ["retrieval", "index", str(src), "--out", str(tmp_path / "ix"), "--no-charge-model"])
    assert r.exit_code == 0 and "guessed from its closest cases (--no-charge-model)" in r.output
    assert not (tmp_path / "ix" / "charges").exists()
    r = CliRunner().invoke(app, ["retrieval", "index", str(src), "--out", str(tmp_path / "ix"), "--balanced-charges"])
    assert r.exit_code == 0 and "3 charges learned from the verdicts, every charge weighted alike" in r.output
    few = tmp_path / "few.jsonl"
    few.write_text("".join(src.read_text(encoding="utf-8").splitlines(keepends=True)[:20]), encoding="utf-8")
    r = CliRunner().invoke(app, ["retrieval", "index", str(few), "--out", str(tmp_path / "few"), "--balanced-charges"])
    assert r.exit_code == 0 and "--balanced-charges has no classifier to weigh" in r.output
    assert SearchIndex.load(tmp_path / "ix").charge_model.balanced


@pytest.mark.parametrize("part", ["dev", "sealed"])
def test_the_blind_case_descriptions_name_no_charge_and_have_known_gold(part):
    """``benchmarks/search_charge_guess.py`` scores these: a description that named its charge would be read, not
    guessed, and a gold name the charge table lacks could never be guessed."""
    from pathlib import Path

    from jiancha.law.charges import charge_names
    from jiancha.retrieval.charge import stated_charges
    from jiancha.retrieval.sources import finder

    known = set(charge_names())
    lines = (Path(__file__).parent / "blind_queries" / f"{part}.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    for line in lines:
        g = json.loads(line)
        assert g["gold"] and set(g["gold"]) <= known, g["id"]
        assert not stated_charges(g["query"], finder()), g["id"]


def test_balanced_weights_raise_a_rare_charge_and_are_kept(collection, tmp_path):
    rng = random.Random(3)
    rare = [CaseDoc(f"抢夺{i}", f"被告人在{rng.choice(_PLACES)}街头趁被害人不备，夺取其{rng.choice(_THINGS)}后逃离。",
                    ("抢夺罪",), "有期徒刑1年", ()) for i in range(6)]
    docs = collection + rare
    texts, labels = [d.fact for d in docs], [d.charges[0] for d in docs]
    plain = ChargeClassifier.fit(texts, labels)
    balanced = ChargeClassifier.fit(texts, labels, balanced=True)
    query = "被告人趁被害人不备夺取其手机一部"

    def margin(clf):   # the rare charge's decision value above the best other one
        row = dict(zip(clf.classes, clf.decision([query])[0], strict=True))
        return row["抢夺罪"] - max(v for c, v in row.items() if c != "抢夺罪")

    assert not plain.balanced and balanced.balanced
    assert margin(balanced) > margin(plain)
    idx = SearchIndex.build(docs, balanced_charges=True)
    assert idx.charge_model.balanced
    idx.save(tmp_path / "ix")
    assert json.loads((tmp_path / "ix" / "index.json").read_text(encoding="utf-8"))["charge_model_balanced"] is True
    assert SearchIndex.load(tmp_path / "ix").charge_model.balanced
    SearchIndex.build(docs).save(tmp_path / "ix2")
    assert not SearchIndex.load(tmp_path / "ix2").charge_model.balanced
