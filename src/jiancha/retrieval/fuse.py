"""Fusion of several rankings over the same candidates: reciprocal rank fusion or weighted score fusion."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

FUSION_KINDS = ("rrf", "weighted")
CHARGE_FUSION_WEIGHT = 3.0


@dataclass(frozen=True)
class FuseConfig:
    """``methods`` to fuse; ``kind`` rrf (score = Σ w/(k + rank)) or weighted (Σ w·minmax(score)).

    Without explicit ``weights``, ``charge`` weighs :data:`CHARGE_FUSION_WEIGHT` and every other method 1
    (weighted fusion of bm25, qld, charge with 1, 1, 3 was the best fusion on LeCaRD v1's labelled queries).
    """

    methods: tuple[str, ...] = field(default=("bm25", "qld", "charge"), metadata={
        "cli": "fuse-methods", "help": "fuse: comma-separated methods."})
    kind: str = field(default="weighted", metadata={"cli": "fusion", "choices": FUSION_KINDS, "help": "fuse: kind."})
    k: float = field(default=60.0, metadata={"cli": "rrf-k", "help": "fuse: RRF k."})
    weights: tuple[float, ...] = field(default=(), metadata={
        "help": "fuse: comma-separated weights, one per method (default: charge 3, others 1)."})

    def resolved_weights(self) -> tuple[float, ...]:
        return self.weights or tuple(CHARGE_FUSION_WEIGHT if m == "charge" else 1.0 for m in self.methods)


def ranks_of(scores: np.ndarray, id_order: np.ndarray) -> np.ndarray:
    """1-based rank of every entry (score descending, ties by id order).

    >>> ranks_of(np.array([0.5, 2.0, 0.5]), np.array([2, 0, 1])).tolist()
    [3, 1, 2]
    """
    order = np.lexsort((id_order, -np.asarray(scores, dtype=np.float64)))
    r = np.empty(len(order), dtype=np.int64)
    r[order] = np.arange(1, len(order) + 1)
    return r


def rrf(score_lists: Sequence[np.ndarray], id_order: np.ndarray, *, k: float = 60.0,
        weights: Sequence[float] | None = None) -> np.ndarray:
    """Reciprocal rank fusion: Σ_m w_m / (k + rank_m(d)) (Cormack et al. 2009; k = 60)."""
    weights = weights or [1.0] * len(score_lists)
    out = np.zeros(len(id_order), dtype=np.float64)
    for w, s in zip(weights, score_lists, strict=True):
        out += w / (k + ranks_of(s, id_order))
    return out


def minmax(scores: np.ndarray) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64)
    lo, hi = (float(s.min()), float(s.max())) if s.size else (0.0, 0.0)
    return np.zeros_like(s) if hi <= lo else (s - lo) / (hi - lo)


def weighted(score_lists: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
    """Weighted sum of min-max normalised scores: Σ_m w_m · (s_m - min s_m) / (max s_m - min s_m)."""
    weights = weights or [1.0] * len(score_lists)
    out = np.zeros(len(score_lists[0]), dtype=np.float64)
    for w, s in zip(weights, score_lists, strict=True):
        out += w * minmax(s)
    return out
