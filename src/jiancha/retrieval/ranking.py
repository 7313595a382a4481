"""Deterministic top-k: highest score first, ties broken by document id (numeric ids compare as numbers)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def doc_id_order(doc_ids: Sequence[str]) -> np.ndarray:
    """Rank of each id in the canonical id order (numeric ids by value, then other ids as strings)."""
    keys = sorted(range(len(doc_ids)), key=lambda i: _id_key(doc_ids[i]))
    order = np.empty(len(doc_ids), dtype=np.int64)
    order[np.asarray(keys, dtype=np.int64)] = np.arange(len(doc_ids))
    return order


def _id_key(doc_id: str) -> tuple:
    return (0, int(doc_id), "") if doc_id.isdigit() else (1, 0, doc_id)


def top_k(scores: np.ndarray, id_order: np.ndarray, k: int, candidates: np.ndarray | None = None) -> np.ndarray:
    """Indices of the ``k`` best documents (among ``candidates`` when given), score descending, ties by id.

    >>> top_k(np.array([1.0, 3.0, 3.0, 2.0]), np.array([3, 2, 1, 0]), 3).tolist()
    [2, 1, 3]
    """
    idx = np.arange(len(scores)) if candidates is None else np.asarray(candidates, dtype=np.int64)
    s = np.asarray(scores, dtype=np.float64)[idx]
    if k < len(idx):
        # keep everything tied with the k-th best so that the tie-break by id is exact
        kth = np.partition(-s, k - 1)[k - 1]
        keep = -s <= kth
        idx, s = idx[keep], s[keep]
    order = np.lexsort((id_order[idx], -s))
    return idx[order][:k]
