"""Verdicts on one or several defendants, described for each (``describe_verdict``), and each defendant's sentence
for each charge, the sentence to serve, whether it combines a prior one and its accessory penalties
(``sentencing_by_defendant``), on verdicts and gold written without the parser (``dev`` / ``sealed``,
``joint_dev`` / ``joint_sealed`` and the appeal rulings ``appeal_dev`` / ``appeal_sealed`` reported apart)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from jiancha.law.penalties import Penalty
from jiancha.law.verdicts import SHOWN_DEFENDANTS, describe_verdict, sentencing_by_defendant

ROOT = Path(__file__).parent / "blind_verdicts"


def _read_description(said: str) -> dict:
    """The fields of one defendant's description (``有期徒刑1年6个月（缓刑2年），剥夺政治权利2年，并处罚金5000元``; of several
    charges, the sentence to serve after 决定执行); the accessory penalties other than the fine are not read."""
    core, *accessory = said.split("决定执行")[-1].split("，")
    out = {"suspended": "（缓刑" in core, "fine": any(a.startswith("并处") and "罚金" in a for a in accessory)}
    core = re.sub(r"（缓刑[^）]*）", "", core)
    core = "单处罚金" if core.startswith("单处罚金") else core     # 单处罚金20万元
    if m := re.fullmatch(r"有期徒刑(?:(\d+)年)?(?:(\d+)个月)?", core):
        return out | {"principal": "有期徒刑", "months": 12 * int(m.group(1) or 0) + int(m.group(2) or 0)}
    if m := re.fullmatch(r"(拘役|管制)(\d+)个月", core):
        return out | {"principal": m.group(1), "months": int(m.group(2))}
    return out | {"principal": core, "months": None}


def _cases(parts=("dev", "sealed")):
    for part in parts:
        for line in (ROOT / f"{part}.jsonl").read_text(encoding="utf-8").splitlines():
            gold = json.loads(line)
            yield pytest.param(gold, id=f"{part}/{gold['id']}")


@pytest.mark.parametrize("gold", list(_cases()))
def test_blind_verdict(gold):
    said = describe_verdict(gold["verdict"])
    want = gold["defendants"]
    if len(want) == 1:
        assert _read_description(said) | {"name": want[0]["name"]} == want[0], said
        return
    parts = said.split("；")
    more = int(parts.pop()[1:-1]) if parts[-1].startswith("等") else None
    assert more == (len(want) if len(want) > SHOWN_DEFENDANTS else None), said
    got = [_read_description(rest) | {"name": name} for name, rest in (p.split(" ", 1) for p in parts)]
    assert got == want[:SHOWN_DEFENDANTS], said


def _penalty(p: Penalty) -> dict:
    return {"principal": p.principal, "months": p.months, "suspended": p.suspended}


def _accessory(p: Penalty) -> dict:
    """The accessory penalties as the appeal sets' gold words them: a fine imposed alone (单处罚金) counts as a fine."""
    return {"rights_deprived": p.rights_deprived, "confiscation": p.confiscation,
            "fine": p.fine or p.principal == "单处罚金", "expulsion": p.expulsion,
            "commutation_limited": p.commutation_limited}


@pytest.mark.parametrize("gold", list(_cases(("joint_dev", "joint_sealed", "appeal_dev", "appeal_sealed"))))
def test_blind_sentencing(gold):
    with_accessory = "accessory" in gold["defendants"][0]
    got = [{"name": name,
            "charges": [{"charge": c} | _penalty(p) for c, p in s.charges],
            "executed": _penalty(s.executed),
            "combined_with_prior": s.combined_with_prior}
           | ({"accessory": _accessory(s.executed)} if with_accessory else {})
           for name, s in sentencing_by_defendant(gold["verdict"])]
    assert got == gold["defendants"]
