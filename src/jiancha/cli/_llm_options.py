"""Model-backend options shared by every command that calls a model (`pdp eval`, `ljp eval`): one definition,
so names, defaults and help cannot drift apart."""

from __future__ import annotations

from typing import Annotated

import typer

#: Exit code of ``pdp eval`` / ``ljp eval`` when failed requests remain in the run directory after the run.
EXIT_FAILED = 3

BaseUrls = Annotated[list[str] | None, typer.Option(
    "--base-url", help="OpenAI-compatible base URL; repeat it to spread requests over replicas (vLLM).")]
ApiKeyEnv = Annotated[str | None, typer.Option(
    "--api-key-env", help="Environment variable holding the API key (default: the preset's, e.g. "
    "OPENROUTER_API_KEY). The key is never written to disk.")]
ExtraBody = Annotated[str | None, typer.Option(
    "--extra-body", help="JSON object of extra request fields, e.g. OpenRouter provider routing "
    "'{\"provider\": {\"order\": [\"x\"]}}'.")]
Repeats = Annotated[int, typer.Option("--repeats", help="Independent samples per case (run_id 0..N-1).")]
Concurrency = Annotated[int, typer.Option("--concurrency", help="Requests in flight at most.")]
RateLimit = Annotated[float | None, typer.Option("--rate-limit", help="Requests per minute at most.")]
MaxTokens = Annotated[int | None, typer.Option("--max-tokens", help="Completion budget (reasoning included).")]
Temperature = Annotated[float | None, typer.Option("--temperature",
                                                   help="Sampling temperature (default: the endpoint's).")]
TopP = Annotated[float | None, typer.Option("--top-p", help="Nucleus sampling top-p (default: the endpoint's).")]
ReasoningEffort = Annotated[str | None, typer.Option("--reasoning-effort",
                                                     help="none|minimal|low|medium|high|xhigh.")]
ReasoningMaxTokens = Annotated[int | None, typer.Option("--reasoning-max-tokens",
                                                        help="Reasoning token budget (openrouter, generic).")]
Limit = Annotated[int | None, typer.Option("--limit", help="Evaluate the first N cases only.")]
RetryFailed = Annotated[bool, typer.Option("--retry-failed", help="Re-send requests recorded as failed.")]
Timeout = Annotated[float, typer.Option("--timeout", help="Seconds per attempt.")]
MaxAttempts = Annotated[int, typer.Option("--max-attempts", help="Attempts per request before it is recorded "
                                          "as failed.")]
ShowProgress = Annotated[bool, typer.Option("--progress/--no-progress", help="Live progress bar.")]


def split_multi(values: list[str] | None) -> tuple[str, ...]:
    """Values of a repeatable option, each of which may also be a comma-separated list.

    >>> split_multi(["a,b", " c "])
    ('a', 'b', 'c')
    """
    return tuple(v.strip() for item in (values or []) for v in item.split(",") if v.strip())


def backend_settings(*, base_url: list[str] | None, api_key_env: str | None, extra_body: str | None,
                     max_tokens: int | None, temperature: float | None, top_p: float | None,
                     reasoning_effort: str | None, reasoning_max_tokens: int | None, top_k: int | None = None,
                     concurrency: int, rate_limit: float | None, timeout: float, max_attempts: int,
                     backoff: float = 1.0):
    """The shared options as the run spec's backend fields (``base_urls``, ``api_key_env``, ``extra_body``,
    ``generation``) and the transport's ``ClientConfig``, which never changes an answer."""
    from jiancha.llm.config import ClientConfig, GenerationConfig
    from jiancha.llm.presets import parse_extra_body

    gen = GenerationConfig(max_tokens=max_tokens, temperature=temperature, top_p=top_p, top_k=top_k,
                           reasoning_effort=reasoning_effort, reasoning_max_tokens=reasoning_max_tokens)
    spec_fields = {"generation": gen, "base_urls": split_multi(base_url), "api_key_env": api_key_env,
                   "extra_body": parse_extra_body(extra_body)}
    client = ClientConfig(concurrency=concurrency, rate_limit_rpm=rate_limit, timeout_s=timeout,
                          max_attempts=max_attempts, backoff_base_s=backoff)
    return spec_fields, client


def finish_run(summary) -> None:
    """Print what a run did (``render_summary``); exit ``EXIT_FAILED`` while failed requests remain stored."""
    from rich.console import Console
    from rich.markup import escape

    from jiancha.evaluation.summary import render_summary

    for line in render_summary(summary):
        typer.echo(line)
    if summary.failed_total > summary.failed_in_batch:
        Console(stderr=True).print(f"[red]{summary.failed_total} request(s) failed[/] and are stored as failed in "
                                   f"{escape(summary.out)}; re-send them with --retry-failed (exit code "
                                   f"{EXIT_FAILED})", highlight=False)
        raise typer.Exit(EXIT_FAILED)
