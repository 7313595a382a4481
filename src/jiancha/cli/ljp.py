"""`jiancha ljp ...` commands."""

from __future__ import annotations

import typer

from jiancha.cli._llm_options import (
    ApiKeyEnv,
    BaseUrls,
    Concurrency,
    ExtraBody,
    Limit,
    MaxAttempts,
    MaxTokens,
    RateLimit,
    ReasoningEffort,
    ReasoningMaxTokens,
    Repeats,
    RetryFailed,
    ShowProgress,
    Temperature,
    Timeout,
    TopP,
)

app = typer.Typer(no_args_is_help=True)

#: Exit code of ``ljp eval`` when failed requests remain in the run directory after the run.
EXIT_FAILED = 3


def _split_multi(values: list[str] | None) -> tuple[str, ...]:
    return tuple(v.strip() for item in (values or []) for v in item.split(",") if v.strip())


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
    base_url: BaseUrls = None,
    api_key_env: ApiKeyEnv = None,
    extra_body: ExtraBody = None,
    repeats: Repeats = 1,
    concurrency: Concurrency = 8,
    rate_limit: RateLimit = None,
    max_tokens: MaxTokens = None,
    temperature: Temperature = None,
    top_p: TopP = None,
    reasoning_effort: ReasoningEffort = None,
    reasoning_max_tokens: ReasoningMaxTokens = None,
    limit: Limit = None,
    seed: int | None = typer.Option(None, "--seed", help="Seed; request r of a case sends seed + run_id."),
    retry_failed: RetryFailed = False,
    timeout: Timeout = 600.0,
    max_attempts: MaxAttempts = 6,
    progress: ShowProgress = True,
) -> None:
    """CAIL2018 charge prediction (the paper's LJP reference): facts in, charges out as JSON, then scored.

    Exit codes: 0 when every request in the store succeeded; 3 when failed requests remain after the run (the
    metrics are still printed and written; re-send them with --retry-failed); 2 on a usage or configuration
    error."""
    from rich.console import Console

    from jiancha.ljp.runner import LJPSpec, run_ljp_eval
    from jiancha.llm.config import ClientConfig, GenerationConfig
    from jiancha.llm.presets import parse_extra_body

    if model.startswith("baseline:"):
        from jiancha.cli._render import refuse_ignored_options

        refuse_ignored_options(ctx, LLM_ONLY_OPTIONS, f"with --model {model}: the offline baseline sends no "
                               "requests and takes no decoding settings")
    gen = GenerationConfig(max_tokens=max_tokens, temperature=temperature, top_p=top_p,
                           reasoning_effort=reasoning_effort, reasoning_max_tokens=reasoning_max_tokens)
    spec = LJPSpec(model=model, data=data, out=out, candidates=candidates, generation=gen,
                   base_urls=_split_multi(base_url), api_key_env=api_key_env,
                   extra_body=parse_extra_body(extra_body), repeats=repeats, limit=limit,
                   seed=seed, retry_failed=retry_failed)
    client = ClientConfig(concurrency=concurrency, rate_limit_rpm=rate_limit, timeout_s=timeout,
                          max_attempts=max_attempts)
    from jiancha.cli._render import interrupt_note

    console = Console(stderr=True)
    with interrupt_note(console, out):
        s = run_ljp_eval(spec, client, show_progress=progress, console=console)
    Console().print(f"run directory: {s.out}{' (resumed)' if s.resumed else ''}; {s.total} requests in scope, "
                    f"{s.already_done} already stored, {s.sent} sent now ({s.failed} failed); failed in store: "
                    f"{s.failed_total}{' - re-send them with --retry-failed' if s.failed_total else ''}; "
                    f"candidates: {s.candidates_source}", highlight=False)
    _print_metrics(s.metrics, s.out)
    if s.failed_total:
        from rich.markup import escape

        console.print(f"[red]{s.failed_total} request(s) failed[/] and are stored as failed in {escape(s.out)}; "
                      f"re-send them with --retry-failed (exit code {EXIT_FAILED})", highlight=False)
        raise typer.Exit(EXIT_FAILED)


@app.command("score")
def score_command(run_dir: str = typer.Argument(..., help="An LJP run directory.")) -> None:
    """Re-score an LJP run directory without calling the model."""
    from jiancha.ljp.runner import score_ljp_run

    _print_metrics(score_ljp_run(run_dir), run_dir)
