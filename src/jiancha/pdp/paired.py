"""Paired comparison of two PDP runs on the same cases: bootstrap interval of the macro-F1 difference and
McNemar's test on per-record correctness. Pure functions on label arrays (codes as in ``jiancha.pdp.metrics``).

Conventions:

- Pairing: record ``i`` of run A and record ``i`` of run B answer the same (case, repeat); ``gold[i]`` is its gold
  label. Records with an invalid gold label are left out (as in the metrics); an invalid prediction is wrong.
- Difference: ``d = MacroF1(A) − MacroF1(B)``, Level 2 (four classes) or Level 1, macro-F1 as in
  ``metrics.scores_from_confusion`` (plain mean over all classes of the level).
- Paired bootstrap: resample *cases* with replacement (``clusters[i]`` names the case of record ``i``; all records
  of a drawn case come along, for both runs at once), recompute ``d`` on each resample; the interval is the
  percentile interval ``[q(α/2), q(1−α/2)]`` of the ``n_boot`` values. ``d`` depends on a resample only through
  how many cases of each *profile* it holds (a profile: a case's confusion counts under A and under B; a few
  hundred at most), and drawing ``n_cases`` cases with replacement gives profile counts distributed
  ``Multinomial(n_cases, profile frequencies)``: so the profile counts are drawn directly, exactly that
  distribution at a cost independent of the number of cases. Draws: ``numpy.random.default_rng(seed)``,
  ``rng.multinomial(n_cases, counts / n_cases, size=n_boot)`` over the profiles in ``numpy.unique(…, axis=0)``
  order.
- McNemar: ``b`` = records A gets right and B wrong, ``c`` = A wrong and B right. Exact two-sided p-value
  ``min(1, 2·P(X ≤ min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)`` (1 when ``b + c = 0``); also the
  continuity-corrected statistic ``χ² = max(|b − c| − 1, 0)² / (b + c)`` (0 when ``b + c = 0``) with its χ²(1) p-value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jiancha.pdp import metrics as M


@dataclass(frozen=True)
class PairedInterval:
    """Difference of macro-F1 (A − B) and its paired-bootstrap percentile interval."""

    level: int
    macro_f1_a: float
    macro_f1_b: float
    diff: float
    low: float
    high: float
    n_boot: int
    seed: int
    n_records: int
    n_cases: int


@dataclass(frozen=True)
class McNemar:
    """McNemar's test on per-record correctness: ``b`` A right / B wrong, ``c`` A wrong / B right."""

    b: int
    c: int
    p_exact: float
    chi2: float
    p_chi2: float


def _levels(gold: np.ndarray, pred: np.ndarray, level: int) -> tuple[np.ndarray, np.ndarray, int]:
    if level == 1:
        return M.to_level1(gold), M.to_level1(pred), M.K1
    if level == 2:
        return np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64), M.K2
    raise ValueError(f"level must be 1 or 2, got {level!r}")


def macro_f1(gold: np.ndarray, pred: np.ndarray, *, level: int = 2) -> float:
    """Macro-F1 of one run (records with an invalid gold label left out)."""
    g, p, k = _levels(gold, pred, level)
    return float(M.scores_from_confusion(M.confusion(g, p, k)[0])["macro_f1"])


def case_profiles(gold: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray, clusters: np.ndarray, level: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Distinct per-case confusion counts of A and B side by side (``(T, 2·k·(k+1))``, ``numpy.unique`` order)
    and how many cases have each."""
    ga, pa, k = _levels(gold, pred_a, level)
    _, pb, _ = _levels(gold, pred_b, level)
    n_cases = int(clusters.max()) + 1
    per_case = np.concatenate([M.confusion(ga, p, k, groups=clusters, n_groups=n_cases).reshape(n_cases, -1)
                               for p in (pa, pb)], axis=1)
    # Distinct rows by their bytes (numpy.unique(axis=0) sorts the whole matrix: seconds for 37k cases), then
    # put in numpy.unique's lexicographic order.
    seen: dict[bytes, int] = {}
    first: list[int] = []
    tally: list[int] = []
    for i, row in enumerate(per_case):
        key = row.tobytes()
        j = seen.setdefault(key, len(first))
        if j == len(first):
            first.append(i)
            tally.append(0)
        tally[j] += 1
    distinct = per_case[first]
    order = np.lexsort(distinct.T[::-1])
    return distinct[order], np.asarray(tally, dtype=np.int64)[order]


def paired_bootstrap(gold: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray, *,
                     clusters: np.ndarray | None = None, level: int = 2, n_boot: int = 1000, seed: int = 0,
                     alpha: float = 0.05) -> PairedInterval:
    """Macro-F1 difference A − B with a paired case-bootstrap percentile interval (see module docstring).

    ``clusters`` are integer case codes ``0..n_cases-1`` (default: each record its own case)."""
    gold = np.asarray(gold, dtype=np.int64)
    pred_a = np.asarray(pred_a, dtype=np.int64)
    pred_b = np.asarray(pred_b, dtype=np.int64)
    if not (gold.shape == pred_a.shape == pred_b.shape):
        raise ValueError(f"gold, pred_a and pred_b must have the same length, got {gold.shape[0]}, "
                         f"{pred_a.shape[0]}, {pred_b.shape[0]}")
    codes = np.arange(gold.size) if clusters is None else np.asarray(clusters, dtype=np.int64)
    n_cases = int(codes.max()) + 1 if codes.size else 0
    fa, fb = macro_f1(gold, pred_a, level=level), macro_f1(gold, pred_b, level=level)
    if n_cases == 0 or n_boot <= 0:
        return PairedInterval(level, fa, fb, fa - fb, fa - fb, fa - fb, 0, seed, int(gold.size), n_cases)
    profiles, counts = case_profiles(gold, pred_a, pred_b, codes, level)
    weights = np.random.default_rng(seed).multinomial(n_cases, counts / n_cases, size=n_boot).astype(np.float64)
    k = M.K2 if level == 2 else M.K1
    cm = (weights @ profiles).reshape(n_boot, 2, k, k + 1)
    v = M.scores_from_confusion(cm[:, 0])["macro_f1"] - M.scores_from_confusion(cm[:, 1])["macro_f1"]
    low, high = np.percentile(v, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return PairedInterval(level, fa, fb, fa - fb, float(low), float(high), n_boot, seed, int(gold.size), n_cases)


def mcnemar(gold: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray) -> McNemar:
    """McNemar's test on Level-2 correctness of paired records (records with an invalid gold left out)."""
    from scipy.special import bdtr, chdtrc  # binomial CDF, χ² survival (scipy.stats takes seconds to import)

    gold = np.asarray(gold, dtype=np.int64)
    keep = gold >= 0
    right_a = (np.asarray(pred_a) == gold)[keep]
    right_b = (np.asarray(pred_b) == gold)[keep]
    b = int((right_a & ~right_b).sum())
    c = int((~right_a & right_b).sum())
    n = b + c
    if n == 0:
        return McNemar(b, c, 1.0, 0.0, 1.0)
    p_exact = min(1.0, 2.0 * float(bdtr(min(b, c), n, 0.5)))
    stat = max(abs(b - c) - 1, 0) ** 2 / n
    return McNemar(b, c, p_exact, float(stat), float(chdtrc(1, stat)))
