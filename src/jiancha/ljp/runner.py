"""``jiancha ljp eval``: CAIL2018 charge prediction on the shared backends, store and batch engine; scoring
writes ``metrics.json`` and ``report.md`` into the run directory (``score_ljp_run`` re-scores without calling the
model)."""

from __future__ import annotations

import json
import math
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from jiancha._util.hashing import records_fingerprint, stable_hash
from jiancha._util.io import atomic_write_text, write_json
from jiancha._util.provenance import environment_info, now_iso
from jiancha.datasets.cail import CAILRecord, load_cail, load_label_list
from jiancha.errors import ConfigError
from jiancha.ljp import baselines
from jiancha.ljp.metrics import compute_charge_metrics
from jiancha.ljp.parsing import parse_charges
from jiancha.ljp.prompts import JSON_KEY, build_ljp_messages, prompt_identity
from jiancha.llm.batch import run_into_store
from jiancha.llm.client import ChatClient
from jiancha.llm.config import ClientConfig, ModelRunSpec, redact_url
from jiancha.llm.presets import check_generation, resolve_backend
from jiancha.llm.store import RunStore
from jiancha.llm.types import ChatRequest, ChatResult

RUN_FORMAT = "jiancha-ljp-run/1"
HEADLINE = ("macro_f1", "micro_f1", "micro_precision", "micro_recall", "exact_match")


@dataclass(frozen=True, kw_only=True)
class LJPSpec(ModelRunSpec):
    """One LJP evaluation: a model over a CAIL2018 file, ``repeats`` times."""

    candidates: str | None = None          # accu.txt-style file; default: every gold charge in the data


@dataclass
class LJPSummary:
    """What one ``jiancha ljp eval`` invocation did (counts of this invocation, not of the whole store)."""

    out: str
    total: int
    already_done: int
    sent: int
    failed: int
    failed_total: int = 0                  # failed records in the store after this invocation
    cost: float = 0.0
    elapsed_s: float = 0.0
    resumed: bool = False
    candidates_source: str = ""
    metrics: dict[str, Any] | None = None


def load_candidates(spec: LJPSpec, records: list[CAILRecord]) -> tuple[tuple[str, ...], str]:
    if spec.candidates:
        return load_label_list(spec.candidates), spec.candidates
    return tuple(sorted({a for r in records for a in r.accusations})), "gold charges of the data file"


def run_ljp_eval(spec: LJPSpec, client_config: ClientConfig | None = None, *, show_progress: bool = False,
                 console: Console | None = None, score: bool = True) -> LJPSummary:
    """Run ``spec`` into ``spec.out`` (creating or resuming it: stored requests are not sent again), then score
    it unless ``score=False``. Ctrl-C leaves a resumable store and prints how to resume."""
    client_config = client_config or ClientConfig()
    is_baseline = spec.model.startswith(baselines.PREFIX)
    client = None
    if is_baseline:
        predict = baselines.get_ljp_baseline(spec.model)
    else:
        backend = resolve_backend(spec.model, spec.base_urls, spec.api_key_env, spec.extra_body)
        check_generation(backend, spec.generation)
        client = ChatClient(backend, spec.generation, client_config)
    records = load_cail(spec.data)
    if not records:
        raise ConfigError(f"{spec.data} holds no CAIL2018 records")
    candidates, cand_source = load_candidates(spec, records)
    fingerprint = records_fingerprint(r.to_dict() for r in records)
    cases = records[: spec.limit] if spec.limit else records

    identity: dict[str, Any] = {"task": "ljp", "data_fingerprint": fingerprint,
                                "prompt": prompt_identity(candidates), "seed": spec.seed}
    if is_baseline:
        identity["model"] = spec.model
    else:
        assert client is not None
        identity.update({"backend": client.spec.identity(), "generation": spec.generation.to_dict()})
    manifest = {
        "format": RUN_FORMAT, "task": "ljp",
        "spec": {**asdict(spec), "base_urls": [redact_url(u) for u in spec.base_urls]},
        "client": client_config.to_dict(),
        "data": {"source": spec.data, "fingerprint": fingerprint, "n_records": len(records), "n_cases": len(cases)},
        "candidates": {"source": cand_source, "n": len(candidates), "labels": list(candidates)},
        "environment": environment_info(), "started_at": now_iso(), "finished_at": None,
        "invocations": [{"started_at": now_iso(), "retry_failed": spec.retry_failed}],
    }
    if client is not None:
        manifest["backend"] = client.spec.public()
    store = RunStore(spec.out)
    resumed = store.open(identity, manifest)
    t0 = time.perf_counter()
    with store.session(console):
        status = store.latest_status()
        todo = []
        for run_id in range(spec.repeats):
            for r in cases:
                st = status.get((str(r.index), run_id))
                if not (st == "ok" or (st == "failed" and not spec.retry_failed)):
                    todo.append((run_id, r))
        summary = LJPSummary(out=spec.out, total=len(cases) * spec.repeats,
                             already_done=len(cases) * spec.repeats - len(todo), sent=0, failed=0,
                             resumed=resumed, candidates_source=cand_source)

        def base_row(r: CAILRecord, run_id: int) -> dict[str, Any]:
            return {"case_id": str(r.index), "run_id": run_id, "gold": list(r.accusations)}

        if is_baseline:
            for run_id, r in todo:
                charges = predict(r.fact, candidates)
                store.append({**base_row(r, run_id), "status": "ok", "finish_reason": "stop", "attempts": 1,
                              "raw_output": json.dumps({JSON_KEY: charges}, ensure_ascii=False)})
                summary.sent += 1
        elif todo:
            assert client is not None
            by_index = {str(r.index): r for _, r in todo}

            def requests():
                for run_id, r in todo:
                    yield ChatRequest(key=(str(r.index), run_id), messages=build_ljp_messages(r.fact, candidates),
                                      seed=spec.seed + run_id if spec.seed is not None else None)

            def make_row(req: ChatRequest, res: ChatResult) -> dict[str, Any]:
                r = by_index[req.key[0]]
                return {**base_row(r, req.key[1]), "status": "ok" if res.ok else "failed", "raw_output": res.text,
                        **res.response_info(), "seed": req.seed, "messages_hash": stable_hash(req.messages)}

            stats = run_into_store(client, requests(), total=len(todo), make_row=make_row, append_many=store.append_many,
                                   show_progress=show_progress, console=console,
                                   description=f"ljp eval {client.spec.model}")
            summary.sent, summary.failed, summary.cost = stats.done, stats.failed, round(stats.cost, 6)
        summary.elapsed_s = round(time.perf_counter() - t0, 3)
        summary.failed_total = sum(st == "failed" for st in store.latest_status().values())
        store.manifest["invocations"][-1].update({"finished_at": now_iso(), "sent": summary.sent,
                                                  "failed": summary.failed})
        store.update_manifest(finished_at=now_iso())
    if score:
        summary.metrics = score_ljp_run(spec.out)
    return summary


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
    mean_se = {}
    for k in HEADLINE:
        vals = [m[k] for m in per_run.values()]
        if vals:
            se = statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else 0.0
            mean_se[k] = {"mean": statistics.fmean(vals), "se": se}
    result = {"runs": len(per_run), "mean_se": mean_se,
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
        lines.append(f"| {k} | {v['mean']:.4f} | {v['se']:.4f} |")
    if result["invalid_reasons"]:
        lines += ["", "invalid answers: " + ", ".join(f"{k} {v}" for k, v in result["invalid_reasons"].items())]
    return "\n".join(lines) + "\n"

