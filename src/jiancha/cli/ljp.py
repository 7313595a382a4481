"""`jiancha ljp ...` commands."""

from __future__ import annotations

import typer

from jiancha.cli import _llm_options as opt
from jiancha.cli._llm_options import EXIT_FAILED  # noqa: F401 (part of this command's interface)

app = typer.Typer(no_args_is_help=True)


def _print_metrics(metrics: dict | None, out: str) -> None:
    from rich.console import Console

    if not metrics:
        return
    shown = ", ".join(f"{k} {v['mean']:.4f}" + (f" ± {v['se']:.4f}" if metrics["runs"] > 1 else "")
                      for k, v in metrics["mean_se"].items())
    Console().print(f"metrics: {shown} (written to {out}/metrics.json, report.md)")


#: Options that only a served model uses; the offline baseline would silently ignore them.
LLM_ONLY_OPTIONS = ("base_url", "api_key_env", "extra_body", "max_tokens", "temperature", "top_p", "reasoning_effort",
                    "reasoning_max_tokens", "rate_limit", "retry_failed", "timeout", "max_attempts")


@app.command("eval")
def eval_command(
    ctx: typer.Context,
    data: str = typer.Option(..., "--data", help="CAIL2018 JSON-lines file ({fact, meta} per line)."),
    model: str = typer.Option(..., "--model", help="openrouter:<m>, vllm:<m>, openai:<m>, a plain name with "
                              "--base-url, or baseline:charge-match."),
    out: str = typer.Option(..., "--out", help="Run directory (created, or resumed when it exists)."),
    candidates: str | None = typer.Option(None, "--candidates", help="Candidate charges, one per line "
                                          "(CAIL accu.txt); default: every charge in the data file."),
    base_url: opt.BaseUrls = None,
    api_key_env: opt.ApiKeyEnv = None,
    extra_body: opt.ExtraBody = None,
    repeats: opt.Repeats = 1,
    concurrency: opt.Concurrency = 8,
    rate_limit: opt.RateLimit = None,
    max_tokens: opt.MaxTokens = None,
    temperature: opt.Temperature = None,
    top_p: opt.TopP = None,
    reasoning_effort: opt.ReasoningEffort = None,
    reasoning_max_tokens: opt.ReasoningMaxTokens = None,
    limit: opt.Limit = None,
    seed: int | None = typer.Option(None, "--seed", help="Seed; request r of a case sends seed + run_id."),
    retry_failed: opt.RetryFailed = False,
    timeout: opt.Timeout = 600.0,
    max_attempts: opt.MaxAttempts = 6,
    progress: opt.ShowProgress = True,
) -> None:
    """CAIL2018 charge prediction (the paper's LJP reference): facts in, charges out as JSON, then scored.

    Exit codes: 0 every request in the store succeeded; 2 usage or configuration error; 3 failed requests remain
    (metrics still written; re-send with --retry-failed); 130 interrupted (Ctrl-C: run the same command again to
    resume)."""
    from rich.console import Console

    from jiancha.cli._render import interrupt_note
    from jiancha.ljp.task import LJPSpec, run_ljp_eval

    if model.startswith("baseline:"):
        from jiancha.cli._render import refuse_ignored_options

        refuse_ignored_options(ctx, LLM_ONLY_OPTIONS, f"with --model {model}: the offline baseline sends no "
                               "requests and takes no decoding settings")
    backend, client = opt.backend_settings(
        base_url=base_url, api_key_env=api_key_env, extra_body=extra_body, max_tokens=max_tokens,
        temperature=temperature, top_p=top_p, reasoning_effort=reasoning_effort,
        reasoning_max_tokens=reasoning_max_tokens, concurrency=concurrency, rate_limit=rate_limit, timeout=timeout,
        max_attempts=max_attempts)
    spec = LJPSpec(model=model, data=data, out=out, candidates=candidates, repeats=repeats, limit=limit,
                   seed=seed, retry_failed=retry_failed, **backend)
    console = Console(stderr=True)
    with interrupt_note(console, out):
        s = run_ljp_eval(spec, client, show_progress=progress, console=console)
    opt.finish_run(s)


@app.command("score")
def score_command(run_dir: str = typer.Argument(..., help="An LJP run directory.")) -> None:
    """Re-score an LJP run directory without calling the model."""
    from jiancha.ljp.scoring import score_ljp_run

    _print_metrics(score_ljp_run(run_dir), run_dir)
