"""Official charge names (罪名), their Criminal Law articles, aliases, and a fast multi-pattern matcher."""

from __future__ import annotations


def find_charges(text: str) -> list[str]:
    """Canonical charge names (with 罪) found in ``text``, in order of first appearance, deduplicated."""
    raise NotImplementedError
