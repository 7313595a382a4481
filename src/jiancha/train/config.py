"""Recipe configs: dataclasses whose fields are the CLI flags (``--max-prompt-length``) and the YAML keys
(``max_prompt_length``). Values are layered: field defaults < preset < YAML file < command-line flags, then
validated up front; every error names the constraint and the fix.

Presets are YAML files shipped in ``jiancha/train/presets/`` with sections ``common``, ``sft``, ``rl`` (both RL
algorithms), ``dapo`` and ``gspo``; a recipe takes ``common``, then ``sft`` or ``rl``, then its own section.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import types
import typing
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from jiancha.errors import ConfigError

RecipeKind = Literal["sft", "dapo", "gspo"]
RECIPES: tuple[str, ...] = ("sft", "dapo", "gspo")
REWARD_NAMES: tuple[str, ...] = ("outcome", "process")
LONG_PROMPT_POLICIES: tuple[str, ...] = ("fail", "drop")
SFT_LOSS_ON: tuple[str, ...] = ("completion", "assistant", "all")
SCALE_REWARDS: tuple[str, ...] = ("group", "batch", "none")
REPORT_TO: tuple[str, ...] = ("none", "wandb")
VLLM_MODES: tuple[str, ...] = ("colocate", "server")

#: Algorithm defaults applied when a field is left unset (None).
ALGORITHM_DEFAULTS: dict[str, dict[str, Any]] = {
    # DAPO (Yu et al.): token-level loss over the accumulated batch, asymmetric clipping, no KL.
    "dapo": {"loss_type": "dapo", "epsilon": 0.2, "epsilon_high": 0.28},
    # GSPO (Zheng et al.): sequence-level ratios, sequence-mean loss, the GSPO paper's clipping ranges (3e-4, 4e-4),
    # and a rollout batch split into 4 mini-batches so that updates are off-policy and the clipping acts. (The
    # PDP reference code runs GSPO with a symmetric 0.2 instead: the `paper` preset sets that.)
    "gspo": {"loss_type": "grpo", "epsilon": 3e-4, "epsilon_high": 4e-4},
}


def _h(text: str) -> dict[str, str]:
    return {"help": text}


@dataclass(frozen=True)
class TrainConfig:
    """Settings shared by every recipe."""

    model: str = field(default="", metadata=_h("Model path or hub id (a merged checkpoint, not an adapter)."))
    data: str = field(default="", metadata=_h(
        "Training data: a folder written by `jiancha train splits` (with --split), a PDP .jsonl/.json/.parquet "
        "file, or any `load_pdp` source."))
    split: str = field(default="balanced", metadata=_h("Split to train on when --data is a splits folder."))
    output_dir: str = field(default="", metadata=_h("Run directory: run.json, metrics.jsonl, checkpoints, final/."))
    prompt_variant: str = field(default="baseline", metadata=_h("Prompt variant (jiancha.pdp.prompts)."))
    enable_thinking: bool | None = field(default=None, metadata=_h(
        "Pass enable_thinking to the chat template (Qwen3 and similar); unset: the template's default."))
    seed: int = field(default=42, metadata=_h("Random seed (data order, sampling, initialisation)."))
    epochs: float = field(default=1.0, metadata=_h("Number of training epochs."))
    max_steps: int = field(default=-1, metadata=_h("Stop after this many optimizer steps (-1: use epochs)."))
    per_device_batch_size: int = field(default=8, metadata=_h("Per-device train batch size (completions for RL)."))
    gradient_accumulation_steps: int = field(default=1, metadata=_h("Gradient accumulation steps."))
    learning_rate: float = field(default=1e-5, metadata=_h("Peak learning rate."))
    max_prompt_length: int = field(default=1536, metadata=_h("Longest prompt in tokens (chat template applied)."))
    max_completion_length: int = field(default=1536, metadata=_h("Longest completion / SFT target in tokens."))
    on_long_prompt: str = field(default="fail", metadata=_h(
        "Rows longer than the limits: 'fail' (list them and stop) or 'drop' (list them and train without)."))
    limit: int | None = field(default=None, metadata=_h("Use only the first N training rows (smoke tests)."))
    bf16: bool = field(default=False, metadata=_h("Train in bfloat16 (needs a GPU)."))
    gradient_checkpointing: bool = field(default=False, metadata=_h("Trade compute for memory."))
    use_lora: bool = field(default=False, metadata=_h("Train a LoRA adapter instead of the full model."))
    lora_r: int = field(default=16, metadata=_h("LoRA rank."))
    lora_alpha: int = field(default=32, metadata=_h("LoRA alpha."))
    lora_dropout: float = field(default=0.05, metadata=_h("LoRA dropout."))
    lora_target_modules: tuple[str, ...] = field(
        default=("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"),
        metadata=_h("Modules that get LoRA adapters (comma-separated)."))
    merge_lora: bool = field(default=True, metadata=_h(
        "With --use-lora, also save a merged model in final-merged/ (what `vllm serve` needs)."))
    logging_steps: int = field(default=1, metadata=_h("Log every N optimizer steps."))
    save_steps: int = field(default=500, metadata=_h("Save a checkpoint every N optimizer steps."))
    save_total_limit: int | None = field(default=None, metadata=_h("Keep at most N checkpoints."))
    report_to: str = field(default="none", metadata=_h("Extra logging backend: 'none' or 'wandb'."))
    deepspeed: str | None = field(default=None, metadata=_h(
        "DeepSpeed config: a JSON path, a bundled name ('zero2-offload') or 'none'."))
    use_cpu: bool = field(default=False, metadata=_h("Force training on CPU."))
    overwrite: bool = field(default=False, metadata=_h(
        "Allow reusing an output directory whose run.json was made with other settings."))

    # ---------------------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    def chat_template_kwargs(self) -> dict[str, Any]:
        return {} if self.enable_thinking is None else {"enable_thinking": self.enable_thinking}

    def world_size(self) -> int:
        return int(os.environ.get("WORLD_SIZE", "1") or 1)

    def validate(self) -> None:
        """Raise ConfigError on the first invalid setting or combination."""
        for name in ("model", "data", "output_dir"):
            if not getattr(self, name):
                raise ConfigError(f"'{name}' is not set; pass --{name.replace('_', '-')} or set it in the YAML "
                                  "config or preset")
        for name in ("per_device_batch_size", "gradient_accumulation_steps", "max_prompt_length",
                     "max_completion_length", "logging_steps", "save_steps", "lora_r", "lora_alpha"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"'{name}' must be positive, got {getattr(self, name)}")
        if self.epochs <= 0 and self.max_steps <= 0:
            raise ConfigError(f"nothing to train: epochs={self.epochs} and max_steps={self.max_steps}; "
                              "set a positive --epochs or --max-steps")
        if self.learning_rate <= 0:
            raise ConfigError(f"'learning_rate' must be positive, got {self.learning_rate}")
        if not 0 <= self.lora_dropout < 1:
            raise ConfigError(f"'lora_dropout' must be in [0, 1), got {self.lora_dropout}")
        if self.limit is not None and self.limit <= 0:
            raise ConfigError(f"'limit' must be positive when set, got {self.limit}")
        _choice("on_long_prompt", self.on_long_prompt, LONG_PROMPT_POLICIES)
        _choice("report_to", self.report_to, REPORT_TO)
        if self.bf16 and self.use_cpu:
            raise ConfigError("bf16 needs a GPU but use_cpu is set; pass --no-bf16 (or drop --use-cpu)")
        if self.use_lora and not self.lora_target_modules:
            raise ConfigError("use_lora is set but lora_target_modules is empty; name the modules to adapt")
        from jiancha.pdp.prompts import EXTERNAL_VARIANTS, VARIANT_ALIASES, VARIANTS

        if self.prompt_variant not in VARIANTS and self.prompt_variant not in VARIANT_ALIASES:
            raise ConfigError(f"unknown prompt_variant {self.prompt_variant!r}; expected one of "
                              f"{', '.join(VARIANTS)}")
        variant = VARIANT_ALIASES.get(self.prompt_variant, self.prompt_variant)
        if variant in EXTERNAL_VARIANTS:
            raise ConfigError(f"prompt_variant {self.prompt_variant!r} needs material from outside the record (a "
                              "template file or a precedent pool), which training does not take; use one of "
                              f"{', '.join(v for v in VARIANTS if v not in EXTERNAL_VARIANTS)}")


@dataclass(frozen=True)
class SFTRecipeConfig(TrainConfig):
    """`jiancha train sft`: supervised fine-tuning on gold answers (prompt/completion chat data)."""

    loss_on: str = field(default="completion", metadata=_h(
        "Tokens that carry the loss: 'completion' (the gold answer), 'assistant' (assistant turns, needs "
        "{% generation %} markers in the chat template) or 'all'."))
    think_prefix: str = field(default="", metadata=_h(
        "Text put before every SFT target (e.g. '<think>\\n\\n</think>\\n\\n' for Qwen3 non-thinking)."))

    def validate(self) -> None:
        super().validate()
        _choice("loss_on", self.loss_on, SFT_LOSS_ON)


@dataclass(frozen=True)
class RLRecipeConfig(TrainConfig):
    """`jiancha train dapo|gspo`: RLVR with TRL's GRPOTrainer."""

    algorithm: str = field(default="dapo", metadata=_h("'dapo' or 'gspo' (set by the command)."))
    num_generations: int = field(default=8, metadata=_h("Completions sampled per prompt (group size)."))
    epsilon: float | None = field(default=None, metadata=_h("Lower clip range (dapo 0.2, gspo 3e-4)."))
    epsilon_high: float | None = field(default=None, metadata=_h("Upper clip range (dapo 0.28, gspo 4e-4)."))
    beta: float = field(default=0.0, metadata=_h("KL coefficient (0: no reference model)."))
    loss_type: str | None = field(default=None, metadata=_h("TRL loss_type (dapo: 'dapo', gspo: 'grpo')."))
    mask_truncated_completions: bool = field(default=True, metadata=_h(
        "Leave completions that hit max_completion_length out of the loss."))
    steps_per_generation: int | None = field(default=None, metadata=_h(
        "Optimizer micro-steps per rollout batch (TRL default: gradient_accumulation_steps; gspo: 4x that)."))
    num_iterations: int = field(default=1, metadata=_h("Optimisation passes per rollout batch."))
    temperature: float = field(default=1.0, metadata=_h("Sampling temperature."))
    top_p: float = field(default=1.0, metadata=_h("Sampling top-p."))
    scale_rewards: str = field(default="group", metadata=_h("Advantage scaling: 'group', 'batch' or 'none'."))
    rewards: tuple[str, ...] = field(default=("outcome",), metadata=_h(
        "Reward functions (comma-separated): 'outcome' (the paper's 1/0.1/0), 'process'."))
    reward_weights: tuple[float, ...] | None = field(default=None, metadata=_h(
        "Weights of the reward functions (comma-separated; default 1 each)."))
    reward_compat: str = field(default="default", metadata=_h(
        "Answer parsing in rewards: 'default' (evaluation's parser) or 'reference' (the published reward)."))
    process_weight_decision: float = field(default=0.5, metadata=_h("Process reward: decision correctness."))
    process_weight_level1: float = field(default=0.2, metadata=_h("Process reward: Level-1 (P vs NP)."))
    process_weight_articles: float = field(default=0.2, metadata=_h("Process reward: article-citation F1."))
    process_weight_format: float = field(default=0.1, metadata=_h("Process reward: format validity."))
    article_match: str = field(default="exact", metadata=_h(
        "Article F1 granularity: 'exact' (paragraph and item) or 'article'."))
    class_balanced: bool = field(default=False, metadata=_h(
        "Scale the process reward by N/(K*n_class) of the training split (needs scale_rewards batch/none)."))
    dynamic_sampling: bool = field(default=False, metadata=_h(
        "DAPO dynamic sampling: drop prompt groups whose rewards are all equal and refill the batch."))
    dynamic_sampling_max_rounds: int = field(default=4, metadata=_h(
        "Most generation rounds per batch with dynamic sampling; then the rest is filled with dropped groups."))
    use_vllm: bool = field(default=False, metadata=_h("Generate with vLLM."))
    vllm_mode: str = field(default="colocate", metadata=_h("'colocate' (same GPUs) or 'server'."))
    vllm_gpu_memory_utilization: float = field(default=0.5, metadata=_h("vLLM GPU memory share (colocate)."))
    vllm_tensor_parallel_size: int = field(default=1, metadata=_h("vLLM tensor parallel size (colocate)."))
    log_completions: bool = field(default=False, metadata=_h("Print sample completions at each log step."))

    def resolved(self) -> RLRecipeConfig:
        """A copy with algorithm defaults filled in for fields left unset."""
        _choice("algorithm", self.algorithm, tuple(ALGORITHM_DEFAULTS))
        updates = {k: v for k, v in ALGORITHM_DEFAULTS[self.algorithm].items() if getattr(self, k) is None}
        if self.algorithm == "gspo" and self.steps_per_generation is None:
            updates["steps_per_generation"] = 4 * self.gradient_accumulation_steps
        return dataclasses.replace(self, **updates)

    def validate(self) -> None:
        super().validate()
        c = self.resolved()
        if c.num_generations < 2:
            raise ConfigError(f"num_generations must be >= 2 for group-relative advantages, got {c.num_generations}")
        spg = c.steps_per_generation or c.gradient_accumulation_steps
        gen_batch = c.per_device_batch_size * self.world_size() * spg
        if gen_batch % c.num_generations:
            raise ConfigError(
                f"the rollout batch (per_device_batch_size {c.per_device_batch_size} x {self.world_size()} "
                f"process(es) x steps_per_generation {spg} = {gen_batch} completions) must be a multiple of "
                f"num_generations ({c.num_generations}); change per_device_batch_size, "
                "gradient_accumulation_steps/steps_per_generation or num_generations")
        if c.epsilon is None or c.epsilon <= 0:
            raise ConfigError(f"epsilon must be positive, got {c.epsilon}")
        if c.epsilon_high is not None and c.epsilon_high < c.epsilon:
            raise ConfigError(f"epsilon_high ({c.epsilon_high}) must be >= epsilon ({c.epsilon}); DAPO's "
                              "clip-higher uses e.g. 0.2 / 0.28")
        if c.beta < 0:
            raise ConfigError(f"beta must be >= 0, got {c.beta}")
        if c.num_iterations < 1:
            raise ConfigError(f"num_iterations must be >= 1, got {c.num_iterations}")
        if c.steps_per_generation is not None and c.steps_per_generation < 1:
            raise ConfigError(f"steps_per_generation must be >= 1, got {c.steps_per_generation}")
        if c.temperature <= 0 or not 0 < c.top_p <= 1:
            raise ConfigError(f"need temperature > 0 and 0 < top_p <= 1, got {c.temperature}, {c.top_p}")
        _choice("scale_rewards", c.scale_rewards, SCALE_REWARDS)
        _choice("reward_compat", c.reward_compat, ("default", "reference"))
        _choice("article_match", c.article_match, ("exact", "article"))
        _choice("vllm_mode", c.vllm_mode, VLLM_MODES)
        if not c.rewards:
            raise ConfigError(f"no reward function; set rewards to one or more of {', '.join(REWARD_NAMES)}")
        for r in c.rewards:
            _choice("rewards", r, REWARD_NAMES)
        if len(set(c.rewards)) != len(c.rewards):
            raise ConfigError(f"rewards lists a function twice: {', '.join(c.rewards)}")
        if c.reward_weights is not None and len(c.reward_weights) != len(c.rewards):
            raise ConfigError(f"reward_weights has {len(c.reward_weights)} values for {len(c.rewards)} reward "
                              f"functions ({', '.join(c.rewards)}); give one weight per function")
        if min(c.process_weight_decision, c.process_weight_level1, c.process_weight_articles,
               c.process_weight_format) < 0:
            raise ConfigError("process reward weights must be >= 0")
        if c.class_balanced:
            if "process" not in c.rewards:
                raise ConfigError("class_balanced scales the process reward, but rewards does not include "
                                  "'process'; add it (--rewards outcome,process) or drop --class-balanced")
            if c.scale_rewards == "group":
                raise ConfigError(
                    "class_balanced has no effect with scale_rewards='group': every completion of a prompt shares "
                    "its gold class, so dividing by the group's standard deviation cancels the class weight; set "
                    "--scale-rewards batch (or none)")
        if c.dynamic_sampling:
            if self.world_size() > 1:
                raise ConfigError("dynamic_sampling is implemented for a single training process; run on one "
                                  "process or drop --dynamic-sampling")
            if c.dynamic_sampling_max_rounds < 1:
                raise ConfigError(f"dynamic_sampling_max_rounds must be >= 1, got {c.dynamic_sampling_max_rounds}")
        if c.use_vllm and c.use_cpu:
            raise ConfigError("use_vllm needs a GPU but use_cpu is set; drop one of them")
        if not 0 < c.vllm_gpu_memory_utilization <= 1:
            raise ConfigError(f"vllm_gpu_memory_utilization must be in (0, 1], got {c.vllm_gpu_memory_utilization}")

    def process_weights(self):
        from jiancha.train.rewards import ProcessWeights

        return ProcessWeights(self.process_weight_decision, self.process_weight_level1,
                              self.process_weight_articles, self.process_weight_format)


CONFIG_CLASSES: dict[str, type[TrainConfig]] = {"sft": SFTRecipeConfig, "dapo": RLRecipeConfig,
                                                 "gspo": RLRecipeConfig}


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        hint = difflib.get_close_matches(str(value), choices, n=1)
        raise ConfigError(f"'{name}' is {value!r}; expected one of {', '.join(choices)}"
                          + (f" (did you mean {hint[0]!r}?)" if hint else ""))


# ------------------------------------------------------------------------------------------------------------
# layering


def preset_names() -> tuple[str, ...]:
    root = resources.files("jiancha.train") / "presets"
    return tuple(sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".yaml")))


def load_preset(name: str, kind: RecipeKind) -> dict[str, Any]:
    """The flat key/value layer of preset ``name`` for recipe ``kind``."""
    import yaml

    if name not in preset_names():
        raise ConfigError(f"unknown preset {name!r}; expected one of {', '.join(preset_names())}")
    text = (resources.files("jiancha.train") / "presets" / f"{name}.yaml").read_text(encoding="utf-8")
    doc = yaml.safe_load(text) or {}
    # ``extends: OTHER`` starts from preset OTHER's layer, so a variant states only what it changes.
    base = doc.get("extends")
    if base == name:
        raise ConfigError(f"preset {name!r} extends itself; name another preset in its 'extends' key")
    out: dict[str, Any] = load_preset(base, kind) if base else {}
    for section in ("common", "sft" if kind == "sft" else "rl", kind):
        out.update(doc.get(section) or {})
    return out


def trainer_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """The ``transformers.TrainingArguments`` keywords every recipe shares (SFTConfig and GRPOConfig add theirs)."""
    kw: dict[str, Any] = {
        "output_dir": cfg.output_dir,
        "seed": cfg.seed,
        "num_train_epochs": cfg.epochs,
        "max_steps": cfg.max_steps,
        "per_device_train_batch_size": cfg.per_device_batch_size,
        "gradient_accumulation_steps": cfg.gradient_accumulation_steps,
        "learning_rate": cfg.learning_rate,
        "bf16": cfg.bf16,
        "use_cpu": cfg.use_cpu,
        "gradient_checkpointing": cfg.gradient_checkpointing,
        "logging_steps": cfg.logging_steps,
        "save_strategy": "steps",
        "save_steps": cfg.save_steps,
        "save_total_limit": cfg.save_total_limit,
        "report_to": [] if cfg.report_to == "none" else [cfg.report_to],
        "model_init_kwargs": {"dtype": "bfloat16" if cfg.bf16 else "float32"},
    }
    if deepspeed_enabled(cfg.deepspeed):
        kw["deepspeed"] = bundled_deepspeed(cfg.deepspeed)  # type: ignore[arg-type]
    if cfg.gradient_checkpointing:
        kw["gradient_checkpointing_kwargs"] = {"use_reentrant": False}
    return kw


def deepspeed_enabled(name: str | None) -> bool:
    return bool(name) and str(name).lower() != "none"


def check_runtime(cfg: TrainConfig) -> None:
    """Optional packages the settings need, checked before any model loads."""
    import importlib.util

    needs = []
    if deepspeed_enabled(cfg.deepspeed):
        needs.append(("deepspeed", "--deepspeed none"))
    if getattr(cfg, "use_vllm", False):
        needs.append(("vllm", "--no-use-vllm"))
    if cfg.use_lora:
        needs.append(("peft", "--no-use-lora"))
    if cfg.report_to == "wandb":
        needs.append(("wandb", "--report-to none"))
    for module, off in needs:
        if importlib.util.find_spec(module) is None:
            raise ConfigError(f"the settings need '{module}', which is not installed; install it with "
                              f"`.venv/bin/pip install {module}` (not part of any jiancha extra), or pass {off}")


def bundled_deepspeed(name: str) -> str:
    """Path of a bundled DeepSpeed config (``zero2-offload``), or ``name`` itself when it is a path."""
    if name.endswith(".json") or os.sep in name:
        return name
    p = resources.files("jiancha.train") / "presets" / f"deepspeed-{name}.json"
    if not p.is_file():
        raise ConfigError(f"unknown bundled DeepSpeed config {name!r}; pass a JSON path or 'zero2-offload'")
    return str(p)


def read_yaml_config(path: str | os.PathLike) -> dict[str, Any]:
    import yaml

    from jiancha.errors import DataError

    p = Path(path)
    try:
        doc = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {p}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise DataError(f"invalid YAML ({getattr(exc, 'problem', exc)})", path=str(p),
                        line=mark.line + 1 if mark else None) from None
    if not isinstance(doc, dict):
        raise DataError(f"expected a mapping of settings, got {type(doc).__name__}", path=str(p))
    return doc


def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in fields(cls)}


def _base_type(tp: Any) -> tuple[Any, bool]:
    """(inner type, optional) of ``X | None``."""
    args = typing.get_args(tp)
    if (typing.get_origin(tp) in (typing.Union, types.UnionType)) and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        return inner[0], True
    return tp, False


def coerce_value(cls: type, name: str, value: Any, *, where: str = "") -> Any:
    """Convert a YAML / CLI value to the field's type; ConfigError naming the key otherwise."""
    types_ = _field_types(cls)
    if name not in types_:
        hint = difflib.get_close_matches(name, list(types_), n=1)
        raise ConfigError(f"unknown setting '{name}'{where}" + (f"; did you mean '{hint[0]}'?" if hint else
                                                              f"; known settings: {', '.join(types_)}"))
    tp, optional = _base_type(types_[name])
    if value is None:
        if optional:
            return None
        raise ConfigError(f"setting '{name}'{where} cannot be null")
    origin = typing.get_origin(tp)
    try:
        if origin is tuple:
            item = typing.get_args(tp)[0]
            items = [s.strip() for s in value.split(",") if s.strip()] if isinstance(value, str) else list(value)
            return tuple(item(x) for x in items)
        if tp is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0"):
                return value.lower() in ("true", "yes", "1")
            raise ValueError("not a boolean")
        if tp is int:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError("not an integer")
            return int(value)
        if tp is float:
            if isinstance(value, bool):
                raise ValueError("not a number")
            return float(value)
        return str(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting '{name}'{where} has value {value!r}, which is not a valid "
                          f"{getattr(tp, '__name__', tp)} ({exc})") from None


def build_config(kind: RecipeKind, *, preset: str | None = None, config_file: str | None = None,
                 overrides: dict[str, Any] | None = None, validate: bool = True) -> TrainConfig:
    """Layer defaults < preset < YAML < overrides (None values in overrides are ignored), then validate."""
    if kind not in CONFIG_CLASSES:
        raise ConfigError(f"unknown recipe {kind!r}; expected one of {', '.join(RECIPES)}")
    cls = CONFIG_CLASSES[kind]
    values: dict[str, Any] = {}
    layers: list[tuple[str, dict[str, Any]]] = []
    if preset:
        layers.append((f" (preset {preset})", load_preset(preset, kind)))
    if config_file:
        layers.append((f" (in {config_file})", read_yaml_config(config_file)))
    layers.append(("", {k: v for k, v in (overrides or {}).items() if v is not None}))
    for where, layer in layers:
        for k, v in layer.items():
            values[k] = coerce_value(cls, k, v, where=where)
    if kind in ("dapo", "gspo"):
        values["algorithm"] = kind
    cfg = cls(**values)
    if validate:
        cfg.validate()
    if isinstance(cfg, RLRecipeConfig):
        cfg = cfg.resolved()
    return cfg
