"""Each method on a tiny pre-tokenised corpus, against formulas computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jiancha.retrieval.bm25 import BM25Config, BM25Index
from jiancha.retrieval.charge import (
    ChargeConfig,
    charge_scores,
    charge_tiers,
    document_charges,
    feedback_charges,
    lexical_scores,
    query_charges_from_text,
    scale_unit,
    standardise,
)
from jiancha.retrieval.fuse import ranks_of, rrf, weighted
from jiancha.retrieval.qld import QLDConfig, QLDIndex
from jiancha.retrieval.ranking import doc_id_order, top_k
from jiancha.retrieval.tokenise import TokenizerConfig, encode_corpus, encode_tokens, query_ids, tokenise

DOCS = [["盗窃", "手机", "盗窃"], ["抢劫", "手机"], ["诈骗", "电话", "银行", "卡"], ["盗窃", "电动车"]]


@pytest.fixture
def corpus():
    return encode_tokens(DOCS)


def test_tokenise_drops_stopwords_and_punctuation_and_protects_charges():
    cfg = TokenizerConfig(stopwords=frozenset({"的"}))
    assert tokenise("被告人的手机，被盗。", cfg) == ["被告人", "手机", "被盗"]
    plain = tokenise("被告人犯交通肇事罪", TokenizerConfig())
    assert "交通肇事罪" not in plain
    assert "交通肇事罪" in tokenise("被告人犯交通肇事罪", TokenizerConfig(protected=("交通肇事罪",)))


def test_encode_corpus_cache_round_trip(tmp_path):
    cfg = TokenizerConfig()
    texts = ["被告人盗窃手机", "被告人抢劫"]
    a = encode_corpus(texts, cfg, cache=tmp_path)
    assert len(list(tmp_path.glob("*/tokens.npz"))) == 1
    b = encode_corpus(texts, cfg, cache=tmp_path)
    assert np.array_equal(a.ids, b.ids) and np.array_equal(a.offsets, b.offsets) and a.vocab == b.vocab
    assert [t for t, _ in sorted(a.vocab.items(), key=lambda kv: kv[1])][:2] == ["被告人", "盗窃"]


def _lucene_bm25(q, k1, b):
    n = len(DOCS)
    avgdl = sum(map(len, DOCS)) / n
    out = []
    for doc in DOCS:
        s = 0.0
        for t in q:
            df = sum(1 for d in DOCS if t in d)
            tf = doc.count(t)
            if tf:
                idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
                s += idf * tf / (tf + k1 * (1 - b + b * len(doc) / avgdl))
        out.append(s)
    return np.array(out)


@pytest.mark.parametrize("k1,b", [(0.9, 0.4), (1.2, 0.75)])
def test_bm25_matches_lucene_formula_and_persists(corpus, tmp_path, k1, b):
    idx = BM25Index.build(corpus, BM25Config(k1=k1, b=b))
    q = ["盗窃", "手机"]
    got = idx.scores(query_ids(q, corpus.vocab))
    assert np.allclose(got, _lucene_bm25(q, k1, b), atol=1e-5)
    idx.save(tmp_path / "bm25")
    again = BM25Index.load(tmp_path / "bm25", BM25Config(k1=k1, b=b), mmap=True)
    assert np.allclose(again.scores(query_ids(q, corpus.vocab)), got)
    assert np.array_equal(idx.scores([]), np.zeros(4))


def test_qld_is_rank_equivalent_to_dirichlet_likelihood(corpus, tmp_path):
    mu = 3.0
    idx = QLDIndex.build(corpus, QLDConfig(mu=mu))
    q = ["盗窃", "手机", "手机"]
    total = sum(map(len, DOCS))
    direct = []
    for doc in DOCS:
        s = 0.0
        for t in q:
            p = sum(d.count(t) for d in DOCS) / total
            s += math.log((doc.count(t) + mu * p) / (len(doc) + mu))
        direct.append(s)
    got = idx.scores(query_ids(q, corpus.vocab))
    diff = got - np.array(direct)
    assert np.allclose(diff, diff[0])          # differs by a query-only constant
    idx.save(tmp_path / "qld")
    assert np.allclose(QLDIndex.load(tmp_path / "qld", QLDConfig(mu=mu)).scores(query_ids(q, corpus.vocab)), got)


def test_top_k_breaks_ties_by_numeric_doc_id():
    ids = ["10", "9", "100", "2"]
    order = doc_id_order(ids)
    assert order.tolist() == [2, 1, 3, 0]
    scores = np.array([1.0, 1.0, 2.0, 1.0])
    assert [ids[i] for i in top_k(scores, order, 4)] == ["100", "2", "9", "10"]
    assert [ids[i] for i in top_k(scores, order, 2)] == ["100", "2"]
    assert [ids[i] for i in top_k(scores, order, 2, candidates=np.array([0, 1]))] == ["9", "10"]


def test_rrf_and_weighted_fusion():
    order = np.array([0, 1, 2])
    a, b = np.array([3.0, 2.0, 1.0]), np.array([1.0, 3.0, 2.0])
    assert ranks_of(a, order).tolist() == [1, 2, 3]
    assert np.allclose(rrf([a, b], order, k=60), [1 / 61 + 1 / 63, 1 / 62 + 1 / 61, 1 / 63 + 1 / 62])
    assert np.allclose(rrf([a, b], order, k=1, weights=[2, 0]), [2 / 2, 2 / 3, 2 / 4])
    assert np.allclose(weighted([a, b], [1, 3]), [1 + 0, 0.5 + 3, 0 + 1.5])


def test_charge_tiers_and_bm25_tie_break():
    docs = [("盗窃罪",), ("抢劫罪", "盗窃罪"), ("诈骗罪",), (), ("盗窃罪",)]
    tiers = charge_tiers(["盗窃罪"], docs, ChargeConfig(jaccard_weight=0.0))
    assert tiers.tolist() == [2.0, 1.0, 0.0, 0.0, 2.0]
    assert charge_tiers(["盗窃罪"], docs).tolist() == [3.0, 1.5, 0.0, 0.0, 3.0]     # + Jaccard 1 and 1/2
    exact = charge_tiers(["盗窃罪", "抢劫罪"], docs, ChargeConfig(exact_weight=0.5, jaccard_weight=0.0))
    assert exact.tolist() == [2.0, 2.5, 0.0, 0.0, 2.0]
    fb = charge_tiers([], docs, ChargeConfig(prf_weight=0.5), feedback=("诈骗罪",))
    assert fb.tolist() == [0.0, 0.0, 0.5, 0.0, 0.0]
    bm25 = np.array([1.0, 9.0, 10.0, 0.0, 5.0])
    s = charge_scores(tiers, bm25)
    assert np.argsort(-s).tolist() == [4, 0, 1, 2, 3]      # tier first, BM25 inside the tier
    assert scale_unit(np.array([2.0, 2.0])).tolist() == [0.0, 0.0]
    assert feedback_charges(docs, bm25, np.arange(5), 2) == ("诈骗罪", "抢劫罪")


def test_document_charges_prefers_given_then_first_field_with_a_match():
    def find(text):
        return ["盗窃罪"] if "盗窃罪" in text else []

    assert document_charges(("被告人犯盗窃罪",), ("抢劫罪",), find) == ("抢劫罪",)
    assert document_charges(("", "无", "犯盗窃罪"), (), find) == ("盗窃罪",)
    assert document_charges(("无",), (), find) == ()


def test_query_charges_come_from_the_indictment_not_prior_convictions():
    def find(text):
        return [c for c in ("盗窃罪", "诈骗罪") if c in text]

    text = "被告人曾因犯盗窃罪被判处拘役。县人民检察院指控被告人犯诈骗罪。"
    assert query_charges_from_text([text], find) == ("诈骗罪",)
    assert query_charges_from_text(["", "被告人犯盗窃罪"], find) == ("盗窃罪",)      # no 指控: anywhere
    assert query_charges_from_text(["无"], find) == ()


def test_document_charges_extend_with_the_charges_the_reasoning_names():
    def find(text):
        return [c for c in ("诈骗罪", "盗窃罪", "抢劫罪") if c in text]

    reason = "公诉机关指控被告人犯盗窃罪，经查其行为构成诈骗罪，不构成抢劫罪。"
    assert document_charges(("判决被告人犯诈骗罪",), (), find, extra=(reason,)) == ("诈骗罪", "盗窃罪", "抢劫罪")
    assert document_charges(("无",), ("抢劫罪",), find, extra=("犯盗窃罪",)) == ("抢劫罪", "盗窃罪")
    assert document_charges(("无",), (), find, extra=("", "无")) == ()
    # the primary charge stays the verdict's; the reasoning adds overlap (tier 1 + Jaccard 1/2 instead of 0)
    docs = [document_charges(("判决被告人犯诈骗罪",), (), find, extra=(reason,))]
    assert charge_tiers(["盗窃罪"], docs).tolist() == [1.0 + 1 / 3]


def test_section_tier_follows_the_criminal_law_divisions():
    docs = [("盗窃罪",), ("抢劫罪",), ("寻衅滋事罪",), ("贩卖毒品罪",), ("走私、贩卖、运输、制造毒品罪",), ()]
    cfg = ChargeConfig(section_weight=0.25)
    # 盗窃 and 抢劫 are both in chapter 5 (侵犯财产罪, no sections); 寻衅滋事 is chapter 6 section 1
    assert charge_tiers(["盗窃罪"], docs, cfg).tolist() == [3.0, 0.25, 0.0, 0.0, 0.0, 0.0]
    # 非法持有毒品罪 (art. 348) and 贩卖毒品罪 (art. 347) share chapter 6 section 7; 妨害公务罪 (277) is section 1
    assert charge_tiers(["非法持有毒品罪"], docs, cfg).tolist() == [0.0, 0.0, 0.0, 0.25, 0.25, 0.0]
    assert charge_tiers(["妨害公务罪"], docs, cfg).tolist() == [0.0, 0.0, 0.25, 0.0, 0.0, 0.0]
    assert charge_tiers(["妨害公务罪"], docs).tolist() == [0.0] * 6          # off by default


def test_lexical_scores_fuse_standardised_bm25_and_qld():
    bm25, qld = np.array([1.0, 2.0, 3.0]), np.array([3.0, 1.0, 2.0])
    z = math.sqrt(1.5)  # (x - 2) / std([1, 2, 3]) = (x - 2) · sqrt(3/2)
    assert standardise(bm25).tolist() == pytest.approx([-z, 0.0, z])
    assert standardise(np.array([4.0, 4.0])).tolist() == [0.0, 0.0]
    assert lexical_scores(bm25, qld, 0.0).tolist() == [1.0, 2.0, 3.0]        # BM25 alone by default
    assert lexical_scores(bm25, None, 0.5).tolist() == [1.0, 2.0, 3.0]
    assert lexical_scores(bm25, qld, 0.5).tolist() == pytest.approx([-z + 0.5 * z, 0.5 * -z, z])
    tiers = np.array([1.0, 1.0, 0.0])
    s = charge_scores(tiers, lexical_scores(np.array([1.0, 1.1, 9.0]), np.array([5.0, 0.0, 9.0]), 1.0))
    assert np.argsort(-s).tolist() == [0, 1, 2]      # QLD reorders inside the tier, never across tiers
