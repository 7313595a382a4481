"""Where to load a pretrained model from: a local directory, the Hugging Face cache, or the hub (checked first).

Used by the dense retriever and the training recipes, so that a missing local path fails at once with its name
and an offline machine fails in seconds (not after a minute of hub retries) with what to do instead.
"""

from __future__ import annotations

import os
from pathlib import Path

from jiancha._util.lazy import require
from jiancha.errors import ConfigError


def is_hub_id(model: str, *, extra: str = "train") -> bool:
    """Whether ``model`` is spelled like a hub repository id (``name`` or ``namespace/name``)."""
    hf_utils = require("huggingface_hub.utils", extra)
    try:
        hf_utils.validate_repo_id(model)
    except hf_utils.HFValidationError:
        return False
    return True


def cached_snapshot(hub_id: str, *, extra: str = "train") -> str | None:
    """The local snapshot folder of ``hub_id`` in the Hugging Face cache, or None when it is not cached."""
    hf = require("huggingface_hub", extra)
    try:
        return str(hf.snapshot_download(hub_id, local_files_only=True))
    except Exception:  # noqa: BLE001 - LocalEntryNotFoundError and friends: simply "not cached"
        return None


def offline_model_message(model: str, reason: str, *, option: str = "--model", extra: str = "train") -> str:
    cache = require("huggingface_hub.constants", extra).HF_HUB_CACHE
    return (f"cannot load model '{model}': it is not a local directory, not in the Hugging Face cache ({cache}), and "
            f"the hub cannot be used ({reason}). Download it on a machine that reaches the hub (`hf download "
            f"{model} --local-dir DIR`), copy DIR here and pass {option} DIR; or put it in the Hugging Face cache "
            "here and set HF_HUB_OFFLINE=1 to load it from there")


def check_model_path(model: str, *, option: str = "--model", extra: str = "train") -> str | None:
    """The existing local path ``model`` names (``~`` expanded), None for a hub id; no network.

    Raises ConfigError for an empty value and for a path that does not exist (anything not spelled like a hub id).
    """
    if not model:
        raise ConfigError(f"no model given: pass {option} with a local model directory or a hub id")
    local = Path(model).expanduser()
    if local.exists():
        return str(local)
    if not is_hub_id(model, extra=extra):
        full = os.path.abspath(local)
        shown = model if full == model else f"{model} ({full})"
        raise ConfigError(f"model path {shown} does not exist; pass {option} with an existing model directory "
                          "(config.json and weights) or a Hugging Face hub id")
    return None


def resolve_model_source(model: str, *, option: str = "--model", extra: str = "train") -> str:
    """What to pass to ``from_pretrained`` / ``SentenceTransformer`` for ``model``; raises ConfigError at once
    when that cannot work.

    - an existing local path: itself (``~`` expanded);
    - a path that does not exist (anything not spelled like a hub id): ConfigError naming the path;
    - a hub id already in the Hugging Face cache: its snapshot folder (works offline, no network);
    - a hub id not cached: the id, after a quick probe of the hub (``HF_ENDPOINT`` honoured); ConfigError when
      ``HF_HUB_OFFLINE`` is set or the hub does not answer within a few seconds.
    """
    from jiancha.datasets.hub import hub_unreachable_reason

    local = check_model_path(model, option=option, extra=extra)
    if local is not None:
        return local
    snapshot = cached_snapshot(model, extra=extra)
    if snapshot is not None:
        return snapshot
    reason = hub_unreachable_reason(model)
    if reason is not None:
        raise ConfigError(offline_model_message(model, reason, option=option, extra=extra))
    return model
