"""`jiancha pdp ...` commands."""

from __future__ import annotations

from typing import Annotated

import typer

from jiancha.cli import _llm_options as opt
from jiancha.cli._llm_options import EXIT_FAILED  # noqa: F401 (part of this command's interface)
from jiancha.cli._render import interrupt_note, print_table, wide_console
from jiancha.cli.pdp_batch import ingest_command

app = typer.Typer(no_args_is_help=True)
app.command("ingest")(ingest_command)


# ------------------------------------------------------------------------------------ parse / score / compare
# Thin: argument parsing and printing; the work is in jiancha.pdp.{rundir,scoring,
# reports,compare}.

@app.command("parse")
def parse_command(
    file: str = typer.Argument(..., help="JSONL with a 'raw_output' field (and optional 'finish_reason') per line."),
    compat: str = typer.Option("default", "--compat", help="default | reference (the published parser)."),
    out: str | None = typer.Option(None, "--out", help="Write the JSONL here instead of standard output."),
) -> None:
    """Parse model answers: one {"decision", "relevant_articles", "valid", "reason"} line per input line."""
    from jiancha._util.jsonl import dumps_line, write_jsonl
    from jiancha.pdp.rundir import iter_parse_jsonl

    rows = iter_parse_jsonl(file, compat=compat)
    if out is None:
        for row in rows:
            typer.echo(dumps_line(row), nl=False)
    else:
        n = write_jsonl(out, list(rows))
        typer.echo(f"{n} answers parsed into {out}", err=True)


@app.command("score")
def score_command(
    dirs: Annotated[list[str], typer.Argument(help="Run directories (this project's, or the reference "
                                              "implementation's details_*.json result directories); several "
                                              "are pooled.")],
    compat: str = typer.Option("default", "--compat", help="default | reference (reproduce published numbers)."),
    as_json: bool = typer.Option(False, "--json", help='Print {"pooled", "per_run", "mean_se"} as JSON.'),
    write: bool = typer.Option(True, "--write/--no-write", help="Write metrics.json, report.md and plots into "
                               "the run directory (a single project directory) or --out."),
    out: str | None = typer.Option(None, "--out", help="Directory for metrics.json, report.md and plots."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap resamples of cases for 95% CIs "
                                  "(default mode; 0 turns them off)."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
    aggregate: Annotated[list[str] | None, typer.Option(
        "--aggregate", help="Also score each case's repeats as one prediction: vote (majority of the valid "
        "answers; ties to the lowest run) or any (correct when any repeat is: the oracle upper bound). "
        "Repeatable.")] = None,
) -> None:
    """Score run directories: paper-style tables (or --json), metrics.json, report.md and plots."""
    import json

    from jiancha.pdp import reports
    from jiancha.pdp.scoring import report_targets, score_run_dirs_full

    modes = opt.split_multi(aggregate)
    if modes:
        from jiancha.pdp.aggregate import check_aggregate

        for m in modes:
            check_aggregate(m)
    scored = score_run_dirs_full(dirs, compat=compat, n_boot=bootstrap, seed=seed)
    if modes:
        from jiancha.pdp.aggregate import attach_aggregates
        from jiancha.pdp.scoring import load_run_dirs

        attach_aggregates(scored.result, load_run_dirs(dirs)[0], modes, compat=compat)
    written = []
    if write:
        for t in report_targets(dirs, out):
            written += reports.write_reports(t, scored)
    from jiancha.pdp.scoring import completeness_warnings

    for w in completeness_warnings(scored.result):
        typer.echo(f"warning: {w}", err=True)
    if as_json:
        typer.echo(json.dumps(scored.result, ensure_ascii=False, indent=2))
        return
    console = wide_console()
    r = scored.result
    print_table(console, f"PDP ({compat} mode, {reports.n_runs(r)} run(s), mean ± SE)",
                 *reports.paper_table([(", ".join(dirs) if len(dirs) == 1 else f"{len(dirs)} dirs", r)]))
    if modes:
        from jiancha.pdp.aggregate import aggregate_notes, aggregate_rows

        print_table(console, "Repeats: mean ± SE, majority vote, any correct of k",
                     *reports.paper_table(aggregate_rows(r)))
        for note in aggregate_notes(r):
            console.print(note, markup=False, highlight=False)
    print_table(console, "Pooled", *reports.summary_table(r))
    print_table(console, "Per class (pooled)", *reports.per_class_table(r))
    print_table(console, "Confusion matrix, Level 2 (rows gold)",
                 *reports.confusion_rows(r, 2, reports.confusion_of(scored, 2)))
    for p in written:
        console.print(f"wrote {p}")


@app.command("compare")
def compare_command(
    dirs: Annotated[list[str], typer.Argument(help="Run directories that differ in one setting.")],
    compat: str = typer.Option("default", "--compat", help="default | reference."),
    out: str = typer.Option("pdp-compare", "--out", help="Directory for compare.md, compare.json, compare.png."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
    bootstrap: int = typer.Option(0, "--bootstrap", help="Bootstrap resamples per directory (0: none)."),
) -> None:
    """Detect the settings that differ between runs and tabulate / plot the metrics against them (a note says
    when the runs differ in more than one setting)."""
    import json

    from jiancha.pdp import reports
    from jiancha.pdp.compare import compare_run_dirs, write_comparison

    comp = compare_run_dirs(dirs, compat=compat, n_boot=bootstrap)
    paths = write_comparison(comp, out)
    if as_json:
        typer.echo(json.dumps(comp.to_dict(), ensure_ascii=False, indent=2))
        return
    console = wide_console()
    if comp.note:
        from rich.markup import escape

        console.print(f"[yellow]note:[/] {escape(comp.note)}", highlight=False)
    print_table(console, f"PDP metrics by {comp.setting} (mean ± SE over runs)",
                 *reports.paper_table(list(zip(comp.values, comp.results)), name_header=comp.setting))
    for p in paths:
        console.print(f"wrote {p}")


# ---------------------------------------------------------------------------------------------------- eval
# `jiancha pdp eval`. Thin: build RunSpec + ClientConfig, run the PDP task (jiancha.pdp.task), print.

#: Options that only a served model uses, and options that only the offline baselines use: given for the other
#: kind they would be silently ignored (a misspelt --prompt on a baseline run would go unnoticed).
LLM_ONLY_OPTIONS = ("base_url", "api_key_env", "extra_body", "prompt", "template", "one_shot_classes", "max_tokens",
                    "temperature", "top_p", "top_k", "reasoning_effort", "reasoning_max_tokens", "rate_limit",
                    "retry_failed", "timeout", "max_attempts", "backoff", "precedents_from", "precedents_split",
                    "precedents_k", "precedents_balanced", "precedents_max_chars", "batch_out")
BASELINE_ONLY_OPTIONS = ("train_data", "train_split", "cv_folds")


def _check_model_options(ctx: typer.Context, model: str) -> None:
    from jiancha.cli._render import refuse_ignored_options
    from jiancha.pdp.baselines import is_baseline

    if is_baseline(model):
        refuse_ignored_options(ctx, LLM_ONLY_OPTIONS, f"with --model {model}: offline baselines send no requests "
                               "and take no prompt or decoding settings")
    else:
        refuse_ignored_options(ctx, BASELINE_ONLY_OPTIONS, f"with --model {model}: it applies to the offline "
                               "baselines (baseline:majority, baseline:tfidf-lr) only")


@app.command("eval")
def eval_command(
    ctx: typer.Context,
    data: str = typer.Option(..., "--data", help="PDP source: 'sample', a hub id, a save_to_disk folder, or a "
                             "JSONL/JSON/Parquet file."),
    model: str = typer.Option(..., "--model", help="openrouter:<m>, vllm:<m>, openai:<m>, a plain name with "
                              "--base-url, or baseline:majority|rules|tfidf-lr."),
    out: str = typer.Option(..., "--out", help="Run directory (created, or resumed when it exists)."),
    split: str = typer.Option("test", "--split", help="Split to evaluate."),
    base_url: opt.BaseUrls = None,
    api_key_env: opt.ApiKeyEnv = None,
    extra_body: opt.ExtraBody = None,
    prompt: str = typer.Option("baseline", "--prompt", help="baseline | definitions | one-shot | custom | "
                               "precedents."),
    template: str | None = typer.Option(None, "--template", help="Template file for --prompt custom."),
    one_shot_classes: Annotated[list[str] | None, typer.Option(
        "--one-shot-classes", help="One-shot example classes (P,DNP,SNP,IENP; default all four).")] = None,
    precedents_from: str | None = typer.Option(None, "--precedents-from", help="Pool of decided cases for --prompt "
                                               "precedents (any PDP source; never the evaluated cases)."),
    precedents_split: str | None = typer.Option(None, "--precedents-split", help="Split of the pool (default: "
                                                "train, or the pool's only split)."),
    precedents_k: int = typer.Option(4, "--precedents-k", help="Precedents shown per case."),
    precedents_balanced: bool = typer.Option(False, "--precedents-balanced", help="At least one precedent of each "
                                             "decision the pool holds."),
    precedents_max_chars: int | None = typer.Option(600, "--precedents-max-chars", help="Characters of each "
                                                    "precedent's facts and reasoning shown."),
    batch_out: str | None = typer.Option(None, "--batch-out", help="Write the requests still to do as an OpenAI "
                                         "Batch / vLLM run_batch JSONL file instead of sending them; load the "
                                         "results with 'jiancha pdp ingest'."),
    repeats: opt.Repeats = 1,
    concurrency: opt.Concurrency = 8,
    rate_limit: opt.RateLimit = None,
    max_tokens: opt.MaxTokens = None,
    temperature: opt.Temperature = None,
    top_p: opt.TopP = None,
    top_k: int | None = typer.Option(None, "--top-k", help="openrouter, vllm and generic endpoints only."),
    reasoning_effort: opt.ReasoningEffort = None,
    reasoning_max_tokens: opt.ReasoningMaxTokens = None,
    limit: opt.Limit = None,
    seed: int | None = typer.Option(None, "--seed", help="Seed; request r of a case sends seed + run_id. "
                                    "Baselines default to 0."),
    retry_failed: opt.RetryFailed = False,
    timeout: opt.Timeout = 600.0,
    max_attempts: opt.MaxAttempts = 6,
    backoff: float = typer.Option(1.0, "--backoff", help="Base of the exponential backoff, seconds."),
    train_data: str | None = typer.Option(None, "--train-data", help="Training source for baseline:majority "
                                          "and baseline:tfidf-lr (else: the evaluation split, by k-fold CV "
                                          "for tfidf-lr)."),
    train_split: str = typer.Option("test", "--train-split", help="Split of --train-data."),
    cv_folds: int = typer.Option(5, "--cv-folds", help="Folds of baseline:tfidf-lr without --train-data."),
    compat: str = typer.Option("default", "--compat", help="Scoring mode: default | reference."),
    score: bool = typer.Option(True, "--score/--no-score", help="Score the run directory at the end."),
    progress: opt.ShowProgress = True,
) -> None:
    """Run a model or an offline baseline over a PDP split into a resumable run directory, then score it.

    Exit codes: 0 every request in the store succeeded; 2 usage or configuration error; 3 failed requests remain
    (metrics still written, failures counted as invalid; re-send with --retry-failed); 130 interrupted (Ctrl-C:
    run the same command again to resume)."""
    from rich.console import Console

    from jiancha.pdp.spec import RunSpec
    from jiancha.pdp.task import run_pdp_eval

    _check_model_options(ctx, model)
    backend, client = opt.backend_settings(
        base_url=base_url, api_key_env=api_key_env, extra_body=extra_body, max_tokens=max_tokens,
        temperature=temperature, top_p=top_p, top_k=top_k, reasoning_effort=reasoning_effort,
        reasoning_max_tokens=reasoning_max_tokens, concurrency=concurrency, rate_limit=rate_limit, timeout=timeout,
        max_attempts=max_attempts, backoff=backoff)
    spec = RunSpec(model=model, data=data, out=out, split=split, prompt=prompt, template=template,
                   one_shot_classes=opt.split_multi(one_shot_classes) or None, repeats=repeats, limit=limit,
                   seed=seed, retry_failed=retry_failed, train_data=train_data, train_split=train_split,
                   cv_folds=cv_folds, compat=compat, precedents_from=precedents_from,
                   precedents_split=precedents_split, precedents_k=precedents_k,
                   precedents_balanced=precedents_balanced, precedents_max_chars=precedents_max_chars, **backend)
    console = Console(stderr=True)
    with interrupt_note(console, out):
        s = run_pdp_eval(spec, client, show_progress=progress, score=score, console=console, batch_out=batch_out)
    if batch_out is not None:
        from jiancha.cli.pdp_batch import report_batch_out

        report_batch_out(s, batch_out)
    opt.finish_run(s)
