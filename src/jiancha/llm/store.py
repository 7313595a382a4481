"""A durable run store: ``manifest.json`` + append-only ``records.jsonl``, one line per completed request.

Each line is flushed and fsync'ed before the request counts as done, so a ``kill -9`` loses at most the requests
in flight and never duplicates one. The latest line for a key wins (a retried failure appends a new line). A
manifest records the run's *identity* (every setting that changes an answer); opening an existing store with a
different identity raises ResumeMismatchError naming each difference.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jiancha._util.dicts import identity_diff
from jiancha._util.hashing import stable_hash
from jiancha._util.io import read_json, write_json
from jiancha._util.jsonl import dumps_line, json_error
from jiancha._util.provenance import now_iso
from jiancha.errors import DataError, ResumeMismatchError

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"


def _repair_torn_tail(path: Path) -> int:
    """Drop a partial last line left by a crash in the middle of a write; return bytes removed."""
    if not path.exists():
        return 0
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("rb+") as fh:
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return 0
        back = min(size, 1 << 20)
        fh.seek(size - back)
        tail = fh.read(back)
        cut = tail.rfind(b"\n")
        new_size = size - back + cut + 1 if cut >= 0 else 0
        fh.truncate(new_size)
        fh.flush()
        os.fsync(fh.fileno())
        return size - new_size


def iter_store_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line_no, row)`` of a store's records file; a torn last line (crash mid-write, no newline) is skipped,
    any other bad line raises DataError naming file and line."""
    with path.open(encoding="utf-8") as fh:
        lines = fh.readlines()
    numbered = [(i, line) for i, line in enumerate(lines, start=1) if line.strip()]
    try:  # fast path: one decoder call for the whole file; any problem → the line-by-line path below
        objs = json.loads("[" + ",".join(line for _, line in numbered) + "]")
    except json.JSONDecodeError:
        objs = None
    if objs is not None and len(objs) == len(numbered) and all(type(o) is dict for o in objs):
        yield from zip((i for i, _ in numbered), objs)
        return
    for i, line in numbered:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if i == len(lines) and not line.endswith("\n"):
                return
            raise DataError(json_error(exc), path=str(path), line=i) from None
        if not isinstance(obj, dict):
            raise DataError(f"expected a JSON object, got {type(obj).__name__}", path=str(path), line=i)
        yield i, obj


class RunStore:
    """Open with ``RunStore(run_dir).open(identity, manifest)``; ``append`` rows; ``close`` at the end."""

    def __init__(self, run_dir: str | os.PathLike) -> None:
        self.dir = Path(run_dir)
        self.manifest_path = self.dir / MANIFEST
        self.records_path = self.dir / RECORDS
        self._fh = None
        self.manifest: dict[str, Any] = {}

    # -- manifest -----------------------------------------------------------------------------------------
    def read_manifest(self) -> dict[str, Any] | None:
        return read_json(self.manifest_path) if self.manifest_path.exists() else None

    def open(self, identity: dict[str, Any], manifest: dict[str, Any]) -> bool:
        """Create or resume. Returns True when resuming. Refuses an existing run of a different identity."""
        identity = json.loads(json.dumps(identity, ensure_ascii=False, default=str))
        ident_hash = stable_hash(identity)
        old = self.read_manifest()
        resuming = old is not None
        if old is not None:
            if old.get("identity_hash") != ident_hash:
                diff = identity_diff(old.get("identity", {}), identity)
                raise ResumeMismatchError(
                    f"{self.dir} holds a run made with different settings, refusing to mix results:\n  "
                    + "\n  ".join(diff or ["(identity hash differs)"])
                    + "\nuse another --out directory, or run again with the settings it was made with")
            manifest = {**old, **manifest, "started_at": old.get("started_at", manifest.get("started_at")),
                        "invocations": old.get("invocations", []) + manifest.get("invocations", [])}
        elif self.records_path.exists() and self.records_path.stat().st_size > 0:
            raise ResumeMismatchError(f"{self.records_path} exists but {self.manifest_path} does not; cannot "
                                      "tell which settings made it; use another --out directory")
        self.dir.mkdir(parents=True, exist_ok=True)
        self.manifest = {**manifest, "identity": identity, "identity_hash": ident_hash}
        write_json(self.manifest_path, self.manifest)
        _repair_torn_tail(self.records_path)
        self._fh = self.records_path.open("a", encoding="utf-8")
        return resuming

    def update_manifest(self, **fields: Any) -> None:
        self.manifest.update(fields)
        write_json(self.manifest_path, self.manifest)

    # -- records --------------------------------------------------------------------------------------------
    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """Every stored row in file order; a torn final line (crash mid-write) is ignored."""
        if self.records_path.exists():
            for _, row in iter_store_lines(self.records_path):
                yield row

    def latest_status(self, key_fields: tuple[str, str] = ("case_id", "run_id")) -> dict[tuple, str]:
        """``{(case_id, run_id): status}`` of the latest row per key."""
        out: dict[tuple, str] = {}
        for row in self.iter_rows():
            out[tuple(row.get(k) for k in key_fields)] = row.get("status", "")
        return out

    def append(self, row: dict[str, Any]) -> None:
        """Write one row and fsync before returning."""
        if self._fh is None:
            raise RuntimeError("RunStore.append before open()")
        self._fh.write(dumps_line(row))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def append_many(self, rows: list[dict[str, Any]]) -> None:
        """Write several rows with one fsync (group commit); durable when this returns."""
        if self._fh is None:
            raise RuntimeError("RunStore.append_many before open()")
        self._fh.write("".join(dumps_line(r) for r in rows))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def status_counts(self) -> dict[str, int]:
        """``{status: number of keys}`` over the latest row per key (``ok`` / ``failed``)."""
        counts: dict[str, int] = {}
        for st in self.latest_status().values():
            counts[st] = counts.get(st, 0) + 1
        return counts

    def note_interrupted(self) -> str:
        """Record an interruption (Ctrl-C) in the manifest and return the message that tells how to resume."""
        counts = self.status_counts()
        invocations = self.manifest.get("invocations") or [{}]
        invocations[-1]["interrupted_at"] = now_iso()
        self.update_manifest(invocations=invocations)
        return (f"interrupted: {counts.get('ok', 0)} completed and {counts.get('failed', 0)} failed requests are "
                f"stored in {self.records_path}. Run the same command again (same --out {self.dir}) to resume: "
                "nothing stored is sent again; add --retry-failed to retry the failed ones.")

    @contextlib.contextmanager
    def session(self, console: Any = None) -> Iterator[RunStore]:
        """``with store.session(console):`` closes the store at the end; on Ctrl-C it records the interruption
        and prints how to resume (to ``console``, a rich Console; stderr by default) before re-raising."""
        try:
            yield self
        except KeyboardInterrupt as exc:
            from rich.console import Console

            (console or Console(stderr=True)).print(self.note_interrupted(), style="yellow", markup=False)
            exc.resume_note_printed = True    # callers further up print nothing more
            raise
        finally:
            self.close()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
