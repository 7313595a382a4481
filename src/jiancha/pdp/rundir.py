"""The PDP run directory: what ``jiancha pdp eval`` writes and every reader reads.

A run directory holds:
- ``manifest.json``: the RunSpec (model, backend preset, base URL(s) without secrets, prompt variant and hash,
  decoding and reasoning settings, data source, split, data fingerprint, seed, repeats), package versions, git
  revision, start/end times, and the run's identity (``jiancha.llm.store``).
- ``records.jsonl``: append-only, one ``PredictionRecord`` per completed request (ok or failed), fsync'ed.
  The latest line for a (case_id, run_id) wins (a retried failure appends a new line).
- after scoring: ``metrics.json``, ``report.md``, PNG plots.

For scoring, such a directory, or the reference implementation's ``details_*.json`` directory
(``pdp.reference_results``), becomes a list of ``ScoreItem``.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from jiancha._util.dicts import flatten
from jiancha._util.io import read_json
from jiancha.errors import ConfigError, DataError
from jiancha.llm.store import MANIFEST, RECORDS, RunStore, iter_store_lines
from jiancha.llm.types import ResponseInfo
from jiancha.pdp.parsing import ParsedAnswer

RECORDS_FILE = RECORDS
MANIFEST_FILE = MANIFEST
#: Manifest keys that never change an answer and are ignored when comparing settings.
VOLATILE_KEYS = ("started_at", "ended_at", "finished_at", "recorded_at", "invocations", "environment",
                 "packages", "git_revision", "python", "platform", "identity_hash", "out", "run_dir", "concurrency",
                 "rate_limit", "timeout", "api_key_env", "progress")


@dataclass(frozen=True, kw_only=True)
class PredictionRecord(ResponseInfo):
    """One line of ``records.jsonl``: the request's outcome (``ResponseInfo`` fields), its answer, and the gold
    values and metadata copied from the PDP record so that scoring needs no data access."""

    case_id: str
    run_id: int
    status: str                                   # "ok" | "failed"
    raw_output: str | None = None
    gold_decision: str | None = None
    gold_articles: list[str] = field(default_factory=list)
    date: str | None = None
    province: str | None = None
    charges: list[str] = field(default_factory=list)
    inputs: dict[str, str] = field(default_factory=dict)  # person_info / procedure / fact (for reports)
    # provenance of the request: hash of the exact messages sent, the seed sent (None: none sent)
    messages_hash: str | None = None
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PredictionRecord:
        names = cls.__dataclass_fields__.keys()
        return cls(**{k: v for k, v in d.items() if k in names})


def read_predictions(run_dir: str | os.PathLike) -> list[PredictionRecord]:
    """The latest record per (case_id, run_id), in order of first appearance."""
    latest: dict[tuple[str, int], PredictionRecord] = {}
    for row in RunStore(Path(run_dir)).iter_rows():
        rec = PredictionRecord.from_dict(row)
        latest[(rec.case_id, rec.run_id)] = rec
    return list(latest.values())


@dataclass(frozen=True)
class ScoreItem:
    """One prediction to score, whatever directory format it came from."""

    case_id: str
    run_id: str
    raw_output: str | None
    gold_decision: str | None
    gold_articles: tuple[str, ...] = ()
    finish_reason: str | None = None
    failed: bool = False
    error: str | None = None
    date: str | None = None
    province: str | None = None
    charges: tuple[str, ...] = ()
    #: The prediction the reference implementation stored (reference result dirs only).
    stored: ParsedAnswer | None = None


#: The ``task`` a PDP run directory's manifest names (``jiancha pdp eval`` writes it); other tasks' scorers.
PDP_TASK = "pdp"
SCORE_COMMAND_OF_TASK = {"ljp": "jiancha ljp score"}


def manifest_task(manifest: dict[str, Any] | None) -> str | None:
    """The task a manifest names (top-level ``task``, else ``identity.task``); None when it names none."""
    if not isinstance(manifest, dict):
        return None
    task = manifest.get("task")
    if task is None and isinstance(manifest.get("identity"), dict):
        task = manifest["identity"].get("task")
    return task


def check_pdp_manifest(run_dir: str | os.PathLike, manifest: dict[str, Any] | None) -> None:
    """Refuse a run directory whose manifest names another task than PDP (an LJP run has records.jsonl too; scored
    as PDP every gold label would be invalid). A manifest without ``task`` (hand-made directories) is accepted."""
    task = manifest_task(manifest)
    if task is None or task == PDP_TASK:
        return
    other = SCORE_COMMAND_OF_TASK.get(str(task))
    hint = f"score it with '{other} {run_dir}'" if other else "pass a directory made by 'jiancha pdp eval'"
    raise ConfigError(f"{Path(run_dir) / MANIFEST_FILE} names task {task!r}, expected {PDP_TASK!r}: this is not a "
                      f"PDP run directory; {hint}")


def is_project_dir(path: str | os.PathLike) -> bool:
    """True for a PDP run directory of this project (records.jsonl); raises ConfigError when its manifest names
    another task (see ``check_pdp_manifest``)."""
    if not (Path(path) / RECORDS_FILE).is_file():
        return False
    check_pdp_manifest(path, read_manifest(path))
    return True


def read_manifest(run_dir: str | os.PathLike) -> dict[str, Any] | None:
    p = Path(run_dir) / MANIFEST_FILE
    return read_json(p) if p.is_file() else None


def read_project_dir(run_dir: str | os.PathLike) -> list[ScoreItem]:
    """Items of a project run directory; the latest line per (case_id, run_id) wins; order of first appearance.
    Raises ConfigError when the manifest names another task than PDP."""
    check_pdp_manifest(run_dir, read_manifest(run_dir))
    path = Path(run_dir) / RECORDS_FILE
    latest: dict[tuple[str, str], ScoreItem] = {}
    for lineno, obj in iter_store_lines(path):
        for key in ("case_id", "run_id", "status"):
            if key not in obj:
                raise DataError("missing required field (a PredictionRecord needs case_id, run_id, status)",
                                path=str(path), line=lineno, field=key)
        # fields of PredictionRecord, read directly (no intermediate object: this loop runs 37k times)
        status, raw = obj["status"], obj.get("raw_output")
        if status not in ("ok", "failed"):
            raise DataError(f"status {status!r} is not 'ok' or 'failed'", path=str(path), line=lineno,
                            field="status")
        if raw is not None and not isinstance(raw, str):
            raise DataError(f"raw_output must be a string or null, got {type(raw).__name__}",
                            path=str(path), line=lineno, field="raw_output")
        for name in ("gold_articles", "charges"):
            v = obj.get(name)
            if v is not None and not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
                raise DataError("expected a list of strings", path=str(path), line=lineno, field=name)
        key = (str(obj["case_id"]), str(obj["run_id"]))
        latest[key] = ScoreItem(
            case_id=key[0], run_id=key[1], raw_output=raw, gold_decision=obj.get("gold_decision"),
            gold_articles=tuple(obj.get("gold_articles") or ()), finish_reason=obj.get("finish_reason"),
            failed=status == "failed", error=obj.get("error"), date=obj.get("date"), province=obj.get("province"),
            charges=tuple(obj.get("charges") or ()))
    return list(latest.values())


def settings_of(manifest: dict[str, Any] | None) -> dict[str, Any]:
    """The flattened settings that define a run: the manifest's ``identity`` (or ``spec``) when present, else
    the whole manifest, without volatile keys (times, environment, concurrency…)."""
    if not manifest:
        return {}
    base = manifest.get("identity") or manifest.get("spec") or manifest
    flat = flatten(base)
    return {k: v for k, v in flat.items() if not any(part in VOLATILE_KEYS for part in k.split("."))}


def iter_parse_jsonl(path: str | os.PathLike, *, compat: str = "default"):
    """Parse every line of a JSONL file with a ``raw_output`` field (and optional ``finish_reason``); yields
    ``ParsedAnswer.to_dict()`` per line. A line without ``raw_output`` raises DataError naming file and line."""
    from jiancha._util.jsonl import iter_jsonl
    from jiancha.pdp.parsing import check_compat, parse_answer

    check_compat(compat)
    for lineno, obj in iter_jsonl(path):
        if "raw_output" not in obj:
            raise DataError("missing field (each line needs the model's answer in 'raw_output')", path=str(path),
                            line=lineno, field="raw_output")
        raw, fr = obj["raw_output"], obj.get("finish_reason")
        if raw is not None and not isinstance(raw, str):
            raise DataError(f"expected a string or null, got {type(raw).__name__}", path=str(path), line=lineno,
                            field="raw_output")
        yield parse_answer(raw, compat=compat, finish_reason=fr if isinstance(fr, str) else None).to_dict()
