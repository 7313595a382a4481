"""Stable hashes for cache keys, prompt versions and data fingerprints."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from typing import Any


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def stable_hash(obj: Any, *, length: int = 16) -> str:
    """SHA-256 of the canonical JSON of ``obj``, hex, truncated to ``length``."""
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()[:length]


def text_hash(text: str, *, length: int = 16) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def file_sha256(path: str | os.PathLike, *, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def records_fingerprint(records: Iterable[Any], *, length: int = 16) -> str:
    """Order-sensitive fingerprint of a sequence of JSON-able records."""
    h = hashlib.sha256()
    for r in records:
        h.update(canonical_json(r).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:length]
