"""Page timings of `jiancha view` on a large runs folder: N runs × R records each (default 20 × 37,040, the size of
PDP-Bench's test split × 8 repeats), synthesised by replicating the records of offline baseline runs on the bundled
sample (case ids made unique per copy).

    .venv/bin/python benchmarks/web_speed.py [--runs 20] [--records 37040] [--dir /tmp/jiancha-web-speed]
                                             [--repeat 5]

Prints: the time to index and score every run (what `jiancha view` does before serving, with a progress bar),
on a first start and on a start that finds the indexes in its cache folder, then the median of --repeat requests per page (in-process ASGI client: server time, no network).
Three baseline variants are written and scored once; the runs are hard links to them with their own manifests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import time
from pathlib import Path

from typer.testing import CliRunner

VARIANTS = ("baseline:rules", "baseline:majority", "baseline:tfidf-lr")


def synthesise(root: Path, n_runs: int, n_records: int) -> None:
    from jiancha.cli.main import app as cli
    from jiancha.pdp.scoring import score_run_dirs

    base = root / "_base"
    variants = []
    for model in VARIANTS:
        src = base / model.split(":")[1]
        if not (src / "records.jsonl").is_file():
            res = CliRunner().invoke(cli, ["pdp", "eval", "--data", "sample", "--model", model, "--out", str(src)])
            assert res.exit_code == 0, res.output
        big = base / f"{src.name}-big"
        if not (big / "metrics.json").is_file():
            big.mkdir(parents=True, exist_ok=True)
            lines = (src / "records.jsonl").read_text(encoding="utf-8").splitlines()
            with (big / "records.jsonl").open("w", encoding="utf-8") as fh:
                for k in range(n_records):
                    rec = json.loads(lines[k % len(lines)])
                    rec["case_id"] = f"{rec['case_id']}#{k // len(lines)}"
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            shutil.copy(src / "manifest.json", big / "manifest.json")
            t = time.perf_counter()
            score_run_dirs([big], write=True)
            print(f"scored {big.name}: {n_records:,} records in {time.perf_counter() - t:.1f} s")
        variants.append(big)
    runs = root / "runs"
    for i in range(n_runs):
        d = runs / f"model-{i:02d}"
        if (d / "records.jsonl").exists():
            continue
        d.mkdir(parents=True, exist_ok=True)
        v = variants[i % len(variants)]
        for name in ("records.jsonl", "metrics.json"):
            os.link(v / name, d / name)
        manifest = json.loads((v / "manifest.json").read_text(encoding="utf-8"))
        manifest["spec"]["model"] = manifest["identity"]["model"] = f"{manifest['spec']['model']}@{i:02d}"
        (d / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--records", type=int, default=37_040)
    ap.add_argument("--dir", default="/tmp/jiancha-web-speed")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    root = Path(args.dir)
    synthesise(root, args.runs, args.records)

    from fastapi.testclient import TestClient

    from jiancha.web.app import create_app
    from jiancha.web.explorer import Explorer
    from jiancha.web.runs import RunCache

    cache = root / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    t = time.perf_counter()
    Explorer(root / "runs", cache=RunCache(disk=cache)).warm(workers=os.cpu_count() or 1)
    print(f"first start: index + scores of {args.runs} runs × {args.records:,} records: "
          f"{time.perf_counter() - t:.1f} s with {os.cpu_count()} processes (before serving; indexes saved to the "
          "cache folder)")
    explorer = Explorer(root / "runs", cache=RunCache(disk=cache))
    t = time.perf_counter()
    explorer.warm()
    print(f"next start, indexes read from the cache folder: {time.perf_counter() - t:.1f} s")
    client = TestClient(create_app(explorer=explorer))
    case_id = explorer.cache.index(explorer.runs()[0]).case_ids[args.records // 2]
    pages = {
        "leaderboard": ("/", {}),
        "run": ("/run", {"run": "model-00"}),
        "cases (page 1)": ("/cases", {"run": "model-00"}),
        "cases gold+wrong": ("/cases", {"run": "model-00", "gold": "相对不起诉", "outcome": "wrong"}),
        "cases charge+province": ("/cases", {"run": "model-00", "charge": "盗窃罪", "province": "浙江省"}),
        "cases free text": ("/cases", {"run": "model-00", "q": "交通肇事"}),
        "case (20 answers)": ("/case", {"id": case_id}),
        "compare": ("/compare", {"a": "model-00", "b": "model-01"}),
        "workbench": ("/workbench", {}),
    }
    print(f"{'page':<24} {'median s':>9} {'max s':>7} {'KiB':>7}")
    for name, (url, params) in pages.items():
        times, size = [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            r = client.get(url, params=params)
            times.append(time.perf_counter() - t)
            assert r.status_code == 200, (name, r.status_code, r.text[:300])
            size = len(r.content)
        print(f"{name:<24} {statistics.median(times):>9.3f} {max(times):>7.3f} {size / 1024:>7.0f}")


if __name__ == "__main__":
    main()
