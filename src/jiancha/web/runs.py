"""The runs folder the explorer serves: finding run directories under it, reading their files without ever leaving
it, and a compact per-record index of each PDP run so that pages read single records lazily.

A run is named by its *key*: its path relative to the runs folder, with ``/`` separators (``gemini/effort-high``).
Every path the explorer opens goes through :func:`inside`, which refuses absolute paths, ``..`` components and
anything (a symlink included) that resolves outside the folder.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from jiancha.errors import ConfigError, DataError
from jiancha.pdp import metrics as M
from jiancha.pdp.rundir import MANIFEST_FILE, PDP_TASK, RECORDS_FILE, ScoreItem, manifest_task

#: Run kinds, as the leaderboard groups them.
KIND_PDP, KIND_LJP, KIND_RETRIEVAL = "pdp", "ljp", "retrieval"
METRICS_FILE = "metrics.json"
TREC_RUN_FILE = "run.trec"
#: Outcome of one record against its gold decision (filters of the case list).
OUTCOMES = ("correct", "wrong", "invalid", "truncated")


class NotFoundError(ConfigError):
    """A URL names a run, case or file that is not in the runs folder (the page answers 404)."""


def inside(root: Path, relative: str) -> Path:
    """``root / relative`` when it stays inside ``root`` after resolving symlinks; NotFoundError otherwise.

    Refused: empty names, absolute paths, drive letters, backslashes, ``..`` components, NUL bytes, and any path
    whose resolved location is outside ``root`` (a symlink pointing out)."""
    if not relative or "\x00" in relative or "\\" in relative or ":" in relative:
        raise NotFoundError(f"no such run or file: {relative!r}")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or any(part in ("..", "") for part in pure.parts):
        raise NotFoundError(f"no such run or file: {relative!r}")
    base = root.resolve()
    target = (base / pure).resolve()
    if target != base and not target.is_relative_to(base):
        raise NotFoundError(f"no such run or file: {relative!r}")
    return target


def read_json_inside(root: Path, relative: str) -> Any:
    p = inside(root, relative)
    if not p.is_file():
        raise NotFoundError(f"no such file: {relative!r}")
    with p.open(encoding="utf-8") as fh:
        return json.load(fh)


@dataclass(frozen=True)
class RunRef:
    """One run directory under the runs folder."""

    key: str
    path: Path
    kind: str
    manifest: dict = field(default_factory=dict, compare=False)

    def file(self, name: str) -> str:
        """The runs-folder-relative name of one of this run's files (what :func:`inside` takes)."""
        return name if self.key == "." else f"{self.key}/{name}"

    @property
    def model(self) -> str:
        spec = self.manifest.get("spec") or {}
        return str(spec.get("model") or spec.get("method") or self.key)


def _kind_of(d: Path, files: set[str], manifest: dict | None) -> str | None:
    task = manifest_task(manifest)
    if RECORDS_FILE in files:
        if task in (None, PDP_TASK):
            return KIND_PDP
        if task == KIND_LJP:
            return KIND_LJP
        return None
    if TREC_RUN_FILE in files and METRICS_FILE in files:
        return KIND_RETRIEVAL
    return None


def discover_runs(root: Path) -> list[RunRef]:
    """Every run directory under ``root`` (PDP, LJP, retrieval), sorted by key. Symlinked folders are not
    followed, and a symlinked manifest or records file pointing outside ``root`` makes the directory be skipped."""
    base = root.resolve()
    out: list[RunRef] = []
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        files = set(filenames)
        if not ({RECORDS_FILE, TREC_RUN_FILE} & files):
            continue
        d = Path(dirpath)
        key = "." if d == base else d.relative_to(base).as_posix()
        try:
            for name in (RECORDS_FILE, MANIFEST_FILE, METRICS_FILE, TREC_RUN_FILE):
                if name in files:
                    inside(base, name if key == "." else f"{key}/{name}")
            manifest = read_json_inside(base, MANIFEST_FILE if key == "." else f"{key}/{MANIFEST_FILE}") \
                if MANIFEST_FILE in files else None
        except (NotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            continue
        kind = _kind_of(d, files, manifest)
        if kind:
            out.append(RunRef(key, d, kind, manifest if isinstance(manifest, dict) else {}))
    return sorted(out, key=lambda r: r.key)


# --- the per-record index of a PDP run ---------------------------------------------------------------------------

def _year(date: Any) -> str:
    return date[:4] if isinstance(date, str) and len(date) >= 4 and date[:4].isdigit() else ""


def _num(v: Any) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else np.nan


@dataclass
class RecordIndex:
    """What the case list and the leaderboard need of each record of one PDP run, in file order of the latest line
    per (case, repeat); the full record is read on demand from its byte offset."""

    path: Path
    case_ids: list[str]
    run_ids: list[str]
    offsets: np.ndarray
    gold: np.ndarray          # Level-2 codes, -1 invalid
    pred: np.ndarray
    truncated: np.ndarray
    failed: np.ndarray
    provinces: list[str]
    years: list[str]
    charges: list[tuple[str, ...]]
    prompt_tokens: np.ndarray
    completion_tokens: np.ndarray
    reasoning_tokens: np.ndarray
    cost: np.ndarray
    latency: np.ndarray
    by_case: dict[str, list[int]]

    def __len__(self) -> int:
        return len(self.case_ids)

    def outcome(self, i: int) -> str:
        if self.pred[i] < 0:
            return "invalid"
        return "correct" if self.pred[i] == self.gold[i] else "wrong"

    def outcome_mask(self, name: str) -> np.ndarray:
        if name == "correct":
            return (self.pred >= 0) & (self.pred == self.gold)
        if name == "wrong":
            return (self.pred >= 0) & (self.pred != self.gold)
        if name == "invalid":
            return self.pred < 0
        if name == "truncated":
            return self.truncated.copy()
        raise NotFoundError(f"unknown outcome {name!r}; expected one of {', '.join(OUTCOMES)}")

    def record(self, i: int) -> dict[str, Any]:
        """The full stored record ``i`` (one line of records.jsonl)."""
        with self.path.open("rb") as fh:
            fh.seek(int(self.offsets[i]))
            return json.loads(fh.readline())

    def search(self, text: str) -> np.ndarray:
        """Records whose stored line contains ``text`` (case inputs, the answer, ids): a byte search of the file
        for the text as JSON writes it, so no record is decoded."""
        import mmap

        needle = json.dumps(text, ensure_ascii=False)[1:-1].encode("utf-8")
        hits = np.zeros(len(self), dtype=bool)
        if not needle or self.path.stat().st_size == 0:
            return hits
        order = np.argsort(self.offsets)
        starts = self.offsets[order]
        with self.path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            pos = mm.find(needle)
            while pos >= 0:
                j = int(np.searchsorted(starts, pos, side="right")) - 1
                if j >= 0:
                    hits[order[j]] = True
                    nxt = mm.find(b"\n", pos)
                    if nxt < 0:
                        break
                    pos = mm.find(needle, nxt)
                else:
                    pos = mm.find(needle, pos + 1)
        return hits


def build_record_index(path: Path) -> RecordIndex:
    """Read records.jsonl once: byte offsets, gold and parsed prediction (the scorer's parser), outcome flags,
    breakdown keys and usage. The latest line per (case_id, run_id) wins, as when scoring."""
    from jiancha.pdp.scoring import parse_item

    latest: dict[tuple[str, str], int] = {}
    rows: list[tuple] = []
    offset = 0
    with path.open("rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            start, offset = offset, offset + len(line)
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                if not line.endswith(b"\n"):
                    break  # a torn last line (crash mid-write), skipped as by the scorer
                raise DataError("invalid JSON", path=str(path), line=lineno) from None
            if not isinstance(obj, dict) or "case_id" not in obj or "run_id" not in obj:
                raise DataError("expected a JSON object with case_id and run_id", path=str(path), line=lineno)
            raw = obj.get("raw_output")
            item = ScoreItem(case_id=str(obj["case_id"]), run_id=str(obj["run_id"]),
                             raw_output=raw if isinstance(raw, str) else None,
                             gold_decision=obj.get("gold_decision"), finish_reason=obj.get("finish_reason"),
                             failed=obj.get("status") == "failed")
            parsed = parse_item(item, "default")
            key = (item.case_id, item.run_id)
            row = (item.case_id, item.run_id, start, obj.get("gold_decision"), parsed.decision,
                   item.finish_reason == "length", item.failed, str(obj.get("province") or ""),
                   _year(obj.get("date")), tuple(c for c in (obj.get("charges") or ()) if isinstance(c, str)),
                   _num(obj.get("prompt_tokens")), _num(obj.get("completion_tokens")),
                   _num(obj.get("reasoning_tokens")), _num(obj.get("cost")), _num(obj.get("latency_s")))
            if key in latest:
                rows[latest[key]] = row
            else:
                latest[key] = len(rows)
                rows.append(row)
    cols = list(zip(*rows)) if rows else [()] * 15
    by_case: dict[str, list[int]] = {}
    for i, cid in enumerate(cols[0]):
        by_case.setdefault(cid, []).append(i)
    f = np.asarray
    return RecordIndex(path=path, case_ids=list(cols[0]), run_ids=list(cols[1]),
                       offsets=f(cols[2], dtype=np.int64), gold=M.encode_labels(cols[3]),
                       pred=M.encode_labels(cols[4]), truncated=f(cols[5], dtype=bool), failed=f(cols[6], dtype=bool),
                       provinces=list(cols[7]), years=list(cols[8]), charges=list(cols[9]),
                       prompt_tokens=f(cols[10], dtype=np.float64), completion_tokens=f(cols[11], dtype=np.float64),
                       reasoning_tokens=f(cols[12], dtype=np.float64), cost=f(cols[13], dtype=np.float64),
                       latency=f(cols[14], dtype=np.float64), by_case=by_case)


_ARRAYS = ("offsets", "gold", "pred", "truncated", "failed", "prompt_tokens", "completion_tokens",
           "reasoning_tokens", "cost", "latency")
_LISTS = ("case_ids", "run_ids", "provinces", "years", "charges")


def default_cache_dir() -> Path:
    """Where ``jiancha view`` keeps record indexes between starts: ``view/`` in jiancha's cache folder."""
    from jiancha._util.cache import default_cache_dir as jiancha_cache_dir

    return jiancha_cache_dir() / "view"


def _cache_key(records: Path, stamp: tuple) -> str:
    """Changes with the records file (path, size, mtime) and with the parser that read it."""
    import hashlib
    from importlib.resources import files

    from jiancha import __version__

    parser = (files("jiancha.pdp") / "parsing.py").read_bytes() + (files("jiancha.pdp") / "scoring.py").read_bytes()
    h = hashlib.sha256(f"{records.resolve()}|{stamp}|{__version__}|".encode() + parser)
    return h.hexdigest()[:24]


def save_index(idx: RecordIndex, path: Path) -> None:
    """Arrays as .npz and the string columns as JSON (no pickles: the cache never runs code when read)."""
    from jiancha._util.io import atomic_write_text

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **{name: getattr(idx, name) for name in _ARRAYS})
    os.replace(tmp, path.with_suffix(".npz"))
    atomic_write_text(path.with_suffix(".json"), json.dumps({name: getattr(idx, name) for name in _LISTS},
                                                            ensure_ascii=False))


def load_index(path: Path, records: Path) -> RecordIndex | None:
    try:
        with np.load(path.with_suffix(".npz"), allow_pickle=False) as z:
            arrays = {name: z[name] for name in _ARRAYS}
        lists = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError):
        return None
    lists["charges"] = [tuple(c) for c in lists["charges"]]
    by_case: dict[str, list[int]] = {}
    for i, cid in enumerate(lists["case_ids"]):
        by_case.setdefault(cid, []).append(i)
    return RecordIndex(path=records, by_case=by_case, **arrays, **lists)


class RunCache:
    """Indexes and scores of runs, rebuilt when a run's records.jsonl changes (size or modification time).
    With ``disk``, indexes are also kept in that folder between processes."""

    def __init__(self, disk: Path | None = None) -> None:
        self._lock = threading.Lock()
        self._index: dict[str, tuple[tuple, RecordIndex]] = {}
        self._scores: dict[str, tuple[tuple, dict]] = {}
        self._aggregates: dict[str, tuple[tuple, dict]] = {}
        self.disk = disk

    @staticmethod
    def _stamp(p: Path) -> tuple:
        st = p.stat()
        return (st.st_size, st.st_mtime_ns)

    def index(self, run: RunRef, built: RecordIndex | None = None) -> RecordIndex:
        """The run's index: from memory, else from the disk cache, else ``built`` (made elsewhere, e.g. by
        ``build_indexes``) or built now."""
        p = run.path / RECORDS_FILE
        stamp = self._stamp(p)
        with self._lock:
            hit = self._index.get(run.key)
        if hit and hit[0] == stamp:
            return hit[1]
        cached = self.disk / _cache_key(p, stamp) if self.disk else None
        idx = load_index(cached, p) if cached else None
        if idx is None:
            idx = built if built is not None else build_record_index(p)
            if cached:
                try:
                    save_index(idx, cached)
                except OSError:
                    pass  # a read-only cache folder only costs the next start its indexing time
        with self._lock:
            self._index[run.key] = (stamp, idx)
        return idx

    def missing(self, runs: list[RunRef]) -> list[RunRef]:
        """The runs whose index is neither in memory nor in the disk cache."""
        out = []
        for r in runs:
            p = r.path / RECORDS_FILE
            stamp = self._stamp(p)
            with self._lock:
                hit = self._index.get(r.key)
            if hit and hit[0] == stamp:
                continue
            if self.disk and (self.disk / _cache_key(p, stamp)).with_suffix(".npz").is_file():
                continue
            out.append(r)
        return out

    def scores(self, run: RunRef) -> dict:
        """The run's scores as ``jiancha pdp score --json`` prints them: its metrics.json when that is at least
        as new as records.jsonl and was scored in default mode, else scored now (nothing written)."""
        records, metrics = run.path / RECORDS_FILE, run.path / METRICS_FILE
        stamp = self._stamp(records)
        with self._lock:
            hit = self._scores.get(run.key)
        if hit and hit[0] == stamp:
            return hit[1]
        result = None
        if metrics.is_file() and metrics.stat().st_mtime_ns >= records.stat().st_mtime_ns:
            try:
                loaded = json.loads(metrics.read_text(encoding="utf-8"))
                if (isinstance(loaded, dict) and {"pooled", "per_run", "mean_se"} <= set(loaded)
                        and loaded.get("meta", {}).get("compat", "default") == "default"):
                    result = loaded
            except (json.JSONDecodeError, UnicodeDecodeError):
                result = None
        if result is None:
            from jiancha.pdp.scoring import score_run_dirs

            result = score_run_dirs([run.path], write=False)
        with self._lock:
            self._scores[run.key] = (stamp, result)
        return result

    def aggregates(self, run: RunRef) -> dict:
        """``{mode: pooled block}`` of majority vote and any-correct-of-k over the run's repeats, as
        ``jiancha pdp score --aggregate vote --aggregate any`` writes them under metrics.json's ``aggregates``:
        taken from the scores when there, else computed now (once per records.jsonl version; nothing written)."""
        scored = self.scores(run).get("aggregates")
        if scored:
            return scored
        stamp = self._stamp(run.path / RECORDS_FILE)
        with self._lock:
            hit = self._aggregates.get(run.key)
        if hit and hit[0] == stamp:
            return hit[1]
        from jiancha.pdp.aggregate import score_aggregates
        from jiancha.pdp.scoring import load_run_dirs

        result = score_aggregates(load_run_dirs([run.path])[0])
        with self._lock:
            self._aggregates[run.key] = (stamp, result)
        return result
