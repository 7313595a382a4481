"""Batch-API runs of a task: write the requests a run still needs as a batch file, and ingest the results into
the run directory as if the requests had been sent live.

``write_task_batch`` is called by the runner (``run_task(..., batch_out=FILE)``) after it has created or resumed
the run directory, with the same plan, messages and seeds as a live run; ``ingest_results`` rebuilds the task's
samples, checks that data and prompts are still those of the run, and appends one row per new result, built by
the runner's own ``result_row``. So a batch round trip stores what a live run stores (bar latency and attempts).

Re-submission: results for requests already stored ok are skipped, and so are failed results for requests already
stored as failed (never a duplicate row); an ok result replaces a stored failure; results for requests the run
does not plan are reported and not stored; a failed result is stored as failed, so the same
``eval --batch-out`` command writes a new file with the missing requests (and, with ``--retry-failed``, the
failed ones).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jiancha.errors import ConfigError
from jiancha.evaluation.task import Sample, Task
from jiancha.llm.config import BackendSpec
from jiancha.llm.types import ChatRequest, messages_hash

#: Keys named in messages (the rest are counted).
_SHOWN = 5


def write_task_batch(task: Task, backend: BackendSpec, todo: Sequence[tuple[int, Sample]],
                     path: str | os.PathLike) -> int:
    """Write the planned requests ``todo`` (``(run_id, sample)``) as a batch file; returns their number."""
    from jiancha.evaluation.runner import request_seed
    from jiancha.llm.batchfile import write_batch_file

    requests = (ChatRequest(key=(s.id, run_id), seed=request_seed(task.spec.seed, run_id), messages=task.messages(s))
                for run_id, s in todo)
    return write_batch_file(path, backend, task.spec.generation, requests)


@dataclass
class IngestReport:
    """What ``ingest_results`` did: rows stored (ok / failed), results skipped because the request was already
    stored (ok, or failed and failed again), results for requests the run does not plan, and planned requests still without an ok row."""

    stored_ok: int = 0
    stored_failed: int = 0
    already_stored: int = 0
    unknown: list[str] = field(default_factory=list)
    missing: list[tuple[str, int]] = field(default_factory=list)
    failed_in_store: int = 0
    duplicates: int = 0
    bad_ids: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report for people, one fact per line."""
        out = [f"stored: {self.stored_ok} ok, {self.stored_failed} failed; skipped {self.already_stored} already "
               f"stored" + (f", {self.duplicates} repeated result lines" if self.duplicates else "")]
        if self.unknown or self.bad_ids:
            named = ", ".join((self.unknown + self.bad_ids)[:_SHOWN])
            out.append(f"ignored {len(self.unknown) + len(self.bad_ids)} result(s) this run does not plan ({named}): "
                       "check that the results belong to this run directory")
        if self.missing:
            out.append(f"{len(self.missing)} request(s) have no ok result yet ({self.failed_in_store} stored as "
                       "failed): write them to a new batch file with the same 'eval' command and --batch-out NEW"
                       + (" --retry-failed" if self.failed_in_store else ""))
        return out


def _normalised(obj: Any) -> Any:
    return json.loads(json.dumps(obj, ensure_ascii=False, default=str))


def check_run_settings(task: Task, samples: Sequence[Sample], identity: dict[str, Any], run_dir: Path) -> None:
    """Refuse results for a run whose data or prompts changed since its batch file was written."""
    if identity.get("data_fingerprint") != task.fingerprint(samples):
        raise ConfigError(f"the data of {run_dir} changed since its batch file was written (fingerprint "
                          f"{identity.get('data_fingerprint')} recorded, {task.fingerprint(samples)} now); ingest "
                          "the results with the data the run was made from")
    for key, value in _normalised(task.identity(samples)).items():
        if identity.get(key) != value:
            raise ConfigError(f"the {key} settings of {run_dir} differ from the task rebuilt from its manifest; "
                              "refusing to store results under them")


def ingest_results(task: Task, result_files: Iterable[str | os.PathLike]) -> IngestReport:
    """Append the results of batch files to the task's run directory (``task.spec.out``, which must exist)."""
    from jiancha._util.provenance import now_iso
    from jiancha.evaluation.runner import request_seed, result_row
    from jiancha.llm.batchfile import read_batch_results
    from jiancha.llm.store import RunStore

    spec = task.spec
    run_dir = Path(spec.out)
    store = RunStore(run_dir)
    manifest = store.read_manifest()
    if manifest is None:
        raise ConfigError(f"{run_dir} is not a run directory (no manifest.json); create it with the 'eval' command "
                          "and --batch-out FILE, submit FILE, then ingest the results into it")
    files = [str(p) for p in result_files]
    results = read_batch_results(files)
    samples = task.load_samples()
    check_run_settings(task, samples, manifest.get("identity", {}), run_dir)
    scope = samples[: spec.limit] if spec.limit else samples
    planned = {(s.id, run_id): s for run_id in range(spec.repeats) for s in scope}
    status = store.latest_status()
    report = IngestReport(duplicates=results.duplicates, bad_ids=list(results.bad_ids))
    rows = []
    for key in sorted(results.results, key=lambda k: (k[1], k[0])):
        res = results.results[key]
        sample = planned.get(key)
        if sample is None:
            report.unknown.append(f"{key[0]} run {key[1]}")
            continue
        if status.get(key) == "ok" or (status.get(key) == "failed" and not res.ok):
            report.already_stored += 1      # never a second row for the same outcome
            continue
        rows.append(result_row(task, sample, key[1], res, messages_hash(task.messages(sample)),
                               request_seed(spec.seed, key[1])))
        status[key] = "ok" if res.ok else "failed"
        if res.ok:
            report.stored_ok += 1
        else:
            report.stored_failed += 1
    invocation = {"started_at": now_iso(), "ingested": files, "stored_ok": report.stored_ok,
                  "stored_failed": report.stored_failed}
    store.open(manifest["identity"], {**manifest, "invocations": [invocation]})
    try:
        if rows:
            store.append_many(rows)
        store.update_manifest(finished_at=now_iso())
    finally:
        store.close()
    report.missing = [k for k in sorted(planned, key=lambda k: (k[1], k[0])) if status.get(k) != "ok"]
    report.failed_in_store = sum(1 for k in report.missing if status.get(k) == "failed")
    return report
