"""Ranking metrics as pure functions of one query's ranked doc ids and its grades ``{doc id: grade}``.

Standard measures follow trec_eval (checked against ir_measures / pytrec_eval in the tests); the LeCaRD v1
functions reproduce the dataset's official ``metrics.py``. Unjudged documents have grade 0. Averages are taken
by the callers in :mod:`jiancha.retrieval.evaluate`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Grades = Mapping[str, int]


def _relevant(grades: Grades, threshold: int) -> set[str]:
    return {d for d, g in grades.items() if g >= threshold}


def recall_at_k(ranked: Sequence[str], grades: Grades, k: int, threshold: int = 1) -> float:
    """trec_eval ``recall_k``: |{relevant} ∩ top k| / |{relevant}|, relevant = grade ≥ threshold; 0 if none."""
    rel = _relevant(grades, threshold)
    if not rel:
        return 0.0
    return len(rel.intersection(ranked[:k])) / len(rel)


def hit_at_k(ranked: Sequence[str], grades: Grades, k: int, threshold: int = 1) -> float:
    """Hit rate (ir_measures ``Success@k``, the seed's "Recall@K"): 1 if any relevant document is in the top k."""
    rel = _relevant(grades, threshold)
    return 1.0 if any(d in rel for d in ranked[:k]) else 0.0


def precision_at_k(ranked: Sequence[str], grades: Grades, k: int, threshold: int = 1) -> float:
    """trec_eval ``P_k``: |{relevant} ∩ top k| / k (a list shorter than k counts the missing ranks as misses)."""
    rel = _relevant(grades, threshold)
    return sum(1 for d in ranked[:k] if d in rel) / k


def average_precision(ranked: Sequence[str], grades: Grades, threshold: int = 1) -> float:
    """trec_eval ``map`` per query: Σ_{relevant d retrieved} P@rank(d) / |{relevant}|; 0 without relevant docs."""
    rel = _relevant(grades, threshold)
    if not rel:
        return 0.0
    hits, total = 0, 0.0
    for i, d in enumerate(ranked, start=1):
        if d in rel:
            hits += 1
            total += hits / i
    return total / len(rel)


def reciprocal_rank(ranked: Sequence[str], grades: Grades, threshold: int = 1) -> float:
    """trec_eval ``recip_rank``: 1 / rank of the first relevant document; 0 if none is retrieved."""
    rel = _relevant(grades, threshold)
    for i, d in enumerate(ranked, start=1):
        if d in rel:
            return 1.0 / i
    return 0.0


def ndcg_at_k(ranked: Sequence[str], grades: Grades, k: int) -> float:
    """trec_eval ``ndcg_cut_k``: DCG@k / IDCG@k, gain = grade (linear), discount log2(rank + 1), the ideal from all
    positive grades of the query sorted descending; 0 when the query has no positive grade."""
    dcg = sum(grades.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]) if grades.get(d, 0) > 0)
    ideal = sorted((g for g in grades.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


# ------------------------------------------------------------------- LeCaRD v1 official (myx666/LeCaRD metrics.py)

LECARD_V1_JUDGED_KEYS = 30
LECARD_V1_TOP_GRADE = 3


def lecard_v1_ndcg(ranked: Sequence[str], grades: Grades, k: int) -> float:
    """LeCaRD v1 official NDCG@k for one query.

    gains: the grade of each ranked document if it is among the first 30 keys of the query's entry in
    ``label_top30_dict`` (in file order), else 0; the gain list is padded with zeros to 30 (and to k);
    DCG@k = Σ_{i<k} gain_i / log2(i + 2); the ideal uses *all* the query's judged grades sorted descending
    (padded with zeros); a query whose ranked gains are all 0 contributes 0 (the official code skips it while
    still dividing by the number of evaluated queries).
    """
    first = set(list(grades)[:LECARD_V1_JUDGED_KEYS])
    gains = [grades[d] if d in first else 0 for d in ranked]
    gains += [0] * max(0, max(LECARD_V1_JUDGED_KEYS, k) - len(gains))
    if sum(gains) == 0:
        return 0.0
    ideal = sorted(grades.values(), reverse=True)
    ideal += [0] * max(0, k - len(ideal))
    dcg = sum(gains[i] / math.log2(i + 2) for i in range(k))
    idcg = sum(ideal[i] / math.log2(i + 2) for i in range(k))
    return dcg / idcg if idcg > 0 else 0.0


def lecard_v1_precision(ranked: Sequence[str], grades: Grades, k: int) -> float:
    """LeCaRD v1 official P@k: |{grade-3 documents} ∩ top k| / k."""
    return precision_at_k(ranked, grades, k, threshold=LECARD_V1_TOP_GRADE)


def lecard_v1_average_precision(ranked: Sequence[str], grades: Grades) -> float:
    """LeCaRD v1 official AP: mean over the *retrieved* grade-3 documents of precision at their rank
    (grade 3 only); a query that retrieves none contributes 0. With the judged pool every grade-3 document is
    retrieved, so this equals trec_eval AP at threshold 3."""
    rel = {d for d, g in grades.items() if g == LECARD_V1_TOP_GRADE}
    precisions, hits = [], 0
    for i, d in enumerate(ranked, start=1):
        if d in rel:
            hits += 1
            precisions.append(hits / i)
    return sum(precisions) / len(precisions) if precisions else 0.0


def keller_ndcg(ranked: Sequence[str], grades: Grades, k: int) -> float:
    """NDCG@k as KELLER (ChenlongDeng/KELLER) computes it on LeCaRD v1: gain 2^(grade − 1) for grade ≥ 1, else 0;
    discount log2(rank + 1); the ideal DCG sorts *the ranked list's own* gains descending (not all of the query's
    judged grades); 0 when the list has no positive gain. Not comparable with :func:`lecard_v1_ndcg`.

    >>> round(keller_ndcg(["a", "b"], {"a": 1, "b": 3}, 2), 4)   # (1 + 4/log2 3) / (4 + 1/log2 3)
    0.7609
    """
    gains = [2.0 ** (grades[d] - 1) if grades.get(d, 0) >= 1 else 0.0 for d in ranked]
    ideal = sorted(gains, reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))
    return dcg / idcg if idcg > 0 else 0.0
