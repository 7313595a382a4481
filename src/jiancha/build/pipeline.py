"""The build stages as functions over records, plus reading and writing records files.

``extract_folder`` (ingest + rule extraction), ``check_stage`` (refinement checks, optional address rewriting),
``deid_stage`` (de-identification + residue scan) and ``run_pipeline`` (all of them, then export). Each takes an
optional ``advance`` callback that the CLI wires to a progress bar; none prints.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from jiancha._util.hashing import file_sha256, stable_hash
from jiancha._util.io import write_json
from jiancha._util.jsonl import iter_jsonl, write_jsonl
from jiancha._util.provenance import environment_info
from jiancha.build.checks import Finding, check_record, rewrite_addresses
from jiancha.build.deid import Residue, deidentify_record, scan_residue
from jiancha.build.extract import Extracted, extract_document
from jiancha.build.ingest import RawDocument, Rejection, iter_documents, list_documents
from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError, ResumeMismatchError
from jiancha.law.labels import LEVEL2_LABELS

Advance = Callable[[], None] | None


def read_records(path: str | os.PathLike) -> list[PDPRecord]:
    """Records from a JSONL file in the PDP-Bench layout; DataError names the file, line and field."""
    out: list[PDPRecord] = []
    for lineno, row in iter_jsonl(path):
        for key in ("id", "person_info", "procedure", "fact", "decision"):
            if not isinstance(row.get(key), str):
                raise DataError(f"missing or non-string value {row.get(key)!r}; every record needs text fields "
                                "id, person_info, procedure, fact, decision", path=str(path), line=lineno, field=key)
        out.append(PDPRecord.from_dict(row))
    return out


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

    @property
    def records(self) -> list[PDPRecord]:
        return [e.record for e in self.extracted]

    def summary(self) -> dict[str, Any]:
        labels = Counter(e.record.decision for e in self.extracted)
        return {
            "documents": self.documents,
            "records": len(self.extracted),
            "rejected": len(self.rejects),
            "labels": {lab: labels.get(lab, 0) for lab in LEVEL2_LABELS},
            "label_source": dict(Counter(e.label_source for e in self.extracted)),
            "cpl_numbering": dict(Counter(e.numbering for e in self.extracted)),
            "rejections": [r.to_dict() for r in self.rejects],
        }


def extract_folder(input_dir: str | os.PathLike, *, advance: Advance = None) -> ExtractReport:
    """Ingest every document under ``input_dir`` and extract records with the rule track."""
    paths = list_documents(input_dir)
    report = ExtractReport(documents=len(paths))
    for doc in iter_documents(paths):
        if isinstance(doc, Rejection):
            report.rejects.append(doc)
        else:
            report.raw_documents.append(doc)
            result = extract_document(doc)
            if isinstance(result, Rejection):
                report.rejects.append(result)
            else:
                report.extracted.extend(result)
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


def deid_stage(records: list[PDPRecord], *,
               advance: Advance = None) -> tuple[list[PDPRecord], list[Residue], dict[str, int]]:
    """De-identified records, the residue scan of the result, and counts (records changed, names masked)."""
    out: list[PDPRecord] = []
    residue: list[Residue] = []
    stats = Counter({"records_changed": 0, "names_masked": 0})
    for rec in records:
        res = deidentify_record(rec)
        out.append(res.record)
        residue += scan_residue(res.record)
        stats["records_changed"] += res.record != rec
        stats["names_masked"] += len(res.names)
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


def run_pipeline(input_dir: str | os.PathLike, out_dir: str | os.PathLike, config: RunConfig, *,
                 advance: Callable[[str, int], None] | None = None,
                 llm_records: dict[str, PDPRecord] | None = None,
                 reviews: list[Any] | None = None, overwrite: bool = False) -> dict[str, Any]:
    """All stages; ``advance(stage, total)`` is called once per item of each stage. Writes records.jsonl, rejects.jsonl, findings.jsonl, clean.jsonl, residue.jsonl, the export
    folder ``dataset/`` and summary.json (config, versions, input fingerprint) under ``out_dir``."""
    from jiancha.build.compare import apply_reviews, compare_all, review_counts
    from jiancha.build.export import write_export

    out = Path(out_dir)
    paths = list_documents(input_dir)
    fingerprint = input_fingerprint(paths)
    _refuse_to_mix(out, asdict(config), fingerprint, overwrite=overwrite)
    out.mkdir(parents=True, exist_ok=True)

    def tick(stage: str, total: int) -> Advance:
        return (lambda: advance(stage, total)) if advance else None

    report = extract_folder(input_dir, advance=tick("extract", len(paths)))
    records = report.records
    write_records(out / "records.jsonl", records)
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
        clean, residue, stats = deid_stage(checked, advance=tick("deid", len(checked)))
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
RUN_FILES = ("records.jsonl", "review.jsonl", "findings.jsonl", "residue.jsonl", "clean.jsonl", "summary.json")


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
