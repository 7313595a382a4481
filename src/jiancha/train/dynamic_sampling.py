"""DAPO dynamic sampling for TRL's GRPOTrainer (which does not have it).

DAPO (Yu et al., 2025, §3.2) over-samples and filters: a prompt group whose completions all get the same reward
(all right or all wrong) has zero advantage everywhere and contributes no gradient, only dilution. The batch is
refilled with fresh prompts until it holds enough groups with non-zero reward variance.

How it is done here: :class:`DynamicSamplingGRPOTrainer` overrides ``_generate_and_score_completions`` (the one
method that turns a rollout batch of prompts into the scored tensors TRL trains on). In training it

1. generates and scores the batch as TRL does (advantages, old log-probs, metrics);
2. reads the per-completion rewards of that batch (captured in ``_calculate_rewards``) and keeps the groups
   whose rewards are not all equal (:func:`groups_with_signal`, the same test TRL's ``frac_reward_zero_std``
   uses);
3. while fewer groups than the batch needs were kept, draws a fresh batch of prompts (seeded, from the training
   set, each repeated ``num_generations`` times like TRL's ``RepeatSampler``) and repeats 1–2, at most
   ``max_rounds`` generation rounds in all;
4. if the rounds run out, tops the batch up with dropped (zero-variance) groups, which carry zero advantage, and
   counts them in ``dynamic_sampling/filled_zero_std_groups``;
5. concatenates the kept rows (re-padding prompts on the left and completions on the right), recomputes
   ``num_items_in_batch`` and returns a batch of exactly the original size, which TRL then shuffles, splits into
   ``steps_per_generation`` micro-batches and trains on as usual.

Group advantages are computed inside each round before filtering, so a kept group's advantages are exactly those
of the unfiltered algorithm. Logged: ``dynamic_sampling/rounds`` (generation rounds per batch),
``dynamic_sampling/kept_group_frac`` (kept / generated groups) and ``dynamic_sampling/filled_zero_std_groups``;
TRL's own ``frac_reward_zero_std`` is logged per generation round (before filtering).

Limits: one training process (the kept rows must stay on the process that generated them), text-only prompts,
no tool calling.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import torch
from trl import GRPOTrainer

from jiancha.errors import ConfigError

#: Keys of TRL's scored batch that are left-padded prompt tensors.
_LEFT_PADDED = {"prompt_ids", "prompt_mask"}
_ID_KEYS = {"prompt_ids", "completion_ids"}


def groups_with_signal(rewards: Sequence[float], num_generations: int, *, atol: float = 1e-6) -> list[bool]:
    """For each consecutive group of ``num_generations`` rewards: are they not all equal (NaN ignored)?

    >>> groups_with_signal([1.0, 1.0, 0.1, 1.0, 0.0, 0.0, 0.0, 0.0], 4)
    [True, False]
    """
    if num_generations < 1 or len(rewards) % num_generations:
        raise ValueError(f"{len(rewards)} rewards do not split into groups of {num_generations}")
    out = []
    for i in range(0, len(rewards), num_generations):
        vals = [float(v) for v in rewards[i:i + num_generations] if not math.isnan(v)]
        out.append(bool(vals) and max(vals) - min(vals) > atol)
    return out


def _pad_cat(parts: list[torch.Tensor], *, left: bool, value: float) -> torch.Tensor:
    width = max(p.size(1) for p in parts)
    padded = []
    for p in parts:
        extra = width - p.size(1)
        if extra:
            fill = torch.full((p.size(0), extra, *p.shape[2:]), value, dtype=p.dtype, device=p.device)
            p = torch.cat([fill, p] if left else [p, fill], dim=1)
        padded.append(p)
    return torch.cat(padded, dim=0)


def merge_scored_batches(parts: list[dict[str, Any]], pad_token_id: int) -> dict[str, Any]:
    """Concatenate TRL scored batches row-wise (prompts re-padded left, completions right)."""
    merged: dict[str, Any] = {}
    for key in parts[0]:
        vals = [p[key] for p in parts]
        if key == "num_items_in_batch":
            continue
        if not all(isinstance(v, torch.Tensor) and v.dim() >= 1 for v in vals):
            raise ConfigError(f"dynamic sampling cannot merge the batch field {key!r} (multimodal or tool-calling "
                              "batches are not supported); drop --dynamic-sampling")
        if vals[0].dim() == 1:
            merged[key] = torch.cat(vals, dim=0)
        else:
            merged[key] = _pad_cat(vals, left=key in _LEFT_PADDED, value=pad_token_id if key in _ID_KEYS else 0)
    mask = merged["completion_mask"]
    if "tool_mask" in merged:
        mask = mask * merged["tool_mask"]
    merged["num_items_in_batch"] = mask.sum()
    return merged


def select_rows(batch: dict[str, Any], rows: torch.Tensor) -> dict[str, Any]:
    """The rows ``rows`` (1-D index tensor) of every per-row tensor of a scored batch."""
    out = {}
    for k, v in batch.items():
        if isinstance(v, torch.Tensor) and v.dim() >= 1:
            out[k] = v.index_select(0, rows.to(v.device))
        else:
            out[k] = v
    return out


class DynamicSamplingGRPOTrainer(GRPOTrainer):
    """GRPOTrainer with DAPO dynamic sampling (see the module docstring)."""

    def __init__(self, *args: Any, dynamic_sampling_max_rounds: int = 4, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if self.accelerator.num_processes > 1:
            raise ConfigError("dynamic sampling is implemented for a single training process; run on one process "
                              "or drop --dynamic-sampling")
        if dynamic_sampling_max_rounds < 1:
            raise ConfigError(f"dynamic_sampling_max_rounds must be >= 1, got {dynamic_sampling_max_rounds}")
        self.dynamic_sampling_max_rounds = dynamic_sampling_max_rounds
        self._ds_rng = random.Random(f"{self.args.seed}:dynamic-sampling")
        self._ds_last_rewards: torch.Tensor | None = None

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
        rewards_per_func = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
        self._ds_last_rewards = rewards_per_func.detach()
        return rewards_per_func

    def _refill_inputs(self, n_groups: int) -> list[dict[str, Any]]:
        ds = self.train_dataset
        idx = self._ds_rng.sample(range(len(ds)), min(n_groups, len(ds)))
        while len(idx) < n_groups:  # tiny datasets: allow repeats
            idx.append(self._ds_rng.randrange(len(ds)))
        return [ds[i] for i in idx for _ in range(self.num_generations)]

    def _group_rewards(self) -> list[float]:
        assert self._ds_last_rewards is not None
        w = self.reward_weights.to(self._ds_last_rewards.device)
        r = (self._ds_last_rewards * w.unsqueeze(0)).nansum(dim=1)
        all_nan = torch.isnan(self._ds_last_rewards).all(dim=1)
        r[all_nan] = float("nan")
        return r.tolist()

    def _generate_and_score_completions(self, inputs):
        if not self.model.training:
            return super()._generate_and_score_completions(inputs)
        g = self.num_generations
        n_rows = len(inputs)
        n_groups = n_rows // g
        kept: list[dict[str, Any]] = []
        spare: list[dict[str, Any]] = []
        kept_groups = generated_groups = rounds = 0
        batch_inputs = inputs
        while True:
            scored = super()._generate_and_score_completions(batch_inputs)
            rounds += 1
            signal = groups_with_signal(self._group_rewards(), g)
            generated_groups += len(signal)
            rows_keep = [i for gi, ok in enumerate(signal) if ok for i in range(gi * g, (gi + 1) * g)]
            rows_drop = [i for gi, ok in enumerate(signal) if not ok for i in range(gi * g, (gi + 1) * g)]
            need = (n_groups - kept_groups) * g
            if rows_keep:
                take = torch.tensor(rows_keep[:need], dtype=torch.long)
                kept.append(select_rows(scored, take))
                kept_groups += len(take) // g
            if rows_drop:
                spare.append(select_rows(scored, torch.tensor(rows_drop, dtype=torch.long)))
            if kept_groups >= n_groups or rounds >= self.dynamic_sampling_max_rounds:
                break
            batch_inputs = self._refill_inputs(n_groups)
        filled = 0
        for part in spare:
            if kept_groups >= n_groups:
                break
            k = min(n_groups - kept_groups, part["advantages"].size(0) // g)
            kept.append(select_rows(part, torch.arange(k * g, dtype=torch.long)))
            kept_groups += k
            filled += k
        merged = merge_scored_batches(kept, self._tokenizer.pad_token_id)
        mode = "train"
        self._metrics[mode]["dynamic_sampling/rounds"].append(float(rounds))
        self._metrics[mode]["dynamic_sampling/kept_group_frac"].append(
            (n_groups - filled) / max(generated_groups, 1))
        self._metrics[mode]["dynamic_sampling/filled_zero_std_groups"].append(float(filled))
        assert merged["advantages"].size(0) == n_rows, (merged["advantages"].size(0), n_rows)
        return merged
