"""Paired comparison statistics: exact values on small hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from jiancha.pdp.paired import case_profiles, macro_f1, mcnemar, paired_bootstrap

# codes: 0 起诉, 1 相对不起诉, 2 法定不起诉, 3 存疑不起诉, -1 invalid
GOLD = np.array([0, 0, 1, 1, 2, 3])
A = np.array([0, 0, 1, 1, 2, 3])     # all right
B = np.array([0, 1, 1, -1, 2, 0])    # records 1, 3, 5 wrong (3 invalid)


def test_macro_f1_by_hand():
    assert macro_f1(GOLD, A) == 1.0
    # B per class: 起诉 P=1/2 R=1/2 F1=1/2; 相对 P=1/2 R=1/2 F1=1/2; 法定 1; 存疑 P=0 R=0 F1=0 → mean 0.5
    assert macro_f1(GOLD, B) == pytest.approx(0.5, abs=1e-15)
    # Level 1 (起诉 vs 不起诉): gold [P,P,NP,NP,NP,NP], B [P,NP,NP,inv,NP,P]
    # P: tp1 fp1 fn1 → F1 1/2; NP: tp2, fp1, fn2 → P 2/3 R 1/2 F1 4/7; macro (1/2 + 4/7)/2 = 15/28
    assert macro_f1(GOLD, B, level=1) == pytest.approx(15 / 28, abs=1e-15)


def test_mcnemar_exact_and_chi2_by_hand():
    t = mcnemar(GOLD, A, B)
    assert (t.b, t.c) == (3, 0)
    assert t.p_exact == pytest.approx(0.25, abs=1e-15)        # 2 · (1/2)^3
    assert t.chi2 == pytest.approx(4 / 3, abs=1e-15)          # (3 − 1)² / 3
    # b = 5, c = 1: 2 · (1 + 6) / 64; χ² = (4 − 1)² / 6 = 1.5, p = P(χ²₁ > 1.5)
    gold = np.zeros(6, dtype=int)
    a = np.array([0, 0, 0, 0, 0, 1])
    b = np.array([1, 1, 1, 1, 1, 0])
    t = mcnemar(gold, a, b)
    assert (t.b, t.c) == (5, 1)
    assert t.p_exact == pytest.approx(14 / 64, abs=1e-15)
    assert t.chi2 == pytest.approx(1.5, abs=1e-15)
    assert t.p_chi2 == pytest.approx(0.2206713619, abs=1e-9)


def test_mcnemar_without_discordant_pairs_and_invalid_gold():
    t = mcnemar(np.array([0, -1]), np.array([0, 1]), np.array([0, 2]))
    assert (t.b, t.c, t.p_exact, t.chi2, t.p_chi2) == (0, 0, 1.0, 0.0, 1.0)


def test_bootstrap_matches_recomputing_on_the_resampled_cases():
    """Same draws, computed the plain way: each resample's cases listed out and macro-F1 recomputed from records."""
    rng = np.random.default_rng(7)
    n = 40
    gold = rng.integers(0, 4, n)
    a = np.where(rng.random(n) < 0.7, gold, rng.integers(-1, 4, n))
    b = np.where(rng.random(n) < 0.5, gold, rng.integers(-1, 4, n))
    clusters = np.arange(n) // 2                               # two records (repeats) per case
    for level in (2, 1):
        got = paired_bootstrap(gold, a, b, clusters=clusters, level=level, n_boot=200, seed=3)
        profiles, counts = case_profiles(gold, a, b, clusters, level)
        # a representative case of each profile (any case with that profile gives the same counts)
        per_case = {c: case_profiles(gold[clusters == c], a[clusters == c], b[clusters == c],
                                     np.zeros(2, dtype=int), level)[0][0] for c in range(20)}
        rep = [next(c for c in range(20) if np.array_equal(per_case[c], prof)) for prof in profiles]
        draws = np.random.default_rng(3).multinomial(20, counts / 20, size=200)
        diffs = []
        for row in draws:
            idx = np.concatenate([np.flatnonzero(clusters == rep[t]) for t, m in enumerate(row) for _ in range(m)])
            diffs.append(macro_f1(gold[idx], a[idx], level=level) - macro_f1(gold[idx], b[idx], level=level))
        assert got.diff == pytest.approx(macro_f1(gold, a, level=level) - macro_f1(gold, b, level=level), abs=1e-15)
        assert got.low == pytest.approx(np.percentile(diffs, 2.5), abs=1e-12)
        assert got.high == pytest.approx(np.percentile(diffs, 97.5), abs=1e-12)
        assert (got.n_cases, got.n_records, got.n_boot) == (20, 40, 200)
        assert counts.sum() == 20 and len(profiles) <= 20


def test_bootstrap_of_identical_runs_is_zero_and_of_one_case_is_a_point():
    t = paired_bootstrap(GOLD, B, B, n_boot=50)
    assert (t.diff, t.low, t.high) == (0.0, 0.0, 0.0)
    one = paired_bootstrap(np.array([1]), np.array([1]), np.array([0]), n_boot=10)
    # one case: every resample is that case; A: F1 1 for 相对不起诉 → macro 1/4; B: all F1 0
    assert (one.diff, one.low, one.high) == (0.25, 0.25, 0.25)


def test_bootstrap_rejects_unpaired_input():
    with pytest.raises(ValueError, match="same length"):
        paired_bootstrap(GOLD, A, B[:3])
