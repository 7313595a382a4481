"""The PDP run directory on top of the generic durable store (``jiancha.llm.store``): typed PredictionRecords,
latest line per (case_id, run_id)."""

from __future__ import annotations

import os
from pathlib import Path

from jiancha.llm.store import MANIFEST, RECORDS, RunStore
from jiancha.pdp.records import PredictionRecord

__all__ = ["MANIFEST", "RECORDS", "RunStore", "append_prediction", "read_predictions"]


def append_prediction(store: RunStore, record: PredictionRecord) -> None:
    store.append(record.to_dict())


def read_predictions(run_dir: str | os.PathLike) -> list[PredictionRecord]:
    """The latest record per (case_id, run_id), in order of first appearance."""
    latest: dict[tuple[str, int], PredictionRecord] = {}
    for row in RunStore(Path(run_dir)).iter_rows():
        rec = PredictionRecord.from_dict(row)
        latest[(rec.case_id, rec.run_id)] = rec
    return list(latest.values())
