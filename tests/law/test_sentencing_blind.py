"""Each defendant's sentence for each charge, the sentence to serve and whether it combines a prior one
(``sentencing_by_defendant``), on verdicts and gold written without the parser (``joint_dev`` and
``joint_sealed`` reported apart)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha.law.verdicts import Penalty, sentencing_by_defendant

ROOT = Path(__file__).parent / "blind_verdicts"


def _penalty(p: Penalty) -> dict:
    return {"principal": p.principal, "months": p.months, "suspended": p.suspended}


def _cases():
    for part in ("joint_dev", "joint_sealed"):
        for line in (ROOT / f"{part}.jsonl").read_text(encoding="utf-8").splitlines():
            gold = json.loads(line)
            yield pytest.param(gold, id=f"{part}/{gold['id']}")


@pytest.mark.parametrize("gold", list(_cases()))
def test_blind_sentencing(gold):
    got = [{"name": name,
            "charges": [{"charge": c} | _penalty(p) for c, p in s.charges],
            "executed": _penalty(s.executed),
            "combined_with_prior": s.combined_with_prior}
           for name, s in sentencing_by_defendant(gold["verdict"])]
    assert got == gold["defendants"]
