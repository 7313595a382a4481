"""Paired comparison of rankings on the same queries: per-query metric differences, a paired bootstrap interval,
a randomisation (sign-flip) test, and the floor and ceiling of the task (random order, oracle order).

For queries Q (the labelled queries every compared run covers) and a metric m, d_q = m(A, q) − m(B, q):

- mean difference Δ = (1/|Q|) Σ d_q;
- paired bootstrap: resample Q with replacement ``n`` times (seeded); the 95 % interval is the 2.5th and 97.5th
  percentiles of the resampled means (percentile method);
- randomisation test: under H0 the sign of each d_q is exchangeable; p = (1 + #{|Σ s_q d_q| ≥ |Σ d_q|}) / (1 + n)
  over ``n`` seeded sign vectors s ∈ {−1, 1}^|Q| (two-sided);
- random floor: the expected metric of a uniformly random order of each query's judged candidates (mean of
  ``n_random`` seeded shuffles); oracle ceiling: candidates sorted by grade (ties by id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from jiancha.retrieval.evaluate import Qrels, evaluate
from jiancha.retrieval.trec import Run

#: Metrics compared by default on LeCaRD v1 (both NDCG conventions).
COMPARE_METRICS: tuple[str, ...] = ("ndcg@10", "ndcg@30", "kndcg@10", "kndcg@30", "map", "p@5", "p@10")


@dataclass(frozen=True)
class PairedResult:
    metric: str
    mean_a: float
    mean_b: float
    delta: float
    ci_low: float
    ci_high: float
    p_value: float
    wins: int
    losses: int
    ties: int


def paired_bootstrap(d: np.ndarray, *, n: int = 10_000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of the mean of ``d`` under resampling of its entries with replacement.

    >>> paired_bootstrap(np.array([1.0, 1.0, 1.0]))
    (1.0, 1.0)
    """
    d = np.asarray(d, dtype=np.float64)
    if d.size == 0:
        return 0.0, 0.0
    rng = np.random.default_rng(seed)
    means = d[rng.integers(0, d.size, size=(n, d.size))].mean(axis=1)
    a = (1 - level) / 2
    return float(np.quantile(means, a)), float(np.quantile(means, 1 - a))


def randomisation_test(d: np.ndarray, *, n: int = 10_000, seed: int = 0) -> float:
    """Two-sided sign-flip p-value of mean(d) ≠ 0 (see module docstring); 1.0 for no or all-zero differences."""
    d = np.asarray(d, dtype=np.float64)
    if d.size == 0 or not np.any(d):
        return 1.0
    rng = np.random.default_rng(seed)
    signs = rng.choice(np.array([-1.0, 1.0]), size=(n, d.size))
    observed = abs(d.sum())
    extreme = int((np.abs(signs @ d) >= observed - 1e-12).sum())
    return (1 + extreme) / (1 + n)


def compare_per_query(a: Mapping[str, Mapping[str, float]], b: Mapping[str, Mapping[str, float]],
                      queries: Sequence[str], metric: str, *, n: int = 10_000, seed: int = 0) -> PairedResult:
    """Paired statistics of ``metric`` over ``queries`` from two per-query metric tables."""
    xa = np.array([a[q][metric] for q in queries], dtype=np.float64)
    xb = np.array([b[q][metric] for q in queries], dtype=np.float64)
    d = xa - xb
    lo, hi = paired_bootstrap(d, n=n, seed=seed)
    return PairedResult(metric, float(xa.mean()) if len(xa) else 0.0, float(xb.mean()) if len(xb) else 0.0,
                        float(d.mean()) if len(d) else 0.0, lo, hi, randomisation_test(d, n=n, seed=seed),
                        int((d > 1e-12).sum()), int((d < -1e-12).sum()), int((np.abs(d) <= 1e-12).sum()))


def random_run(qrels: Qrels, *, seed: int) -> dict[str, list[tuple[str, float]]]:
    """One uniformly random order of each query's judged candidates (the keys of its grades)."""
    rng = np.random.default_rng(seed)
    out = {}
    for q in sorted(qrels, key=lambda x: (len(x), x)):
        docs = sorted(qrels[q])
        order = rng.permutation(len(docs))
        out[q] = [(docs[i], float(len(docs) - r)) for r, i in enumerate(order)]
    return out


def oracle_run(qrels: Qrels) -> dict[str, list[tuple[str, float]]]:
    """Each query's judged candidates by grade descending, ties by id: the best order the labels allow."""
    return {q: [(d, float(g)) for d, g in sorted(grades.items(), key=lambda x: (-x[1], x[0]))]
            for q, grades in qrels.items()}


def random_floor(dataset: str, qrels: Qrels, *, n_random: int = 200, seed: int = 0) -> dict[str, float]:
    """Mean metrics of ``n_random`` random orders of the judged candidates."""
    total: dict[str, float] = {}
    for i in range(n_random):
        for k, v in evaluate(dataset, random_run(qrels, seed=seed + i), qrels).metrics.items():
            total[k] = total.get(k, 0.0) + v / n_random
    return total


@dataclass(frozen=True)
class Comparison:
    """Metrics of each run on the shared ``queries``, the floor and ceiling, and the paired statistics of A vs B."""

    queries: tuple[str, ...]
    metrics: dict[str, dict[str, float]]      # run name → metric → mean over queries
    paired: tuple[PairedResult, ...]


def compare_runs(dataset: str, runs: Mapping[str, Run], qrels: Qrels, *, metrics: Sequence[str] = COMPARE_METRICS,
                 n: int = 10_000, seed: int = 0, n_random: int = 200) -> Comparison:
    """Compare the first two of ``runs`` (A, B) on the labelled queries all runs cover; every run, a random order
    and the oracle order are also scored on those queries."""
    names = list(runs)
    shared = [q for q in qrels if all(q in r for r in runs.values())]
    queries = tuple(sorted(shared, key=lambda x: (len(x), x)))
    sub = {q: qrels[q] for q in queries}
    per = {name: evaluate(dataset, run, sub).per_query for name, run in runs.items()}
    table = {name: {m: (float(np.mean([per[name][q][m] for q in queries])) if queries else 0.0) for m in metrics}
             for name in names}
    floor = random_floor(dataset, sub, n_random=n_random, seed=seed)
    table[f"random order (mean of {n_random})"] = {m: floor.get(m, 0.0) for m in metrics}
    table["oracle"] = {m: v for m, v in evaluate(dataset, oracle_run(sub), sub).metrics.items() if m in metrics}
    paired = tuple(compare_per_query(per[names[0]], per[names[1]], queries, m, n=n, seed=seed) for m in metrics) \
        if len(names) >= 2 else ()
    return Comparison(queries, table, paired)
