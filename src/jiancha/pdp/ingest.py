"""``jiancha pdp ingest``: batch-API results into a PDP run directory made by ``jiancha pdp eval --batch-out``."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path
from typing import Any

from jiancha.errors import ConfigError
from jiancha.evaluation.batchrun import IngestReport, ingest_results
from jiancha.llm.config import GenerationConfig
from jiancha.pdp.spec import RunSpec

_TUPLES = ("base_urls", "one_shot_classes")


def spec_from_manifest(manifest: dict[str, Any], run_dir: str | os.PathLike) -> RunSpec:
    """The RunSpec a run directory's manifest records (``spec``), with ``out`` set to ``run_dir``."""
    d = manifest.get("spec")
    if not isinstance(d, dict) or manifest.get("task", "pdp") != "pdp":
        raise ConfigError(f"{run_dir} is not a PDP run directory made by 'jiancha pdp eval' (its manifest has no "
                          "PDP 'spec'); pass the --out directory of the 'pdp eval --batch-out' command")
    names = {f.name for f in fields(RunSpec)}
    kw = {k: v for k, v in d.items() if k in names}
    kw["generation"] = GenerationConfig(**(kw.get("generation") or {}))
    for k in _TUPLES:
        if kw.get(k) is not None:
            kw[k] = tuple(kw[k])
    kw["out"] = str(run_dir)
    kw["retry_failed"] = False
    return RunSpec(**kw)


def ingest_pdp(run_dir: str | os.PathLike, result_files: Iterable[str | os.PathLike]) -> IngestReport:
    """Store batch results in a PDP run directory (see ``jiancha.evaluation.batchrun.ingest_results``)."""
    from jiancha.llm.store import RunStore
    from jiancha.pdp.task import PDPTask

    manifest = RunStore(Path(run_dir)).read_manifest()
    if manifest is None:
        raise ConfigError(f"{run_dir} is not a run directory (no manifest.json); create it with 'jiancha pdp eval "
                          "... --out DIR --batch-out FILE', submit FILE, then ingest the results into DIR")
    task = PDPTask(spec_from_manifest(manifest, run_dir))
    if task.is_offline():
        raise ConfigError(f"{run_dir} is a run of the offline baseline {task.spec.model}, which sends no requests")
    return ingest_results(task, result_files)
