"""How often case search guesses a query's charge right, on case descriptions written with their gold by someone
who had not read the code (``tests/retrieval/blind_queries``: dev and sealed reported apart).

The collection is the 9,079 LeCaRD v1 judgments, indexed as a user would (``SearchIndex.build``: BM25 and the charge
classifier). For each description and each guessing rule (``classifier``, the default, and ``soft-rank-text``, the
closest cases' votes), it prints whether the likeliest charge, and any of the three likeliest, is a gold charge,
and the share of the 10 hits that hold a gold charge.

    .venv/bin/python benchmarks/search_charge_guess.py [--data-dir ../shared/data/lecard_v1] [--index DIR]
"""

from __future__ import annotations

import json
from pathlib import Path

from _lecard import lecard_v1_parser, missing

BLIND = Path(__file__).resolve().parents[1] / "tests" / "retrieval" / "blind_queries"
RULES = ("classifier", "soft-rank-text")


def main() -> int:
    ap = lecard_v1_parser(__doc__)
    ap.add_argument("--index", type=Path, help="An index of the LeCaRD v1 judgments to reuse (built when missing).")
    ap.add_argument("--verbose", action="store_true", help="One line per description.")
    ap.add_argument("--balanced-charges", action="store_true",
                    help="Build the index with its classifier trained with every charge weighted alike.")
    args = ap.parse_args()
    if missing(args.data_dir):
        return 0
    from jiancha._util.cache import resolve_cache_dir
    from jiancha.datasets.lecard import _v1_candidates_dir, _v1_data
    from jiancha.retrieval.search import SearchIndex, read_case_docs

    if args.index and (args.index / "index.json").is_file():
        idx = SearchIndex.load(args.index)
    else:
        cache = resolve_cache_dir(None)
        idx = SearchIndex.build(read_case_docs(_v1_candidates_dir(args.data_dir, _v1_data(args.data_dir), cache)),
                                balanced_charges=args.balanced_charges)
        if args.index:
            idx.save(args.index)
    print(f"{len(idx.docs)} judgments; charge classifier: "
          f"{len(idx.charge_model.classes) if idx.charge_model else 'none'} charges"
          + (", every charge weighted alike" if idx.charge_model and idx.charge_model.balanced else ""))
    print(f"{'set':7s} {'rule':15s} {'top 1':>6s} {'top 3':>6s} {'hits with a gold charge':>24s}")
    for part in ("dev", "sealed"):
        golds = [json.loads(line) for line in (BLIND / f"{part}.jsonl").read_text(encoding="utf-8").splitlines()]
        for rule in RULES:
            top1 = top3 = 0
            share = 0.0
            for g in golds:
                ranking = idx.rank(g["query"], voting=rule)
                weights = ranking.charges
                best = sorted(weights, key=lambda c: -weights[c])[:3]
                top1 += bool(best) and best[0] in g["gold"]
                top3 += any(c in g["gold"] for c in best)
                hits = idx.search(g["query"], 10, voting=rule)
                share += sum(any(c in g["gold"] for c in h.charges) for h in hits) / len(hits)
                if args.verbose:
                    print(f"  {g['id']} {rule:15s} {'ok ' if best and best[0] in g['gold'] else 'BAD'} {best} "
                          f"gold {g['gold']}")
            n = len(golds)
            print(f"{part:7s} {rule:15s} {top1:3d}/{n:<2d} {top3:3d}/{n:<2d} {share / n:24.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
