"""BM25 on bm25s over pre-tokenised ids; the index is saved with bm25s (plain .npy + JSON) and memory-mapped."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from jiancha.retrieval.tokenise import TokenizedCorpus

#: bm25s scoring variants.
BM25_VARIANTS: tuple[str, ...] = ("lucene", "robertson", "atire", "bm25l", "bm25+")


@dataclass(frozen=True)
class BM25Config:
    """BM25 parameters. ``method`` is bm25s's variant (``lucene`` by default, as pyserini/Anserini).

    The default is Lucene's (k1 = 0.9, b = 0.4), which was also the best setting on LeCaRD v1's labelled queries
    among those tried (docs/retrieval-results.md).
    """

    k1: float = field(default=0.9, metadata={"help": "BM25 k1 (Lucene's 0.9)."})
    b: float = field(default=0.4, metadata={"help": "BM25 b (Lucene's 0.4)."})
    method: str = field(default="lucene", metadata={"cli": "bm25-method", "choices": BM25_VARIANTS,
                                                    "help": "bm25s variant."})


#: pyserini / Anserini defaults.
LUCENE_BM25 = BM25Config(k1=0.9, b=0.4)


class _DocLists(Sequence):
    """The corpus as bm25s expects it (one list of ids per document), materialised one document at a time so
    that a large corpus never exists as Python lists all at once."""

    def __init__(self, corpus: TokenizedCorpus):
        self._c = corpus

    def __len__(self) -> int:
        return len(self._c)

    def __getitem__(self, i):  # type: ignore[override]
        return self._c.doc(i).tolist()

    def __iter__(self):
        ids, off = self._c.ids, self._c.offsets
        for i in range(len(self._c)):
            yield ids[off[i]:off[i + 1]].tolist()


class BM25Index:
    """Scores every document of a corpus for a query given as token ids (repeats count per occurrence)."""

    def __init__(self, retriever, config: BM25Config, num_docs: int):
        self._r = retriever
        self.config = config
        self.num_docs = num_docs

    @classmethod
    def build(cls, corpus: TokenizedCorpus, config: BM25Config = BM25Config(), *,
              show_progress: bool = False) -> BM25Index:
        import bm25s
        from bm25s.tokenization import Tokenized

        r = bm25s.BM25(k1=config.k1, b=config.b, method=config.method)
        r.index(Tokenized(ids=_DocLists(corpus), vocab=dict(corpus.vocab)), show_progress=show_progress)
        return cls(r, config, len(corpus))

    def scores(self, query_token_ids: list[int]) -> np.ndarray:
        if not query_token_ids:
            return np.zeros(self.num_docs, dtype=np.float32)
        return self._r.get_scores_from_ids(query_token_ids)

    def save(self, path: str | os.PathLike) -> None:
        self._r.save(str(path))

    @classmethod
    def load(cls, path: str | os.PathLike, config: BM25Config, *, mmap: bool = True) -> BM25Index:
        import bm25s

        r = bm25s.BM25.load(str(path), mmap=mmap)
        return cls(r, config, int(r.scores["num_docs"]))

    @staticmethod
    def exists(path: str | os.PathLike) -> bool:
        return (Path(path) / "params.index.json").exists()
