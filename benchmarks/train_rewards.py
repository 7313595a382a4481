"""Benchmark: reward throughput for one paper-sized rollout batch (1,024 completions = 128 prompts × 8).

Prints completions per second for the outcome reward (default and reference parsing) and the process reward,
on synthetic answers (valid, wrong, malformed mixed). Parser caches are cleared before every timing. The rewards
should cost far less than generation: target well over 10,000 completions/s.

    .venv/bin/python benchmarks/train_rewards.py [--repeat 5] [--completions 1024]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp import parsing
from jiancha.pdp.answers import render_answer
from jiancha.train.rewards import make_outcome_reward, make_process_reward

ARTICLES = {0: ["cl:第二百六十四条", "cpl:第一百七十六条"], 1: ["cl:第一百三十三条之一", "cpl:第一百七十七条第二款"],
            2: ["cpl:第十六条第（一）项", "cpl:第一百七十七条第一款"], 3: ["cpl:第一百七十五条第四款"]}


def synthetic(n: int, seed: int = 0) -> tuple[list[str], list[str], list[list[str]]]:
    rng = random.Random(seed)
    texts, golds, arts = [], [], []
    for i in range(n):
        g, p = rng.randrange(4), rng.randrange(4)
        analysis = "经审查，" + "犯罪嫌疑人某某的行为情节轻微，" * rng.randint(5, 40) + "综上。"
        text = render_answer(LEVEL2_LABELS[p], ARTICLES[p], analysis)
        if i % 7 == 0:
            text = text.replace("【审查分析】", "")            # malformed for the reference rules
        if i % 11 == 0:
            text = "<think>" + "思考。" * 200 + "</think>\n" + text + "；"
        texts.append(text)
        golds.append(LEVEL2_LABELS[g])
        arts.append(ARTICLES[g])
    return texts, golds, arts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--completions", type=int, default=1024)
    a = ap.parse_args()
    texts, golds, arts = synthetic(a.completions)
    funcs = {"outcome (default)": make_outcome_reward("default"),
             "outcome (reference)": make_outcome_reward("reference"),
             "process (default)": make_process_reward()}
    for name, f in funcs.items():
        times = []
        for _ in range(a.repeat):
            parsing._label_of.cache_clear()
            parsing.articles_in_region.cache_clear()
            t = time.perf_counter()
            f(prompts=None, completions=texts, decision=golds, relevant_articles=arts)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        print(f"{name:22s} {med * 1000:8.1f} ms per {a.completions} completions  {a.completions / med:10.0f} /s")


if __name__ == "__main__":
    main()
