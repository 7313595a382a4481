"""Score an LJP run directory without calling the model: metrics per repeat, their mean and SE, parse
statistics; ``metrics.json`` and ``report.md`` are written into the directory."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from jiancha._util.io import atomic_write_text, write_json
from jiancha.errors import ConfigError
from jiancha.evaluation.stats import mean_se
from jiancha.ljp.metrics import compute_charge_metrics
from jiancha.ljp.parsing import parse_charges
from jiancha.llm.store import RunStore

HEADLINE = ("macro_f1", "micro_f1", "micro_precision", "micro_recall", "exact_match")


def score_ljp_run(run_dir: str | Path, *, write: bool = True) -> dict[str, Any]:
    """Metrics per run_id, their mean and SE (sample sd / √runs), parse statistics; writes metrics.json and
    report.md. Reads the run directory only."""
    run_dir = Path(run_dir)
    store = RunStore(run_dir)
    manifest = store.read_manifest()
    check_ljp_manifest(run_dir, manifest)
    candidates = _manifest_candidates(run_dir, manifest)
    latest: dict[tuple[str, int], dict] = {}
    for row in store.iter_rows():
        latest[(row["case_id"], row["run_id"])] = row
    by_run: dict[int, list[dict]] = {}
    # rows sit in the store in completion order; score them by (case id, run id) so that ties among the unknown
    # charges (same count) are broken by name and the same predictions give the same metrics.json
    for (_, run_id), row in sorted(latest.items()):
        by_run.setdefault(run_id, []).append(row)
    per_run: dict[int, dict] = {}
    reasons: Counter[str] = Counter()
    unknown: Counter[str] = Counter()
    for run_id, rows in sorted(by_run.items()):
        gold, pred = [], []
        for row in rows:
            parsed = parse_charges(row.get("raw_output"), candidates) if row["status"] == "ok" else None
            if parsed is None:
                reasons["request_failed"] += 1
            elif not parsed.valid:
                reasons[parsed.reason or "invalid"] += 1
            else:
                unknown.update(parsed.unknown)
            gold.append(row["gold"])
            pred.append(parsed.charges if parsed is not None and parsed.valid else None)
        per_run[run_id] = compute_charge_metrics(gold, pred)
    summary = {}
    for k in HEADLINE:
        vals = [m[k] for m in per_run.values()]
        if vals:
            mean, se = mean_se(vals)
            summary[k] = {"mean": mean, "se": se}
    result = {"runs": len(per_run), "mean_se": summary,
              "per_run": {str(k): v for k, v in per_run.items()},
              "invalid_reasons": dict(sorted(reasons.items())),
              "unknown_charges": dict(sorted(unknown.items(), key=lambda kv: (-kv[1], kv[0]))[:20])}
    if write:
        write_json(run_dir / "metrics.json", result)
        atomic_write_text(run_dir / "report.md", render_ljp_report(manifest, result))
    return result


def check_ljp_manifest(run_dir: Path, manifest: dict | None) -> None:
    """Refuse a directory that is not an LJP run (a PDP run directory names the PDP scorer in the message)."""
    if manifest is None:
        raise ConfigError(f"{run_dir} is not an LJP run directory: it has no manifest.json; pass a directory made "
                          "by 'jiancha ljp eval'")
    task = manifest.get("task")
    if task == "ljp":
        return
    hint = (f"score it with 'jiancha pdp score {run_dir}'" if task == "pdp"
            else "pass a directory made by 'jiancha ljp eval'")
    raise ConfigError(f"{run_dir / 'manifest.json'} names task {task!r}, expected 'ljp': this is not an LJP run "
                      f"directory; {hint}")


def _manifest_candidates(run_dir: Path, manifest: dict) -> tuple[str, ...]:
    labels = manifest.get("candidates", {}).get("labels")
    if not isinstance(labels, list) or not labels:
        raise ConfigError(f"{run_dir}/manifest.json lists no candidate charges (candidates.labels); was it "
                          "written by jiancha ljp eval?")
    return tuple(labels)


def render_ljp_report(manifest: dict, result: dict) -> str:
    model = manifest.get("spec", {}).get("model")
    lines = [f"# LJP charge prediction: {model}", "",
             (f"data: `{manifest['data']['source']}` ({manifest['data']['n_cases']} cases, fingerprint "
             f"{manifest['data']['fingerprint']}); candidates: {manifest['candidates'].get('source', '?')} "
             f"({manifest['candidates'].get('n', len(manifest['candidates'].get('labels', [])))}); "
             f"runs: {result['runs']}"), "",
             "| metric | mean | SE |", "|---|---|---|"]
    for k, v in result["mean_se"].items():
        se = f"{v['se']:.4f}" if result["runs"] > 1 else "–"     # one run has no run-to-run error
        lines.append(f"| {k} | {v['mean']:.4f} | {se} |")
    if result["invalid_reasons"]:
        lines += ["", "invalid answers: " + ", ".join(f"{k} {v}" for k, v in result["invalid_reasons"].items())]
    return "\n".join(lines) + "\n"

