"""Charge classifier training time at LeCaRDv2's size: ``ChargeClassifier.fit`` on ``--docs`` (default 55,000) facts.

LeCaRDv2's 55,192 candidates are not in ../shared, so the corpus is made from the LeCaRD v1 candidates: each
document takes a charge with the collection's frequencies and joins sentences (ending in 。) of two random
judgments with that primary charge, up to the characters the classifier reads. Prints the fit time (median of
``--repeats``), the prediction latency of one query (median over the LeCaRD v1 query facts), and, as a check that
the synthetic labels are learnable, the accuracy on 2,000 held-out synthetic documents.

    .venv/bin/python benchmarks/charge_classifier_speed.py [--docs 55000] [--repeats 1]
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections import defaultdict

from _lecard import lecard_v1_parser, load_judged, missing

_SENTENCE = re.compile(r"[^。]+。")


def synthetic(by_charge: dict[str, list[list[str]]], n: int, chars: int, seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    charges = list(by_charge)
    weights = [len(by_charge[c]) for c in charges]
    texts, labels = [], []
    for c in rng.choices(charges, weights, k=n):
        pool = by_charge[c]
        sentences = rng.choice(pool) + rng.choice(pool)
        start = rng.randrange(max(1, len(sentences) // 3))
        out, size = [], 0
        for s in sentences[start:] + sentences[:start]:
            if size >= chars:
                break
            out.append(s)
            size += len(s)
        texts.append("".join(out))
        labels.append(c)
    return texts, labels


def main() -> None:
    ap = lecard_v1_parser(__doc__)
    ap.add_argument("--docs", type=int, default=55_000)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    if missing(args.data_dir):
        return
    from jiancha.datasets.lecard import _v1_candidates_dir, _v1_data
    from jiancha.retrieval.charge import this_case
    from jiancha.retrieval.charge_model import CLASSIFIER_CHARS, CLASSIFIER_FEATURES, ChargeClassifier
    from jiancha.retrieval.search import read_case_docs

    ds, cache = load_judged(args.data_dir)
    by_charge: dict[str, list[list[str]]] = defaultdict(list)
    for d in read_case_docs(_v1_candidates_dir(args.data_dir, _v1_data(args.data_dir), cache)):
        sentences = _SENTENCE.findall(this_case(d.fact))
        if d.charges and sentences:
            by_charge[d.charges[0]].append(sentences)
    by_charge = {c: v for c, v in by_charge.items() if len(v) >= 2}
    texts, labels = synthetic(by_charge, args.docs + 2000, CLASSIFIER_CHARS, seed=13)
    train, test = (texts[:args.docs], labels[:args.docs]), (texts[args.docs:], labels[args.docs:])
    print(f"{args.docs} synthetic documents of {len(by_charge)} charges, {CLASSIFIER_FEATURES} features, "
          f"{statistics.mean(len(t) for t in train[0]):.0f} characters read on average")
    times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        model = ChargeClassifier.fit(*train)
        times.append(time.perf_counter() - t0)
    print(f"fit: {statistics.median(times):.1f} s (median of {args.repeats}; {', '.join(f'{t:.1f}' for t in times)})")
    predicted = [p[0] for p in model.predict(test[0])]
    print(f"held-out synthetic accuracy: {sum(p == y for p, y in zip(predicted, test[1])) / len(predicted):.3f}")
    lat = []
    for q in ds.queries:
        t0 = time.perf_counter()
        model.shares(this_case(q.fact))
        lat.append((time.perf_counter() - t0) * 1000)
    print(f"guess one query: median {statistics.median(lat):.2f} ms over {len(lat)} queries")


if __name__ == "__main__":
    main()
