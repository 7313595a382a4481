"""`jiancha build ...` commands: extract, check, deid, export, run. Thin: parse arguments, show progress, print
counts; the work is in ``jiancha.corpus``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Annotated, Any

import typer

app = typer.Typer(no_args_is_help=True)


def _console():
    from rich.console import Console

    return Console(stderr=True, highlight=False)


@contextlib.contextmanager
def _progress(description: str, total: int) -> Iterator[Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=_console(), transient=False) as progress:
        task = progress.add_task(description, total=total)
        yield lambda: progress.advance(task)


def _print_counts(title: str, counts: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("what")
    table.add_column("count", justify="right")
    for k, v in counts.items():
        table.add_row(str(k), str(v))
    _console().print(table)


def _print_yield(yields: dict[str, Any]) -> None:
    """Documents per class: seen, extracted, flagged, rejected (``jiancha.corpus.outcomes``)."""
    from rich.table import Table

    table = Table(title="yield by class (documents)", title_justify="left", header_style="bold")
    columns = ("seen", "extracted", "flagged", "rejected")
    table.add_column("class")
    for c in columns:
        table.add_column(c, justify="right")
    for label, row in yields["by_class"].items():
        if row["seen"]:
            table.add_row(label, *(str(row[c]) for c in columns))
    table.add_row("total", *(str(yields["total"][c]) for c in columns), style="bold")
    _console().print(table)


def _workers_option() -> Any:
    return typer.Option(1, "--workers", min=1, help="Processes for extraction and de-identification "
                        "(output is the same for any number).")


def _ner_option() -> Any:
    from jiancha.corpus.ner import DEFAULT_NER, NER_BACKENDS

    return typer.Option(DEFAULT_NER, "--ner", help=f"Named-entity recogniser for names: {', '.join(NER_BACKENDS)} "
                        "('none': context rules only).")


def _check_ner(ner: str) -> str:
    """``--ner`` when it can run here (an unknown name, or ``lac`` without its extra, stops before any work)."""
    from jiancha.corpus.ner import NER_BACKENDS, check_backend
    from jiancha.errors import ConfigError

    if ner not in NER_BACKENDS:
        raise ConfigError(f"--ner {ner!r}: unknown recogniser; expected one of {', '.join(NER_BACKENDS)}")
    return check_backend(ner)


def _print_rejections(rejections: list[dict[str, Any]]) -> None:
    console = _console()
    for r in rejections:
        console.print(f"[yellow]rejected[/] {r['path']} ({r['stage']}): {r['reason']}")


def _require_documents(input_dir: str) -> int:
    """The number of documents in the input folder; an existing folder without any is a mistake, not a dataset."""
    from jiancha.corpus.ingest import SUFFIXES
    from jiancha.corpus.pipeline import count_documents
    from jiancha.errors import ConfigError

    n = count_documents(input_dir)   # DataError for a path that is neither a folder nor a document file
    if n == 0:
        raise ConfigError(f"{input_dir}: no documents in this folder (looked for {', '.join(sorted(SUFFIXES))} "
                          "files, also in subfolders); pass the folder that holds the 起诉书 / 不起诉决定书")
    return n


def _load_reviews(path: str | None, llm_model: str | None) -> list[Any]:
    """Review decisions (``build.compare.Review``), checked line by line: errors name the file, line and field."""
    from jiancha.corpus.compare import read_reviews
    from jiancha.errors import ConfigError

    if path and not llm_model:
        raise ConfigError("--reviews resolves disagreements between the rule and LLM tracks; give --llm-model too "
                          "(without it there is nothing to review)")
    return read_reviews(path) if path else []


def _llm_records(docs: list, model: str, base_urls: list[str] | None, api_key_env: str | None, concurrency: int):
    from jiancha.corpus.llm_track import run_llm_track

    with _progress("LLM track", len(docs)) as advance:
        records, errors = run_llm_track(docs, model, tuple(base_urls or ()), api_key_env, concurrency=concurrency,
                                        advance=advance)
    for path, err in errors.items():
        _console().print(f"[yellow]LLM track failed[/] on {path}: {err}")
    return records


@app.command("extract")
def extract_command(
    input_dir: str = typer.Argument(..., help="Folder of .txt / .html / .pdf / .docx / .doc / .rtf prosecutorial documents, or one "
                                    "such file."),
    out: str = typer.Option(..., "--out", help="Records JSONL (PDP-Bench layout; flagged records carry "
                            "\"flags\")."),
    rejects: str | None = typer.Option(None, "--rejects", help="Write rejected documents and reasons here."),
    llm_model: str | None = typer.Option(None, "--llm-model", help="Also run the LLM track with this model "
                                         "(openrouter:…, vllm:…, openai:…, or a name with --base-url)."),
    base_url: Annotated[list[str] | None, typer.Option(
        "--base-url", help="OpenAI-compatible endpoint(s) for --llm-model; repeat for replicas.")] = None,
    api_key_env: str | None = typer.Option(None, "--api-key-env", help="Environment variable holding the key."),
    concurrency: int = typer.Option(4, "--concurrency", help="Requests in flight for the LLM track."),
    review_out: str | None = typer.Option(None, "--review-out", help="With --llm-model: disagreements with "
                                          "diffs (JSONL); default <out>.review.jsonl."),
    reviews: str | None = typer.Option(None, "--reviews", help="With --llm-model: review decisions (JSONL "
                                       "{id, choice: rule|llm|edit|drop[, record]}) to apply."),
    workers: int = _workers_option(),
) -> None:
    """Ingest documents and extract PDP records (rule track). With --llm-model an independent LLM track runs too;
    only records on which both tracks agree, and disagreements resolved by --reviews, are written."""
    from jiancha._util.jsonl import write_jsonl
    from jiancha.corpus.compare import apply_reviews, compare_all
    from jiancha.corpus.ingest import list_documents
    from jiancha.corpus.pipeline import (
        ExtractReport,
        RecordsWriter,
        iter_outcomes,
        stage_provenance,
        write_records,
    )

    total = _require_documents(input_dir)
    review_list = _load_reviews(reviews, llm_model)  # a bad review file fails before any extraction or LLM call
    provenance = stage_provenance("extract", input_dir, {"llm_model": llm_model, "reviews": reviews})
    report = ExtractReport()
    if not llm_model:   # stream: records are written as they come, whatever the size of the folder
        with _progress("extract", total) as advance, RecordsWriter(out, provenance=provenance) as writer:
            for outcome in iter_outcomes(list_documents(input_dir), workers=workers):
                report.add(outcome, keep_records=False)
                for e in outcome.extracted:
                    writer.write(e.record)
                advance()
        _finish_extract(report, writer.n, out, rejects)
        return
    with _progress("extract", total) as advance:
        for outcome in iter_outcomes(list_documents(input_dir), workers=workers, keep_documents=True):
            report.add(outcome)
            advance()
    records = report.records
    if llm_model:
        llm = _llm_records(report.raw_documents, llm_model, base_url, api_key_env, concurrency)
        comparisons = compare_all(records, llm)
        review_path = review_out or f"{out}.review.jsonl"
        write_jsonl(review_path, [c.to_dict() for c in comparisons if not c.agreed])
        records = apply_reviews(records, llm, comparisons, review_list)
        _print_counts("dual-track comparison", {"agreed": sum(c.agreed for c in comparisons),
                                                "disagreed (see " + review_path + ")":
                                                    sum(not c.agreed for c in comparisons),
                                                "accepted": len(records)})
    n = write_records(out, records, provenance=provenance)
    _finish_extract(report, n, out, rejects)


def _finish_extract(report: Any, n: int, out: str, rejects: str | None) -> None:
    """Rejections file, counts, the yield per class (also recorded in ``<out>.yield.json``) and rejections."""
    from jiancha._util.io import write_json
    from jiancha._util.jsonl import write_jsonl

    if rejects:
        write_jsonl(rejects, [r.to_dict() for r in report.rejects])
    s = report.summary()
    write_json(f"{out}.yield.json", s["yield"])
    _print_counts("extraction", {"documents": s["documents"], "records written": n, "rejected": s["rejected"],
                                 **{f"flag {k}": v for k, v in s["flags"].items()}})
    _print_yield(s["yield"])
    _print_rejections(s["rejections"])
    typer.echo(f"{n} records written to {out} (yield per class in {out}.yield.json)", err=True)


@app.command("check")
def check_command(
    records: str = typer.Argument(..., help="Records JSONL."),
    rewrite_addresses: bool = typer.Option(False, "--rewrite-addresses", help="Replace leaking forms of address "
                                           "(被不起诉人 / 被告人 / …单位) with 犯罪嫌疑人 / 犯罪嫌疑单位."),
    out: str | None = typer.Option(None, "--out", help="With --rewrite-addresses: where to write the records "
                                   "(default: overwrite the input)."),
    findings: str | None = typer.Option(None, "--findings", help="Write every finding (JSONL) here."),
) -> None:
    """Refinement checks: label leakage, reasoning in facts, short facts, evidence not in list form."""
    from jiancha._util.jsonl import write_jsonl
    from jiancha.corpus.pipeline import (
        check_stage,
        findings_summary,
        read_records,
        stage_provenance,
        write_records,
    )

    recs = read_records(records)
    with _progress("check", len(recs)) as advance:
        checked, found = check_stage(recs, rewrite=rewrite_addresses, advance=advance)
    if findings:
        write_jsonl(findings, [f.to_dict() for f in found])
    console = _console()
    for f in found:
        if f.check == "extraction":
            console.print(f"{f.record_id} [bold]flagged[/] {f.span}" + (f": {f.context}" if f.context else ""))
        elif f.check != "address_leak":
            console.print(f"{f.record_id} [bold]{f.check}[/] in {f.field}: …{f.context}…")
    _print_counts("findings", {"records": len(recs), "flagged records": len({f.record_id for f in found}),
                               **findings_summary(found)})
    if rewrite_addresses:
        target = out or records
        prov = stage_provenance("check", records, {"rewrite_addresses": True})   # fingerprint of the input
        write_records(target, checked, provenance=prov)
        typer.echo(f"{len(checked)} records with rewritten forms of address written to {target}", err=True)


@app.command("deid")
def deid_command(
    records: str = typer.Argument(..., help="Records JSONL."),
    out: str = typer.Option(..., "--out", help="De-identified records JSONL."),
    residue: str | None = typer.Option(None, "--residue", help="Write the residue scan (JSONL) here."),
    workers: int = _workers_option(),
    ner: str = _ner_option(),
) -> None:
    """De-identify names (named-entity recogniser + context rules), ID and phone numbers, birth dates, plates,
    accounts, e-mails and house numbers."""
    from collections import Counter

    from jiancha._util.jsonl import write_jsonl
    from jiancha.corpus.pipeline import RecordsWriter, iter_deid, iter_records, stage_provenance

    _check_ner(ner)
    total = sum(1 for _ in iter_records(records))   # validates every line before any work
    left: list[Any] = []
    stats: Counter[str] = Counter({"records_changed": 0, "names_masked": 0, "spans_masked": 0})
    prov = stage_provenance("deid", records, {"ner": ner})
    with _progress("de-identify", total) as advance, RecordsWriter(out, provenance=prov) as writer:
        for rec, res, scan in iter_deid(iter_records(records), workers=workers, ner=ner):
            writer.write(res.record)
            left += scan
            stats["records_changed"] += res.record != rec
            stats["names_masked"] += len(res.names)
            stats["spans_masked"] += len(res.masked)
            advance()
    if residue:
        write_jsonl(residue, [r.to_dict() for r in left])
    for r in left:
        _console().print(f"[yellow]residue[/] {r.record_id} {r.field}: {r.kind} {r.span!r}")
    _print_counts("de-identification", {"records": total, **stats, "residue": len(left)})


@app.command("export")
def export_command(
    records: str = typer.Argument(..., help="Records JSONL."),
    out: str = typer.Option(..., "--out", help="Output folder: test.jsonl, test.parquet, hf/ (save_to_disk), README.md (card), manifest.json; loads back with --data."),
    balanced: int | None = typer.Option(None, "--balanced", help="Add a test_rq2-style split with this many "
                                        "records per class (25 → 'test_rq2')."),
    seed: int = typer.Option(42, "--seed", help="Seed of the balanced subset."),
) -> None:
    """Export to JSONL, Parquet and a Hugging Face DatasetDict with a dataset card."""
    from jiancha.corpus.export import write_export
    from jiancha.corpus.pipeline import read_records

    summary = write_export(read_records(records), out, balanced_per_class=balanced, seed=seed)
    _print_counts("export", {f"split {k}": v for k, v in summary["splits"].items()}
                  | {f"label {k}": v for k, v in summary["counts"]["label"].items()})
    typer.echo(f"dataset written to {out}", err=True)


@app.command("run")
def run_command(
    input_dir: str = typer.Argument(..., help="Folder of .txt / .html / .pdf / .docx / .doc / .rtf prosecutorial documents, or one "
                                    "such file."),
    out: str = typer.Option(..., "--out", help="Output folder for every stage's files and the dataset."),
    rewrite_addresses: bool = typer.Option(True, "--rewrite-addresses/--keep-addresses",
                                           help="Rewrite leaking forms of address (default on)."),
    drop_flagged: bool = typer.Option(False, "--drop-flagged", help="Leave out records with findings other "
                                      "than forms of address."),
    balanced: int | None = typer.Option(None, "--balanced", help="Add a test_rq2-style balanced split."),
    seed: int = typer.Option(42, "--seed", help="Seed of the balanced subset."),
    llm_model: str | None = typer.Option(None, "--llm-model", help="Run the LLM track too (see extract)."),
    base_url: Annotated[list[str] | None, typer.Option("--base-url", help="See extract.")] = None,
    api_key_env: str | None = typer.Option(None, "--api-key-env", help="Environment variable holding the key."),
    concurrency: int = typer.Option(4, "--concurrency", help="Requests in flight for the LLM track."),
    reviews: str | None = typer.Option(None, "--reviews", help="Review decisions to apply (see extract)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace a run made in --out with other settings."),
    workers: int = _workers_option(),
    ner: str = _ner_option(),
) -> None:
    """All stages: ingest, extract, (LLM track + comparison), checks, de-identification, export."""
    from jiancha.corpus.pipeline import RunConfig, extract_folder, run_pipeline

    _require_documents(input_dir)
    config = RunConfig(rewrite_addresses=rewrite_addresses, drop_flagged=drop_flagged,
                       balanced_per_class=balanced, seed=seed, llm_model=llm_model, ner=_check_ner(ner))
    review_list = _load_reviews(reviews, llm_model)
    llm = None
    if llm_model:
        docs = extract_folder(input_dir).raw_documents
        llm = _llm_records(docs, llm_model, base_url, api_key_env, concurrency)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=_console()) as p:
        tasks: dict[str, Any] = {}

        def advance(stage: str, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = p.add_task(stage, total=total)
            p.advance(tasks[stage])

        summary = run_pipeline(input_dir, out, config, advance=advance, llm_records=llm,
                               reviews=review_list, overwrite=overwrite, workers=workers)
    ex = summary["extract"]
    _print_counts("build run", {"documents": ex["documents"], "records": ex["records"],
                                "flagged records": ex["flagged_records"], "rejected": ex["rejected"],
                                **{f"label {k}": v for k, v in ex["labels"].items()},
                                **{f"finding {k}": v for k, v in summary["check"]["findings"].items()},
                                "de-identified records": summary.get("deid", {}).get("records_changed", 0),
                                "residue": summary.get("deid", {}).get("residue", 0),
                                **{f"split {k}": v for k, v in summary["export"]["splits"].items()}})
    _print_yield(ex["yield"])
    _print_rejections(ex["rejections"])
    typer.echo(f"all stages written to {out}", err=True)
