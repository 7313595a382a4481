"""Dense retrieval (extra ``dense``): any sentence-transformers model, cosine similarity in a faiss IndexFlatIP."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jiancha._util.lazy import require


@dataclass(frozen=True)
class DenseConfig:
    """``model``: a sentence-transformers model path or name; texts are cut to ``max_chars`` before encoding."""

    model: str = ""
    batch_size: int = 32
    max_chars: int = 2000
    device: str = "cpu"


def encode(texts: Sequence[str], config: DenseConfig, *, show_progress: bool = True, model=None) -> np.ndarray:
    """L2-normalised float32 embeddings, one row per text (batched; sentence-transformers progress bar)."""
    if model is None:
        model = load_model(config)
    emb = model.encode([t[: config.max_chars] for t in texts], batch_size=config.batch_size,
                       show_progress_bar=show_progress, convert_to_numpy=True, normalize_embeddings=True)
    return np.ascontiguousarray(emb, dtype=np.float32)


def load_model(config: DenseConfig):
    from jiancha.datasets.model_source import resolve_model_source
    from jiancha.errors import ConfigError

    st = require("sentence_transformers", "dense")
    if not config.model:
        raise ConfigError("the dense method needs a model: pass --model PATH (a sentence-transformers model dir)")
    source = resolve_model_source(config.model, option="--model", extra="dense")
    return st.SentenceTransformer(source, device=config.device)


class DenseIndex:
    """Document embeddings plus a faiss inner-product index over them."""

    def __init__(self, embeddings: np.ndarray):
        faiss = require("faiss", "dense")
        self.embeddings = embeddings
        self.index = faiss.IndexFlatIP(embeddings.shape[1])
        self.index.add(np.ascontiguousarray(embeddings, dtype=np.float32))

    @property
    def num_docs(self) -> int:
        return self.embeddings.shape[0]

    def scores(self, query_embedding: np.ndarray) -> np.ndarray:
        """Inner product with every document (cosine, embeddings being normalised)."""
        return self.embeddings @ np.asarray(query_embedding, dtype=np.float32)

    def search(self, query_embeddings: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        return self.index.search(np.ascontiguousarray(query_embeddings, dtype=np.float32), k)

    def save(self, path: str | os.PathLike) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)
        np.save(Path(path) / "embeddings.npy", self.embeddings)

    @classmethod
    def load(cls, path: str | os.PathLike) -> DenseIndex:
        return cls(np.load(Path(path) / "embeddings.npy", mmap_mode="r"))

    @staticmethod
    def exists(path: str | os.PathLike) -> bool:
        return (Path(path) / "embeddings.npy").exists()
