"""`jiancha demo` runs offline end to end and writes a complete run directory."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from jiancha.cli.demo import DEMO_PDP_MODELS, DEMO_RETRIEVAL_METHODS
from jiancha.cli.main import app


def test_demo_writes_pdp_and_retrieval_runs(tmp_path):
    res = CliRunner().invoke(app, ["demo", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "L2 Macro-F1" in res.output and "ndcg@10" in res.output
    (root,) = list(tmp_path.iterdir())
    for model in DEMO_PDP_MODELS:
        run = root / "pdp" / model.split(":")[-1]
        manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["spec"]["model"] == model
        assert manifest["data"]["n_cases"] == 60
        metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
        assert 0.0 <= metrics["pooled"]["decision_level2_macro_f1"] <= 1.0
        if model == "baseline:majority":
            # the sample holds 24 起诉 of 60: all-起诉 gives F1(起诉) = 2·24/(24+60) = 4/7, the other three 0
            assert metrics["pooled"]["decision_level2_accuracy"] == pytest.approx(0.4)
            assert metrics["pooled"]["decision_level2_macro_f1"] == pytest.approx(1 / 7)
    for method in DEMO_RETRIEVAL_METHODS:
        assert (root / "retrieval" / method / "metrics.json").exists()
