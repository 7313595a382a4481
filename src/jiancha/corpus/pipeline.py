"""The build stages as functions over records, plus reading and writing records files.

``extract_folder`` (ingest + rule extraction), ``check_stage`` (refinement checks, optional address rewriting),
``deid_stage`` (de-identification + residue scan) and ``run_pipeline`` (all of them, then export). Each takes an
optional ``advance`` callback that the CLI wires to a progress bar; none prints. Extraction and
de-identification run on ``workers`` processes (``jiancha.corpus.workers``); ``iter_outcomes`` and
``iter_deid`` stream, so a stage over a large folder holds one window of documents at a time.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Self

from jiancha._util.hashing import file_sha256, stable_hash
from jiancha._util.io import write_json
from jiancha._util.jsonl import iter_jsonl, write_jsonl
from jiancha._util.provenance import environment_info
from jiancha.corpus.checks import Finding, check_record, rewrite_addresses
from jiancha.corpus.deid import DeidResult, Residue, deidentify_record, scan_residue
from jiancha.corpus.extract import Extracted
from jiancha.corpus.ingest import RawDocument, Rejection, list_documents
from jiancha.corpus.ner import DEFAULT_NER
from jiancha.corpus.outcomes import (
    DocumentOutcome,
    DuplicateFilter,
    YieldTable,
    process_path,
    process_path_keep,
)
from jiancha.corpus.workers import map_ordered
from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError, ResumeMismatchError
from jiancha.law.labels import LEVEL2_LABELS

Advance = Callable[[], None] | None


def read_records(path: str | os.PathLike) -> list[PDPRecord]:
    """Records from a JSONL file in the PDP-Bench layout; DataError names the file, line and field."""
    return list(iter_records(path))


def write_records(path: str | os.PathLike, records: list[PDPRecord], *,
                  provenance: dict[str, Any] | None = None) -> int:
    """Write records as JSONL; with ``provenance`` (stage, settings, input), also ``<path>.manifest.json`` with
    the records' fingerprint and the environment, so a bare JSONL output still says how it was made."""
    rows = [r.to_dict() for r in records]
    n = write_jsonl(path, rows)
    if provenance is not None:
        from jiancha._util.hashing import records_fingerprint
        from jiancha._util.io import write_json

        write_json(f"{path}.manifest.json", {**provenance, "n_records": n,
                                             "records_fingerprint": records_fingerprint(rows),
                                             "environment": environment_info()})
    return n


class RecordsWriter:
    """Write records as JSONL one at a time (a large stage never holds them all), to a temporary file renamed
    into place on success; with ``provenance``, also ``<path>.manifest.json`` as ``write_records`` does. The
    fingerprint is the same as ``records_fingerprint`` of the rows."""

    def __init__(self, path: str | os.PathLike, *, provenance: dict[str, Any] | None = None) -> None:
        import hashlib

        self.path = Path(path)
        self.provenance = provenance
        self.n = 0
        self._hash = hashlib.sha256()
        self._tmp = self.path.with_name(self.path.name + ".partial")
        self._fh = open(self._tmp, "w", encoding="utf-8")  # noqa: SIM115 (closed in __exit__)

    def write(self, rec: PDPRecord) -> None:
        from jiancha._util.hashing import canonical_json
        from jiancha._util.jsonl import dumps_line

        row = rec.to_dict()
        self._fh.write(dumps_line(row))
        self._hash.update(canonical_json(row).encode("utf-8") + b"\n")
        self.n += 1

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        self._fh.close()
        if exc_type is not None:
            self._tmp.unlink(missing_ok=True)
            return
        os.replace(self._tmp, self.path)
        if self.provenance is not None:
            write_json(f"{self.path}.manifest.json", {**self.provenance, "n_records": self.n,
                                                      "records_fingerprint": self._hash.hexdigest()[:16],
                                                      "environment": environment_info()})


def iter_records(path: str | os.PathLike) -> Iterator[PDPRecord]:
    """``read_records`` one record at a time."""
    for lineno, row in iter_jsonl(path):
        yield _record_of(row, path, lineno)


def _record_of(row: dict[str, Any], path: str | os.PathLike, lineno: int) -> PDPRecord:
    for key in ("id", "person_info", "procedure", "fact", "decision"):
        if not isinstance(row.get(key), str):
            raise DataError(f"missing or non-string value {row.get(key)!r}; every record needs text fields "
                            "id, person_info, procedure, fact, decision", path=str(path), line=lineno, field=key)
    return PDPRecord.from_dict(row)


def stage_provenance(stage: str, source: str | os.PathLike, settings: dict[str, Any]) -> dict[str, Any]:
    """What a single ``jiancha build`` stage records next to its output: the stage, its settings, and the input
    (path and fingerprint: the documents of a folder, or the bytes of a records file)."""
    src = Path(source)
    fp = input_fingerprint(list_documents(src)) if src.is_dir() else file_sha256(src)
    return {"stage": stage, "settings": settings, "input": {"path": str(src), "fingerprint": fp}}


@dataclass
class ExtractReport:
    documents: int = 0
    extracted: list[Extracted] = field(default_factory=list)
    rejects: list[Rejection] = field(default_factory=list)
    raw_documents: list[RawDocument] = field(default_factory=list)
    yields: YieldTable = field(default_factory=YieldTable)
    n_records: int = 0
    n_flagged: int = 0
    flag_counts: Counter[str] = field(default_factory=Counter)

    @property
    def records(self) -> list[PDPRecord]:
        return [e.record for e in self.extracted]

    @property
    def flagged(self) -> list[Extracted]:
        return [e for e in self.extracted if e.flagged]

    def add(self, outcome: DocumentOutcome, *, keep_records: bool = True) -> None:
        self.documents += 1
        self.yields.add(outcome)
        if outcome.rejection is not None:
            self.rejects.append(outcome.rejection)
        self.n_records += len(outcome.extracted)
        self.n_flagged += sum(e.flagged for e in outcome.extracted)
        self.flag_counts.update(f for e in outcome.extracted for f in e.flags)
        if keep_records:
            self.extracted.extend(outcome.extracted)
        if outcome.document is not None:
            self.raw_documents.append(outcome.document)

    def summary(self) -> dict[str, Any]:
        labels = Counter(e.record.decision for e in self.extracted)
        return {
            "documents": self.documents,
            "records": self.n_records,
            "flagged_records": self.n_flagged,
            "rejected": len(self.rejects),
            "labels": {lab: labels.get(lab, 0) for lab in LEVEL2_LABELS},
            "label_source": dict(Counter(e.label_source or "none" for e in self.extracted)),
            "cpl_numbering": dict(Counter(e.numbering for e in self.extracted)),
            "flags": dict(sorted(self.flag_counts.items())),
            "yield": self.yields.to_dict(),
            "rejections": [r.to_dict() for r in self.rejects],
        }


def iter_outcomes(paths: list[Path], *, workers: int = 1, keep_documents: bool = False) -> Iterator[DocumentOutcome]:
    """What became of each document, in path order; duplicates by case number rejected after the first."""
    dedupe = DuplicateFilter()
    func = process_path_keep if keep_documents else process_path
    for outcome in map_ordered(func, paths, workers):
        yield dedupe(outcome)


def extract_folder(input_dir: str | os.PathLike, *, advance: Advance = None, workers: int = 1,
                   keep_documents: bool = True) -> ExtractReport:
    """Ingest every document under ``input_dir`` (or the one file) and extract records with the rule track."""
    paths = list_documents(input_dir)
    report = ExtractReport()
    for outcome in iter_outcomes(paths, workers=workers, keep_documents=keep_documents):
        report.add(outcome)
        if advance:
            advance()
    return report


def count_documents(input_dir: str | os.PathLike) -> int:
    return len(list_documents(input_dir))


def check_stage(records: list[PDPRecord], *, rewrite: bool = False,
                advance: Advance = None) -> tuple[list[PDPRecord], list[Finding]]:
    """Findings on the records as given; with ``rewrite`` the records come back with addresses rewritten."""
    out: list[PDPRecord] = []
    findings: list[Finding] = []
    for rec in records:
        findings += check_record(rec)
        out.append(rewrite_addresses(rec) if rewrite else rec)
        if advance:
            advance()
    return out, findings


def _deid_one(args: tuple[PDPRecord, str]) -> tuple[DeidResult, list[Residue]]:
    res = deidentify_record(args[0], args[1])
    return res, scan_residue(res.record)


def iter_deid(records: Iterable[PDPRecord], *, workers: int = 1,
              ner: str = DEFAULT_NER) -> Iterator[tuple[PDPRecord, DeidResult, list[Residue]]]:
    """(record, its de-identification, the residue scan of the result), in input order, on ``workers``."""
    it1, it2 = itertools.tee(records)
    for rec, (res, residue) in zip(it1, map_ordered(_deid_one, ((r, ner) for r in it2), workers), strict=True):
        yield rec, res, residue


def deid_stage(records: list[PDPRecord], *, advance: Advance = None, workers: int = 1,
               ner: str = DEFAULT_NER) -> tuple[list[PDPRecord], list[Residue], dict[str, int]]:
    """De-identified records, the residue scan of the result, and counts (records changed, names masked)."""
    out: list[PDPRecord] = []
    residue: list[Residue] = []
    stats = Counter({"records_changed": 0, "names_masked": 0, "spans_masked": 0})
    for rec, res, left in iter_deid(records, workers=workers, ner=ner):
        out.append(res.record)
        residue += left
        stats["records_changed"] += res.record != rec
        stats["names_masked"] += len(res.names)
        stats["spans_masked"] += len(res.masked)
        if advance:
            advance()
    return out, residue, dict(stats)


def findings_summary(findings: list[Finding]) -> dict[str, int]:
    return dict(sorted(Counter(f.check for f in findings).items()))


def input_fingerprint(paths: list[Path]) -> str:
    return stable_hash([(p.name, file_sha256(p)) for p in paths])


@dataclass(frozen=True)
class RunConfig:
    """What defines a ``build run``: every field changes the output."""

    rewrite_addresses: bool = True
    deidentify: bool = True
    drop_flagged: bool = False
    balanced_per_class: int | None = None
    seed: int = 42
    llm_model: str | None = None
    ner: str = DEFAULT_NER


def run_pipeline(input_dir: str | os.PathLike, out_dir: str | os.PathLike, config: RunConfig, *,
                 advance: Callable[[str, int], None] | None = None,
                 llm_records: dict[str, PDPRecord] | None = None,
                 reviews: list[Any] | None = None, overwrite: bool = False, workers: int = 1) -> dict[str, Any]:
    """All stages; ``advance(stage, total)`` is called once per item of each stage. Writes records.jsonl
    (flagged records included), rejects.jsonl, findings.jsonl, clean.jsonl, residue.jsonl, the export folder
    ``dataset/`` (records whose decision could not be read are left out of it, and counted) and summary.json
    (config, yield per class, versions, input fingerprint) under ``out_dir``. ``workers`` changes the speed,
    never the output."""
    from jiancha.corpus.compare import apply_reviews, compare_all, review_counts
    from jiancha.corpus.export import write_export

    out = Path(out_dir)
    paths = list_documents(input_dir)
    fingerprint = input_fingerprint(paths)
    _refuse_to_mix(out, asdict(config), fingerprint, overwrite=overwrite)
    out.mkdir(parents=True, exist_ok=True)

    def tick(stage: str, total: int) -> Advance:
        return (lambda: advance(stage, total)) if advance else None

    report = extract_folder(input_dir, advance=tick("extract", len(paths)), workers=workers, keep_documents=False)
    records = report.records
    write_records(out / "records.jsonl", records)
    write_jsonl(out / "rejects.jsonl", [r.to_dict() for r in report.rejects])
    summary: dict[str, Any] = {"extract": report.summary()}
    if llm_records is not None:
        comparisons = compare_all(records, llm_records)
        write_jsonl(out / "review.jsonl", [c.to_dict() for c in comparisons if not c.agreed])
        records = apply_reviews(records, llm_records, comparisons, reviews or [])
        summary["compare"] = {"agreed": sum(c.agreed for c in comparisons),
                              "disagreed": sum(not c.agreed for c in comparisons),
                              **review_counts(reviews or [], comparisons), "accepted": len(records)}
    checked, findings = check_stage(records, rewrite=config.rewrite_addresses, advance=tick("check", len(records)))
    write_jsonl(out / "findings.jsonl", [f.to_dict() for f in findings])
    summary["check"] = {"findings": findings_summary(findings)}
    if config.drop_flagged:
        blocking = {f.record_id for f in findings if f.check != "address_leak"}
        checked = [r for r in checked if r.id not in blocking]
        summary["check"]["dropped"] = len(blocking)
    if config.deidentify:
        clean, residue, stats = deid_stage(checked, advance=tick("deid", len(checked)), workers=workers,
                                           ner=config.ner)
        write_jsonl(out / "residue.jsonl", [r.to_dict() for r in residue])
        summary["deid"] = {**stats, "residue": len(residue)}
    else:
        clean = checked
    write_records(out / "clean.jsonl", clean)
    export = write_export(clean, out / "dataset", balanced_per_class=config.balanced_per_class, seed=config.seed,
                          replace=True)  # settings already checked by _refuse_to_mix
    summary["export"] = export
    summary["provenance"] = {"config": asdict(config), "input_dir": str(input_dir),
                             "input_fingerprint": fingerprint, "environment": environment_info()}
    write_json(out / "summary.json", summary)
    return summary


#: Files a run writes (removed first by ``overwrite``).
RUN_FILES = ("records.jsonl", "rejects.jsonl", "review.jsonl", "findings.jsonl", "residue.jsonl", "clean.jsonl", "summary.json")


def _refuse_to_mix(out: Path, config: dict[str, Any], fingerprint: str, *, overwrite: bool) -> None:
    """A folder holding a run made with other settings or other input is not written over silently."""
    import shutil

    from jiancha._util.io import read_json

    previous = out / "summary.json"
    if overwrite:
        for name in RUN_FILES:
            (out / name).unlink(missing_ok=True)
        shutil.rmtree(out / "dataset", ignore_errors=True)
        return
    if not previous.exists():
        return
    prov = (read_json(previous) or {}).get("provenance", {})
    diffs = [f"{k}: {prov.get('config', {}).get(k)!r} → {v!r}" for k, v in config.items()
             if prov.get("config", {}).get(k) != v]
    if prov.get("input_fingerprint") != fingerprint:
        diffs.append("input documents changed")
    if diffs:
        raise ResumeMismatchError(f"{out} holds a build run made with other settings ({'; '.join(diffs)}); "
                                  "pass --overwrite to replace it, or choose another --out")
