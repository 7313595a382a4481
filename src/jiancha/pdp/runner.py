"""``jiancha pdp eval``: run a model (or an offline baseline) over a PDP split into a resumable run directory,
then score it.

A run directory (see ``jiancha.pdp.records``) holds ``manifest.json`` and ``records.jsonl``; every completed
request is appended and fsync'ed before it counts as done, so a killed run resumes without re-sending finished
work. The manifest's *identity* covers everything that changes an answer (model and preset, prompt messages,
decoding and reasoning settings, data fingerprint, seed); resuming under another identity is refused.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from jiancha._util.hashing import stable_hash
from jiancha._util.provenance import environment_info, now_iso
from jiancha.datasets.records import PDP_INPUT_FIELDS, PDPRecord
from jiancha.errors import ConfigError
from jiancha.llm.batch import run_into_store
from jiancha.llm.client import ChatClient
from jiancha.llm.config import BackendSpec, ClientConfig
from jiancha.llm.presets import check_generation, resolve_backend
from jiancha.llm.store import RunStore
from jiancha.llm.types import ChatRequest, ChatResult
from jiancha.pdp import baselines
from jiancha.pdp.records import PredictionRecord
from jiancha.pdp.spec import RunSpec

RUN_FORMAT = "jiancha-pdp-run/1"


@dataclass
class RunSummary:
    """What one ``jiancha pdp eval`` invocation did; ``metrics`` is the scorer's result when it scored."""

    out: str
    total: int                   # (case, run) pairs in scope
    already_done: int            # found in the store and not re-sent
    sent: int                    # completed in this invocation
    failed: int                  # failed in this invocation
    failed_total: int            # failed records in the store after this invocation
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    elapsed_s: float = 0.0
    resumed: bool = False
    baseline_info: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] | None = None


# ---------------------------------------------------------------------------------------------------- helpers

def unique_case_ids(records: list[PDPRecord]) -> list[str]:
    """Case ids, made unique by appending ``#2``, ``#3``… to repeated ids (PDP ids are case numbers)."""
    seen: dict[str, int] = {}
    out = []
    for r in records:
        n = seen.get(r.id, 0) + 1
        seen[r.id] = n
        out.append(r.id if n == 1 else f"{r.id}#{n}")
    return out


def _charges(text: str) -> list[str]:
    from jiancha.law.charges import find_charges

    return list(find_charges(text))


def _base_record(case_id: str, run_id: int, r: PDPRecord, charges: list[str]) -> dict[str, Any]:
    return {"case_id": case_id, "run_id": run_id, "gold_decision": r.decision,
            "gold_articles": list(r.relevant_articles), "date": r.date, "province": r.province,
            "charges": charges, "inputs": {k: getattr(r, k) for k in PDP_INPUT_FIELDS}}


def plan_requests(status: dict[tuple, str], cases: list[tuple[str, PDPRecord]], repeats: int,
                  retry_failed: bool) -> tuple[list[tuple[int, str, PDPRecord]], int, int]:
    """What to send: ``(todo, already_done, failed_kept)``. A stored ``ok`` is never re-sent; a stored failure
    only with ``retry_failed``. Order: run 0 for every case, then run 1, … (a partial run is a whole repeat)."""
    todo: list[tuple[int, str, PDPRecord]] = []
    already = 0
    for run_id in range(repeats):
        for cid, r in cases:
            st = status.get((cid, run_id))
            if st == "ok" or (st == "failed" and not retry_failed):
                already += 1
            else:
                todo.append((run_id, cid, r))
    redone = {(cid, run_id) for run_id, cid, _ in todo}
    failed_kept = sum(1 for k, st in status.items() if st == "failed" and k not in redone)
    return todo, already, failed_kept


def _load_records(spec: RunSpec, records: list[PDPRecord] | None) -> list[PDPRecord]:
    if records is not None:
        return list(records)
    from jiancha.datasets.pdp import load_pdp

    return load_pdp(spec.data, spec.split)


def _fingerprint(records: list[PDPRecord]) -> str:
    from jiancha.datasets.pdp import compute_fingerprint

    return compute_fingerprint(records)


# ---------------------------------------------------------------------------------------------------- entry

def run_pdp_eval(spec: RunSpec, client_config: ClientConfig | None = None, *,
                 records: list[PDPRecord] | None = None, train_records: list[PDPRecord] | None = None,
                 show_progress: bool = False, score: bool = True, console: Console | None = None) -> RunSummary:
    """Run ``spec`` into ``spec.out`` (creating or resuming it), then score it unless ``score=False``.

    ``records`` / ``train_records`` bypass the loader (the data fingerprint is still computed from them).
    Ctrl-C (KeyboardInterrupt) writes every completed request, records the interruption in the manifest and
    prints how to resume before it propagates.
    """
    client_config = client_config or ClientConfig()
    is_baseline = baselines.is_baseline(spec.model)
    backend: BackendSpec | None = None
    if is_baseline:
        predict = baselines.get_baseline(spec.model)
        if spec.train_data is not None and spec.model[len(baselines.PREFIX):] not in baselines.TRAINABLE:
            raise ConfigError(f"{spec.model} does not learn from data; drop --train-data")
    else:
        if spec.train_data is not None:
            raise ConfigError("--train-data is only used by the trainable baselines "
                              f"({', '.join(baselines.PREFIX + n for n in baselines.TRAINABLE)})")
        backend = resolve_backend(spec.model, spec.base_urls, spec.api_key_env, spec.extra_body)
        check_generation(backend, spec.generation)
        client = ChatClient(backend, spec.generation, client_config)   # fails fast on a missing API key

    all_records = _load_records(spec, records)
    if not all_records:
        raise ConfigError(f"split {spec.split!r} of {spec.data!r} holds no records")
    fingerprint = _fingerprint(all_records)
    case_ids = unique_case_ids(all_records)
    n_cases = min(len(all_records), spec.limit) if spec.limit else len(all_records)
    cases = list(zip(case_ids[:n_cases], all_records[:n_cases]))

    identity: dict[str, Any] = {"task": "pdp", "data_fingerprint": fingerprint}
    manifest: dict[str, Any] = {
        "format": RUN_FORMAT, "task": "pdp", "spec": spec.to_dict(), "client": client_config.to_dict(),
        "data": {"source": spec.data, "split": spec.split, "fingerprint": fingerprint,
                 "n_records": len(all_records), "n_cases": n_cases},
        "environment": environment_info(), "started_at": now_iso(), "finished_at": None,
    }
    hashes: dict[str, str] = {}
    train = None
    if is_baseline:
        identity["model"] = spec.model
        identity["seed"] = spec.seed if spec.seed is not None else 0
        if spec.train_data is not None or train_records is not None:
            train = list(train_records) if train_records is not None else _load_train(spec)
            identity["train"] = {"fingerprint": _fingerprint(train), "n": len(train)}
            manifest["train"] = {**train_source(spec, train_records is not None), **identity["train"]}
        elif spec.model == baselines.PREFIX + "tfidf-lr":
            identity["train"] = {"cross_validation_folds": spec.cv_folds}
        manifest["backend"] = {"baseline": spec.model}
    else:
        assert backend is not None
        from jiancha.pdp.prompts import build_messages, messages_hash, prompt_spec

        pspec = prompt_spec(spec.prompt, one_shot_classes=spec.one_shot_classes, template_path=spec.template)
        for cid, r in zip(case_ids, all_records):
            hashes[cid] = messages_hash(build_messages(r, spec.prompt, one_shot_classes=spec.one_shot_classes,
                                                       template_path=spec.template))
        prompt_hash = stable_hash(list(hashes.items()))
        identity.update({
            "backend": backend.identity(), "generation": spec.generation.to_dict(), "seed": spec.seed,
            "prompt": {**{k: v for k, v in pspec.items() if k != "template"}, "messages_hash": prompt_hash},
        })
        manifest["backend"] = backend.public()
        manifest["prompt"] = {**pspec, "hash": prompt_hash}
    manifest["invocations"] = [{"started_at": manifest["started_at"], "retry_failed": spec.retry_failed,
                                "repeats": spec.repeats, "limit": spec.limit}]

    store = RunStore(spec.out)
    resumed = store.open(identity, manifest)
    t0 = time.perf_counter()
    with store.session(console):
        todo, already, failed_kept = plan_requests(store.latest_status(), cases, spec.repeats, spec.retry_failed)
        summary = RunSummary(out=str(spec.out), total=n_cases * spec.repeats, already_done=already, sent=0,
                             failed=0, failed_total=0, resumed=resumed)
        if is_baseline:
            _run_baseline(spec, predict, cases, todo, train, store, summary)
        elif todo:
            _run_llm(spec, client, todo, hashes, store, summary, show_progress, console)
        summary.elapsed_s = round(time.perf_counter() - t0, 3)
        summary.failed_total = failed_kept + summary.failed
        store.manifest["invocations"][-1].update({"finished_at": now_iso(), "sent": summary.sent,
                                                  "failed": summary.failed})
        store.update_manifest(finished_at=now_iso(), baseline=summary.baseline_info or None)
    if score:
        from jiancha.pdp.scoring import score_run_dirs

        summary.metrics = score_run_dirs([spec.out], compat=spec.compat, write=True)
    return summary


def train_source(spec: RunSpec, passed_in: bool) -> dict[str, Any]:
    """Where a trainable baseline's training records came from: ``--train-data`` and ``--train-split``, or the
    caller (``train_records`` passed to ``run_pdp_eval``)."""
    if passed_in:
        return {"source": "records passed by the caller", "split": None}
    return {"source": spec.train_data, "split": spec.train_split}


def describe_fit(info: dict[str, Any], train: dict[str, Any] | None) -> str:
    """What a baseline was fitted on, for people: the training source and split when it had training records
    (``data/train.jsonl, split 'train', 120 records``), else the baseline's own ``fit_on``."""
    if train is None:
        return str(info.get("fit_on", "?"))
    split = f", split {train['split']!r}" if train.get("split") else ""
    return f"{train['source']}{split}, {train['n']} records"


def _load_train(spec: RunSpec) -> list[PDPRecord]:
    from jiancha.datasets.pdp import load_pdp

    assert spec.train_data is not None
    return load_pdp(spec.train_data, spec.train_split)


# ---------------------------------------------------------------------------------------------------- baselines

def _run_baseline(spec: RunSpec, predict, cases, todo, train, store: RunStore, summary: RunSummary) -> None:
    from jiancha.pdp.answers import render_answer

    name = spec.model[len(baselines.PREFIX):]
    kwargs: dict[str, Any] = {"train": train, "seed": spec.seed if spec.seed is not None else 0}
    if name == "tfidf-lr":
        kwargs["folds"] = spec.cv_folds
    if not todo:
        return
    t0 = time.perf_counter()
    output = predict([r for _, r in cases], **kwargs)
    per_case = (time.perf_counter() - t0) / max(1, len(cases))
    info = dict(output.info)
    if train is not None:
        src = store.manifest["train"]       # written by run_pdp_eval with the training records
        info.update({"fit_on": describe_fit(info, src), "train_source": src["source"], "train_split": src["split"]})
    summary.baseline_info = info
    by_id = {cid: p for (cid, _), p in zip(cases, output.predictions)}
    for run_id, cid, r in todo:
        p = by_id[cid]
        rec = PredictionRecord(**_base_record(cid, run_id, r, _charges(r.fact)), status="ok",
                               raw_output=render_answer(p.decision, list(p.articles), p.analysis),
                               finish_reason="stop", latency_s=round(per_case, 6), attempts=1,
                               seed=kwargs["seed"])
        store.append(rec.to_dict())
        summary.sent += 1


# ---------------------------------------------------------------------------------------------------- models

def _run_llm(spec: RunSpec, client: ChatClient, todo, hashes: dict[str, str], store: RunStore,
             summary: RunSummary, show_progress: bool, console: Console | None) -> None:
    from jiancha.pdp.prompts import build_messages

    records = {cid: r for _, cid, r in todo}

    def requests() -> Iterator[ChatRequest]:
        for run_id, cid, r in todo:
            seed = spec.seed + run_id if spec.seed is not None else None
            yield ChatRequest(key=(cid, run_id), seed=seed,
                              messages=build_messages(r, spec.prompt, one_shot_classes=spec.one_shot_classes,
                                                      template_path=spec.template))

    charges: dict[str, list[str]] = {}

    def make_row(req: ChatRequest, res: ChatResult) -> dict[str, Any]:
        cid, run_id = req.key
        r = records[cid]
        if cid not in charges:
            charges[cid] = _charges(r.fact)
        return PredictionRecord(
            **_base_record(cid, run_id, r, charges[cid]), **res.response_info(), status="ok" if res.ok else "failed",
            raw_output=res.text, messages_hash=hashes.get(cid), seed=req.seed).to_dict()

    s = run_into_store(client, requests(), total=len(todo), make_row=make_row, append_many=store.append_many,
                       show_progress=show_progress, console=console, description=f"pdp eval {client.spec.model}")
    summary.sent, summary.failed = s.done, s.failed
    summary.prompt_tokens, summary.completion_tokens = s.prompt_tokens, s.completion_tokens
    summary.reasoning_tokens, summary.cost = s.reasoning_tokens, round(s.cost, 6)
