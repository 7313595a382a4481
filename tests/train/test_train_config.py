"""Recipe configs: presets, layering, up-front validation, and what reaches TRL."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from jiancha.errors import ConfigError, DataError
from jiancha.train.config import build_config, load_preset, preset_names
from jiancha.train.rl import grpo_kwargs
from jiancha.train.sft import sft_kwargs

REQUIRED = {"model": "m", "data": "d", "output_dir": "o"}


def test_paper_preset_is_table_16():
    cfg = build_config("dapo", preset="paper", overrides={"data": "d", "output_dir": "o"})
    assert (cfg.model, cfg.bf16, cfg.epochs, cfg.per_device_batch_size, cfg.gradient_accumulation_steps) == \
        ("Qwen/Qwen3-8B", True, 4.0, 8, 64)
    assert (cfg.learning_rate, cfg.max_prompt_length, cfg.max_completion_length) == (1e-5, 1536, 1536)
    assert (cfg.use_vllm, cfg.vllm_mode, cfg.vllm_gpu_memory_utilization, cfg.vllm_tensor_parallel_size) == \
        (True, "colocate", 0.5, 2)
    assert (cfg.num_generations, cfg.epsilon, cfg.epsilon_high, cfg.beta) == (8, 0.2, 0.28, 0.0)
    assert (cfg.seed, cfg.logging_steps, cfg.save_steps, cfg.prompt_variant) == (42, 2, 30, "baseline")
    assert cfg.rewards == ("outcome",) and cfg.reward_compat == "reference"
    kw = grpo_kwargs(cfg)
    assert kw["loss_type"] == "dapo" and kw["importance_sampling_level"] == "token"
    assert kw["mask_truncated_completions"] is True
    assert kw["vllm_max_model_length"] == 3072
    assert kw["deepspeed"].endswith("deepspeed-zero2-offload.json")
    assert {"paper", "paper-gspo-clip", "tiny-cpu"} <= set(preset_names())
    # the reference code's GRPOConfig: two passes per rollout batch, plain sampling, TRL's rollout batch size
    assert (cfg.num_iterations, cfg.temperature, cfg.top_p) == (2, 1.0, 1.0)
    assert (kw["num_iterations"], kw["gradient_checkpointing_kwargs"]) == (2, {"use_reentrant": False})
    assert "steps_per_generation" not in kw


def test_paper_preset_gspo_is_the_reference_codes_symmetric_clip():
    cfg = build_config("gspo", preset="paper", overrides={"data": "d", "output_dir": "o"})
    kw = grpo_kwargs(cfg)
    assert (kw["importance_sampling_level"], kw["loss_type"]) == ("sequence", "grpo")
    assert (kw["epsilon"], kw["epsilon_high"], kw["num_iterations"], kw["beta"]) == (0.2, 0.2, 2, 0.0)
    # one optimizer step per rollout batch, as TRL does when steps_per_generation is not given
    assert kw["steps_per_generation"] == kw["gradient_accumulation_steps"] == 64
    assert (kw["per_device_train_batch_size"], kw["num_generations"], kw["learning_rate"]) == (8, 8, 1e-5)


def test_paper_gspo_clip_preset_changes_only_gspos_clipping():
    paper_dapo = build_config("dapo", preset="paper", overrides={"data": "d", "output_dir": "o"})
    assert build_config("dapo", preset="paper-gspo-clip", overrides={"data": "d", "output_dir": "o"}) == paper_dapo
    paper = build_config("gspo", preset="paper", overrides={"data": "d", "output_dir": "o"})
    clip = build_config("gspo", preset="paper-gspo-clip", overrides={"data": "d", "output_dir": "o"})
    assert (clip.epsilon, clip.epsilon_high, clip.steps_per_generation) == (3e-4, 4e-4, 256)
    changed = {k for k, v in clip.to_dict().items() if paper.to_dict()[k] != v}
    assert changed == {"epsilon", "epsilon_high", "steps_per_generation"}
    assert load_preset("paper-gspo-clip", "sft") == load_preset("paper", "sft")


def test_a_preset_that_extends_itself_is_refused(tmp_path, monkeypatch):
    from jiancha.train import config

    root = tmp_path / "presets"
    root.mkdir()
    (root / "loop.yaml").write_text("extends: loop\n", encoding="utf-8")
    monkeypatch.setattr(config.resources, "files", lambda _pkg: tmp_path)
    with pytest.raises(ConfigError, match="extends itself"):
        load_preset("loop", "dapo")


def test_gspo_defaults_follow_its_authors():
    cfg = build_config("gspo", overrides={**REQUIRED, "gradient_accumulation_steps": 2})
    kw = grpo_kwargs(cfg)
    assert kw["importance_sampling_level"] == "sequence"
    assert (kw["loss_type"], kw["epsilon"], kw["epsilon_high"], kw["beta"]) == ("grpo", 3e-4, 4e-4, 0.0)
    assert kw["steps_per_generation"] == 8  # 4 mini-batches per rollout batch
    dapo = grpo_kwargs(build_config("dapo", overrides=REQUIRED))
    assert (dapo["loss_type"], dapo["epsilon"], dapo["epsilon_high"]) == ("dapo", 0.2, 0.28)
    assert "steps_per_generation" not in dapo


def test_layering_defaults_preset_yaml_flags(tmp_path):
    y = tmp_path / "run.yaml"
    y.write_text("learning_rate: 3.0e-6\nmax_steps: 5\nrewards: [outcome, process]\n", encoding="utf-8")
    cfg = build_config("dapo", preset="tiny-cpu", config_file=str(y),
                       overrides={**REQUIRED, "max_steps": 7, "epsilon": None})
    assert cfg.learning_rate == 3e-6          # YAML over preset
    assert cfg.max_steps == 7                 # flag over YAML
    assert cfg.num_generations == 4           # preset over default
    assert cfg.epsilon == 0.2                 # None flag = not given
    assert cfg.rewards == ("outcome", "process")
    assert load_preset("tiny-cpu", "sft")["per_device_batch_size"] == 2


@pytest.mark.parametrize(("overrides", "message"), [
    ({"per_device_batch_size": 3, "num_generations": 8}, "must be a multiple of num_generations"),
    ({"num_generations": 1}, "num_generations must be >= 2"),
    ({"epsilon": 0.3, "epsilon_high": 0.2}, "must be >= epsilon"),
    ({"rewards": "outcome,process", "class_balanced": True}, "--scale-rewards batch"),
    ({"class_balanced": True, "scale_rewards": "batch"}, "does not include 'process'"),
    ({"rewards": "outcome,process", "reward_weights": "1"}, "give one weight per function"),
    ({"rewards": "outcome,proces"}, "did you mean 'process'"),
    ({"bf16": True, "use_cpu": True}, "--no-bf16"),
    ({"use_vllm": True, "use_cpu": True}, "use_vllm needs a GPU"),
    ({"on_long_prompt": "truncate"}, "expected one of fail, drop"),
    ({"prompt_variant": "fancy"}, "unknown prompt_variant"),
    ({"prompt_variant": "custom"}, "which training does not take"),
    ({"prompt_variant": "precedent"}, "which training does not take"),
    ({"model": ""}, "pass --model"),
])
def test_validation_names_the_constraint_and_fix(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        build_config("dapo", overrides={**REQUIRED, **overrides})


def test_unknown_and_ill_typed_yaml_keys(tmp_path):
    y = tmp_path / "bad.yaml"
    y.write_text("learning_rat: 1.0e-5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="did you mean 'learning_rate'"):
        build_config("sft", config_file=str(y), overrides=REQUIRED)
    y.write_text("max_steps: many\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'max_steps'.*not a valid int"):
        build_config("sft", config_file=str(y), overrides=REQUIRED)
    y.write_text("a: [\n", encoding="utf-8")
    with pytest.raises(DataError, match="invalid YAML"):
        build_config("sft", config_file=str(y), overrides=REQUIRED)
    with pytest.raises(ConfigError, match="unknown preset"):
        build_config("sft", preset="huge", overrides=REQUIRED)


def test_sft_loss_modes():
    cfg = build_config("sft", overrides=REQUIRED)
    kw = sft_kwargs(cfg)
    assert (kw["completion_only_loss"], kw["assistant_only_loss"], kw["max_length"]) == (True, False, 3072)
    kw = sft_kwargs(build_config("sft", overrides={**REQUIRED, "loss_on": "assistant"}))
    assert (kw["completion_only_loss"], kw["assistant_only_loss"]) == (False, True)
    with pytest.raises(ConfigError, match="'loss_on'"):
        build_config("sft", overrides={**REQUIRED, "loss_on": "prompt"})


def test_trl_accepts_the_tiny_cpu_config(tmp_path):
    trl = pytest.importorskip("trl")
    cfg = build_config("gspo", preset="tiny-cpu", overrides={**REQUIRED, "output_dir": str(tmp_path)})
    args = trl.GRPOConfig(**grpo_kwargs(cfg))
    assert (args.importance_sampling_level, args.loss_type, args.epsilon_high) == ("sequence", "grpo", 4e-4)
    assert args.generation_batch_size == 16 and args.num_generations == 4


def test_cli_print_config_and_flags():
    from jiancha.cli.main import app

    res = CliRunner().invoke(app, ["train", "gspo", "--preset", "tiny-cpu", "--model", "m", "--data", "d",
                                   "--output-dir", "o", "--no-mask-truncated-completions",
                                   "--lora-target-modules", "q_proj,v_proj", "--print-config"])
    assert res.exit_code == 0, res.output
    assert "importance" not in res.output  # settings are the config's fields, not TRL's
    assert "mask_truncated_completions: false" in res.output
    assert "epsilon: 0.0003" in res.output
    assert "- q_proj\n- v_proj" in res.output


def test_print_config_refuses_settings_that_do_not_hold_together():
    from jiancha.cli.main import app

    res = CliRunner().invoke(app, ["train", "dapo", "--preset", "paper", "--num-generations", "7", "--print-config"])
    assert isinstance(res.exception, ConfigError) and "must be a multiple of num_generations" in str(res.exception)
    # a preset is previewed without its paths
    assert CliRunner().invoke(app, ["train", "dapo", "--preset", "paper", "--print-config"]).exit_code == 0


def test_enable_thinking_reaches_the_chat_template():
    assert "chat_template_kwargs" not in grpo_kwargs(build_config("dapo", overrides=REQUIRED))
    cfg = build_config("dapo", overrides={**REQUIRED, "enable_thinking": False})
    assert grpo_kwargs(cfg)["chat_template_kwargs"] == {"enable_thinking": False}


def test_cli_presets_listing_and_detail():
    from jiancha.cli.main import app

    res = CliRunner().invoke(app, ["train", "presets"])
    assert res.exit_code == 0 and "paper" in res.output and "tiny-cpu" in res.output
    res = CliRunner().invoke(app, ["train", "presets", "paper"])
    assert res.exit_code == 0, res.output
    assert '"gradient_accumulation_steps": 64' in res.output
