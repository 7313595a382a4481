"""What one evaluation invocation did, and the lines printed about it at the end of a run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from jiancha.evaluation.task import Verdict


@dataclass(frozen=True)
class RunHealth:
    """The state of the whole store after a run (latest row per (case, run)): how many answers there are, and
    how many of them failed as requests, were cut at the token limit, or do not parse."""

    records: int = 0
    failed: int = 0           # requests that failed after every retry (no answer)
    truncated: int = 0        # answers cut by the token limit (finish_reason "length")
    invalid: int = 0          # answers that do not parse (failed requests included, as the scorers count them)
    reasons: dict[str, int] = field(default_factory=dict)


def count_health(rows: Iterable[dict[str, Any]], verdict: Callable[[dict[str, Any]], Verdict]) -> RunHealth:
    """``RunHealth`` of store rows (the latest row per ``(case_id, run_id)`` wins), parsed by ``verdict``."""
    latest: dict[tuple, dict[str, Any]] = {}
    for row in rows:
        latest[(row.get("case_id"), row.get("run_id"))] = row
    reasons: Counter[str] = Counter()
    failed = truncated = invalid = 0
    for row in latest.values():
        failed += row.get("status") == "failed"
        truncated += row.get("finish_reason") == "length"
        v = verdict(row)
        if not v.valid:
            invalid += 1
            reasons[v.reason or "invalid"] += 1
    return RunHealth(len(latest), failed, truncated, invalid, dict(sorted(reasons.items())))


@dataclass
class RunSummary:
    """What one invocation did (counts of this invocation) and the state of the store afterwards (``health``);
    ``metrics`` is the task scorer's result when it scored."""

    out: str
    task: str
    model: str
    offline: bool
    total: int                   # (case, repeat) pairs in scope
    already_done: int            # found in the store and not re-sent
    sent: int = 0                # completed in this invocation
    failed: int = 0              # failed in this invocation
    failed_total: int = 0        # failed records in the store after this invocation
    failed_in_batch: int = 0     # of those, written to a batch file to be re-sent (``--batch-out``)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    elapsed_s: float = 0.0
    resumed: bool = False
    baseline_info: dict[str, Any] = field(default_factory=dict)
    health: RunHealth = field(default_factory=RunHealth)
    metrics: dict[str, Any] | None = None
    headline: dict[str, float] = field(default_factory=dict)


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f} %)" if d else f"{n}/0"


def render_summary(s: RunSummary) -> list[str]:
    """The end-of-run lines: where the run is, what was sent, what came back (failed, truncated and invalid
    answers are always shown, even when zero, so a broken run never looks like a good one), and the headline
    metrics.

    >>> s = RunSummary(out="runs/x", task="pdp", model="m", offline=False, total=60, already_done=0, sent=60,
    ...                health=RunHealth(60, 0, 12, 12, {"truncated": 12}), headline={"macro_f1": 0.25})
    >>> print("\\n".join(render_summary(s)))
    run directory: runs/x
    requests: 60 in scope, 0 already stored, 60 sent now (0 failed); failed in store: 0
    tokens: 0 prompt, 0 completion (0 reasoning); cost: $0.0000; 0.0 s
    answers: 60 stored; failed requests 0/60 (0.0 %); truncated 12/60 (20.0 %); invalid 12/60 (20.0 %): truncated 12
    metrics: macro_f1 0.2500 (written to runs/x)
    """
    done_now = "predicted now" if s.offline else "sent now"
    lines = [f"run directory: {s.out}{' (resumed)' if s.resumed else ''}",
             f"requests: {s.total} in scope, {s.already_done} already stored, {s.sent} {done_now} ({s.failed} "
             f"failed); failed in store: {s.failed_total}"
             + (f" ({s.failed_in_batch} of them written to the batch file to re-send)" if s.failed_in_batch else "")
             + (" - re-send them with --retry-failed" if s.failed_total > s.failed_in_batch else "")]
    if s.sent and not s.offline:
        lines.append(f"tokens: {s.prompt_tokens:,} prompt, {s.completion_tokens:,} completion "
                     f"({s.reasoning_tokens:,} reasoning); cost: ${s.cost:.4f}; {s.elapsed_s:.1f} s")
    if s.baseline_info.get("fit_on"):
        fit_on = str(s.baseline_info["fit_on"])
        folds = f" ({s.baseline_info['folds']} folds)" if "folds" in s.baseline_info and "folds" not in fit_on else ""
        lines.append(f"baseline fitted on: {s.baseline_info['fit_on']}{folds}")
    h = s.health
    reasons = ", ".join(f"{k} {v}" for k, v in h.reasons.items())
    lines.append(f"answers: {h.records} stored; failed requests {_pct(h.failed, h.records)}; truncated "
                 f"{_pct(h.truncated, h.records)}; invalid {_pct(h.invalid, h.records)}"
                 + (f": {reasons}" if reasons else ""))
    if s.headline:
        lines.append("metrics: " + ", ".join(f"{k} {v:.4f}" for k, v in s.headline.items())
                     + f" (written to {s.out})")
    return lines
