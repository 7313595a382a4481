"""Benchmark: score 4,630 cases × 8 runs (parsing included) from synthetic raw outputs.

Prints the median of several timings for: reference mode, default mode (normalisation, CPL unification,
1,000-resample case bootstrap, breakdowns), and default mode end-to-end from a run directory on disk
(records.jsonl read included). Caches are cleared before every timing. Target: well under 2 s.

    .venv/bin/python benchmarks/pdp_scoring.py [--repeat 5] [--cases 4630] [--runs 8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from jiancha._util.jsonl import write_jsonl
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp import parsing, scoring
from jiancha.pdp.answers import render_answer
from jiancha.pdp.rundir import ScoreItem

COUNTS = (4008, 480, 41, 101)   # P, DNP, SNP, IENP as in PDP-Bench test
CL = ["cl:第二百六十四条", "cl:第一百三十三条之一", "cl:第二百三十四条第一款", "cl:第六十七条第一款", "cl:第三十七条",
      "cl:第二百六十六条", "cl:第七十二条", "cl:第二十五条第一款", "cl:第六十七条第三款", "cl:第五十二条"]
CPL = {0: ["cpl:第一百七十六条"], 1: ["cpl:第一百七十七条第二款"], 2: ["cpl:第十六条第（一）项", "cpl:第一百七十七条第一款"],
       3: ["cpl:第一百七十五条第四款"]}
CPL_2012 = {0: ["cpl:第一百七十二条"], 1: ["cpl:第一百七十三条第二款"], 2: ["cpl:第十五条第（一）项", "cpl:第一百七十三条第一款"],
            3: ["cpl:第一百七十一条第四款"]}
CHARGES = ["盗窃罪", "危险驾驶罪", "故意伤害罪", "诈骗罪", "交通肇事罪", "帮助信息网络犯罪活动罪"]
FILLER = "犯罪嫌疑人到案后如实供述自己的罪行，认罪认罚，并已赔偿被害人损失取得谅解。本案证据包括被害人陈述、证人证言、鉴定意见等，" * 6


def make_cases(n: int, rng: random.Random) -> list[dict]:
    labels = [c for c, k in enumerate(COUNTS) for _ in range(k)]
    labels = labels * (n // len(labels) + 1)
    rng.shuffle(labels)
    labels = labels[:n]
    cases = []
    for i, c in enumerate(labels):
        year = rng.randint(2014, 2026)
        old = year < 2018
        arts = rng.sample(CL, rng.randint(1, 3)) + (CPL_2012 if old else CPL)[c]
        cases.append({"id": f"案{i}", "label": c, "articles": arts, "date": f"{year}-06-01",
                      "province": rng.choice(["甲省", "乙省", "丙省"]), "charges": [rng.choice(CHARGES)]})
    return cases


def make_output(case: dict, rng: random.Random) -> tuple[str, str | None]:
    c = case["label"] if rng.random() < 0.8 else rng.randrange(4)
    arts = [a for a in case["articles"] if rng.random() < 0.8] + ([rng.choice(CL)] if rng.random() < 0.3 else [])
    arts = list(dict.fromkeys(a for a in arts if "第十五条" not in a and "一百七十三" not in a
                              and "一百七十二" not in a and "一百七十一" not in a)) or [CPL[c][0]]
    text = render_answer(LEVEL2_LABELS[c], arts, FILLER[: rng.randint(200, len(FILLER))])
    u = rng.random()
    if u < 0.10:   # markdown and ASCII colon, Arabic numerals
        text = text.replace("【最终结论】", "## 最终结论").replace("决定：", "**决定**: ")
        text = text.replace("第二百六十四条", "第264条")
    elif u < 0.15:
        text = f"<think>{FILLER[:800]}</think>\n" + text
    elif u < 0.18:
        return f"<think>{FILLER}", "length"
    elif u < 0.20:
        return "我无法回答。", "stop"
    return text, "stop"


def make_items(cases: list[dict], runs: int, rng: random.Random) -> list[ScoreItem]:
    items = []
    for r in range(runs):
        for case in cases:
            raw, fr = make_output(case, rng)
            items.append(ScoreItem(case_id=case["id"], run_id=str(r), raw_output=raw, finish_reason=fr,
                                   gold_decision=LEVEL2_LABELS[case["label"]], gold_articles=tuple(case["articles"]),
                                   date=case["date"], province=case["province"], charges=tuple(case["charges"])))
    return items


def clear_caches() -> None:
    for f in (parsing.articles_in_region, parsing._label_of, scoring.normalise_gold_articles, scoring._canonical_of,
              scoring.article_level, scoring.article_levels):
        f.cache_clear()


def timed(fn, repeat: int) -> tuple[float, float, list[float]]:
    """Median wall time, median CPU time of this process (steadier on a shared machine), all wall times."""
    walls, cpus = [], []
    for _ in range(repeat):
        clear_caches()
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), walls


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=4630)
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(0)
    cases = make_cases(args.cases, rng)
    items = make_items(cases, args.runs, rng)
    print(f"{len(items):,} records ({args.cases:,} cases × {args.runs} runs)")
    scoring.score_items(items[:100], compat="default", n_boot=10)   # warm imports
    for label, fn in (
        ("reference mode (parse + metrics)", lambda: scoring.score_items(items, compat="reference")),
        ("default mode (parse + normalise + metrics + 1000 bootstrap)",
         lambda: scoring.score_items(items, compat="default", n_boot=1000)),
        ("default mode, parsing only", lambda: [parsing.parse_answer(it.raw_output, finish_reason=it.finish_reason)
                                                for it in items]),
    ):
        med, cpu, ts = timed(fn, args.repeat)
        print(f"{label}: median {med:.3f} s wall, {cpu:.3f} s CPU  ({', '.join(f'{t:.3f}' for t in ts)})")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [{"case_id": it.case_id, "run_id": int(it.run_id), "status": "ok", "raw_output": it.raw_output,
                 "finish_reason": it.finish_reason, "gold_decision": it.gold_decision,
                 "gold_articles": list(it.gold_articles), "date": it.date, "province": it.province,
                 "charges": list(it.charges)} for it in items]
        write_jsonl(Path(tmp) / "records.jsonl", rows)
        med, cpu, ts = timed(lambda: scoring.score_run_dirs([tmp], write=False), args.repeat)
        print(f"default mode from disk (records.jsonl read included, no report files): median {med:.3f} s wall, "
              f"{cpu:.3f} s CPU  ({', '.join(f'{t:.3f}' for t in ts)})")
    r = scoring.score_items(items).result
    p = r["pooled"]
    print(f"sanity: L2 macro-F1 {p['decision_level2_macro_f1']:.4f}, invalid rate {p['invalid_rate']:.4f}, "
          f"truncation rate {p['truncation_rate']:.4f}, articles F1 {p['articles_f1']:.4f}")


if __name__ == "__main__":
    main()
