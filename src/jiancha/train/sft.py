"""`jiancha train sft`: supervised fine-tuning on gold PDP answers with TRL's SFTTrainer.

Data: conversational prompt/completion rows (the prompt variant's messages; the gold answer rendered in the
three-section format, with the document's reasoning as the analysis, as the assistant turn). Loss on the
completion only (default), on assistant turns only (``loss_on="assistant"``, needs ``{% generation %}`` markers),
or on everything. Sequences are never truncated by the trainer: ``max_length`` is the sum of the prompt and
completion limits and longer rows are reported (and dropped or fatal) before training.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jiancha._util.lazy import require
from jiancha.train.config import (
    SFTRecipeConfig,
    check_runtime,
    trainer_kwargs,
)
from jiancha.train.data import load_training_records, prepare_sft_rows
from jiancha.train.models import load_tokenizer, lora_config, resolve_model, train_and_save
from jiancha.train.runs import METRICS_FILE, RunResult, run_spec, start_run


def sft_kwargs(cfg: SFTRecipeConfig) -> dict[str, Any]:
    """Keyword arguments of ``trl.SFTConfig``."""
    kw: dict[str, Any] = {
        **trainer_kwargs(cfg),
        "max_length": cfg.max_prompt_length + cfg.max_completion_length,
        "completion_only_loss": cfg.loss_on == "completion",
        "assistant_only_loss": cfg.loss_on == "assistant",
            }
    return kw


def run_sft(cfg: SFTRecipeConfig, *, console: Any = None) -> RunResult:
    """Train, save ``final/`` (and ``final-merged/`` for LoRA), write ``run.json`` and ``metrics.jsonl``."""
    trl = require("trl", "train")
    from datasets import Dataset

    from jiancha.train.callbacks import JsonlMetricsCallback

    cfg.validate()
    check_runtime(cfg)
    model = resolve_model(cfg.model)           # fails in seconds on a missing path or an unreachable hub
    out = Path(cfg.output_dir)
    tokenizer = load_tokenizer(model)
    data = load_training_records(cfg.data, cfg.split, limit=cfg.limit)
    prepared = prepare_sft_rows(data, tokenizer, variant=cfg.prompt_variant, max_prompt_length=cfg.max_prompt_length,
                                max_completion_length=cfg.max_completion_length, on_long=cfg.on_long_prompt,
                                think_prefix=cfg.think_prefix, template_kwargs=cfg.chat_template_kwargs())
    info = prepared.run_info(data, console)
    resumable = start_run(out, run_spec("sft", cfg.to_dict(), info), seed=cfg.seed, overwrite=cfg.overwrite)

    keep = ("prompt", "completion", "chat_template_kwargs")
    rows = [{k: r[k] for k in keep if k in r} for r in prepared.rows]
    trainer = trl.SFTTrainer(model=model, args=trl.SFTConfig(**sft_kwargs(cfg)),
                             train_dataset=Dataset.from_list(rows), processing_class=tokenizer,
                             peft_config=lora_config(cfg) if cfg.use_lora else None,
                             callbacks=[JsonlMetricsCallback(out / METRICS_FILE, console=console)])
    return train_and_save(trainer, tokenizer, out, resumable=resumable, merge=cfg.use_lora and cfg.merge_lora)
