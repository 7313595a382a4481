"""Model-side helpers shared by the recipes: tokenizer loading, LoRA config, saving the final model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jiancha._util.lazy import require
from jiancha.train.runs import FINAL_DIR, MERGED_DIR


def lora_config(cfg: Any) -> Any:
    peft = require("peft", "train")
    return peft.LoraConfig(task_type="CAUSAL_LM", r=cfg.lora_r, lora_alpha=cfg.lora_alpha,
                           lora_dropout=cfg.lora_dropout, target_modules=list(cfg.lora_target_modules))


def save_final(trainer: Any, tokenizer: Any, out: Path, *, merge: bool) -> tuple[Path, Path | None]:
    final = out / FINAL_DIR
    trainer.save_model(str(final))             # handles distributed saving itself
    if not trainer.accelerator.is_main_process:
        return final, (out / MERGED_DIR if merge else None)
    tokenizer.save_pretrained(str(final))
    merged_dir = None
    model = trainer.accelerator.unwrap_model(trainer.model)
    if merge and hasattr(model, "merge_and_unload"):
        merged_dir = out / MERGED_DIR
        merged = model.merge_and_unload()
        merged.save_pretrained(str(merged_dir))
        tokenizer.save_pretrained(str(merged_dir))
    return final, merged_dir


def resolve_model(model: str) -> str:
    """The local directory (or reachable hub id) to load ``model`` from: a missing local path or an unreachable
    hub fails at once with a ConfigError saying what to do; a model already in the Hugging Face cache loads
    offline (see :func:`jiancha.datasets.model_source.resolve_model_source`)."""
    from jiancha.datasets.model_source import resolve_model_source

    return resolve_model_source(model, option="--model", extra="train")


def load_tokenizer(model: str) -> Any:
    transformers = require("transformers", "train")
    tok = transformers.AutoTokenizer.from_pretrained(model)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    return tok


TRAINER_STATE_FILE = "trainer_state.json"


def checkpoint_complete(checkpoint: str | Path, max_steps: int) -> bool:
    """Whether a checkpoint was saved at (or past) ``max_steps`` (a positive step budget), i.e. its run is done."""
    from jiancha._util.io import read_json

    state = Path(checkpoint) / TRAINER_STATE_FILE
    if max_steps is None or max_steps <= 0 or not state.is_file():
        return False
    return int(read_json(state).get("global_step", 0)) >= max_steps


def train_and_save(trainer: Any, tokenizer: Any, out: Path, *, resumable: bool, merge: bool) -> Any:
    """Train (from the last checkpoint when the run directory is resumable), save ``final/`` (and
    ``final-merged/`` with ``merge``), record the end of the run in ``run.json``; returns the RunResult."""
    from jiancha.train.runs import METRICS_FILE, RunResult, finish_run, last_checkpoint

    resume = last_checkpoint(out) if resumable else None
    if resume is not None and checkpoint_complete(resume, trainer.args.max_steps):
        # the run already reached max_steps: transformers would train one step past it when resumed from its
        # last checkpoint, so the checkpoint's weights and state are loaded instead and nothing is trained
        transformers = require("transformers", "train")
        trainer._load_from_checkpoint(resume)
        trainer.state = transformers.TrainerState.load_from_json(str(Path(resume) / TRAINER_STATE_FILE))
        metrics: dict[str, Any] = {}
    else:
        metrics = dict(trainer.train(resume_from_checkpoint=resume).metrics)
    final, merged = save_final(trainer, tokenizer, out, merge=merge)
    finish_run(out, final_dir=str(final), merged_dir=str(merged) if merged else None,
               resumed_from=resume, global_step=trainer.state.global_step, train_metrics=metrics)
    return RunResult(out, final, merged, out / METRICS_FILE, trainer.state.global_step, metrics)
