"""Fixtures for the training tests: a fictional PDP pool and a tiny Qwen3 model built locally (no download)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdp_fixtures import build_tiny_model, make_pool, write_pool

from jiancha.law.labels import Decision


@pytest.fixture
def pool_file(tmp_path: Path) -> Path:
    """A fictional pool: 12 rows per class."""
    return write_pool(tmp_path / "pool.jsonl", make_pool({d: 12 for d in Decision}))


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from jiancha.pdp.answers import render_answer
    from jiancha.pdp.prompts import build_messages

    records = make_pool({d: 3 for d in Decision})
    corpus = []
    for r in records:
        corpus += [m["content"] for m in build_messages(r, "baseline")]
        corpus.append(render_answer(r.decision, list(r.relevant_articles), r.raw_reasoning_and_decision))
    return build_tiny_model(tmp_path_factory.mktemp("tiny-qwen3"), corpus * 3)
