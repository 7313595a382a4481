"""PDP-Bench loader: hub id, save_to_disk folder, JSONL, JSON list or Parquet; validation; test_rq2."""

from __future__ import annotations

from jiancha.datasets.records import PDPRecord

HUB_ID = "Julian2002/PDP-Bench"
SPLITS = ("test", "test_rq2")


def load_pdp(source: str, split: str = "test", *, validate: bool = True) -> list[PDPRecord]:
    """Load a PDP split from any supported source; raise DataError naming file/row/field on bad records."""
    raise NotImplementedError


def make_test_rq2(records: list[PDPRecord], *, per_class: int = 25, seed: int = 42) -> list[PDPRecord]:
    """Recreate ``test_rq2`` from ``test`` exactly as the reference does (see docs/pdp-protocol.md §1)."""
    raise NotImplementedError
