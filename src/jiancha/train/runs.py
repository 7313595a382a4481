"""The run directory of a training recipe: ``run.json`` (config, versions, data fingerprint, seed) and the
refusal to mix a new run into a directory made with other settings.

Layout::

    <output_dir>/run.json           spec (recipe, config, data), seed, environment, start/end, final metrics
    <output_dir>/metrics.jsonl      one line per trainer log step
    <output_dir>/checkpoint-N/      trainer checkpoints (resumed automatically when the spec matches)
    <output_dir>/final/             the trained model (or LoRA adapter) and tokenizer
    <output_dir>/final-merged/      LoRA merged into the base model (with --use-lora and --merge-lora)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jiancha._util.io import read_json, write_json
from jiancha._util.provenance import environment_info, now_iso, package_versions
from jiancha.errors import ResumeMismatchError

RUN_FILE = "run.json"
METRICS_FILE = "metrics.jsonl"
FINAL_DIR = "final"
MERGED_DIR = "final-merged"
_TRAIN_PACKAGES = ("peft", "accelerate", "tokenizers", "deepspeed", "vllm")
#: Settings that do not change what is trained.
_IGNORED = {"overwrite", "report_to", "logging_steps", "save_total_limit"}


@dataclass(frozen=True)
class RunResult:
    output_dir: Path
    final_dir: Path
    merged_dir: Path | None
    metrics_path: Path
    global_step: int
    train_metrics: dict[str, Any]


def run_spec(recipe: str, config: dict[str, Any], data_info: dict[str, Any]) -> dict[str, Any]:
    return {"recipe": recipe, "config": config, "data": data_info}


def _comparable(spec: dict[str, Any]) -> dict[str, Any]:
    cfg = {k: v for k, v in spec.get("config", {}).items() if k not in _IGNORED}
    return {"recipe": spec.get("recipe"), "config": cfg, "data_fingerprint": spec.get("data", {}).get("fingerprint")}


def _diff(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    a, b = _comparable(old), _comparable(new)
    out = [k for k in ("recipe", "data_fingerprint") if a.get(k) != b.get(k)]
    keys = sorted(set(a["config"]) | set(b["config"]))
    out += [f"{k} ({a['config'].get(k)!r} -> {b['config'].get(k)!r})" for k in keys
            if a["config"].get(k) != b["config"].get(k)]
    return out


def is_main_process() -> bool:
    """Rank 0 of a distributed launch (or a single process): the one that writes run files."""
    return int(os.environ.get("RANK", "0") or 0) == 0


def start_run(output_dir: str | Path, spec: dict[str, Any], *, seed: int, overwrite: bool = False) -> bool:
    """Write ``run.json``; refuse (ResumeMismatchError) when the directory holds a run with another spec.

    Returns whether the directory's checkpoints may be resumed (same spec as before). Only the main process
    writes; every process checks.
    """
    out = Path(output_dir)
    path = out / RUN_FILE
    same = False
    if path.is_file():
        old = read_json(path)
        diff = _diff(old.get("spec", {}), spec)
        same = not diff
        if diff and not overwrite:
            raise ResumeMismatchError(
                f"{out} holds a run made with other settings ({'; '.join(diff[:8])}); use another --output-dir, "
                "or pass --overwrite to replace it")
    if not is_main_process():
        return same
    out.mkdir(parents=True, exist_ok=True)
    env = environment_info()
    env["packages"].update(package_versions(_TRAIN_PACKAGES))
    write_json(path, {"spec": spec, "seed": seed, "environment": env, "started_at": now_iso(),
                      "finished_at": None})
    return same


def finish_run(output_dir: str | Path, **fields: Any) -> None:
    if not is_main_process():
        return
    path = Path(output_dir) / RUN_FILE
    doc = read_json(path)
    doc.update(fields)
    doc["finished_at"] = now_iso()
    write_json(path, doc)


def last_checkpoint(output_dir: str | Path) -> str | None:
    """The newest ``checkpoint-N`` directory under ``output_dir`` (None when there is none)."""
    out = Path(output_dir)
    if not out.is_dir():
        return None
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(out))
