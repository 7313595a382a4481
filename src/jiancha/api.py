"""The small public API: load a PDP dataset, evaluate a model on it, score run directories, search cases.

Everything returns typed records; the full scorer output stays available as ``PDPScores.details``.

>>> import jiancha
>>> records = jiancha.load_pdp("sample")
>>> len(records), records[0].decision in ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")
(60, True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jiancha.datasets.records import PDPRecord
from jiancha.evaluation.summary import RunSummary
from jiancha.retrieval.search import SearchHit

__all__ = ["MeanSE", "PDPScores", "SearchHit", "evaluate", "load_pdp", "score", "search"]


@dataclass(frozen=True)
class MeanSE:
    """A metric over repeats: mean and standard error (sample sd / √runs; 0 for one run)."""

    mean: float
    se: float


@dataclass(frozen=True)
class PDPScores:
    """The headline PDP figures of scored run directories (pooled over every record and repeat), the paper's
    mean ± SE over repeats, and the scorer's complete output in ``details``."""

    level1_macro_f1: float
    level1_micro_f1: float
    level2_macro_f1: float
    level2_micro_f1: float
    articles_f1: float
    per_class_f1: dict[str, float]
    invalid: int                       # predictions that did not parse (failed requests included)
    records: int                       # (case, repeat) pairs scored
    runs: int
    mean_se: dict[str, MeanSE]
    compat: str
    details: dict[str, Any]


def load_pdp(source: str = "sample", split: str = "test") -> list[PDPRecord]:
    """PDP records from ``sample`` (the bundled fictional set), a hub id (``Julian2002/PDP-Bench``), a
    ``save_to_disk`` folder, an export folder, or a JSONL / JSON / Parquet file."""
    from jiancha.datasets.pdp import load_pdp as _load

    return _load(source, split)


def evaluate(model: str, data: str, out: str | os.PathLike, *, split: str = "test", prompt: str = "baseline",
             repeats: int = 1, limit: int | None = None, seed: int | None = None,
             base_urls: Sequence[str] = (), records: Sequence[PDPRecord] | None = None,
             **settings: Any) -> RunSummary:
    """Run ``model`` (``openrouter:…``, ``vllm:…``, ``baseline:rules``…) over a PDP split into the run directory
    ``out`` (resumed when it exists), score it, and return what the run did with its metrics. Further keyword
    arguments are ``RunSpec`` fields (``generation=GenerationConfig(...)``, ``one_shot_classes``…)."""
    from jiancha.pdp.spec import RunSpec
    from jiancha.pdp.task import run_pdp_eval

    spec = RunSpec(model=model, data=data, out=str(out), split=split, prompt=prompt, repeats=repeats, limit=limit,
                   seed=seed, base_urls=tuple(base_urls), **settings)
    return run_pdp_eval(spec, records=records)


def score(run_dirs: str | os.PathLike | Sequence[str | os.PathLike], *, compat: str = "default",
          write: bool = False) -> PDPScores:
    """Score one or more PDP run directories (this project's, or the reference code's ``details_*.json``
    directories); ``compat="reference"`` reproduces the published numbers exactly."""
    from jiancha.pdp.scoring import score_run_dirs

    dirs = [run_dirs] if isinstance(run_dirs, str | os.PathLike) else list(run_dirs)
    r = score_run_dirs(dirs, compat=compat, write=write)
    p = r["pooled"]
    return PDPScores(
        level1_macro_f1=p["decision_level1_macro_f1"], level1_micro_f1=p["decision_level1_micro"]["f1"],
        level2_macro_f1=p["decision_level2_macro_f1"], level2_micro_f1=p["decision_level2_micro"]["f1"],
        articles_f1=p["articles_f1"], per_class_f1={k: v["f1"] for k, v in p["decision_per_class"].items()},
        invalid=p["decision_parse_fail_count"], records=p["decision_eval_count"], runs=len(r["per_run"]),
        mean_se={k: MeanSE(v["mean"], v["se"]) for k, v in r["mean_se"].items()}, compat=compat, details=r)


def search(text: str, index: str | os.PathLike, k: int = 10) -> list[SearchHit]:
    """The ``k`` cases of a persisted index (``jiancha retrieval index SRC --out DIR``) most similar to the facts
    in ``text``, best first: each with its charges, decision or sentence, the matching passage and why it ranks
    there."""
    from jiancha.retrieval.search import SearchIndex

    return SearchIndex.load(index).search(text, k)
