"""What a dataset holds: summaries for ``jiancha data info`` (PDP-Bench, CAIL2018, LeCaRD v1/v2).

Pure summaries (frozen dataclasses); the CLI renders them. A path is recognised by its layout; a registry id
(``pdp/test``, ``lecard-v2``) resolves to its download folder in the cache.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jiancha.datasets.exports import ExportManifest, read_export_manifest
from jiancha.datasets.issues import DataIssue
from jiancha.datasets.lecard import V2_QRELS_FILES
from jiancha.errors import DataError
from jiancha.law.labels import LEVEL2_LABELS

#: Keys under which a PDP-style record may carry charge names (top level or in ``meta``).
CHARGE_KEYS = ("charges", "charge", "accusation", "accusations")
TOP_N = 15


@dataclass(frozen=True)
class PDPSplitSummary:
    name: str
    count: int
    label_counts: Mapping[str, int]          # the four labels in table order, then anything else found
    fields: tuple[str, ...]                  # field names in order of first appearance (``meta.date`` style)
    date_min: str | None
    date_max: str | None
    provinces: int
    charges: tuple[tuple[str, int], ...] = ()   # most common first, when records carry charges
    n_charges: int = 0
    articles: tuple[tuple[str, int], ...] = ()
    issues: tuple[DataIssue, ...] = ()
    fingerprint: str = ""
    derived: bool = False                    # recreated from test (test_rq2)
    note: str = ""


@dataclass(frozen=True)
class PDPSummary:
    source: str
    splits: tuple[PDPSplitSummary, ...]
    kind: str = "pdp"
    export: ExportManifest | None = None     # the manifest of a `jiancha build export` folder


@dataclass(frozen=True)
class CAILFileSummary:
    path: str
    count: int
    charges: tuple[tuple[str, int], ...]
    articles: tuple[tuple[int, int], ...]
    n_charges: int
    n_articles: int
    multi_charge: int                        # records with more than one charge
    unknown_charges: tuple[str, ...] = ()    # not in accu.txt (when a label list was found)
    unknown_articles: tuple[int, ...] = ()
    issues: tuple[DataIssue, ...] = ()


@dataclass(frozen=True)
class CAILSummary:
    source: str
    files: tuple[CAILFileSummary, ...]
    label_dir: str | None = None
    n_label_charges: int = 0
    n_label_articles: int = 0
    kind: str = "cail2018"


@dataclass(frozen=True)
class LecardSummary:
    name: str
    source: str
    queries: int                             # queries whose text the source holds (distinct ids)
    labelled_queries: int                    # queries with relevance labels (qrels), text or not
    judged_pairs: int
    grade_counts: Mapping[int, int]
    pools: int
    pool_sizes: tuple[int, int] = (0, 0)     # min, max
    documents: int = 0
    fingerprint: str = ""
    note: str = ""
    query_files: tuple[tuple[str, int], ...] = ()   # (query file, queries of this dataset it holds), v2
    labelled_without_text: int = 0           # qrels queries whose text is in none of the query files
    kind: str = "lecard"


@dataclass(frozen=True)
class Summary:
    """Wrapper for whichever kind of dataset was found."""

    dataset: PDPSummary | CAILSummary | LecardSummary
    registry_id: str | None = None


# ----------------------------------------------------------------------------------------------- detection


def _first_object(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    try:
                        return json.loads(line)
                    except json.JSONDecodeError:
                        return None
    except (OSError, UnicodeDecodeError):
        return None
    return None


def detect_kind(path: Path) -> str:
    """``pdp``, ``cail2018``, ``lecard-v1`` or ``lecard-v2`` from a file's content or a folder's layout.

    Folders, in this order: the LeCaRD layouts; a ``jiancha build export`` folder (``manifest.json``); CAIL2018 (``accu.txt`` here or in ``meta/``, or JSON-lines files of
    ``{fact, meta}`` records here or one folder down); PDP-Bench by file names (``jiancha.datasets.pdp``:
    ``test.jsonl``, save_to_disk, hub shards, a lone data file). Any other folder raises DataError saying what was
    found.
    """
    from jiancha.datasets.cail import looks_like_cail
    from jiancha.datasets.pdp import accepted_file_names, looks_like_pdp_dir

    if path.is_file():
        if path.suffix.lower() in (".json", ".jsonl") and looks_like_cail(_first_object(path)):
            return "cail2018"
        return "pdp"
    if read_export_manifest(path) is not None:
        return "pdp"
    if (path / "data" / "query" / "query.json").is_file() or (path / "LeCaRD" / "data").is_dir() \
            or (path / "candidates.tar.xz").is_file():
        return "lecard-v1"
    if any((path / "label" / n).is_file() for n in V2_QRELS_FILES) \
            or ((path / "query").is_dir() and (path / "label").is_dir()):
        return "lecard-v2"
    if (path / "accu.txt").is_file() or (path / "meta" / "accu.txt").is_file() or cail_files(path):
        return "cail2018"
    if looks_like_pdp_dir(path):
        return "pdp"
    found = sorted(str(p.relative_to(path)) + ("/" if p.is_dir() else "") for p in path.iterdir())
    shown = ", ".join(found[:12]) + (f" (+{len(found) - 12} more)" if len(found) > 12 else "")
    raise DataError(
        "cannot tell which dataset this folder holds; expected LeCaRD (query/ + label/, or data/query/query.json), "
        "CAIL2018 (JSON lines of {fact, meta} records, here or in subfolders, or meta/accu.txt) or PDP-Bench "
        f"(dataset_dict.json, files named {accepted_file_names()}, or a single data file); found: "
        f"{shown or 'nothing'}. "
        "Pass a data file itself to summarise it", path=str(path))


#: How deep below a folder CAIL data files are looked for (``cail2018/brightmart/data_test.json``: depth 1).
CAIL_SUBFOLDER_DEPTH = 1


def _cail_candidates(path: Path, depth: int = CAIL_SUBFOLDER_DEPTH) -> list[Path]:
    out: list[Path] = []
    for p in sorted(path.iterdir()):
        if p.is_file() and p.suffix.lower() in (".json", ".jsonl"):
            out.append(p)
        elif p.is_dir() and depth > 0 and not p.name.startswith("."):
            out.extend(_cail_candidates(p, depth - 1))
    return out


def cail_files(path: Path) -> list[Path]:
    """The CAIL2018 data files of a folder (first line a ``{fact, meta: {accusation}}`` record), subfolders
    included down to ``CAIL_SUBFOLDER_DEPTH``, in path order."""
    from jiancha.datasets.cail import looks_like_cail

    return [p for p in _cail_candidates(path) if looks_like_cail(_first_object(p))]


# ----------------------------------------------------------------------------------------------------- PDP


def _flat_keys(d: Any, prefix: str = "") -> list[str]:
    if not isinstance(d, dict):
        return []
    out = []
    for k, v in d.items():
        out.append(prefix + k)
        if k == "meta" and isinstance(v, dict):
            out.extend(_flat_keys(v, "meta."))
    return out


def _charges_of(d: Any) -> list[str]:
    if not isinstance(d, dict):
        return []
    for where in (d, d.get("meta") if isinstance(d.get("meta"), dict) else {}):
        for k in CHARGE_KEYS:
            v = where.get(k)
            if isinstance(v, str) and v:
                return [v]
            if isinstance(v, list):
                return [x for x in v if isinstance(x, str)]
    return []


def _label_counts(records: list[Any]) -> dict[str, int]:
    c = Counter(r.decision for r in records)
    out = {lab: c.get(lab, 0) for lab in LEVEL2_LABELS}
    out.update({k: v for k, v in sorted(c.items()) if k not in out})
    return out


def _dates(records: list[Any]) -> tuple[str | None, str | None]:
    ds = sorted(r.date for r in records if isinstance(r.date, str) and r.date)
    return (ds[0], ds[-1]) if ds else (None, None)


def summarize_pdp(source: str) -> PDPSummary:
    """Splits, per-label counts, fields, dates, provinces, charges (when present) and validation problems."""
    from jiancha.datasets.pdp import compute_fingerprint, make_test_rq2, split_readers
    from jiancha.datasets.pdp_validation import rows_to_records, validate_pdp_rows

    readers = split_readers(source)
    src_path = Path(str(source)).expanduser()
    export = read_export_manifest(src_path) if src_path.is_dir() else None
    splits: list[PDPSplitSummary] = []
    stored_records: dict[str, list[Any]] = {}
    for name, read in readers.items():
        rows = read()
        records = rows_to_records(rows)
        stored_records[name] = records
        fields: dict[str, None] = {}
        for r in rows:
            fields.update(dict.fromkeys(_flat_keys(r.data)))
        charges = Counter(c for r in rows for c in _charges_of(r.data))
        articles = Counter(a for r in records for a in r.relevant_articles)
        dmin, dmax = _dates(records)
        issues = validate_pdp_rows(rows)
        if export is not None and export.splits.get(name) != len(rows):
            issues.append(DataIssue(export.path, f"the manifest lists {export.splits.get(name)} records for split "
                                    f"{name!r}, the folder holds {len(rows)}; write the export again"))
        splits.append(PDPSplitSummary(
            name=name, count=len(records), label_counts=_label_counts(records), fields=tuple(fields),
            date_min=dmin, date_max=dmax, provinces=len({r.province for r in records if r.province}),
            charges=tuple(charges.most_common(TOP_N)), n_charges=len(charges),
            articles=tuple(articles.most_common(TOP_N)), issues=tuple(issues),
            fingerprint=compute_fingerprint(records)))
    if "test" in stored_records and "test_rq2" not in stored_records:
        try:
            rq2 = make_test_rq2(stored_records["test"])
            dmin, dmax = _dates(rq2)
            splits.append(PDPSplitSummary(
                name="test_rq2", count=len(rq2), label_counts=_label_counts(rq2), fields=(), date_min=dmin,
                date_max=dmax, provinces=len({r.province for r in rq2 if r.province}),
                fingerprint=compute_fingerprint(rq2), derived=True,
                note="recreated from test with random.Random(42), 25 per class"))
        except DataError as exc:
            splits.append(PDPSplitSummary(name="test_rq2", count=0, label_counts={}, fields=(), date_min=None,
                                          date_max=None, provinces=0, derived=True,
                                          note=f"cannot be recreated: {exc}"))
    return PDPSummary(source=str(source), splits=tuple(splits), export=export)


# ---------------------------------------------------------------------------------------------------- CAIL


def _find_label_dir(path: Path) -> Path | None:
    base = path if path.is_dir() else path.parent
    for d in (base, base / "meta", base.parent / "meta"):
        if (d / "accu.txt").is_file() and (d / "law.txt").is_file():
            return d
    return None


def summarize_cail(source: str | os.PathLike) -> CAILSummary:
    """Counts per charge and per article for each CAIL JSON-lines file (checked against accu.txt / law.txt)."""
    from jiancha.datasets.cail import (
        check_cail,
        count_accusations,
        count_articles,
        load_cail_labels,
    )

    path = Path(source)
    files = [path] if path.is_file() else cail_files(path)
    if not files:
        raise DataError("CAIL2018 label lists (accu.txt) but no CAIL2018 data file here; expected JSON-lines files "
                        "of {fact, meta} records in this folder or its subfolders", path=str(path))
    label_dir = _find_label_dir(path)
    labels = load_cail_labels(label_dir) if label_dir else None
    out = []
    for f in files:
        records, issues = check_cail(f)
        charges, articles = count_accusations(records), count_articles(records)
        unknown_c: tuple[str, ...] = ()
        unknown_a: tuple[int, ...] = ()
        if labels is not None:
            known_c, known_a = set(labels.accusations), set(labels.articles)
            unknown_c = tuple(sorted(c for c in charges if c not in known_c))
            unknown_a = tuple(sorted(a for a in articles if a not in known_a))
        out.append(CAILFileSummary(
            path=str(f), count=len(records), charges=tuple(charges.most_common(TOP_N)),
            articles=tuple(articles.most_common(TOP_N)), n_charges=len(charges), n_articles=len(articles),
            multi_charge=sum(len(r.accusations) > 1 for r in records), unknown_charges=unknown_c,
            unknown_articles=unknown_a, issues=tuple(issues)))
    return CAILSummary(source=str(path), files=tuple(out), label_dir=str(label_dir) if label_dir else None,
                       n_label_charges=len(labels.accusations) if labels else 0,
                       n_label_articles=len(labels.articles) if labels else 0)


# -------------------------------------------------------------------------------------------------- LeCaRD


def summarize_lecard(kind: str, source: str | os.PathLike, *, split: str | None = None) -> LecardSummary:
    """Delegates to ``jiancha.datasets.lecard`` (``load_lecard_v1`` / ``load_lecard_v2``) and counts."""
    from jiancha.datasets.lecard import load_lecard_v1, load_lecard_v2

    if kind == "lecard-v1":
        ds = load_lecard_v1(source)
    else:
        ds = load_lecard_v2(source, setting="test") if split == "test" else load_lecard_v2(source)
    grades = Counter(g for per_q in ds.qrels.values() for g in per_q.values())
    sizes = [len(p) for p in ds.pools.values()]
    note = ""
    if kind == "lecard-v2" and not ds.documents:
        note = "no candidate documents (candidate/ is empty); see `jiancha data download lecard-v2/candidates`"
    qids = {q.id for q in ds.queries}
    return LecardSummary(name=ds.name, source=str(source), queries=len(ds.queries), labelled_queries=len(ds.qrels),
                         judged_pairs=sum(grades.values()), grade_counts=dict(sorted(grades.items())),
                         pools=len(ds.pools), pool_sizes=(min(sizes), max(sizes)) if sizes else (0, 0),
                         documents=len(ds.documents), fingerprint=ds.fingerprint, note=note,
                         query_files=_v2_query_file_counts(Path(source), qids) if kind == "lecard-v2" else (),
                         labelled_without_text=len(set(ds.qrels) - qids))


def _v2_query_file_counts(root: Path, qids: set[str]) -> tuple[tuple[str, int], ...]:
    """Per LeCaRDv2 query file (the files ``load_lecard_v2`` reads), how many of the loaded queries it holds; a
    query in several files counts in each."""
    from jiancha._util.jsonl import iter_jsonl
    from jiancha.datasets.lecard import v2_query_files

    out = []
    for f in v2_query_files(root / "query"):
        ids = {str(obj.get("id")) for _, obj in iter_jsonl(f)}
        out.append((f.name, len(ids & qids)))
    return tuple(out)


# --------------------------------------------------------------------------------------------------- entry


def describe_dataset(path_or_id: str, *, cache_dir: str | os.PathLike | None = None) -> Summary:
    """Summarise a path (file or folder) or a registry id / the alias ``sample``."""
    from jiancha.datasets.pdp import SAMPLE_ALIAS, looks_like_hub_id
    from jiancha.datasets.registry import REGISTRY, dataset_dir

    if path_or_id == SAMPLE_ALIAS or path_or_id == "pdp/sample":
        return Summary(summarize_pdp(SAMPLE_ALIAS), registry_id="pdp/sample")
    path = Path(path_or_id).expanduser()
    registry_id = split = None
    if not path.exists() and path_or_id in REGISTRY:
        spec = REGISTRY[path_or_id]
        registry_id, split = spec.id, spec.split
        path = dataset_dir(spec, cache_dir)
        if not path.exists():
            if spec.kind == "pdp" and spec.hub_id:
                return Summary(summarize_pdp(spec.hub_id), registry_id=spec.id)
            raise DataError(f"dataset {spec.id!r} is not in the cache; fetch it with `jiancha data download "
                            f"{spec.id}` or pass the folder that holds it", path=str(path))
    elif not path.exists():
        if looks_like_hub_id(path_or_id):
            return Summary(summarize_pdp(path_or_id))
        from jiancha.datasets.registry import get_dataset

        if "/" not in path_or_id and "." not in path_or_id:
            get_dataset(path_or_id)  # raises with did-you-mean
        raise DataError("no such file or folder, and not a dataset id (see `jiancha data list`)", path=path_or_id)
    kind = detect_kind(path)
    if kind == "cail2018":
        return Summary(summarize_cail(path), registry_id=registry_id)
    if kind in ("lecard-v1", "lecard-v2"):
        return Summary(summarize_lecard(kind, path, split=split), registry_id=registry_id)
    return Summary(summarize_pdp(str(path)), registry_id=registry_id)
