"""PDP as a task of the one evaluation loop: a PDP split → the paper's prompts → a model or an offline
baseline → the three-section answer parser → ``jiancha pdp score``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from jiancha._util.hashing import stable_hash
from jiancha.datasets.records import PDP_INPUT_FIELDS, PDPRecord
from jiancha.errors import ConfigError
from jiancha.evaluation.runner import run_task, unique_ids
from jiancha.evaluation.summary import RunSummary
from jiancha.evaluation.task import OfflineOutput, Sample, Task, Verdict
from jiancha.llm.config import ClientConfig
from jiancha.llm.types import messages_hash
from jiancha.pdp import baselines
from jiancha.pdp.spec import RunSpec

RUN_FORMAT = "jiancha-pdp-run/1"
#: Figures printed at the end of ``pdp eval`` (pooled metrics of the scorer).
HEADLINE = ("decision_level2_macro_f1", "decision_level1_macro_f1", "decision_level2_accuracy", "articles_f1")


class PDPTask(Task):
    """``spec`` over a PDP source. ``records`` / ``train_records`` bypass the loader (the data fingerprint is
    still computed from them)."""

    name = "pdp"
    run_format = RUN_FORMAT
    spec: RunSpec

    def __init__(self, spec: RunSpec, *, records: Sequence[PDPRecord] | None = None,
                 train_records: Sequence[PDPRecord] | None = None) -> None:
        super().__init__(spec)
        self._records = list(records) if records is not None else None
        self._train_given = train_records is not None
        self._train = list(train_records) if train_records is not None else None
        self._charges: dict[str, list[str]] = {}
        self._messages_hash: str | None = None
        self._precedents = None     # a PrecedentSelector for the 'precedents' prompt, built with the samples
        if self.is_offline():
            baselines.get_baseline(spec.model)                  # unknown names fail before any work
            name = spec.model[len(baselines.PREFIX):]
            if spec.train_data is not None and name not in baselines.TRAINABLE:
                raise ConfigError(f"{spec.model} does not learn from data; drop --train-data")
        elif spec.train_data is not None:
            raise ConfigError("--train-data is only used by the trainable baselines "
                              f"({', '.join(baselines.PREFIX + n for n in baselines.TRAINABLE)})")

    # -- data -----------------------------------------------------------------------------------------------
    def load_samples(self) -> list[Sample]:
        records = self._records
        if records is None:
            from jiancha.datasets.pdp import load_pdp

            records = load_pdp(self.spec.data, self.spec.split)
        if not records:
            raise ConfigError(f"split {self.spec.split!r} of {self.spec.data!r} holds no records")
        if not self.is_offline():
            from jiancha.pdp.precedent_prompts import selector_for

            self._precedents = selector_for(self.spec.prompt, self.spec.precedent_config(), records)
        return [Sample(cid, r) for cid, r in zip(unique_ids([r.id for r in records]), records)]

    def fingerprint(self, samples: Sequence[Sample]) -> str:
        from jiancha.datasets.pdp import compute_fingerprint

        return compute_fingerprint([s.record for s in samples])

    def data_manifest(self, samples: Sequence[Sample]) -> dict[str, Any]:
        return {"split": self.spec.split}

    def _train_records(self) -> list[PDPRecord] | None:
        if self._train is None and self.spec.train_data is not None:
            from jiancha.datasets.pdp import load_pdp

            self._train = load_pdp(self.spec.train_data, self.spec.train_split)
        return self._train

    def _train_fingerprint(self) -> str:
        from jiancha.datasets.pdp import compute_fingerprint

        return compute_fingerprint(self._train_records() or [])

    def _train_source(self) -> dict[str, Any]:
        if self._train_given:
            return {"source": "records passed by the caller", "split": None}
        return {"source": self.spec.train_data, "split": self.spec.train_split}

    # -- model ----------------------------------------------------------------------------------------------
    def is_offline(self) -> bool:
        return baselines.is_baseline(self.spec.model)

    def messages(self, sample: Sample) -> list[dict[str, str]]:
        from jiancha.pdp.prompts import build_messages

        s = self.spec
        if self._precedents is not None:
            return self._precedents.messages(sample.record)
        return build_messages(sample.record, s.prompt, one_shot_classes=s.one_shot_classes, template_path=s.template)

    def _prompt_spec(self) -> dict[str, Any]:
        from jiancha.pdp.prompts import prompt_spec

        s = self.spec
        spec = prompt_spec(s.prompt, one_shot_classes=s.one_shot_classes, template_path=s.template)
        if self._precedents is not None:
            spec["precedents"] = self._precedents.spec()
        return spec

    def identity(self, samples: Sequence[Sample]) -> dict[str, Any]:
        if self.is_offline():
            ident: dict[str, Any] = {"seed": self._seed()}
            train = self._train_records()
            if train is not None:
                ident["train"] = {"fingerprint": self._train_fingerprint(), "n": len(train)}
            elif self.spec.model == baselines.PREFIX + "tfidf-lr":
                ident["train"] = {"cross_validation_folds": self.spec.cv_folds}
            return ident
        pspec = self._prompt_spec()
        return {"prompt": {**{k: v for k, v in pspec.items() if k != "template"},
                           "messages_hash": self._prompt_hash(samples)}}

    def _prompt_hash(self, samples: Sequence[Sample]) -> str:
        """Hash of every case's exact messages (changes when any prompt text or any case changes)."""
        if self._messages_hash is None:
            self._messages_hash = stable_hash([(s.id, messages_hash(self.messages(s))) for s in samples])
        return self._messages_hash

    def manifest(self, samples: Sequence[Sample]) -> dict[str, Any]:
        if self.is_offline():
            train = self._train_records()
            if train is None:
                return {}
            return {"train": {**self._train_source(), "fingerprint": self._train_fingerprint(), "n": len(train)}}
        return {"prompt": {**self._prompt_spec(), "hash": self._prompt_hash(samples)}}

    def _seed(self) -> int:
        return self.spec.seed if self.spec.seed is not None else 0

    def predict_offline(self, samples: Sequence[Sample]) -> OfflineOutput:
        from jiancha.pdp.answers import render_answer

        name = self.spec.model[len(baselines.PREFIX):]
        kwargs: dict[str, Any] = {"train": self._train_records(), "seed": self._seed()}
        if name == "tfidf-lr":
            kwargs["folds"] = self.spec.cv_folds
        t0 = time.perf_counter()
        output = baselines.get_baseline(self.spec.model)([s.record for s in samples], **kwargs)
        per_case = (time.perf_counter() - t0) / max(1, len(samples))
        info = dict(output.info)
        train = self._train_records()
        if train is not None:
            src = self._train_source()
            split = f", split {src['split']!r}" if src.get("split") else ""
            info.update({"fit_on": f"{src['source']}{split}, {len(train)} records", "train_source": src["source"],
                         "train_split": src["split"]})
        answers = tuple(render_answer(p.decision, list(p.articles), p.analysis) for p in output.predictions)
        return OfflineOutput(answers, info, round(per_case, 6))

    # -- records and scoring --------------------------------------------------------------------------------
    def gold_fields(self, sample: Sample) -> dict[str, Any]:
        r: PDPRecord = sample.record
        if sample.id not in self._charges:
            from jiancha.law.charges import find_charges

            # the charge is named where the case was transferred (涉嫌…罪 in the person block and procedure) more
            # often than in the facts
            self._charges[sample.id] = list(find_charges("\n".join(getattr(r, k) for k in PDP_INPUT_FIELDS)))
        fields = {"gold_decision": r.decision, "gold_articles": list(r.relevant_articles), "date": r.date,
                  "province": r.province, "charges": self._charges[sample.id],
                  "inputs": {k: getattr(r, k) for k in PDP_INPUT_FIELDS}}
        if self._precedents is not None:    # which decided cases this case was shown, most similar first
            fields["precedents"] = [p.to_dict() for p in self._precedents.shown(r)]
        return fields

    def verdict(self, row: dict[str, Any]) -> Verdict:
        from jiancha.pdp.parsing import REQUEST_FAILED, parse_answer

        if row.get("status") != "ok":
            return Verdict(False, REQUEST_FAILED)
        p = parse_answer(row.get("raw_output"), compat=self.spec.compat, finish_reason=row.get("finish_reason"))
        return Verdict(p.valid, p.reason)

    def score(self, run_dir: Path) -> dict[str, Any]:
        from jiancha.pdp.scoring import score_run_dirs

        return score_run_dirs([run_dir], compat=self.spec.compat, write=True)

    def headline(self, metrics: dict[str, Any]) -> dict[str, float]:
        pooled = metrics.get("pooled", metrics)
        return {k: float(pooled[k]) for k in HEADLINE if isinstance(pooled.get(k), int | float)}


def run_pdp_eval(spec: RunSpec, client_config: ClientConfig | None = None, *,
                 records: Sequence[PDPRecord] | None = None, train_records: Sequence[PDPRecord] | None = None,
                 show_progress: bool = False, score: bool = True, console: Console | None = None,
                 batch_out: str | None = None) -> RunSummary:
    """Run ``spec`` into ``spec.out`` (creating or resuming it), then score it unless ``score=False``; with
    ``batch_out``, write the requests to send as a batch-API file instead (see ``run_task``)."""
    task = PDPTask(spec, records=records, train_records=train_records)
    return run_task(task, client_config, show_progress=show_progress, score=score, console=console,
                    batch_out=batch_out)
