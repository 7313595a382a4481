"""The one evaluation loop: a task's samples through a model (or an offline predictor) into a resumable run
directory, then the task's scorer.

A run directory holds ``manifest.json`` and ``records.jsonl`` (``jiancha.llm.store``): every completed request
is appended and fsync'ed before it counts as done, so a killed run resumes without re-sending finished work.
The manifest's *identity* covers everything that changes an answer (task, model and preset, prompt, decoding
and reasoning settings, data fingerprint, seed); resuming under another identity is refused.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from jiancha._util.provenance import environment_info, now_iso
from jiancha.errors import ConfigError
from jiancha.evaluation.summary import RunSummary, count_health
from jiancha.evaluation.task import Sample, Task
from jiancha.llm.batch import run_into_store
from jiancha.llm.client import ChatClient
from jiancha.llm.config import BackendSpec, ClientConfig
from jiancha.llm.presets import check_generation, resolve_backend
from jiancha.llm.store import RunStore
from jiancha.llm.types import ChatRequest, ChatResult, messages_hash

Plan = list[tuple[int, Sample]]


def unique_ids(ids: list[str]) -> list[str]:
    """Ids made unique by appending ``#2``, ``#3``… to repeats (PDP ids are case numbers, which repeat).

    >>> unique_ids(["a", "b", "a", "a"])
    ['a', 'b', 'a#2', 'a#3']
    """
    seen: dict[str, int] = {}
    out = []
    for i in ids:
        n = seen.get(i, 0) + 1
        seen[i] = n
        out.append(i if n == 1 else f"{i}#{n}")
    return out


def plan_requests(status: dict[tuple, str], samples: list[Sample], repeats: int,
                  retry_failed: bool) -> tuple[Plan, int, int]:
    """What to send: ``(todo, already_done, failed_kept)``. A stored ``ok`` is never re-sent; a stored failure
    only with ``retry_failed``. Order: run 0 for every sample, then run 1, … (a partial run is a whole repeat)."""
    todo: Plan = []
    already = 0
    for run_id in range(repeats):
        for s in samples:
            st = status.get((s.id, run_id))
            if st == "ok" or (st == "failed" and not retry_failed):
                already += 1
            else:
                todo.append((run_id, s))
    redone = {(s.id, run_id) for run_id, s in todo}
    failed_kept = sum(1 for k, st in status.items() if st == "failed" and k not in redone)
    return todo, already, failed_kept


def request_seed(seed: int | None, run_id: int) -> int | None:
    """The seed sent with repeat ``run_id``: ``seed + run_id`` (None: no seed sent)."""
    return seed + run_id if seed is not None else None


def run_task(task: Task, client_config: ClientConfig | None = None, *, show_progress: bool = False,
             score: bool = True, console: Console | None = None, batch_out: str | None = None) -> RunSummary:
    """Run ``task`` into ``task.spec.out`` (creating or resuming it), then score it unless ``score=False``.

    With ``batch_out`` the requests still to do are written to that file as a batch-API JSONL
    (``jiancha.evaluation.batchrun``) instead of being sent, and nothing is scored; ``jiancha pdp ingest`` loads
    the results into the run directory.

    Ctrl-C (KeyboardInterrupt) writes every completed request, records the interruption in the manifest and
    prints how to resume (once) before it propagates.
    """
    spec = task.spec
    client_config = client_config or ClientConfig()
    client: ChatClient | None = None
    backend: BackendSpec | None = None
    if not task.is_offline():
        backend = resolve_backend(spec.model, spec.base_urls, spec.api_key_env, spec.extra_body)
        check_generation(backend, spec.generation)
        if batch_out is None:   # a batch file is written without the API key
            client = ChatClient(backend, spec.generation, client_config)   # fails fast on a missing API key

    samples = task.load_samples()
    if not samples:
        raise ConfigError(f"{spec.data!r} holds no records for task {task.name}")
    fingerprint = task.fingerprint(samples)
    scope = samples[: spec.limit] if spec.limit else samples

    identity: dict[str, Any] = {"task": task.name, "data_fingerprint": fingerprint, "seed": spec.seed}
    if backend is None:
        identity["model"] = spec.model
    else:
        identity.update({"backend": backend.identity(), "generation": spec.generation.to_dict()})
    identity.update(task.identity(samples))
    manifest: dict[str, Any] = {
        "format": task.run_format, "task": task.name, "spec": spec.to_dict(),
        "client": client_config.to_dict(),
        "data": {"source": spec.data, "fingerprint": fingerprint, "n_records": len(samples),
                 "n_cases": len(scope), **task.data_manifest(samples)},
        "environment": environment_info(), "started_at": now_iso(), "finished_at": None,
        "backend": backend.public() if backend is not None else {"baseline": spec.model},
        **task.manifest(samples),
        "invocations": [{"started_at": now_iso(), "retry_failed": spec.retry_failed, "repeats": spec.repeats,
                         "limit": spec.limit}],
    }

    store = RunStore(spec.out)
    resumed = store.open(identity, manifest)
    t0 = time.perf_counter()
    with store.session(console):
        status = store.latest_status()
        todo, already, failed_kept = plan_requests(status, scope, spec.repeats, spec.retry_failed)
        summary = RunSummary(out=str(spec.out), task=task.name, model=spec.model, offline=backend is None,
                             total=len(scope) * spec.repeats, already_done=already, resumed=resumed)
        if backend is None:
            _run_offline(task, scope, todo, store, summary)
        elif todo and batch_out is not None:
            from jiancha.evaluation.batchrun import write_task_batch

            summary.failed_in_batch = sum(status.get((s.id, run_id)) == "failed" for run_id, s in todo)
            n = write_task_batch(task, backend, todo, batch_out)
            store.manifest["invocations"][-1].update({"batch_out": str(batch_out), "batch_requests": n})
        elif todo and client is not None:
            _run_model(task, client, todo, store, summary, show_progress, console)
        summary.elapsed_s = round(time.perf_counter() - t0, 3)
        summary.failed_total = failed_kept + summary.failed + summary.failed_in_batch
        store.manifest["invocations"][-1].update({"finished_at": now_iso(), "sent": summary.sent,
                                                  "failed": summary.failed})
        store.update_manifest(finished_at=now_iso(), baseline=summary.baseline_info or None)
    summary.health = count_health(store.iter_rows(), task.verdict)
    if score and batch_out is None:
        summary.metrics = task.score(Path(spec.out))
        summary.headline = task.headline(summary.metrics)
    return summary


def _run_offline(task: Task, scope: list[Sample], todo: Plan, store: RunStore, summary: RunSummary) -> None:
    """An offline predictor answers every sample in scope at once (it may fit on them, by cross-validation);
    the answers of the requests still to do are stored."""
    if not todo:
        return
    out = task.predict_offline(scope)
    summary.baseline_info = dict(out.info)
    by_id = {s.id: a for s, a in zip(scope, out.answers)}
    seed = task.spec.seed if task.spec.seed is not None else 0
    for run_id, s in todo:
        store.append({"case_id": s.id, "run_id": run_id, **task.gold_fields(s), "status": "ok",
                      "raw_output": by_id[s.id], "finish_reason": "stop", "latency_s": out.latency_s,
                      "attempts": 1, "seed": seed})
        summary.sent += 1


def result_row(task: Task, sample: Sample, run_id: int, res: ChatResult, messages_hash: str,
               seed: int | None) -> dict[str, Any]:
    """The stored row of one answered request (live or from a batch result file)."""
    return {"case_id": sample.id, "run_id": run_id, **task.gold_fields(sample), **res.response_info(),
            "status": "ok" if res.ok else "failed", "raw_output": res.text, "messages_hash": messages_hash,
            "seed": seed}


def _run_model(task: Task, client: ChatClient, todo: Plan, store: RunStore, summary: RunSummary,
               show_progress: bool, console: Console | None) -> None:
    samples = {s.id: s for _, s in todo}
    hashes: dict[str, str] = {}

    def requests() -> Iterator[ChatRequest]:
        for run_id, s in todo:
            messages = task.messages(s)
            hashes[s.id] = messages_hash(messages)
            yield ChatRequest(key=(s.id, run_id), seed=request_seed(task.spec.seed, run_id), messages=messages)

    def make_row(req: ChatRequest, res: ChatResult) -> dict[str, Any]:
        cid, run_id = req.key
        return result_row(task, samples[cid], run_id, res, hashes[cid], req.seed)

    s = run_into_store(client, requests(), total=len(todo), make_row=make_row, append_many=store.append_many,
                       show_progress=show_progress, console=console,
                       description=f"{task.name} eval {client.spec.model}")
    summary.sent, summary.failed = s.done, s.failed
    summary.prompt_tokens, summary.completion_tokens = s.prompt_tokens, s.completion_tokens
    summary.reasoning_tokens, summary.cost = s.reasoning_tokens, round(s.cost, 6)
