"""`jiancha data ...` commands: list, info, download. Argument parsing and printing only."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from jiancha._util.cache import CACHE_DEFAULT_TEXT

app = typer.Typer(no_args_is_help=True)
MAX_ISSUES_SHOWN = 20
CACHE_HELP = f"Cache folder (default {CACHE_DEFAULT_TEXT})."


def _console() -> Console:
    return Console(highlight=False)


@contextlib.contextmanager
def _quiet_datasets() -> Iterator[None]:
    """Without the "Generating … split" bars that `datasets` draws for every JSON file it converts: the summary
    is the output here."""
    tqdm = sys.modules.get("datasets.utils.tqdm")
    if tqdm is None:  # not imported yet: the environment variable is read at import
        os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
        yield
        return
    was_disabled = tqdm.are_progress_bars_disabled()
    tqdm._hf_datasets_progress_bars_disabled = True
    try:
        yield
    finally:
        tqdm._hf_datasets_progress_bars_disabled = was_disabled


@app.command("list")
def list_cmd() -> None:
    """List the registered datasets (ids, what they are, where they come from)."""
    from jiancha.datasets.registry import list_datasets

    table = Table(title="datasets")
    for col in ("id", "description", "counts", "source"):
        table.add_column(col, overflow="fold")
    for s in list_datasets():
        counts = ", ".join(f"{k} {v:,}" for k, v in s.counts.items())
        source = s.hub_id and f"hub {s.hub_id}" or s.base_url or s.homepage
        table.add_row(s.id, s.description, counts, source)
    _console().print(table)


@app.command("info")
def info(path_or_id: Annotated[str, typer.Argument(help="A file or folder, a dataset id (pdp/test, lecard-v2, "
                                                 "...), the hub id Julian2002/PDP-Bench, or 'sample'.")],
         cache: Annotated[Path | None, typer.Option("--cache", help=CACHE_HELP)] = None,
         issues: Annotated[int, typer.Option("--issues", help="How many validation problems to list.")]
         = MAX_ISSUES_SHOWN) -> None:
    """Print what a dataset holds: splits, counts per label, fields, dates, charges, validation problems."""
    from jiancha.datasets.info import describe_dataset

    with _quiet_datasets():
        summary = describe_dataset(path_or_id, cache_dir=cache)
    ds = summary.dataset
    console = _console()
    if summary.registry_id:
        console.print(f"[bold]{summary.registry_id}[/]")
    if ds.kind == "pdp":
        _render_pdp(console, ds, issues)
    elif ds.kind == "cail2018":
        _render_cail(console, ds, issues)
    else:
        _render_lecard(console, ds)


def _top(items: tuple[tuple[Any, int], ...], n: int = 10) -> str:
    return ", ".join(f"{k} {v}" for k, v in items[:n])


def _render_issues(console: Console, found: tuple[Any, ...], limit: int) -> None:
    if not found:
        console.print("  validation: [green]no problems[/]")
        return
    console.print(f"  validation: [red]{len(found)} problem(s)[/]")
    for issue in found[:limit]:
        console.print(f"    - {issue.render()}")
    if len(found) > limit:
        console.print(f"    … {len(found) - limit} more (use --issues N to list more)")


def _render_pdp(console: Console, ds: Any, limit: int) -> None:
    console.print(f"PDP-Bench format: [bold]{ds.source}[/]")
    if ds.export is not None:
        settings = ", ".join(f"{k} {v}" for k, v in ds.export.settings.items())
        console.print(f"`jiancha build export` folder ({ds.export.format}): splits "
                      f"{', '.join(ds.export.splits)}" + (f"; {settings}" if settings else ""))
    from jiancha.law.labels import Decision

    table = Table(title="splits")
    table.add_column("split")
    table.add_column("records", justify="right")
    for d in Decision:
        table.add_column(d.code, justify="right")
    table.add_column("dates")
    table.add_column("prov.", justify="right")
    for s in ds.splits:
        dates = f"{s.date_min}…{s.date_max}" if s.date_min else "-"
        name = s.name + ("*" if s.derived else "")
        table.add_row(name, f"{s.count:,}", *(str(s.label_counts.get(d.value, 0)) for d in Decision), dates,
                      str(s.provinces))
    console.print(table)
    console.print("  " + ", ".join(f"{d.code} = {d.value}" for d in Decision)
                  + ("; * recreated from test" if any(s.derived for s in ds.splits) else ""))
    for s in ds.splits:
        console.print(f"[bold]{s.name}[/]")
        if s.note:
            console.print(f"  {s.note}")
        if s.fingerprint:
            console.print(f"  fingerprint: {s.fingerprint}")
        if s.derived:
            continue
        other = {k: v for k, v in s.label_counts.items() if k not in {d.value for d in Decision}}
        if other:
            console.print(f"  [red]other decision values:[/] {other}")
        console.print(f"  fields: {', '.join(s.fields)}")
        if s.n_charges:
            console.print(f"  charges: {s.n_charges} distinct; top: {_top(s.charges)}")
        else:
            console.print("  charges: not recorded in this source")
        if s.articles:
            console.print(f"  articles (top): {_top(s.articles)}")
        _render_issues(console, s.issues, limit)


def _render_cail(console: Console, ds: Any, limit: int) -> None:
    console.print(f"CAIL2018 format: [bold]{ds.source}[/]")
    if ds.label_dir:
        console.print(f"label lists: {ds.label_dir} ({ds.n_label_charges} charges, {ds.n_label_articles} articles)")
    for f in ds.files:
        console.print(f"[bold]{f.path}[/]: {f.count:,} records, {f.n_charges} charges, {f.n_articles} articles, "
                      f"{f.multi_charge} with several charges")
        table = Table(show_header=True)
        table.add_column("charge")
        table.add_column("records", justify="right")
        table.add_column("article")
        table.add_column("records", justify="right")
        for i in range(max(len(f.charges), len(f.articles))):
            c = f.charges[i] if i < len(f.charges) else ("", "")
            a = f.articles[i] if i < len(f.articles) else ("", "")
            table.add_row(str(c[0]), str(c[1]), str(a[0]), str(a[1]))
        console.print(table)
        if f.unknown_charges:
            console.print(f"  [yellow]charges not in accu.txt:[/] {', '.join(f.unknown_charges[:10])}")
        if f.unknown_articles:
            console.print(f"  [yellow]articles not in law.txt:[/] {', '.join(map(str, f.unknown_articles[:10]))}")
        _render_issues(console, f.issues, limit)


def _render_lecard(console: Console, ds: Any) -> None:
    console.print(f"{ds.name}: [bold]{ds.source}[/]")
    table = Table(show_header=False)
    texts = str(ds.queries)
    if ds.query_files:
        texts += " (" + " + ".join(f"{n} in {name}" for name, n in ds.query_files) + ")"
        if sum(n for _, n in ds.query_files) != ds.queries:
            texts += "; ids in several files counted once"
    rows: list[tuple[str, Any]] = [("query texts available", texts),
                                   ("queries with relevance labels", ds.labelled_queries)]
    if ds.labelled_without_text:
        note = f"{ds.labelled_without_text} (can be scored from runs, not searched)"
        rows.append(("labelled queries without text", note))
    for k, v in (*rows, ("judged pairs", ds.judged_pairs),
                 ("grades", ", ".join(f"{g}: {n}" for g, n in ds.grade_counts.items())),
                 ("pools", f"{ds.pools} (sizes {ds.pool_sizes[0]}–{ds.pool_sizes[1]})"),
                 ("candidate documents", ds.documents), ("fingerprint", ds.fingerprint or "-")):
        table.add_row(k, str(v))
    console.print(table)
    if ds.note:
        console.print(f"[yellow]{ds.note}[/]")


@app.command("download")
def download(name: Annotated[str, typer.Argument(help="Dataset id: pdp, lecard-v1, lecard-v2, ... (see "
                                                 "`jiancha data list`).")],
             to: Annotated[Path | None, typer.Option("--to", help="Folder to put the dataset in (default "
                                                     "<cache>/<dataset>).")] = None,
             cache: Annotated[Path | None, typer.Option("--cache", help=CACHE_HELP)] = None,
             base_url: Annotated[str | None, typer.Option("--base-url", help="Mirror base URL serving "
                                                          "<base>/<dataset>/<path> (env JIANCHA_DOWNLOAD_BASE).")]
             = None,
             verify: Annotated[bool, typer.Option("--verify/--no-verify", help="Check sizes and SHA-256 from the "
                                                  "registry.")] = True) -> None:
    """Fetch a public dataset into the cache (resumable, verified); print any manual step."""
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    from jiancha.datasets.download import download_dataset

    console = _console()
    with Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                  disable=not sys.stderr.isatty()) as progress:
        result = download_dataset(name, to=to, cache_dir=cache, base_url=base_url, verify=verify, progress=progress)
    for r in result.files:
        state = "present" if r.skipped else ("resumed" if r.resumed else "fetched")
        console.print(f"  {state:8} {r.path} ({r.size:,} bytes, sha256 {r.sha256[:12]}…)")
    for m in result.missing_optional:
        console.print(f"  [yellow]skipped[/]  {m} (optional; not found at the source)")
    if result.spec.downloadable:
        console.print(f"[green]{result.spec.id}[/] is in {result.target}")
    for step in result.manual_steps:
        console.print(f"[bold yellow]manual step:[/] {step}")
