"""The run-directory contract between the runner (``jiancha pdp eval``) and the scorer (``jiancha pdp score``).

A run directory holds:
- ``manifest.json``: the RunSpec (model, backend preset, base URL(s) without secrets, prompt variant and hash,
  decoding and reasoning settings, data source, split, data fingerprint, seed, repeats), package versions, git
  revision, start/end times.
- ``records.jsonl``: append-only, one ``PredictionRecord`` per completed request (ok or failed), fsync'ed.
  The latest line for a (case_id, run_id) wins (a retried failure appends a new line).
- after scoring: ``metrics.json``, ``report.md``, PNG plots.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from jiancha.llm.types import ResponseInfo


@dataclass(frozen=True, kw_only=True)
class PredictionRecord(ResponseInfo):
    """One line of ``records.jsonl``: the request's outcome (``ResponseInfo`` fields), its answer, and the gold
    values and metadata copied from the PDP record so that scoring needs no data access."""

    case_id: str
    run_id: int
    status: str                                   # "ok" | "failed"
    raw_output: str | None = None
    gold_decision: str | None = None
    gold_articles: list[str] = field(default_factory=list)
    date: str | None = None
    province: str | None = None
    charges: list[str] = field(default_factory=list)
    inputs: dict[str, str] = field(default_factory=dict)  # person_info / procedure / fact (for reports)
    # provenance of the request (runner): hash of the exact messages sent, the seed sent (None: none sent)
    messages_hash: str | None = None
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PredictionRecord:
        names = cls.__dataclass_fields__.keys()
        return cls(**{k: v for k, v in d.items() if k in names})
