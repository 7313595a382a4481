"""How often the charge classifier of a case index guesses a case's charge from its facts alone, on facts nobody on
the project wrote: CAIL2018 cases (``../shared/data/cail2018``), and the 107 LeCaRD v1 queries.

The classifier is the one ``jiancha retrieval index`` trains (:mod:`jiancha.retrieval.charge_model`: character 1–2-
grams of the clauses not about a prior conviction, 50,000 features, linear SVM), on the LeCaRD v1 candidates'
facts → their verdict's primary charge, trained twice: with each judgment counting once (the default) and with
every charge weighted alike (``--balanced-charges``). CAIL cases are scored when all their accusations (mapped to
current charge names) are among the classifier's charges; ``brightmart`` holds the first lines of the official
test and validation files (the charges as often as courts convict of them), ``sihuajian`` a test file heavy in rare
charges. A guess is right when the likeliest charge is one of the case's; top 2 when either of the two likeliest is.

    .venv/bin/python benchmarks/charge_guess_cail.py [--data-dir ../shared/data/lecard_v1] [--cail-dir DIR]
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from _lecard import lecard_v1_parser, load_judged, missing, shared

CAIL_FILES = {"brightmart": ("brightmart/data_test_sample.json", "brightmart/data_valid_sample.json"),
              "sihuajian": ("sihuajian/data_test.json",)}


def main() -> int:
    ap = lecard_v1_parser(__doc__)
    ap.add_argument("--cail-dir", type=Path, default=shared() / "data" / "cail2018")
    args = ap.parse_args()
    if missing(args.data_dir) or missing(args.cail_dir):
        return 0
    from jiancha.datasets.cail import load_cail
    from jiancha.law.charges import resolve_label
    from jiancha.retrieval.charge import this_case
    from jiancha.retrieval.charge_model import ChargeClassifier
    from jiancha.retrieval.pipeline import RetrievalSpec, Retriever

    ds, cache = load_judged(args.data_dir)
    r = Retriever(ds, RetrievalSpec("lecard-v1", method="charge").resolved(), cache=cache)
    labels = [c[0] if c else "" for c in r.doc_charges()]
    facts = [this_case(ds.documents[d].fact) for d in r.doc_ids]
    counts = Counter(y for y in labels if y)
    sets: dict[str, list[tuple[str, tuple[str, ...]]]] = {
        "lecard-v1 queries": [(q.fact or q.query, q.charges) for q in ds.queries if q.charges]}
    for name, files in CAIL_FILES.items():
        cases = [c for f in files for c in load_cail(args.cail_dir / f)]
        sets[f"cail {name}"] = [(c.fact, tuple(x for x in map(resolve_label, c.accusations) if x)) for c in cases]
    print(f"training: {sum(counts.values())} judgments of {len(counts)} charges")
    print(f"{'weighting':10s} {'set':18s} {'cases':>6s} {'top 1':>7s} {'top 2':>7s}  {'rare (< 20 judgments): n, top 1':>32s}")
    for balanced in (False, True):
        t = time.perf_counter()
        clf = ChargeClassifier.fit(facts, labels, balanced=balanced)
        known = set(clf.classes)
        for name, cases in sets.items():
            cases = [(f, g) for f, g in cases if g and set(g) <= known]
            guesses = clf.predict([this_case(f) for f, _ in cases], 2)
            top1 = [p[0] in g for p, (_, g) in zip(guesses, cases, strict=True)]
            top2 = [bool(set(p) & set(g)) for p, (_, g) in zip(guesses, cases, strict=True)]
            rare = [ok for ok, (_, g) in zip(top1, cases, strict=True) if max(counts[c] for c in g) < 20]
            print(f"{'balanced' if balanced else 'as often':10s} {name:18s} {len(cases):6d} "
                  f"{sum(top1) / len(cases):7.4f} {sum(top2) / len(cases):7.4f}  "
                  f"{len(rare):>24d}, {sum(rare) / max(len(rare), 1):.4f}")
        print(f"  (training and guessing {time.perf_counter() - t:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
