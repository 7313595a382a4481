"""What a benchmark task is, for the one evaluation loop (``jiancha.evaluation.runner``).

A task turns a data source into samples, a sample into chat messages, and a stored answer into a verdict; the
runner does everything else (request planning, the durable store, resume, manifest, summary). In the spirit of
inspect_ai's ``Task``: dataset → messages → model → parse → score → run directory.

A new task is a subclass that fills in the abstract methods; ``jiancha.pdp.task`` and ``jiancha.ljp.task`` are
the two this project ships.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from jiancha.llm.config import ModelRunSpec


@dataclass(frozen=True)
class Sample:
    """One evaluation case: a unique id (the store key with the repeat number) and the task's typed record."""

    id: str
    record: Any


@dataclass(frozen=True)
class OfflineOutput:
    """What an offline predictor (a baseline that sends no request) returns: one raw answer per sample, in the
    task's answer format so that the task's parser scores it like a model's, and facts about the fit."""

    answers: tuple[str, ...]
    info: dict[str, Any] = field(default_factory=dict)
    latency_s: float | None = None


@dataclass(frozen=True)
class Verdict:
    """How a stored answer parses: valid or not, and why not (``request_failed``, ``truncated``, …)."""

    valid: bool
    reason: str | None = None


class Task(ABC):
    """One benchmark over one data source with one model setting (``spec``).

    Subclasses set ``name`` (written as ``task`` into the manifest; scorers refuse other tasks' directories) and
    ``run_format``, and implement the abstract methods. ``messages`` is only called for served models,
    ``predict_offline`` only for offline ones (``is_offline``).
    """

    name: ClassVar[str]
    run_format: ClassVar[str]

    def __init__(self, spec: ModelRunSpec) -> None:
        self.spec = spec

    # -- data ---------------------------------------------------------------------------------------------
    @abstractmethod
    def load_samples(self) -> list[Sample]:
        """Every sample of the data source (before ``--limit``), ids unique."""

    @abstractmethod
    def fingerprint(self, samples: Sequence[Sample]) -> str:
        """A hash of the data: part of the run's identity, so a changed file is never resumed into."""

    def data_manifest(self, samples: Sequence[Sample]) -> dict[str, Any]:
        """Extra facts about the data for the manifest (source and split are added by the runner)."""
        return {}

    # -- model --------------------------------------------------------------------------------------------
    @abstractmethod
    def is_offline(self) -> bool:
        """True when ``spec.model`` names an offline predictor of this task."""

    @abstractmethod
    def messages(self, sample: Sample) -> list[dict[str, str]]:
        """The chat messages sent for ``sample``."""

    def predict_offline(self, samples: Sequence[Sample]) -> OfflineOutput:
        raise NotImplementedError(f"task {self.name} has no offline predictors")

    def identity(self, samples: Sequence[Sample]) -> dict[str, Any]:
        """Task settings that change an answer beyond model, decoding, data and seed (prompt, candidates…)."""
        return {}

    def manifest(self, samples: Sequence[Sample]) -> dict[str, Any]:
        """Task facts for the manifest that do not define the run (prompt text, label lists…)."""
        return {}

    # -- records and scoring ------------------------------------------------------------------------------
    @abstractmethod
    def gold_fields(self, sample: Sample) -> dict[str, Any]:
        """Fields copied into every stored row of ``sample`` (gold answer, metadata), so scoring needs no data."""

    @abstractmethod
    def verdict(self, row: dict[str, Any]) -> Verdict:
        """Parse one stored row (``status``, ``raw_output``, ``finish_reason``) with the task's own parser."""

    @abstractmethod
    def score(self, run_dir: Path) -> dict[str, Any]:
        """Score the run directory (reading it only) and write the task's metrics and report into it."""

    def headline(self, metrics: dict[str, Any]) -> dict[str, float]:
        """The few figures printed at the end of a run."""
        return {}
