"""The ``charge`` method when queries carry no charge field (as LeCaRDv2's do): LeCaRD v1 with every query's
``crime`` withheld, charges taken from the query text alone (``--no-guess-charges``, BM25 order where it names
none) against guessed by the classifier trained on the candidates' facts (the default), and the given charges (the
ceiling). Official NDCG@10 / @30 on the 77 labelled queries (judged pool), and the paired difference.

    .venv/bin/python benchmarks/lecard_v1_withheld_charges.py [--data-dir ../shared/data/lecard_v1]
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from pathlib import Path

import numpy as np


def _shared() -> Path:
    return Path(os.environ.get("JIANCHA_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=_shared() / "data" / "lecard_v1")
    args = ap.parse_args()
    if not args.data_dir.exists():
        print(f"skipped: {args.data_dir} not found (LeCaRD v1 lives in ../shared/data/lecard_v1)")
        return 0
    from jiancha._util.cache import resolve_cache_dir
    from jiancha.datasets.lecard import load_lecard_v1
    from jiancha.retrieval.compare import paired_bootstrap, randomisation_test
    from jiancha.retrieval.metrics import lecard_v1_ndcg
    from jiancha.retrieval.pipeline import RetrievalSpec, Retriever

    cache = resolve_cache_dir(None)
    ds = load_lecard_v1(args.data_dir, pool="judged", cache=cache)
    withheld = replace(ds, queries=tuple(replace(q, charges=()) for q in ds.queries))
    base = RetrievalSpec("lecard-v1", method="charge").resolved()
    rows = {}
    for name, data, guess in (("given", ds, True), ("text only", withheld, False), ("guessed", withheld, True)):
        spec = replace(base, charge=replace(base.charge, guess_charges=guess))
        t = time.perf_counter()
        run = Retriever(data, spec, cache=cache).run()
        seconds = time.perf_counter() - t
        labelled = sorted(q for q in ds.qrels if q in run)
        rows[name] = {k: np.array([lecard_v1_ndcg([d for d, _ in run[q]], ds.qrels[q], k) for q in labelled])
                      for k in (10, 30)}
        print(f"{name:10s} ndcg@10 {rows[name][10].mean():.4f}  ndcg@30 {rows[name][30].mean():.4f}  "
              f"({len(labelled)} queries, {seconds:.0f} s)")
    d = rows["guessed"][10] - rows["text only"][10]
    lo, hi = paired_bootstrap(d)
    print(f"guessed − text only: ndcg@10 {d.mean():+.4f} [{lo:+.4f}, {hi:+.4f}], p {randomisation_test(d):.4f} "
          f"({int((d > 0).sum())} better, {int((d < 0).sum())} worse)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
