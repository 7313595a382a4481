"""Query likelihood with Dirichlet smoothing, vectorised over a sparse document × term count matrix.

score(q, d) = Σ_{t∈q} c(t,q) · log( (tf(t,d) + μ·p(t|C)) / (|d| + μ) ), with p(t|C) = cf(t) / Σ cf.
Rank-equivalently (dropping the document-independent Σ c(t,q)·log(μ·p(t|C))):
score(q, d) = Σ_{t∈q} c(t,q) · log(1 + tf(t,d) / (μ·p(t|C))) + |q| · log(μ / (|d| + μ)),
which is what :meth:`QLDIndex.scores` returns (the first sum touches only documents containing a query term).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from jiancha.retrieval.tokenise import TokenizedCorpus


@dataclass(frozen=True)
class QLDConfig:
    """Dirichlet prior μ (pyserini's default is 1000)."""

    mu: float = field(default=1000.0, metadata={"help": "QLD Dirichlet mu."})


def term_counts(corpus: TokenizedCorpus) -> sp.csc_matrix:
    """Documents × vocabulary term-frequency matrix (CSC, so a query selects columns)."""
    rows = np.repeat(np.arange(len(corpus), dtype=np.int64), corpus.lengths())
    data = np.ones(len(corpus.ids), dtype=np.float32)
    m = sp.csr_matrix((data, (rows, corpus.ids.astype(np.int64))), shape=(len(corpus), len(corpus.vocab)))
    m.sum_duplicates()
    return m.tocsc()


class QLDIndex:
    def __init__(self, counts: sp.csc_matrix, config: QLDConfig = QLDConfig()):
        self.config = config
        self.counts = counts
        self.doc_len = np.asarray(counts.sum(axis=1)).ravel().astype(np.float64)
        cf = np.asarray(counts.sum(axis=0)).ravel().astype(np.float64)
        self.p_coll = cf / max(cf.sum(), 1.0)
        mu = config.mu
        w = counts.copy().astype(np.float64)
        # column j holds tf values of term j: divide by μ·p(j|C) column-wise
        col_of = np.repeat(np.arange(w.shape[1]), np.diff(w.indptr))
        w.data = np.log1p(w.data / (mu * self.p_coll[col_of]))
        self.weights = w
        self.doc_norm = np.log(mu / (self.doc_len + mu))

    @classmethod
    def build(cls, corpus: TokenizedCorpus, config: QLDConfig = QLDConfig()) -> QLDIndex:
        return cls(term_counts(corpus), config)

    @property
    def num_docs(self) -> int:
        return self.counts.shape[0]

    def scores(self, query_token_ids: list[int]) -> np.ndarray:
        if not query_token_ids:
            return np.zeros(self.num_docs)
        terms, qtf = np.unique(np.asarray(query_token_ids, dtype=np.int64), return_counts=True)
        s = self.weights[:, terms] @ qtf.astype(np.float64)
        return np.asarray(s).ravel() + qtf.sum() * self.doc_norm

    def save(self, path: str | os.PathLike) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)
        sp.save_npz(Path(path) / "term_counts.npz", self.counts)

    @classmethod
    def load(cls, path: str | os.PathLike, config: QLDConfig = QLDConfig()) -> QLDIndex:
        return cls(sp.load_npz(Path(path) / "term_counts.npz").tocsc(), config)

    @staticmethod
    def exists(path: str | os.PathLike) -> bool:
        return (Path(path) / "term_counts.npz").exists()
