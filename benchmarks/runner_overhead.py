"""Runner overhead benchmark: prints the figures, run with ``.venv/bin/python benchmarks/runner_overhead.py``.

1. Zero-latency local chat server → requests/s of ``run_pdp_eval`` at concurrency 64 (target ≥ 300/s on 2 cores).
2. Peak memory (max RSS of the runner process) for 4,630 cases × 8 repeats = 37,040 records (target < 500 MB).
3. 2 s-latency server → wall time for 1,000 requests at concurrency 100 (target within 10% of the ideal 20 s).

Each measurement runs in a fresh child process against a fake server in another process
(``tests/fake_openai.py``); cases are synthetic, fictional and of realistic length (~2,600 characters).
Figures are medians over ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def synthetic_cases(n: int):
    from jiancha.datasets.records import PDPRecord

    labels = ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")
    person = "犯罪嫌疑人某甲，男，1985年出生，汉族，初中文化，无业，户籍地某省某县。因涉嫌盗窃罪于2021年3月1日被刑事拘留，同年3月15日被取保候审。"
    proc = ("本案由某县公安局侦查终结，以犯罪嫌疑人某甲涉嫌盗窃罪，于2021年4月1日向本院移送审查起诉。本院受理后，于2021年4月2日已告知"
            "犯罪嫌疑人有权委托辩护人，依法讯问了犯罪嫌疑人，审查了全部案件材料。") * 2
    fact = ("经本院依法审查查明：2021年1月至2月间，犯罪嫌疑人某甲多次在某县某镇某小区内，趁无人之机窃取他人财物，所得赃物已被其变卖挥霍。"
            "认定上述事实的证据如下：1.被害人陈述；2.证人证言；3.犯罪嫌疑人供述和辩解；4.扣押清单及价格认定书；5.监控录像。") * 12
    return [PDPRecord(id=f"某检刑诉〔2021〕{i}号", person_info=person, procedure=proc, fact=f"CASE-{i:05d} {fact}",
                      decision=labels[i % 4], relevant_articles=("cl:第二百六十四条",), date="2021-05-01",
                      province="某省") for i in range(n)]


def child(url: str, cases: int, repeats: int, concurrency: int) -> None:
    from jiancha.llm.config import ClientConfig
    from jiancha.pdp.spec import RunSpec
    from jiancha.pdp.task import run_pdp_eval

    records = synthetic_cases(cases)
    with tempfile.TemporaryDirectory() as tmp:
        spec = RunSpec(model="bench-model", data="synthetic", out=str(Path(tmp) / "run"), base_urls=(url,),
                       api_key_env="JIANCHA_BENCH_NO_KEY", repeats=repeats)
        t0 = time.perf_counter()
        s = run_pdp_eval(spec, ClientConfig(concurrency=concurrency, timeout_s=60, max_attempts=3),
                         records=records, score=False)
        wall = time.perf_counter() - t0
        size = (Path(tmp) / "run" / "records.jsonl").stat().st_size
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"sent": s.sent, "failed": s.failed, "wall_s": wall, "batch_s": s.elapsed_s,
                      "peak_rss_mb": rss_mb, "records_mb": size / 2**20}))


def start_server(latency: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([PY, str(ROOT / "tests" / "fake_openai.py"), "--latency", str(latency)],
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    return proc, url


def measure(url: str, cases: int, repeats: int, concurrency: int) -> dict:
    out = subprocess.run([PY, __file__, "--child", url, str(cases), str(repeats), str(concurrency)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description="runner overhead benchmark")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--throughput-requests", type=int, default=4000)
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        url, cases, repeats, conc = args.child
        child(url, int(cases), int(repeats), int(conc))
        return

    server, url = start_server(0.0)
    try:
        runs = [measure(url, args.throughput_requests, 1, 64) for _ in range(args.runs)]
        rates = [r["sent"] / r["batch_s"] for r in runs]
        wall_rates = [r["sent"] / r["wall_s"] for r in runs]
        print(f"[1] zero latency, concurrency 64, {args.throughput_requests} requests: "
              f"{statistics.median(rates):.0f} requests/s median while sending (runs: "
              f"{', '.join(f'{x:.0f}' for x in rates)}); {statistics.median(wall_rates):.0f}/s including prompt "
              f"hashing and store setup; target >= 300/s")
        if not args.skip_memory:
            mem = [measure(url, 4630, 8, 64) for _ in range(max(1, args.runs - 1))]
            rss = [m["peak_rss_mb"] for m in mem]
            print(f"[2] 4,630 x 8 = 37,040 records: peak RSS {statistics.median(rss):.0f} MB "
                  f"median (runs: {', '.join(f'{x:.0f}' for x in rss)}; records.jsonl "
                  f"{mem[0]['records_mb']:.0f} MB; {mem[0]['sent'] / mem[0]['batch_s']:.0f} requests/s); "
                  f"target < 500 MB")
    finally:
        server.terminate()
        server.wait()
    if not args.skip_latency:
        server, url = start_server(2.0)
        try:
            lat = [measure(url, 1000, 1, 100) for _ in range(args.runs)]
            walls = [r["batch_s"] for r in lat]
            med = statistics.median(walls)
            print(f"[3] 2 s latency, concurrency 100, 1,000 requests: {med:.2f} s median wall "
                  f"(runs: {', '.join(f'{w:.2f}' for w in walls)}); ideal 20 s, {100 * (med / 20 - 1):+.1f}%; "
                  f"target within 10%")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
