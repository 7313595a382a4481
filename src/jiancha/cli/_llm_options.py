"""Model-backend options shared by every command that calls a model (`pdp eval`, `ljp eval`): one definition,
so names, defaults and help cannot drift apart."""

from __future__ import annotations

from typing import Annotated

import typer

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

