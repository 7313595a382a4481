"""Court documents as plain text, on documents and gold written without the parser: the parts, charges, penalty
and cited articles a case index keeps of each (``dev`` and ``sealed`` reported apart)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha._util.io import decode_chinese_text
from jiancha.law.charges import find_charges
from jiancha.law.judgment import split_judgment
from jiancha.law.penalties import parse_prison_months
from jiancha.retrieval.ltr.features import cited_articles
from jiancha.retrieval.sources import SourceReport, read_case_docs

ROOT = Path(__file__).parent / "blind_judgments"
#: What the shown decision must contain for each gold outcome.
OUTCOME_WORDS = {"prison": "有期徒刑", "detention": "拘役", "probation": "缓刑", "fine_only": "单处罚金",
                 "acquittal": "无罪", "appeal_dismissed": "维持原判", "exempt": "免予刑事处罚"}


def _cases():
    for part in ("dev", "sealed"):
        for line in (ROOT / f"gold_{part}.jsonl").read_text(encoding="utf-8").splitlines():
            gold = json.loads(line)
            yield pytest.param(part, gold, id=f"{part}/{gold['file']}")


@pytest.mark.parametrize("part, gold", list(_cases()))
def test_blind_judgment(part, gold):
    path = ROOT / part / gold["file"]
    text, enc = decode_chinese_text(path.read_bytes(), path)
    assert enc.removesuffix("-sig") == gold["encoding"]
    p = split_judgment(text)
    assert p.fact.startswith(gold["fact_start"])
    assert p.reason.startswith(gold["reason_start"])
    assert p.result.startswith(gold["result_start"])
    assert sorted(cited_articles((p.reason, p.result))) == sorted(gold["articles"])
    report = SourceReport()
    (doc,) = [d for d in read_case_docs(ROOT / part, report) if d.id == path.stem]
    # gold names charges as people write them (贩卖毒品罪); the index keeps the Criminal Law's names
    assert set(doc.charges) >= {(find_charges(c) or [c])[0] for c in gold["charges"]}
    assert OUTCOME_WORDS[gold["outcome"]] in doc.decision
    months = parse_prison_months(doc.decision)
    assert months == gold["prison_months"] if gold["prison_months"] is not None else months in (None, 0.0)
    assert (str(path) in report.gb18030) == (gold["encoding"] == "gb18030")
