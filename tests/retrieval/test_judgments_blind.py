"""Court documents as plain text and as saved files (.docx, PDF, web pages, .doc holding HTML or text, files
without readable text), on documents and gold written without the readers: the parts, charges, penalty and cited
articles a case index keeps of each (each set's ``dev`` and ``sealed`` reported apart)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha.law.charges import find_charges
from jiancha.law.judgment import split_judgment
from jiancha.law.penalties import parse_prison_months
from jiancha.retrieval.ltr.features import cited_articles
from jiancha.retrieval.sources import SourceReport, judgment_text, read_case_docs

#: Plain-text documents (gold with their encoding), and documents as saved files (gold with their format).
SETS = (Path(__file__).parent / "blind_judgments", Path(__file__).parent / "blind_documents")
#: What the shown decision must contain for each gold outcome.
OUTCOME_WORDS = {"prison": "有期徒刑", "detention": "拘役", "probation": "缓刑", "fine_only": "单处罚金",
                 "acquittal": "无罪", "appeal_dismissed": "维持原判", "exempt": "免予刑事处罚"}


def _cases():
    for root in SETS:
        for part in ("dev", "sealed"):
            for line in (root / f"gold_{part}.jsonl").read_text(encoding="utf-8").splitlines():
                gold = json.loads(line)
                yield pytest.param(root / part, gold, id=f"{root.name}/{part}/{gold['file']}")


@pytest.mark.parametrize("folder, gold", list(_cases()))
def test_blind_judgment(folder, gold):
    path = folder / gold["file"]
    report = SourceReport()
    docs = [d for d in read_case_docs(folder, report) if d.id == path.stem]
    if not gold.get("readable", True):   # skipped, and the report says what to save it as
        (why,) = [why for p, why in report.skipped if p == str(path)]
        assert docs == [] and why.count("save it as") == 1
        return
    read = judgment_text(path)
    if "encoding" in gold:
        assert read.encoding.removesuffix("-sig") == gold["encoding"]
    p = split_judgment(read.text)
    assert p.fact.startswith(gold["fact_start"])
    assert p.reason.startswith(gold["reason_start"])
    assert p.result.startswith(gold["result_start"])
    assert sorted(cited_articles((p.reason, p.result))) == sorted(gold["articles"])
    (doc,) = docs
    # gold names charges as people write them (贩卖毒品罪); the index keeps the Criminal Law's names
    assert set(doc.charges) >= {(find_charges(c) or [c])[0] for c in gold["charges"]}
    assert OUTCOME_WORDS[gold["outcome"]] in doc.decision
    months = parse_prison_months(doc.decision)
    assert months == gold["prison_months"] if gold["prison_months"] is not None else months in (None, 0.0)
    assert (str(path) in report.gb18030) == (read.encoding == "gb18030")
