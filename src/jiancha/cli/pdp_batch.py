"""`jiancha pdp ingest`: load batch-API results (OpenAI Batch, vLLM run_batch) into a run directory."""

from __future__ import annotations

from typing import Annotated

import typer

from jiancha.cli._llm_options import EXIT_FAILED


def ingest_command(
    results: Annotated[list[str], typer.Argument(help="Batch result files (output and error files, any order).")],
    out: str = typer.Option(..., "--out", help="The run directory 'jiancha pdp eval ... --batch-out' created."),
    score: bool = typer.Option(True, "--score/--no-score", help="Score the run directory after ingesting."),
) -> None:
    """Store batch-API results in a run directory as if they had been sent live, then score it.

    Results already stored are skipped, results the run does not plan are reported and ignored; exit code 3 while
    requests remain without an ok result (write them to a new batch file with the same 'eval' command)."""
    from rich.console import Console

    from jiancha.pdp.ingest import ingest_pdp

    report = ingest_pdp(out, results)
    echo = Console(highlight=False).print
    for line in report.lines():
        echo(line, markup=False)
    if score and (report.stored_ok or report.stored_failed or report.already_stored):
        from jiancha.pdp.scoring import score_run_dirs

        pooled = score_run_dirs([out], write=True)["pooled"]
        echo("metrics: " + ", ".join(f"{k} {pooled[k]:.4f}" for k in ("decision_level2_macro_f1",
                                                                       "decision_level1_macro_f1",
                                                                       "decision_level2_accuracy", "articles_f1"))
             + f" (written to {out})", markup=False)
    if report.missing:
        raise typer.Exit(EXIT_FAILED)


def report_batch_out(summary, path: str) -> None:
    """What ``pdp eval --batch-out`` wrote (the requests the run still needs), or that nothing was left."""
    n = summary.total - summary.already_done
    if n:
        typer.echo(f"wrote {n} request(s) to {path}; submit it (OpenAI Batch API, or vLLM: python -m "
                   f"vllm.entrypoints.openai.run_batch -i {path} -o RESULTS --model MODEL), then: jiancha pdp ingest "
                   f"RESULTS --out {summary.out}")
    else:
        typer.echo(f"nothing to write to {path}: every request of {summary.out} is stored")
