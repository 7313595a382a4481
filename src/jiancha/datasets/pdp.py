"""PDP-Bench loader: hub id, save_to_disk folder, JSONL, JSON list or Parquet; validation; test_rq2.

Sources accepted by ``load_pdp``:

- ``Julian2002/PDP-Bench`` (the hub id): through ``datasets.load_dataset``, after a quick reachability probe so
  that an offline machine fails in about two seconds with a message naming the local alternatives;
- a ``save_to_disk`` folder holding a ``DatasetDict`` (splits by name) or a single ``Dataset``;
- a folder written by ``jiancha build export``: the splits its ``manifest.json`` lists, each read from
  ``<split>.jsonl`` (``jiancha.datasets.exports``);
- a directory: its files are matched to splits **by name only**: ``<split>.jsonl``, ``<split>.json``,
  ``<split>.parquet`` (also under ``data/``) and the hub's shards ``<split>-00000-of-00001.parquet`` (the layout
  ``jiancha data download pdp`` fetches), for the splits ``test`` and ``test_rq2``; failing those, files whose
  names carry a split as a word (``pdp_bench-test.jsonl``, ``train.jsonl``), as ``datasets.load_dataset`` infers
  split names, and hub snapshots whose README.md declares ``configs:``. When no file names a split, a folder
  holding exactly one data file (``records.jsonl``; here or under ``data/``) is read as that file, so it holds one
  split, ``test`` (never ``datasets``' catch-all ``train``); several such files are refused, with the accepted
  names;
- a single ``.jsonl`` / ``.json`` (a list of records, or ``{split: [records]}``) / ``.parquet`` file; a single
  file or ``Dataset`` holds one split: the one its file name names (``test_rq2.jsonl``), else ``test``;
- ``sample``: the bundled fictional sample set (``jiancha/data/pdp_sample.jsonl``).

``test_rq2`` is recreated from ``test`` with ``make_test_rq2`` when a source does not hold it.

Record validation lives in ``jiancha.datasets.pdp_validation``.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, is_dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from jiancha._util.hashing import records_fingerprint
from jiancha.datasets.hub import hub_unreachable_message, hub_unreachable_reason
from jiancha.datasets.issues import DataIssue, raise_first
from jiancha.datasets.pdp_validation import rows_to_records, validate_pdp_rows
from jiancha.datasets.records import PDPRecord, RawRow
from jiancha.errors import DataError
from jiancha.law.labels import LEVEL2_LABELS

HUB_ID = "Julian2002/PDP-Bench"
SPLITS = ("test", "test_rq2")
SAMPLE_ALIAS = "sample"
SAMPLE_RESOURCE = "data/pdp_sample.jsonl"  # inside the ``jiancha`` package
FILE_SUFFIXES = (".jsonl", ".json", ".parquet")



# --------------------------------------------------------------------------------------------------- sources


def sample_path() -> Path:
    """Path of the bundled sample set; DataError if this installation does not ship it."""
    p = Path(str(resources.files("jiancha").joinpath(SAMPLE_RESOURCE)))
    if not p.is_file():
        raise DataError(f"the bundled PDP sample is missing from this installation ({p}); reinstall jiancha "
                        "or pass a PDP-Bench file or folder instead of 'sample'")
    return p


def looks_like_hub_id(source: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", source)) and not Path(source).exists()


def _split_of_file(path: Path) -> str:
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    return stem if stem in SPLITS else "test"


def _rows_from_list(items: Any, path: str) -> list[RawRow]:
    if not isinstance(items, list):
        raise DataError(f"found a JSON {type(items).__name__}; expected {JSON_RECORDS_EXPECTED}", path=path)
    return [RawRow(obj, path, row=i) for i, obj in enumerate(items, start=1)]


def _is_json_lines(path: Path) -> bool:
    """A ``.json`` file that actually holds one object per line (as CAIL and many dumps do)."""
    with path.open(encoding="utf-8") as fh:
        lines = [line for line in (fh.readline() for _ in range(2)) if line.strip()]
    if len(lines) < 2 or not lines[0].lstrip().startswith("{"):
        return False
    try:
        json.loads(lines[0])
    except json.JSONDecodeError:
        return False
    return True


def read_json_rows(path: Path) -> dict[str, list[RawRow]] | list[RawRow]:
    """A JSON file: a list of records, or an object mapping split names to lists (JSON lines also accepted)."""
    from jiancha._util.io import read_json

    if _is_json_lines(path):
        return read_jsonl_rows(path)
    data = read_json(path)
    if isinstance(data, dict) and data and all(isinstance(v, list) and all(isinstance(x, dict) for x in v)
                                               for v in data.values()) \
            and not {"id", "meta", "fact"} & set(data):
        return {split: _rows_from_list(items, f"{path}[{split}]") for split, items in data.items()}
    if isinstance(data, dict):
        keys = ", ".join(map(str, list(data)[:8])) + (", …" if len(data) > 8 else "")
        what = ("a single record object" if {"id", "fact"} & set(data)
                else "a JSON object that is not a record list (statistics or metadata?)")
        raise DataError(f"found {what} with keys {keys}; expected {JSON_RECORDS_EXPECTED}", path=str(path))
    return _rows_from_list(data, str(path))


#: What a PDP-Bench JSON file must hold, for messages.
JSON_RECORDS_EXPECTED = ("a list of PDP-Bench records [{id, meta, person_info, procedure, fact, relevant_articles, "
                         "decision, ...}, ...], an object {split: [records]}, or one record per line (JSON lines)")


def read_jsonl_rows(path: Path) -> list[RawRow]:
    from jiancha._util.jsonl import iter_jsonl

    return [RawRow(obj, str(path), line=lineno) for lineno, obj in iter_jsonl(path)]


def read_parquet_rows(paths: list[Path]) -> list[RawRow]:
    """Rows of one or more Parquet files (shards, in name order), numbered across the shards."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows: list[RawRow] = []
    for p in paths:
        try:
            table = pq.read_table(p)
        except (pa.ArrowException, OSError) as exc:
            raise DataError(f"cannot read Parquet ({exc})", path=str(p)) from None
        rows.extend(RawRow(_plain_date(obj), str(p), row=i) for i, obj in enumerate(table.to_pylist(), start=1))
    return rows


def _read_file(path: Path) -> dict[str, list[RawRow]]:
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return {_split_of_file(path): read_jsonl_rows(path)}
    if suffix == ".json":
        rows = read_json_rows(path)
        return rows if isinstance(rows, dict) else {_split_of_file(path): rows}
    if suffix == ".parquet":
        return {_split_of_file(path): read_parquet_rows([path])}
    raise DataError(f"unsupported file type '{suffix or path.name}'; expected one of {', '.join(FILE_SUFFIXES)}",
                    path=str(path))


def _plain_date(obj: Any) -> Any:
    """Arrow readers may type ``meta.date`` as a timestamp; give back the ``YYYY-MM-DD`` string it was."""
    meta = obj.get("meta") if isinstance(obj, dict) else None
    if isinstance(meta, dict):
        d = meta.get("date")
        if isinstance(d, _dt.datetime) and d.time() == _dt.time() and d.tzinfo is None:
            obj = {**obj, "meta": {**meta, "date": d.date().isoformat()}}
        elif isinstance(d, _dt.date) and not isinstance(d, _dt.datetime):
            obj = {**obj, "meta": {**meta, "date": d.isoformat()}}
    return obj


def _dataset_rows(ds: Any, label: str) -> list[RawRow]:
    return [RawRow(_plain_date(obj), label, row=i) for i, obj in enumerate(ds.to_list(), start=1)]


def _split_readers_for_dir(path: Path) -> dict[str, Callable[[], list[RawRow]]]:
    if (path / "dataset_dict.json").is_file() or (path / "state.json").is_file():
        from datasets import Dataset, DatasetDict, load_from_disk

        try:
            obj = load_from_disk(str(path))
        except Exception as exc:  # noqa: BLE001 - datasets raises several kinds
            raise DataError(f"cannot read the save_to_disk folder ({type(exc).__name__}: {exc})",
                            path=str(path)) from None
        if isinstance(obj, DatasetDict):
            return {name: (lambda name=name: _dataset_rows(obj[name], f"{path}[{name}]")) for name in obj}
        assert isinstance(obj, Dataset)
        return {_split_of_file(path): lambda: _dataset_rows(obj, str(path))}

    from jiancha.datasets.exports import export_split_files, read_export_manifest

    manifest = read_export_manifest(path)
    if manifest is not None:  # a `build export` folder: its manifest names the splits
        return {name: (lambda f=f: read_jsonl_rows(f)) for name, f in export_split_files(path, manifest).items()}

    readers: dict[str, Callable[[], list[RawRow]]] = {}
    for base in (path, path / "data"):
        if not base.is_dir():
            continue
        for split in SPLITS:
            if split in readers:
                continue
            for suffix in FILE_SUFFIXES:
                f = base / f"{split}{suffix}"
                if f.is_file():
                    readers[split] = lambda f=f, split=split: _json_split(f, split) if f.suffix == ".json" \
                        else _read_file(f)[split]
                    break
            else:
                shards = sorted(base.glob(f"{split}-*.parquet"))
                if shards:
                    readers[split] = lambda shards=shards: read_parquet_rows(shards)
    if readers:
        # Beside a standard split, every other data file is a split named by its stem (test.jsonl and
        # balanced_N.jsonl); the first suffix found wins, as above.
        for f in _data_files(path):
            if f.stem not in readers and "-" not in f.stem:
                readers[f.stem] = lambda f=f: _json_split(f, f.stem) if f.suffix == ".json" \
                    else next(iter(_read_file(f).values()))
    if not readers and _declares_configs(path):
        readers = _load_dataset_folder(path)
    if not readers:
        readers = _named_file_readers(path)
    if not readers:
        data_files = _data_files(path)
        if len(data_files) == 1:  # the folder's only data file, read as that file: split named after it, else test
            return split_readers(data_files[0])
        found = [str(f.relative_to(path)) for f in data_files] or sorted(p.name for p in path.iterdir())
        shown = ", ".join(found[:10]) + (f" (+{len(found) - 10} more)" if len(found) > 10 else "")
        raise DataError(
            "no PDP-Bench data found in this folder: files are matched to splits by name; expected a save_to_disk "
            f"folder (dataset_dict.json), files named {accepted_file_names()} (also under data/, or with the "
            "split as a word in the name: pdp-test.jsonl), or a single data file (read as split 'test'); found: "
            f"{shown or 'nothing'}; rename the files or pass one file itself", path=str(path))
    return readers


def _data_files(path: Path) -> list[Path]:
    """The .jsonl / .json / .parquet files of a folder and of its ``data/`` subfolder, in path order."""
    return sorted(p for base in (path, path / "data") if base.is_dir() for p in base.iterdir()
                  if p.is_file() and p.suffix.lower() in FILE_SUFFIXES)


def looks_like_pdp_dir(path: Path) -> bool:
    """Whether a folder holds PDP data by the naming rule above (file names only; no file is read)."""
    if (path / "dataset_dict.json").is_file() or (path / "state.json").is_file() or _declares_configs(path):
        return True
    for base in (path, path / "data"):
        for split in SPLITS:
            if any((base / f"{split}{suffix}").is_file() for suffix in FILE_SUFFIXES) \
                    or any(base.glob(f"{split}-*.parquet")):
                return True
    return bool(_named_file_readers(path)) or len(_data_files(path)) == 1


def accepted_file_names() -> str:
    """The data file names a folder may hold, for messages: ``test.jsonl|json|parquet, test-NNNNN-of-NNNNN...``."""
    names = [f"{s}.jsonl|json|parquet" for s in SPLITS] + [f"{s}-00000-of-00001.parquet" for s in SPLITS]
    return ", ".join(names)


def _named_file_readers(path: Path) -> dict[str, Callable[[], list[RawRow]]]:
    """Splits named by the folder's file names as ``datasets`` infers them (``pdp_bench-test.jsonl``,
    ``data/train-0.jsonl``), each file read by our own readers (so a statistics JSON is refused, not taken for a
    record); nothing when no file names a split (``records.jsonl``: ``datasets`` would call it ``train``)."""
    from datasets.data_files import DataFilesDict, get_data_patterns

    try:
        patterns = get_data_patterns(str(path))
    except Exception:  # noqa: BLE001 - EmptyDatasetError and friends: no data files it knows
        return {}
    if not patterns or any(pats == ["**"] for pats in patterns.values()):
        return {}
    files = DataFilesDict.from_patterns(patterns, base_path=str(path))
    readers: dict[str, Callable[[], list[RawRow]]] = {}
    for split, found in files.items():
        paths = sorted(Path(f) for f in found if Path(f).suffix.lower() in FILE_SUFFIXES)
        if paths:
            readers[str(split)] = lambda paths=paths: [row for f in paths for row in _rows_of_file(f)]
    return readers


def _rows_of_file(path: Path) -> list[RawRow]:
    rows = read_json_rows(path) if path.suffix.lower() == ".json" else _read_file(path)
    if isinstance(rows, dict):
        if len(rows) != 1:
            raise DataError(f"this file holds several splits ({', '.join(rows)}); pass the file itself",
                            path=str(path))
        return next(iter(rows.values()))
    return rows


def _declares_configs(path: Path) -> bool:
    """Whether the folder is a hub snapshot whose README.md front matter declares ``configs:`` (data files with
    their splits), which ``datasets.load_dataset`` honours."""
    readme = path / "README.md"
    if not readme.is_file():
        return False
    text = readme.read_text(encoding="utf-8", errors="replace")
    if not text.startswith("---"):
        return False
    front = text[3:].split("\n---", 1)[0]
    return any(line.startswith("configs:") for line in front.splitlines())


def _load_dataset_folder(path: Path) -> dict[str, Callable[[], list[RawRow]]]:
    """A hub snapshot whose README declares its configs: ``datasets.load_dataset(folder)``, which reads local
    files without the network and names the splits as the card does."""
    from datasets import load_dataset

    try:
        dd = load_dataset(str(path))
    except Exception:  # noqa: BLE001 - not a layout datasets understands either: report ours
        return {}
    return {name: (lambda name=name: _dataset_rows(dd[name], f"{path}[{name}]")) for name in dd}


def _json_split(path: Path, split: str) -> list[RawRow]:
    rows = read_json_rows(path)
    if isinstance(rows, dict):
        if split not in rows:
            raise DataError(f"no split '{split}' in this JSON object; it holds {', '.join(rows)}", path=str(path))
        return rows[split]
    return rows


def split_readers(source: str | os.PathLike) -> dict[str, Callable[[], list[RawRow]]]:
    """Lazily readable splits of a source (no validation)."""
    src = str(source)
    if src == SAMPLE_ALIAS:
        p = sample_path()
        return {"test": lambda: read_jsonl_rows(p)}
    path = Path(src).expanduser()
    if path.is_dir():
        return _split_readers_for_dir(path)
    if path.is_file():
        data = _read_file(path)
        return {split: (lambda rows=rows: rows) for split, rows in data.items()}
    if looks_like_hub_id(src):
        from jiancha.datasets.registry import REGISTRY, get_dataset

        if src.split("/", 1)[0] in REGISTRY:  # a registry id, or a typo of one: not a hub repository
            spec = get_dataset(src)
            raise DataError(f"{src!r} is a dataset id, not a file; load it with the hub id {spec.hub_id!r} or a "
                            f"local copy (`jiancha data download {src}`)" if spec.hub_id else
                            f"{src!r} is not a PDP-Bench dataset", path=src)
        return _hub_split_readers(src)
    raise DataError(f"no such file or folder; expected a PDP-Bench file (.jsonl/.json/.parquet), a folder, the hub "
                    f"id '{HUB_ID}' or '{SAMPLE_ALIAS}'", path=src)


def _hub_split_readers(hub_id: str) -> dict[str, Callable[[], list[RawRow]]]:
    reason = hub_unreachable_reason(hub_id)
    if reason is not None:
        raise DataError(hub_unreachable_message(hub_id, reason))
    from datasets import load_dataset

    try:
        dd = load_dataset(hub_id)
    except Exception as exc:  # noqa: BLE001
        raise DataError(hub_unreachable_message(hub_id, f"{type(exc).__name__}: {exc}")) from None
    return {name: (lambda name=name: _dataset_rows(dd[name], f"hf://datasets/{hub_id}[{name}]")) for name in dd}


def list_pdp_splits(source: str | os.PathLike) -> tuple[str, ...]:
    """Splits a source holds, plus ``test_rq2`` when it can be recreated from ``test``."""
    names = list(split_readers(source))
    if "test" in names and "test_rq2" not in names:
        names.append("test_rq2")
    return tuple(names)


# ---------------------------------------------------------------------------------------------------- loading


def load_pdp(source: str, split: str = "test", *, validate: bool = True) -> list[PDPRecord]:
    """Load a PDP split from any supported source; raise DataError naming file/row/field on bad records.

    ``test_rq2`` is recreated from ``test`` (``make_test_rq2``) when the source does not hold it.
    """
    records, issues = _load(source, split, validate=validate)
    if validate:
        raise_first(issues)
    return records


def check_pdp(source: str, split: str = "test") -> tuple[list[PDPRecord], list[DataIssue]]:
    """Report mode: the split's records (built leniently) and every validation problem found."""
    return _load(source, split, validate=True)


def _load(source: str, split: str, *, validate: bool) -> tuple[list[PDPRecord], list[DataIssue]]:
    readers = split_readers(source)
    if split not in readers:
        if split == "test_rq2" and "test" in readers:
            records, issues = _load(source, "test", validate=validate)
            if issues:
                return make_test_rq2_lenient(records), issues
            return make_test_rq2(records), issues
        raise DataError(f"no split '{split}' in this source; it holds {', '.join(readers) or 'nothing'} "
                        f"(PDP-Bench splits: {', '.join(SPLITS)}; test_rq2 is recreated from test)",
                        path=str(source))
    rows = readers[split]()
    issues = validate_pdp_rows(rows) if validate else []
    return rows_to_records(rows), issues


def make_test_rq2_lenient(records: list[PDPRecord]) -> list[PDPRecord]:
    """``make_test_rq2`` when possible, else an empty list (report mode on a broken ``test``)."""
    try:
        return make_test_rq2(records)
    except DataError:
        return []


def make_test_rq2(records: list[PDPRecord], *, per_class: int = 25, seed: int = 42) -> list[PDPRecord]:
    """Recreate ``test_rq2`` from ``test`` exactly as the reference code draws it.

    One ``random.Random(seed)`` drives everything: for the classes in the order P, DNP, SNP, IENP it takes
    ``rng.sample(<records of that class in file order>, per_class)``, concatenates the four samples, then
    ``rng.shuffle``s the concatenation.
    """
    rng = random.Random(seed)
    picked: list[PDPRecord] = []
    for label in LEVEL2_LABELS:
        pool = [r for r in records if r.decision == label]
        if len(pool) < per_class:
            counts = ", ".join(f"{lab} {sum(r.decision == lab for r in records)}" for lab in LEVEL2_LABELS)
            raise DataError(f"cannot draw test_rq2: class '{label}' has {len(pool)} records, {per_class} needed "
                            f"(counts: {counts}); pass the full PDP-Bench test split")
        picked.extend(rng.sample(pool, per_class))
    rng.shuffle(picked)
    return picked


def compute_fingerprint(records: Iterable[Any], *, length: int = 16) -> str:
    """Order-sensitive fingerprint of a loaded split, for run provenance (records via ``to_dict``)."""

    def as_dict(r: Any) -> Any:
        if hasattr(r, "to_dict"):
            return r.to_dict()
        if is_dataclass(r) and not isinstance(r, type):
            return asdict(r)
        return r

    return records_fingerprint((as_dict(r) for r in records), length=length)
