"""The Hugging Face hub, reached only after a quick probe: an offline machine fails in seconds, not minutes."""

from __future__ import annotations

import os
import threading

#: Seconds the hub reachability probe may take before the hub counts as unreachable.
HUB_PROBE_TIMEOUT = 2.5
_OFFLINE_VALUES = {"1", "true", "yes", "on"}


def hub_unreachable_reason(hub_id: str, *, timeout: float = HUB_PROBE_TIMEOUT) -> str | None:
    """Why the Hugging Face hub cannot be used right now (None when a quick probe gets an answer).

    Honours ``HF_HUB_OFFLINE`` / ``HF_DATASETS_OFFLINE`` and ``HF_ENDPOINT``. The probe runs in a worker thread
    with a hard deadline, so a slow DNS lookup or a silent network cannot hold the caller beyond ``timeout``.
    """
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        if os.environ.get(var, "").strip().lower() in _OFFLINE_VALUES:
            return f"{var} is set"
    import httpx

    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    url = f"{endpoint}/api/datasets/{hub_id}"

    outcome: list[BaseException | None] = []

    def probe() -> None:
        try:
            httpx.head(url, timeout=timeout, follow_redirects=True)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - any failure of the probe means "unreachable"
            outcome.append(exc)

    # A daemon thread: a DNS lookup stuck past the deadline can neither hold the caller nor delay exit.
    worker = threading.Thread(target=probe, name="hub-probe", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return f"no answer from {endpoint} within {timeout:g} s"
    if outcome[0] is not None:
        exc = outcome[0]
        return f"cannot reach {endpoint} ({type(exc).__name__}: {exc})"
    return None


def hub_unreachable_message(hub_id: str, reason: str) -> str:
    return (f"cannot load '{hub_id}' from the Hugging Face hub: {reason}. Point at a local copy instead: a "
            "save_to_disk folder, a directory holding test.jsonl / test.parquet, or a single .jsonl, .json or "
            ".parquet file (fetch one where the hub is reachable with `jiancha data download pdp --to DIR`, or "
            f"`huggingface-cli download --repo-type dataset {hub_id} --local-dir DIR`), or use the bundled "
            "fictional set with the source 'sample'")
