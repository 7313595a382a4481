"""Police 起诉意见书 written with their gold by someone who had not read the splitter
(``blind_recommendations``: dev and sealed reported apart): where each of the three inputs begins and ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha.corpus.document_case import document_case

ROOT = Path(__file__).parent / "blind_recommendations"


def _cases():
    for part in ("dev", "sealed"):
        for line in (ROOT / f"gold_{part}.jsonl").read_text(encoding="utf-8").splitlines():
            gold = json.loads(line)
            yield pytest.param(gold, id=gold["file"])


@pytest.mark.parametrize("gold", list(_cases()))
def test_blind_recommendation(gold):
    path = ROOT / gold["file"]
    read = document_case(path.read_bytes(), str(path))
    assert (read.title, read.decision) == ("起诉意见书", "")
    case = read.case
    got = {"person_first": case["person_info"][:15], "person_last": case["person_info"][-15:],
           "procedure_first": case["procedure"][:15] or None, "procedure_last": case["procedure"][-15:] or None,
           "fact_first": case["fact"][:15], "fact_last": case["fact"][-15:]}
    assert got == {k: gold[k] for k in got}
    for name in gold["suspects"]:
        assert name in case["person_info"]
