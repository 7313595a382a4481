"""The layout of a dataset folder written by ``jiancha build export``, as loaders read it.

An export folder holds ``test.jsonl`` (every record), one ``<split>.jsonl`` per further split (``test_rq2`` or
``balanced_<n>``), ``test.parquet``, ``hf/`` (``DatasetDict.save_to_disk``), the card ``README.md`` and
``manifest.json``: ``{"format": "jiancha-export/1", "settings": {...}, "splits": {name: count}, "environment":
{...}}``. The manifest, not the file names, says which splits the folder holds, so that ``manifest.json`` is never
taken for a split of records.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from jiancha.errors import DataError

EXPORT_MANIFEST_NAME = "manifest.json"
EXPORT_FORMAT = "jiancha-export/1"
#: Every version of the export format starts with this.
EXPORT_FORMAT_PREFIX = EXPORT_FORMAT.rsplit("/", 1)[0] + "/"


@dataclass(frozen=True)
class ExportManifest:
    """What ``manifest.json`` of an export folder declares."""

    path: str
    format: str
    splits: Mapping[str, int]                     # split name -> record count, in the manifest's order
    settings: Mapping[str, Any] = field(default_factory=dict)


def parse_export_manifest(doc: Any, path: str = EXPORT_MANIFEST_NAME) -> ExportManifest | None:
    """Pure: the export manifest in ``doc`` (parsed JSON); None when ``doc`` is not an export manifest (another
    tool's file of that name). A document that says it is an export but is malformed raises DataError.

    >>> parse_export_manifest({"format": "jiancha-export/1", "splits": {"test": 15, "balanced_2": 8}}).splits
    mappingproxy({'test': 15, 'balanced_2': 8})
    >>> parse_export_manifest({"format": "inspect-log/2", "splits": {}}) is None
    True
    """
    if not isinstance(doc, dict) or not str(doc.get("format", "")).startswith(EXPORT_FORMAT_PREFIX):
        return None
    splits = doc.get("splits")
    if not isinstance(splits, dict) or not splits or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in splits.items()):
        raise DataError(f"an export manifest ({doc['format']}) without a 'splits' object of {{name: count}}; "
                        "write the export again with `jiancha build export`", path=path)
    settings = doc.get("settings") if isinstance(doc.get("settings"), dict) else {}
    return ExportManifest(path, str(doc["format"]), MappingProxyType(dict(splits)), MappingProxyType(dict(settings)))


def read_export_manifest(folder: Path) -> ExportManifest | None:
    """The manifest of an export folder, or None when ``folder/manifest.json`` is absent, unreadable as JSON or
    not an export manifest."""
    p = folder / EXPORT_MANIFEST_NAME
    if not p.is_file():
        return None
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return parse_export_manifest(doc, str(p))


def export_split_files(folder: Path, manifest: ExportManifest) -> dict[str, Path]:
    """``{split: folder/<split>.jsonl}`` for every split the manifest lists; DataError naming a missing file."""
    out: dict[str, Path] = {}
    for name in manifest.splits:
        f = folder / f"{name}.jsonl"
        if not f.is_file():
            raise DataError(f"the export manifest lists the split {name!r} but {f.name} is missing; write the "
                            "export again with `jiancha build export`", path=str(folder))
        out[name] = f
    return out
