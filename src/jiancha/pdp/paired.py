"""Paired comparison of two PDP runs on the same cases: bootstrap interval of the macro-F1 difference and
McNemar's test on per-record correctness. Pure functions on label arrays (codes as in ``jiancha.pdp.metrics``).

Conventions:

- Pairing: record ``i`` of run A and record ``i`` of run B answer the same (case, repeat); ``gold[i]`` is its gold
  label. Records with an invalid gold label are left out (as in the metrics); an invalid prediction is wrong.
- Difference: ``d = MacroF1(A) − MacroF1(B)``, Level 2 (four classes) or Level 1, macro-F1 as in
  ``metrics.scores_from_confusion`` (plain mean over all classes of the level).
- Paired bootstrap: resample *cases* with replacement (``clusters[i]`` names the case of record ``i``; all records
  of a drawn case come along, for both runs at once), recompute ``d`` on each resample; the interval is the
  percentile interval ``[q(α/2), q(1−α/2)]`` of the ``n_boot`` values. Draws: ``numpy.random.default_rng(seed)``,
  ``rng.integers(0, n_cases, size=(n_boot, n_cases))``, in that order.
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


def paired_bootstrap(gold: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray, *,
                     clusters: np.ndarray | None = None, level: int = 2, n_boot: int = 1000, seed: int = 0,
                     alpha: float = 0.05, chunk_cells: int = 2_000_000) -> PairedInterval:
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
    ga, pa, k = _levels(gold, pred_a, level)
    _, pb, _ = _levels(gold, pred_b, level)
    fa, fb = macro_f1(gold, pred_a, level=level), macro_f1(gold, pred_b, level=level)
    if n_cases == 0 or n_boot <= 0:
        return PairedInterval(level, fa, fb, fa - fb, fa - fb, fa - fb, 0, seed, int(gold.size), n_cases)
    per_case_a = M.confusion(ga, pa, k, groups=codes, n_groups=n_cases).reshape(n_cases, -1).astype(np.float64)
    per_case_b = M.confusion(ga, pb, k, groups=codes, n_groups=n_cases).reshape(n_cases, -1).astype(np.float64)
    rng = np.random.default_rng(seed)
    step = max(1, chunk_cells // n_cases)
    diffs = []
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        draws = rng.integers(0, n_cases, size=(b, n_cases))
        weights = np.bincount((draws + np.arange(b)[:, None] * n_cases).ravel(),
                              minlength=b * n_cases).reshape(b, n_cases).astype(np.float64)
        sa = M.scores_from_confusion((weights @ per_case_a).reshape(b, k, k + 1))["macro_f1"]
        sb = M.scores_from_confusion((weights @ per_case_b).reshape(b, k, k + 1))["macro_f1"]
        diffs.append(sa - sb)
    v = np.concatenate(diffs)
    low, high = np.percentile(v, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return PairedInterval(level, fa, fb, fa - fb, float(low), float(high), n_boot, seed, int(gold.size), n_cases)


def mcnemar(gold: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray) -> McNemar:
    """McNemar's test on Level-2 correctness of paired records (records with an invalid gold left out)."""
    from scipy.stats import binom, chi2

    gold = np.asarray(gold, dtype=np.int64)
    keep = gold >= 0
    right_a = (np.asarray(pred_a) == gold)[keep]
    right_b = (np.asarray(pred_b) == gold)[keep]
    b = int((right_a & ~right_b).sum())
    c = int((~right_a & right_b).sum())
    n = b + c
    if n == 0:
        return McNemar(b, c, 1.0, 0.0, 1.0)
    p_exact = min(1.0, 2.0 * float(binom.cdf(min(b, c), n, 0.5)))
    stat = max(abs(b - c) - 1, 0) ** 2 / n
    return McNemar(b, c, p_exact, float(stat), float(chi2.sf(stat, 1)))
