"""End to end through the real CLI on a tiny local model (CPU, offline): splits → SFT / DAPO / GSPO.

A random tiny model never writes a valid answer in 16 tokens and rarely stops, so RL rewards are 0 and, with
truncated completions masked, the RL loss is exactly 0: the assertions check what is meaningful then (logs,
provenance, the settings TRL ran with, checkpoints, dynamic-sampling bookkeeping).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from pdp_fixtures import make_pool, make_record, write_pool
from typer.testing import CliRunner

from jiancha.errors import DataError, ResumeMismatchError
from jiancha.law.labels import Decision

pytest.importorskip("trl")


def _invoke(*args: str):
    from jiancha.cli.main import app

    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def splits_dir(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("splits")
    pool = write_pool(tmp / "pool.jsonl", make_pool({d: 6 for d in Decision}))
    res = _invoke("train", "splits", "--pool", str(pool), "--out", str(tmp / "splits"), "--size", "8",
                  "--names", "balanced")
    assert res.exit_code == 0, res.output
    return tmp / "splits"


def _metrics(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "metrics.jsonl").read_text(encoding="utf-8").splitlines()]


def _run_json(out: Path) -> dict:
    return json.loads((out / "run.json").read_text(encoding="utf-8"))


def _common(tiny_model: Path, splits_dir: Path, out: Path) -> list[str]:
    return ["--preset", "tiny-cpu", "--model", str(tiny_model), "--data", str(splits_dir), "--split", "balanced",
            "--output-dir", str(out)]


def _check_provenance(out: Path, splits_dir: Path, recipe: str) -> dict:
    run = _run_json(out)
    manifest = json.loads((splits_dir / "manifest.json").read_text(encoding="utf-8"))
    assert run["spec"]["recipe"] == recipe
    assert run["spec"]["data"]["fingerprint"] == manifest["splits"]["balanced"]["fingerprint"]
    assert run["spec"]["data"]["class_counts"] == {d.value: 2 for d in Decision}
    assert run["seed"] == 0 and run["finished_at"] and run["global_step"] == 2
    assert {"torch", "transformers", "trl", "peft"} <= set(run["environment"]["packages"])
    return run


@pytest.mark.slow
def test_sft_with_lora_end_to_end(tiny_model, splits_dir, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM

    out = tmp_path / "sft"
    res = _invoke("train", "sft", *_common(tiny_model, splits_dir, out), "--use-lora", "--lora-r", "4",
                  "--lora-alpha", "8", "--lora-target-modules", "q_proj,v_proj", "--learning-rate", "0.01")
    assert res.exit_code == 0, res.output
    _check_provenance(out, splits_dir, "sft")
    losses = [row["loss"] for row in _metrics(out) if "loss" in row]
    assert len(losses) == 2 and all(math.isfinite(x) and x > 0 for x in losses)
    assert (out / "final" / "adapter_config.json").is_file()
    assert (out / "checkpoint-2").is_dir()
    base = AutoModelForCausalLM.from_pretrained(tiny_model)
    merged = AutoModelForCausalLM.from_pretrained(out / "final-merged")
    diff = max((a - b).abs().max().item() for a, b in zip(base.parameters(), merged.parameters(), strict=True))
    assert diff > 0                                   # the adapter was trained and merged in
    assert torch.equal(base.model.embed_tokens.weight, merged.model.embed_tokens.weight)  # not a LoRA target


@pytest.mark.slow
@pytest.mark.parametrize("dynamic", [False, True], ids=["plain", "dynamic-sampling"])
def test_dapo_end_to_end(tiny_model, splits_dir, tmp_path, dynamic):
    import torch

    out = tmp_path / "dapo"
    extra = ["--dynamic-sampling", "--dynamic-sampling-max-rounds", "2"] if dynamic else []
    res = _invoke("train", "dapo", *_common(tiny_model, splits_dir, out), *extra)
    assert res.exit_code == 0, res.output
    run = _check_provenance(out, splits_dir, "dapo")
    assert run["spec"]["config"]["loss_type"] == "dapo"
    args = torch.load(out / "final" / "training_args.bin", weights_only=False)
    assert (args.loss_type, args.epsilon, args.epsilon_high, args.beta) == ("dapo", 0.2, 0.28, 0.0)
    assert args.mask_truncated_completions and args.importance_sampling_level == "token"
    rows = [r for r in _metrics(out) if "reward" in r]
    assert [r["step"] for r in rows] == [1, 2]
    for r in rows:
        assert r["completions/mean_length"] <= 16
        assert 0.0 <= r["frac_reward_zero_std"] <= 1.0
        assert r["reward"] == pytest.approx(r["rewards/outcome/mean"])
        assert "pdp/valid" in r and any(k.startswith("pdp/outcome/") for k in r)
        if r["completions/clipped_ratio"] == 1.0:     # every completion truncated and masked
            assert r["loss"] == 0.0
        if dynamic:
            # one prompt group (4 completions) per batch; a random model gives it no reward variance, so both
            # rounds are spent and the batch is filled with the dropped group
            if r["dynamic_sampling/kept_group_frac"] == 0:
                assert r["dynamic_sampling/rounds"] == 2
                assert r["dynamic_sampling/filled_zero_std_groups"] == 1
        else:
            assert "dynamic_sampling/rounds" not in r
    assert (out / "final" / "model.safetensors").is_file()
    assert "done: 2 steps" in res.output


@pytest.mark.slow
def test_gspo_end_to_end_and_refusal_to_mix(tiny_model, splits_dir, tmp_path):
    import torch

    out = tmp_path / "gspo"
    res = _invoke("train", "gspo", *_common(tiny_model, splits_dir, out), "--rewards", "outcome,process")
    assert res.exit_code == 0, res.output
    _check_provenance(out, splits_dir, "gspo")
    args = torch.load(out / "final" / "training_args.bin", weights_only=False)
    assert (args.importance_sampling_level, args.loss_type, args.epsilon, args.epsilon_high) == \
        ("sequence", "grpo", 3e-4, 4e-4)
    assert args.steps_per_generation == 4
    rows = [r for r in _metrics(out) if "reward" in r]
    assert rows and all({"rewards/process/mean", "pdp/process/format"} <= set(r) for r in rows)
    # the same directory with other settings is refused
    res = _invoke("train", "gspo", *_common(tiny_model, splits_dir, out), "--epsilon-high", "0.001")
    assert isinstance(res.exception, ResumeMismatchError)
    assert "epsilon_high" in str(res.exception) and "--overwrite" in str(res.exception)


def test_long_prompts_are_reported_never_cut(tiny_model, tmp_path):
    from jiancha.train.data import load_training_records, prepare_rl_rows
    from jiancha.train.models import load_tokenizer

    records = make_pool({d: 1 for d in Decision})
    records.append(make_record(Decision.PROSECUTE, 99, fact="某甲多次盗窃他人财物。" * 60))
    data = load_training_records(str(write_pool(tmp_path / "d.jsonl", records)), "test")
    tok = load_tokenizer(str(tiny_model))
    lengths = prepare_rl_rows(data, tok, variant="baseline", max_prompt_length=100_000, on_long="fail")
    longest = lengths.reports[0].longest
    limit = longest - 1
    with pytest.raises(DataError, match=r"1 of 5 prompts are longer than .* tokens.*P099.*--on-long-prompt drop"):
        prepare_rl_rows(data, tok, variant="baseline", max_prompt_length=limit, on_long="fail")
    kept = prepare_rl_rows(data, tok, variant="baseline", max_prompt_length=limit, on_long="drop")
    assert len(kept.rows) == 4 and kept.dropped == (records[-1].id,)
    with pytest.raises(DataError, match="every training row"):
        prepare_rl_rows(data, tok, variant="baseline", max_prompt_length=10, on_long="drop")


@pytest.mark.slow
def test_sft_full_model_assistant_only_loss(tiny_model, splits_dir, tmp_path):
    from transformers import AutoModelForCausalLM

    out = tmp_path / "sft-full"
    res = _invoke("train", "sft", *_common(tiny_model, splits_dir, out), "--loss-on", "assistant")
    assert res.exit_code == 0, res.output
    run = _check_provenance(out, splits_dir, "sft")
    assert run["spec"]["config"]["loss_on"] == "assistant" and run["merged_dir"] is None
    losses = [row["loss"] for row in _metrics(out) if "loss" in row]
    assert len(losses) == 2 and all(math.isfinite(x) and x > 0 for x in losses)
    base = AutoModelForCausalLM.from_pretrained(tiny_model)
    tuned = AutoModelForCausalLM.from_pretrained(out / "final")
    assert any((a - b).abs().max().item() > 0 for a, b in zip(base.parameters(), tuned.parameters(), strict=True))


@pytest.mark.slow
def test_sft_run_again_with_the_same_settings_trains_no_step_past_max_steps(tiny_model, splits_dir, tmp_path):
    # resumed from its last checkpoint (global_step == max_steps == 2), transformers would train a third step and
    # replace final/; a finished run must stay as it is
    out = tmp_path / "sft"
    res = _invoke("train", "sft", *_common(tiny_model, splits_dir, out))
    assert res.exit_code == 0, res.output
    weights = (out / "final" / "model.safetensors").read_bytes()
    logged = (out / "metrics.jsonl").read_bytes()
    res = _invoke("train", "sft", *_common(tiny_model, splits_dir, out))
    assert res.exit_code == 0, res.output
    run = _run_json(out)
    assert run["global_step"] == 2 and run["resumed_from"] == str(out / "checkpoint-2")
    assert run["train_metrics"] == {}
    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-2"]
    assert (out / "final" / "model.safetensors").read_bytes() == weights
    assert (out / "metrics.jsonl").read_bytes() == logged


def _bundled_sample() -> Path:
    from importlib import resources

    return Path(str(resources.files("jiancha") / "data" / "pdp_sample.jsonl"))


def test_tiny_cpu_limits_take_every_row_of_the_bundled_sample(tiny_model):
    from jiancha.train.config import build_config
    from jiancha.train.data import load_training_records, prepare_rl_rows, prepare_sft_rows
    from jiancha.train.models import load_tokenizer

    data = load_training_records(str(_bundled_sample()), "test")
    tok = load_tokenizer(str(tiny_model))
    sft = build_config("sft", preset="tiny-cpu", overrides={"model": "m", "data": "d", "output_dir": "o"})
    rows = prepare_sft_rows(data, tok, variant=sft.prompt_variant, max_prompt_length=sft.max_prompt_length,
                            max_completion_length=sft.max_completion_length, on_long="fail")
    assert len(rows.rows) == len(data.records) == 60 and rows.dropped == ()
    # the sample's prompts are far over the old 512-token limit: the limits are what makes them fit
    assert rows.reports[0].longest > 512
    rl = build_config("dapo", preset="tiny-cpu", overrides={"model": "m", "data": "d", "output_dir": "o"})
    assert len(prepare_rl_rows(data, tok, variant=rl.prompt_variant, max_prompt_length=rl.max_prompt_length,
                               on_long="fail").rows) == 60


@pytest.mark.slow
def test_tiny_cpu_sft_trains_on_the_bundled_sample(tiny_model, tmp_path):
    out = tmp_path / "sft-sample"
    sample = _bundled_sample()
    res = _invoke("train", "sft", "--preset", "tiny-cpu", "--model", str(tiny_model), "--data", str(sample),
                  "--output-dir", str(out))
    assert res.exit_code == 0, res.output
    run = _run_json(out)
    assert run["global_step"] == 2 and run["spec"]["data"]["rows_used"] == 60
    assert run["spec"]["data"]["dropped_too_long"] == []
    losses = [row["loss"] for row in _metrics(out) if "loss" in row]
    assert len(losses) == 2 and all(math.isfinite(x) and x > 0 for x in losses)
    assert (out / "final" / "model.safetensors").is_file()
