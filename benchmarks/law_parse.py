"""Throughput of the legal parsers on real texts from ../shared (prints figures; not a test).

    .venv/bin/python benchmarks/law_parse.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from jiancha.law.articles import parse_articles
from jiancha.law.charges import find_charges


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = ap.parse_args()
    path = args.shared / "data" / "cail2018" / "brightmart" / "data_test_sample.json"
    facts = [json.loads(line)["fact"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    chars = sum(map(len, facts))
    find_charges("预热")
    for name, fn in (("parse_articles", parse_articles), ("find_charges", find_charges)):
        t = time.perf_counter()
        found = sum(len(fn(f)) for f in facts)
        dt = time.perf_counter() - t
        print(f"{name:15s} {len(facts)} texts, {chars / 1e6:.2f} M chars: {dt * 1000:.0f} ms "
              f"({len(facts) / dt:,.0f} texts/s, {chars / dt / 1e6:.1f} M chars/s), {found} hits")


if __name__ == "__main__":
    main()
