"""Two-fold cross-validation of the ``charge`` method's options on LeCaRD v1 (judged pool, labelled queries).

The labelled queries are split by the parity of their ridx. On each fold every configuration of a small grid is
scored; the configuration with the best NDCG@10 (NDCG@30 breaking ties) on one fold ranks the queries of the
other fold. Prints the grid (all queries and per fold), the configuration chosen on each fold, its held-out
figures, and the pooled held-out figures (every labelled query ranked by the configuration tuned on the other
half), against the shipped default and the previous default on the same folds.

Grid: ``reason_charges`` (off, on) × ``section_weight`` (0, 0.1, 0.25) × ``qld_weight`` (0, 0.25, 0.5); the other
charge options at their defaults; candidate field ``fact``; query field ``fact``.

    .venv/bin/python benchmarks/lecard_v1_charge_cv.py [--data-dir ../shared/data/lecard_v1]
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from _lecard import shared

METRICS = ("ndcg@10", "ndcg@20", "ndcg@30", "p@5", "p@10", "map")
GRID = tuple(itertools.product((False, True), (0.0, 0.1, 0.25), (0.0, 0.25, 0.5)))


def _row(m: dict) -> str:
    return " | ".join(f"{m[k]:.4f}" for k in METRICS)


def main() -> None:
    from jiancha.retrieval.charge import ChargeConfig
    from jiancha.retrieval.evaluate import evaluate_lecard_v1
    from jiancha.retrieval.pipeline import RetrievalSpec, Retriever, load_for_spec

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=shared() / "data" / "lecard_v1")
    args = ap.parse_args()

    spec = RetrievalSpec("lecard-v1", method="charge").resolved()
    ds = load_for_spec(spec, args.data_dir)
    retriever = Retriever(ds, spec)
    labelled = [q for q in ds.queries if q.id in ds.qrels]
    folds = {"even": [q.id for q in labelled if int(q.id) % 2 == 0],
             "odd": [q.id for q in labelled if int(q.id) % 2 == 1]}

    runs = {}
    for reason, section, qld in GRID:
        cfg = ChargeConfig(reason_charges=reason, section_weight=section, qld_weight=qld)
        retriever.spec = RetrievalSpec("lecard-v1", method="charge", charge=cfg).resolved()
        runs[(reason, section, qld)] = retriever.run(labelled)

    def score(cfg, qids):
        run = {q: runs[cfg][q] for q in qids}
        return evaluate_lecard_v1(run, {q: ds.qrels[q] for q in qids}).metrics

    print(f"folds: even {len(folds['even'])} queries, odd {len(folds['odd'])} queries")
    print("| reason charges | section weight | qld weight | " + " | ".join(METRICS) +
          " | NDCG@10 even | NDCG@10 odd |")
    per = {}
    for cfg in GRID:
        per[cfg] = {name: score(cfg, qids) for name, qids in folds.items()}
        allm = score(cfg, [q.id for q in labelled])
        print(f"| {'on' if cfg[0] else 'off'} | {cfg[1]} | {cfg[2]} | {_row(allm)} | "
              f"{per[cfg]['even']['ndcg@10']:.4f} | {per[cfg]['odd']['ndcg@10']:.4f} |")

    held_out = {}
    default = (True, 0.0, 0.0)
    previous = (False, 0.0, 0.0)
    for tune, test in (("even", "odd"), ("odd", "even")):
        best = max(GRID, key=lambda c: (per[c][tune]["ndcg@10"], per[c][tune]["ndcg@30"]))
        print(f"tuned on {tune}: best {best}; {tune} {_row(per[best][tune])}")
        print(f"  held-out {test}: {_row(per[best][test])}")
        print(f"  default {default} on {test}: {_row(per[default][test])}")
        print(f"  previous default {previous} on {test}: {_row(per[previous][test])}")
        for q in folds[test]:
            held_out[q] = runs[best][q]
    qids = [q.id for q in labelled]
    pooled = evaluate_lecard_v1(held_out, {q: ds.qrels[q] for q in qids}).metrics
    print(f"pooled held-out ({len(qids)} queries): {_row(pooled)}")
    print(f"default, all queries: {_row(score(default, qids))}")
    print(f"previous default, all queries: {_row(score(previous, qids))}")


if __name__ == "__main__":
    main()
