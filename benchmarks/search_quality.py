"""Case search quality on LeCaRD v1 when the query's charges are not given: how to guess them.

A user's search (``jiancha retrieval search``) has only the facts. Each of the 77 labelled LeCaRD v1 queries is
searched with its facts alone (its ``crime`` field withheld) in a small index of its own judged pool (about 30
judged cases of several charges): a small collection, where a charge held by one or two cases has few voters and
BM25's idf comes from a few documents. (Searching all 9,078 judgments instead scores every same-charge case of
another query's pool as irrelevant, unjudged; that measures how well a method recovers the pools, which were
built by lexical retrieval, and favours BM25 alone.)

For each voting rule of :data:`jiancha.retrieval.search.VOTINGS`, plus ``given`` (the query's charges: the
ceiling) and ``none`` (BM25 alone), it prints the official NDCG@10 / @30 and P@10 (official: grade 3), and how
often the charge weighted most is one of the query's charges. The ``classifier`` rule uses the charge classifier
that indexing all 9,078 judgments trains (their verdicts' charges, no query's label), as a user's index of the
collection would; it also prints how long indexing with and without the classifier takes.

    .venv/bin/python benchmarks/search_quality.py [--data-dir ../shared/data/lecard_v1]
"""

from __future__ import annotations

import numpy as np
from _lecard import lecard_v1_args, load_judged, paired


def main() -> int:
    args = lecard_v1_args(__doc__)
    if args is None:
        return 0
    import time

    from jiancha.datasets.lecard import _v1_candidates_dir, _v1_data
    from jiancha.retrieval.metrics import lecard_v1_ndcg, lecard_v1_precision
    from jiancha.retrieval.search import VOTINGS, SearchIndex, read_case_docs

    ds, cache = load_judged(args.data_dir)
    cdir = _v1_candidates_dir(args.data_dir, _v1_data(args.data_dir), cache)
    queries = [q for q in ds.queries if q.id in ds.qrels]
    collection = list(read_case_docs(cdir))
    docs = {d.id.rsplit("/", 1)[-1]: d for d in collection}   # <query>/<id>.json: ids are judgments
    t0 = time.perf_counter()
    SearchIndex.build(collection, charge_model=False)
    t1 = time.perf_counter()
    full = SearchIndex.build(collection)
    t2 = time.perf_counter()
    print(f"indexing {len(full.docs)} judgments: {t1 - t0:.1f} s, {t2 - t1:.1f} s with the charge classifier "
          f"({len(full.charge_model.classes) if full.charge_model else 0} charges)")
    rules = (*VOTINGS, "given", "none")
    res = {r: {"ndcg@10": [], "ndcg@30": [], "p@10": [], "charge right": []} for r in rules}
    for q in queries:
        idx = SearchIndex.build([docs[s] for s in dict.fromkeys(ds.pools[q.id]) if s in docs])
        idx.charge_model = full.charge_model
        g = ds.qrels[q.id]
        for rule in rules:
            charges = tuple(q.charges) if rule == "given" else (() if rule == "none" else None)
            voting = rule if rule in VOTINGS else VOTINGS[0]
            ranked = [h.id.rsplit("/", 1)[-1] for h in idx.search(q.fact, 30, charges=charges, voting=voting)]
            res[rule]["ndcg@10"].append(lecard_v1_ndcg(ranked, g, 10))
            res[rule]["ndcg@30"].append(lecard_v1_ndcg(ranked, g, 30))
            res[rule]["p@10"].append(lecard_v1_precision(ranked, g, 10))
            if rule in VOTINGS:
                weights = idx.rank(q.fact, voting=rule).charges
                best = max(weights, key=weights.get) if weights else ""
                res[rule]["charge right"].append(float(best in q.charges))
    print(f"{len(queries)} labelled queries, each searched in its judged pool "
          f"({np.mean([len(ds.pools[q.id]) for q in queries]):.1f} cases on average)")
    print(f"{'query charges':14s} {'ndcg@10':>8s} {'ndcg@30':>8s} {'p@10':>7s} {'top charge right':>17s}")
    for rule in rules:
        m = {k: float(np.mean(v)) if v else float("nan") for k, v in res[rule].items()}
        print(f"{rule:14s} {m['ndcg@10']:8.4f} {m['ndcg@30']:8.4f} {m['p@10']:7.4f} {m['charge right']:17.3f}")
    d = np.array(res[VOTINGS[0]]["ndcg@10"]) - np.array(res[VOTINGS[1]]["ndcg@10"])
    print(f"{VOTINGS[0]} − {VOTINGS[1]}: ndcg@10 {paired(d)}, paired over the queries")
    if full.charge_model is not None:
        times = []
        for q in queries:
            t = time.perf_counter()
            full.charge_model.shares(q.fact)
            times.append(time.perf_counter() - t)
        print(f"classifier guess per query: median {1000 * np.median(times):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
