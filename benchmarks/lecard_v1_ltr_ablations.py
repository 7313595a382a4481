"""Cross-validated ``ltr`` configurations on LeCaRD v1 (judged pool, 77 labelled queries).

Features are extracted once; each configuration (model, C, feature subset) is cross-validated by query on the
5-fold split of seeds 13–17 and on the ridx-parity halves, never scoring a query with a model trained on it.
Prints one Markdown row per configuration: seed 13 NDCG@10 / NDCG@30 / KELLER-convention NDCG@10 / MAP, the
mean NDCG@10 / @30 over seeds 13–17 and their NDCG@10 range, and the parity NDCG@10 / @30 / MAP.

    .venv/bin/python benchmarks/lecard_v1_ltr_ablations.py [--data-dir ../shared/data/lecard_v1]
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import numpy as np
from _lecard import shared

SEEDS = (13, 14, 15, 16, 17)


def _drop(names, *prefixes) -> tuple[str, ...]:
    return tuple(n for n in names if not any(n.startswith(p) for p in prefixes))


def configurations(ltr) -> dict:
    """Name → LTRConfig of every row printed."""
    c = ltr.LTRConfig()
    names = ltr.FEATURE_NAMES
    return {
        "shipped: ensemble (pairwise C 1 + ridge α 1), all features": c,
        "pairwise C 1 alone": replace(c, model="pairwise"),
        "pointwise-linear (ridge α 1) alone": replace(c, model="pointwise-linear"),
        "ensemble without the charge links (the previous default)": replace(c, features=_drop(names, "cooc_")),
        "pairwise without the charge links": replace(c, model="pairwise", features=_drop(names, "cooc_")),
        "ensemble without char2_fact": replace(c, features=_drop(names, "char2_")),
        "ensemble without neighbours": replace(c, features=_drop(names, "nbr")),
        "ensemble without char2_fact and neighbours": replace(c, features=_drop(names, "char2_", "nbr")),
        "ensemble C 0.1 (ridge α 10)": replace(c, c=0.1),
        "ensemble C 0.01 (ridge α 100)": replace(c, c=0.01),
    }


def main() -> None:
    from jiancha.retrieval import ltr
    from jiancha.retrieval.evaluate import evaluate_lecard_v1
    from jiancha.retrieval.pipeline import RetrievalSpec, load_for_spec

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=shared() / "data" / "lecard_v1")
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args()
    base = RetrievalSpec("lecard-v1", method="charge").resolved()
    ds = load_for_spec(base, args.data_dir, args.cache)
    labelled = [q for q in ds.queries if q.id in ds.qrels]
    feats = ltr.extract_features(ds, base, cache=args.cache, queries=labelled)
    xs = {q: f.features for q, f in feats.items()}
    grades = ltr.grade_vectors(feats, ds.qrels)
    qids = list(grades)

    def score(cfg, split, seed):
        folds = ltr.make_folds(qids, split, cfg.folds, seed)
        held, _ = ltr.cross_validate(xs, grades, folds, replace(cfg, seed=seed))
        m = evaluate_lecard_v1(ltr.rank_run(feats, held, 1000), ds.qrels).metrics
        return np.array([m["ndcg@10"], m["ndcg@30"], m["kndcg@10"], m["map"]])

    print("| configuration | ndcg@10 | ndcg@30 | kndcg@10 | MAP | mean 13–17 ndcg@10 | mean ndcg@30 | range ndcg@10 "
          "| parity ndcg@10 | parity ndcg@30 | parity MAP |")
    print("|---" * 11 + "|")
    for name, cfg in configurations(ltr).items():
        runs = np.array([score(cfg, "kfold", s) for s in SEEDS])
        par = score(cfg, "parity", cfg.seed)
        first = runs[SEEDS.index(13)]
        cells = [*first, runs[:, 0].mean(), runs[:, 1].mean()]
        print(f"| {name} | " + " | ".join(f"{v:.4f}" for v in cells)
              + f" | {runs[:, 0].min():.4f}–{runs[:, 0].max():.4f} | {par[0]:.4f} | {par[1]:.4f} | {par[3]:.4f} |",
              flush=True)


if __name__ == "__main__":
    main()
