"""Stage 5, export: JSONL, Parquet and a Hugging Face ``DatasetDict`` (``save_to_disk``) with a dataset card.

The card (README.md) lists counts per label, charge, year and province. A ``test_rq2``-style balanced subset
(``jiancha.datasets.pdp.make_test_rq2``: per class ``rng.sample``, then ``rng.shuffle``, seed 42) is added as a
split on request: ``test_rq2`` for 25 per class, ``balanced_<n>`` otherwise.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from pathlib import Path
from typing import Any

from jiancha._util.hashing import records_fingerprint
from jiancha._util.io import atomic_write_text, read_json, write_json
from jiancha._util.jsonl import write_jsonl
from jiancha._util.lazy import require
from jiancha.corpus.extract import FLAG_DETAIL_KEY, FLAGS_KEY
from jiancha.datasets.exports import EXPORT_FORMAT, EXPORT_MANIFEST_NAME
from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError, ResumeMismatchError
from jiancha.law.charges import find_charges
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.law.phrases import CHARGE_SUSPECTED_RE

JSONL_NAME = "test.jsonl"   # split-named, so the export folder loads as a PDP source
PARQUET_NAME = "test.parquet"
HF_DIR = "hf"
CARD_NAME = "README.md"
MANIFEST_NAME = EXPORT_MANIFEST_NAME   # the layout loaders read back: jiancha.datasets.exports
MANIFEST_FORMAT = EXPORT_FORMAT


def charges_of(rec: PDPRecord) -> list[str]:
    """Charges of a record: official names found in the procedure (``jiancha.law.charges``), else the
    ``涉嫌…罪`` phrase it was transferred under."""
    found = find_charges(rec.procedure)
    if found:
        return found
    return list(dict.fromkeys(m["charge"] for m in CHARGE_SUSPECTED_RE.finditer(rec.procedure)))


def compute_counts(records: list[PDPRecord]) -> dict[str, dict[str, int]]:
    """Counts per label (table order), charge, year and province (each by count, ties by name)."""
    labels = Counter(r.decision for r in records)
    charges = Counter(c for r in records for c in charges_of(r))
    years = Counter((r.date or "unknown")[:4] for r in records)
    provinces = Counter(r.province or "unknown" for r in records)

    def ordered(c: Counter[str]) -> dict[str, int]:
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    return {
        "label": {lab: labels.get(lab, 0) for lab in LEVEL2_LABELS},
        "charge": ordered(charges),
        "year": dict(sorted(years.items())),
        "province": ordered(provinces),
    }


def render_card(splits: dict[str, list[PDPRecord]]) -> str:
    """The dataset card: fields, splits and count tables of the main split."""
    main = splits["test"]
    counts = compute_counts(main)
    lines = ["---", "language: zh", "task_categories: [text-classification]", "pretty_name: PDP-style dataset",
             "---", "", "# PDP-style dataset built with `jiancha build`", "",
             ("Records in the PDP-Bench layout (`id`, `meta.date`, `meta.province`, `person_info`, `procedure`, "
              "`fact`, `relevant_articles`, `decision`, `raw_reasoning_and_decision`, `source_url`), extracted "
              "from public prosecutorial documents, checked for label leakage and de-identified."), "",
             "## Splits", "", "| split | records |", "|---|---|"]
    lines += [f"| {name} | {len(recs)} |" for name, recs in splits.items()]
    titles = {"label": "Label", "charge": "Charge", "year": "Year", "province": "Province"}
    for key, title in titles.items():
        lines += ["", f"## Records per {title.lower()} (split `test`)", "", f"| {title.lower()} | count |",
                  "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in counts[key].items()]
    return "\n".join(lines) + "\n"


def check_balanced(records: list[PDPRecord], per_class: int) -> None:
    """DataError unless every label has ``per_class`` records for the balanced subset (``--balanced N``), saying
    how many are needed, how many each label has, and the largest N that works."""
    if per_class < 1:
        raise DataError(f"--balanced {per_class}: the balanced subset needs at least 1 record per class; pass a "
                        "positive N or leave --balanced out")
    have = {lab: sum(r.decision == lab for r in records) for lab in LEVEL2_LABELS}
    short = [lab for lab, n in have.items() if n < per_class]
    if not short:
        return
    counts = ", ".join(f"{lab} {n}" for lab, n in have.items())
    most = min(have.values())
    fix = (f"pass --balanced {most} or smaller" if most > 0 else
           f"leave --balanced out (no records labelled {', '.join(lab for lab, n in have.items() if n == 0)})")
    raise DataError(f"cannot build the balanced subset: --balanced {per_class} needs {per_class} records per class "
                    f"({per_class * len(have)} in all), but {', '.join(short)} "
                    f"{'has' if len(short) == 1 else 'have'} fewer (available: {counts}); {fix}")


def export_settings(records: list[PDPRecord], *, balanced_per_class: int | None, seed: int) -> dict[str, Any]:
    """What defines an export: the records (fingerprint) and the balanced subset's size and seed."""
    return {"records_fingerprint": records_fingerprint(r.to_dict() for r in records),
            "n_records": len(records), "balanced_per_class": balanced_per_class, "seed": seed}


def check_export_settings(out: Path, settings: dict[str, Any]) -> None:
    """Refuse to write an export over one made from other records or with other settings."""
    previous = out / MANIFEST_NAME
    if not previous.is_file():
        return
    stored = (read_json(previous) or {}).get("settings", {})
    diffs = [f"{k}: {stored.get(k, '<absent>')!r} (stored) → {v!r} (now)" for k, v in settings.items()
             if stored.get(k, "<absent>") != v]
    if diffs:
        raise ResumeMismatchError(f"{out} holds an export made from other records or with other settings "
                                  f"({'; '.join(diffs)}); choose another --out, or delete the folder first")


def write_export(records: list[PDPRecord], out_dir: str | os.PathLike, *, balanced_per_class: int | None = None,
                 seed: int = 42, replace: bool = False) -> dict[str, Any]:
    """Write JSONL, Parquet, a DatasetDict, the card and ``manifest.json`` (settings, records fingerprint, seed,
    versions) under ``out_dir``; return what was written. An export made from other records or with other
    settings is not written over (``ResumeMismatchError``) unless ``replace``."""
    from jiancha._util.provenance import environment_info

    n_in = len(records)
    records = [_without_flags(r) for r in records if r.decision]
    if not records:
        raise DataError(f"no records to export; of {n_in} records none has a decision (see the rejections and "
                        "the flagged records: `jiancha build check`)", path=str(out_dir))
    out = Path(out_dir)
    settings = export_settings(records, balanced_per_class=balanced_per_class, seed=seed)
    if not replace:
        check_export_settings(out, settings)
    out.mkdir(parents=True, exist_ok=True)
    splits: dict[str, list[PDPRecord]] = {"test": records}
    if balanced_per_class:
        from jiancha.datasets.pdp import make_test_rq2

        check_balanced(records, balanced_per_class)
        name = "test_rq2" if balanced_per_class == 25 else f"balanced_{balanced_per_class}"
        splits[name] = make_test_rq2(records, per_class=balanced_per_class, seed=seed)
    rows = {name: [r.to_dict() for r in recs] for name, recs in splits.items()}
    write_jsonl(out / JSONL_NAME, rows["test"])
    for name in splits:
        if name != "test":
            write_jsonl(out / f"{name}.jsonl", rows[name])
    pa = require("pyarrow", "core")
    pq = require("pyarrow.parquet", "core")
    pq.write_table(pa.Table.from_pylist(rows["test"]), out / PARQUET_NAME)
    datasets = require("datasets", "core")
    dd = datasets.DatasetDict({name: datasets.Dataset.from_list(r) for name, r in rows.items()})
    was_enabled = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        dd.save_to_disk(str(out / HF_DIR))
    finally:
        if was_enabled:
            datasets.enable_progress_bars()
    atomic_write_text(out / CARD_NAME, render_card(splits))
    write_json(out / MANIFEST_NAME, {"format": MANIFEST_FORMAT, "settings": settings,
                                     "splits": {n: len(r) for n, r in splits.items()},
                                     "environment": environment_info()})
    return {"dir": str(out), "splits": {n: len(r) for n, r in splits.items()},
            "counts": compute_counts(records), "left_out_undecided": n_in - len(records)}


def _without_flags(rec: PDPRecord) -> PDPRecord:
    """The record in the PDP-Bench layout: the extraction's reason codes stay in the records file, not in the
    dataset (records whose decision could not be read are not exported at all)."""
    if FLAGS_KEY not in rec.extra and FLAG_DETAIL_KEY not in rec.extra:
        return rec
    return dataclasses.replace(rec, extra={k: v for k, v in rec.extra.items()
                                           if k not in (FLAGS_KEY, FLAG_DETAIL_KEY)})
