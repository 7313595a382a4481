"""DAPO dynamic sampling: the group filter, batch merging, and the trainer refilling a batch."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")

from jiancha.train.dynamic_sampling import groups_with_signal, merge_scored_batches


def test_groups_with_signal():
    assert groups_with_signal([1.0, 0.1, 0.0, 0.0, 0.1, 0.1], 2) == [True, False, False]
    assert groups_with_signal([math.nan, 1.0, 1.0, math.nan, math.nan, math.nan], 3) == [False, False]
    assert groups_with_signal([0.5, 0.5 + 1e-9], 2) == [False]
    with pytest.raises(ValueError, match="do not split"):
        groups_with_signal([1.0, 0.0, 1.0], 2)


def test_merge_scored_batches_repads_and_recounts():
    a = {"prompt_ids": torch.tensor([[0, 5], [6, 7]]), "prompt_mask": torch.tensor([[0, 1], [1, 1]]),
         "completion_ids": torch.tensor([[8, 9, 0], [8, 0, 0]]),
         "completion_mask": torch.tensor([[1, 1, 0], [1, 0, 0]]),
         "advantages": torch.tensor([1.0, -1.0]), "num_items_in_batch": torch.tensor(3)}
    b = {"prompt_ids": torch.tensor([[4, 5, 6]]), "prompt_mask": torch.tensor([[1, 1, 1]]),
         "completion_ids": torch.tensor([[3]]), "completion_mask": torch.tensor([[1]]),
         "advantages": torch.tensor([0.5]), "num_items_in_batch": torch.tensor(1)}
    m = merge_scored_batches([a, b], pad_token_id=0)
    assert m["prompt_ids"].tolist() == [[0, 0, 5], [0, 6, 7], [4, 5, 6]]      # left-padded
    assert m["prompt_mask"].tolist() == [[0, 0, 1], [0, 1, 1], [1, 1, 1]]
    assert m["completion_ids"].tolist() == [[8, 9, 0], [8, 0, 0], [3, 0, 0]]  # right-padded
    assert m["completion_mask"].tolist() == [[1, 1, 0], [1, 0, 0], [1, 0, 0]]
    assert m["advantages"].tolist() == [1.0, -1.0, 0.5]
    assert int(m["num_items_in_batch"]) == 4


def test_trainer_drops_zero_variance_groups_and_refills(tiny_model, tmp_path):
    """One prompt of four yields reward variance; every kept group must be that prompt's."""
    from datasets import Dataset
    from trl import GRPOConfig

    from jiancha.train.dynamic_sampling import DynamicSamplingGRPOTrainer

    g = 2
    rows = [{"prompt": [{"role": "user", "content": f"案件{i}"}], "signal": i == 0} for i in range(4)]

    def varied(prompts, completions, signal, **kwargs):
        return [float(k % g) if s else 0.0 for k, s in enumerate(signal)]

    batches = []

    class Recording(DynamicSamplingGRPOTrainer):
        def _generate_and_score_completions(self, inputs):
            out = super()._generate_and_score_completions(inputs)
            batches.append(out)
            return out

    args = GRPOConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=4,
                      gradient_accumulation_steps=1, num_generations=g, max_completion_length=4, use_cpu=True,
                      bf16=False, report_to=[], save_strategy="no", seed=0, logging_steps=1, loss_type="dapo")
    trainer = Recording(model=str(tiny_model), reward_funcs=[varied], args=args,
                        train_dataset=Dataset.from_list(rows), dynamic_sampling_max_rounds=30)
    trainer.train()
    (batch,) = batches
    assert batch["advantages"].shape == (4,)
    assert (batch["advantages"].abs() > 0.5).all()   # only groups with reward variance were kept
    log = trainer.state.log_history[0]
    assert log["dynamic_sampling/filled_zero_std_groups"] == 0
    assert log["dynamic_sampling/rounds"] >= 2        # the first batch holds at most one signal group
    assert log["dynamic_sampling/kept_group_frac"] == pytest.approx(2 / (2 * log["dynamic_sampling/rounds"]))
