"""`jiancha train dapo` / `jiancha train gspo`: RLVR on PDP with TRL's GRPOTrainer.

- DAPO: ``loss_type="dapo"`` (token-level loss normalised over the accumulated batch), asymmetric clipping
  ε = 0.2 / ε_high = 0.28, no KL (β = 0), truncated completions masked out of the loss, 8 rollouts per prompt;
  dynamic sampling optional (:mod:`jiancha.train.dynamic_sampling`).
- GSPO: ``importance_sampling_level="sequence"`` with ``loss_type="grpo"`` (sequence-mean), clipping 3e-4 / 4e-4 as
  the GSPO authors use, and the rollout batch split into 4 mini-batches (``steps_per_generation`` = 4 × gradient
  accumulation) so that later mini-batches are off-policy and the sequence-level clipping acts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jiancha._util.lazy import require
from jiancha.train.config import (
    RLRecipeConfig,
    check_runtime,
    trainer_kwargs,
)
from jiancha.train.data import load_training_records, prepare_rl_rows
from jiancha.train.models import load_tokenizer, lora_config, resolve_model, train_and_save
from jiancha.train.runs import METRICS_FILE, RunResult, run_spec, start_run


def build_reward_funcs(cfg: RLRecipeConfig, train_labels: list[str]) -> list[Any]:
    """The TRL reward functions named in ``cfg.rewards``; class-balance weights come from ``train_labels``."""
    from jiancha.train.rewards import class_balance_weights, make_outcome_reward, make_process_reward

    funcs = []
    for name in cfg.rewards:
        if name == "outcome":
            funcs.append(make_outcome_reward(cfg.reward_compat))  # type: ignore[arg-type]
        else:
            cw = class_balance_weights(train_labels) if cfg.class_balanced else None
            funcs.append(make_process_reward(cfg.process_weights(), cfg.reward_compat,  # type: ignore[arg-type]
                                             class_weights=cw, match=cfg.article_match))  # type: ignore[arg-type]
    return funcs


def grpo_kwargs(cfg: RLRecipeConfig) -> dict[str, Any]:
    """Keyword arguments of ``trl.GRPOConfig`` for a resolved recipe config."""
    kw: dict[str, Any] = {
        **trainer_kwargs(cfg),
        "max_completion_length": cfg.max_completion_length,
        "num_generations": cfg.num_generations,
        "loss_type": cfg.loss_type,
        "epsilon": cfg.epsilon,
        "epsilon_high": cfg.epsilon_high,
        "beta": cfg.beta,
        "mask_truncated_completions": cfg.mask_truncated_completions,
        "importance_sampling_level": "sequence" if cfg.algorithm == "gspo" else "token",
        "num_iterations": cfg.num_iterations,
        "temperature": cfg.temperature,
        "top_p": cfg.top_p,
        "scale_rewards": cfg.scale_rewards,
        "reward_weights": list(cfg.reward_weights) if cfg.reward_weights else None,
        "use_vllm": cfg.use_vllm,
        "log_completions": cfg.log_completions,
        "remove_unused_columns": False,
            }
    if cfg.chat_template_kwargs():
        kw["chat_template_kwargs"] = cfg.chat_template_kwargs()
    if cfg.steps_per_generation is not None:
        kw["steps_per_generation"] = cfg.steps_per_generation
    if cfg.use_vllm:
        kw.update(vllm_mode=cfg.vllm_mode, vllm_gpu_memory_utilization=cfg.vllm_gpu_memory_utilization,
                  vllm_tensor_parallel_size=cfg.vllm_tensor_parallel_size,
                  vllm_max_model_length=cfg.max_prompt_length + cfg.max_completion_length)
    return kw


def run_rl(cfg: RLRecipeConfig, *, console: Any = None) -> RunResult:
    """Train, save ``final/`` (and ``final-merged/`` for LoRA), write ``run.json`` and ``metrics.jsonl``."""
    trl = require("trl", "train")
    from jiancha.train.callbacks import JsonlMetricsCallback

    cfg.validate()
    check_runtime(cfg)
    model = resolve_model(cfg.model)           # fails in seconds on a missing path or an unreachable hub
    cfg = cfg.resolved()
    out = Path(cfg.output_dir)
    tokenizer = load_tokenizer(model)
    data = load_training_records(cfg.data, cfg.split, limit=cfg.limit)
    prepared = prepare_rl_rows(data, tokenizer, variant=cfg.prompt_variant, max_prompt_length=cfg.max_prompt_length,
                               on_long=cfg.on_long_prompt, template_kwargs=cfg.chat_template_kwargs())
    info = prepared.run_info(data, console)
    spec = run_spec(cfg.algorithm, cfg.to_dict(), info)
    resumable = start_run(out, spec, seed=cfg.seed, overwrite=cfg.overwrite)

    from datasets import Dataset

    dataset = Dataset.from_list(prepared.rows)
    args = trl.GRPOConfig(**grpo_kwargs(cfg))
    rewards = build_reward_funcs(cfg, [r["decision"] for r in prepared.rows])
    kwargs: dict[str, Any] = {"model": model, "reward_funcs": rewards, "args": args, "train_dataset": dataset,
                                  "processing_class": tokenizer,
                                  "callbacks": [JsonlMetricsCallback(out / METRICS_FILE, console=console)],
                                  "peft_config": lora_config(cfg) if cfg.use_lora else None}
    if cfg.dynamic_sampling:
        from jiancha.train.dynamic_sampling import DynamicSamplingGRPOTrainer

        trainer = DynamicSamplingGRPOTrainer(**kwargs, dynamic_sampling_max_rounds=cfg.dynamic_sampling_max_rounds)
    else:
        trainer = trl.GRPOTrainer(**kwargs)
    return train_and_save(trainer, tokenizer, out, resumable=resumable, merge=cfg.use_lora and cfg.merge_lora)
