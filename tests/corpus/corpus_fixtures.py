"""Paths and flags shared by the jiancha.corpus tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jiancha

RAW_DOCS = Path(jiancha.__file__).parent / "data" / "raw_docs"
DATA = Path(__file__).parent / "data"
PDF_SOURCE = DATA / "pdf_snp_2020.txt"
PDF_NAME = "d18_snp_2020.pdf"
HAS_REPORTLAB = importlib.util.find_spec("reportlab") is not None
