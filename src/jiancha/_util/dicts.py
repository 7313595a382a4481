"""Small pure helpers on nested dicts."""

from __future__ import annotations

from typing import Any


def flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}}`` → ``{"a.b": 1}`` (lists and scalars are leaves)."""
    if not isinstance(d, dict):
        return {prefix: d}
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict) and v:
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out


def identity_diff(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Human-readable lines ``field: stored → current`` for every differing leaf, sorted by field."""
    a, b = flatten(stored), flatten(current)
    lines = []
    for k in sorted(set(a) | set(b)):
        if a.get(k, "<absent>") != b.get(k, "<absent>"):
            lines.append(f"{k}: {a.get(k, '<absent>')!r} (stored) → {b.get(k, '<absent>')!r} (now)")
    return lines
