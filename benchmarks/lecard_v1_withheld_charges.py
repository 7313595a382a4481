"""The ``charge`` method when queries carry no charge field (as LeCaRDv2's do): LeCaRD v1 with every query's
``crime`` withheld, charges taken from the query text alone (``--no-guess-charges``, BM25 order where it names
none) against guessed by the classifier trained on the candidates' facts (the default), and the given charges (the
ceiling), and guessed by the classifier trained with every charge weighted alike (``--guess-balanced``). Official
NDCG@10 / @30 on the 77 labelled queries (judged pool), and the paired differences.

    .venv/bin/python benchmarks/lecard_v1_withheld_charges.py [--data-dir ../shared/data/lecard_v1]
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
from _lecard import lecard_v1_args, load_judged, paired


def main() -> int:
    args = lecard_v1_args(__doc__)
    if args is None:
        return 0
    from jiancha.retrieval.metrics import lecard_v1_ndcg
    from jiancha.retrieval.pipeline import RetrievalSpec, Retriever

    ds, cache = load_judged(args.data_dir)
    withheld = replace(ds, queries=tuple(replace(q, charges=()) for q in ds.queries))
    base = RetrievalSpec("lecard-v1", method="charge").resolved()
    rows = {}
    for name, data, guess, balanced in (("given", ds, True, False), ("text only", withheld, False, False),
                                        ("guessed", withheld, True, False), ("balanced", withheld, True, True)):
        spec = replace(base, charge=replace(base.charge, guess_charges=guess, guess_balanced=balanced))
        t = time.perf_counter()
        run = Retriever(data, spec, cache=cache).run()
        seconds = time.perf_counter() - t
        labelled = sorted(q for q in ds.qrels if q in run)
        rows[name] = {k: np.array([lecard_v1_ndcg([d for d, _ in run[q]], ds.qrels[q], k) for q in labelled])
                      for k in (10, 30)}
        print(f"{name:10s} ndcg@10 {rows[name][10].mean():.4f}  ndcg@30 {rows[name][30].mean():.4f}  "
              f"({len(labelled)} queries, {seconds:.0f} s)")
    print(f"guessed − text only: ndcg@10 {paired(rows['guessed'][10] - rows['text only'][10])}")
    print(f"balanced − guessed: ndcg@10 {paired(rows['balanced'][10] - rows['guessed'][10])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
