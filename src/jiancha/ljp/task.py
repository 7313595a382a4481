"""CAIL2018 charge prediction (the paper's LJP reference) as a task of the one evaluation loop: facts and the
candidate charges in, a JSON list of charges out, scored by ``jiancha.ljp.scoring``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from jiancha._util.hashing import records_fingerprint
from jiancha.datasets.cail import CAILRecord, load_cail, load_label_list
from jiancha.errors import ConfigError
from jiancha.evaluation.runner import run_task
from jiancha.evaluation.summary import RunSummary
from jiancha.evaluation.task import OfflineOutput, Sample, Task, Verdict
from jiancha.ljp import baselines
from jiancha.ljp.parsing import parse_charges
from jiancha.ljp.prompts import JSON_KEY, build_ljp_messages, prompt_identity
from jiancha.llm.config import ClientConfig, ModelRunSpec

RUN_FORMAT = "jiancha-ljp-run/1"


@dataclass(frozen=True, kw_only=True)
class LJPSpec(ModelRunSpec):
    """One LJP evaluation: a model over a CAIL2018 file, ``repeats`` times."""

    candidates: str | None = None          # accu.txt-style file; default: every gold charge in the data


class LJPTask(Task):
    name = "ljp"
    run_format = RUN_FORMAT
    spec: LJPSpec

    def __init__(self, spec: LJPSpec) -> None:
        super().__init__(spec)
        if self.is_offline():
            self._predict = baselines.get_ljp_baseline(spec.model)
        self.candidates: tuple[str, ...] = ()
        self.candidates_source = ""

    def load_samples(self) -> list[Sample]:
        records = load_cail(self.spec.data)
        if not records:
            raise ConfigError(f"{self.spec.data} holds no CAIL2018 records")
        if self.spec.candidates:
            self.candidates, self.candidates_source = load_label_list(self.spec.candidates), self.spec.candidates
        else:
            self.candidates = tuple(sorted({a for r in records for a in r.accusations}))
            self.candidates_source = "gold charges of the data file"
        return [Sample(str(r.index), r) for r in records]

    def fingerprint(self, samples: Sequence[Sample]) -> str:
        return records_fingerprint(s.record.to_dict() for s in samples)

    def is_offline(self) -> bool:
        return self.spec.model.startswith(baselines.PREFIX)

    def messages(self, sample: Sample) -> list[dict[str, str]]:
        return build_ljp_messages(sample.record.fact, self.candidates)

    def identity(self, samples: Sequence[Sample]) -> dict[str, Any]:
        return {"prompt": prompt_identity(self.candidates)}

    def manifest(self, samples: Sequence[Sample]) -> dict[str, Any]:
        return {"candidates": {"source": self.candidates_source, "n": len(self.candidates),
                               "labels": list(self.candidates)}}

    def predict_offline(self, samples: Sequence[Sample]) -> OfflineOutput:
        answers = tuple(json.dumps({JSON_KEY: self._predict(s.record.fact, self.candidates)}, ensure_ascii=False)
                        for s in samples)
        return OfflineOutput(answers)

    def gold_fields(self, sample: Sample) -> dict[str, Any]:
        r: CAILRecord = sample.record
        return {"gold": list(r.accusations)}

    def verdict(self, row: dict[str, Any]) -> Verdict:
        if row.get("status") != "ok":
            return Verdict(False, "request_failed")
        p = parse_charges(row.get("raw_output"), self.candidates)
        return Verdict(p.valid, p.reason)

    def score(self, run_dir: Path) -> dict[str, Any]:
        from jiancha.ljp.scoring import score_ljp_run

        return score_ljp_run(run_dir)

    def headline(self, metrics: dict[str, Any]) -> dict[str, float]:
        return {k: v["mean"] for k, v in metrics.get("mean_se", {}).items()}


def run_ljp_eval(spec: LJPSpec, client_config: ClientConfig | None = None, *, show_progress: bool = False,
                 console: Console | None = None, score: bool = True) -> RunSummary:
    """Run ``spec`` into ``spec.out`` (creating or resuming it: stored requests are not sent again), then score
    it unless ``score=False``."""
    return run_task(LJPTask(spec), client_config, show_progress=show_progress, score=score, console=console)
