"""Fixtures for jiancha.corpus: the bundled raw documents (plus a PDF generated at test time) and expectations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from corpus_fixtures import DATA, HAS_REPORTLAB, PDF_NAME, PDF_SOURCE, RAW_DOCS


@pytest.fixture(scope="session")
def expected() -> dict:
    return json.loads((DATA / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def raw_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the bundled documents, plus a text-layer PDF when reportlab is installed (dev extra)."""
    d = tmp_path_factory.mktemp("raw") / "docs"
    shutil.copytree(RAW_DOCS, d)
    if HAS_REPORTLAB:
        from pdfgen import write_text_pdf

        write_text_pdf(PDF_SOURCE.read_text(encoding="utf-8"), d / PDF_NAME)
    return d


@pytest.fixture(scope="session")
def report(raw_dir: Path):
    from jiancha.corpus.pipeline import extract_folder

    return extract_folder(raw_dir)


@pytest.fixture(scope="session")
def records_by_id(report) -> dict:
    return {e.record.id: e.record for e in report.extracted}
