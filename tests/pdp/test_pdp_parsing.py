"""Parser test vectors (tests/pdp/vectors/parse_vectors.json), both modes, plus properties of the parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha.errors import ConfigError
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp.answers import render_answer
from jiancha.pdp.parsing import REASONS, parse_answer

VECTORS = json.loads((Path(__file__).parent / "vectors" / "parse_vectors.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("mode", ["reference", "default"])
@pytest.mark.parametrize("vec", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(vec, mode):
    got = parse_answer(vec["text"], compat=mode, finish_reason=vec["finish_reason"]).to_dict()
    assert got == vec[mode]


def test_vectors_cover_every_reason_code():
    reasons = {v[m]["reason"] for v in VECTORS for m in ("reference", "default")}
    assert set(REASONS) <= reasons


@pytest.mark.parametrize("label", LEVEL2_LABELS)
@pytest.mark.parametrize("mode", ["reference", "default"])
def test_rendered_answers_round_trip(label, mode):
    arts = ["cl:第二百六十四条", "cl:第六十七条第三款", "cpl:第十六条第（二）项", "cpr:第三百七十条"]
    parsed = parse_answer(render_answer(label, arts, "分析。"), compat=mode)
    assert parsed.valid and parsed.decision == label
    assert list(parsed.relevant_articles) == arts


def test_unknown_compat_mode_is_an_error():
    with pytest.raises(ConfigError, match="compat"):
        parse_answer("x", compat="strict")
