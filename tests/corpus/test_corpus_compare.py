"""LLM track with an injected fake backend, field-by-field comparison, review decisions."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from jiancha.corpus.compare import (
    apply_reviews,
    compare_all,
    compare_records,
    normalize_for_compare,
    read_reviews,
    render_diff,
    review_counts,
)
from jiancha.corpus.llm_track import build_messages, extract_with_llm, parse_llm_answer
from jiancha.errors import DataError, ParseError
from jiancha.llm.types import ChatResult


class FakeBackend:
    """Answers each document with a scripted JSON built from the rule record (optionally altered)."""

    def __init__(self, answers: dict[str, str]):
        self.answers = answers
        self.calls: list[list[dict[str, str]]] = []

    async def complete(self, messages):
        self.calls.append(messages)
        for case_number, answer in self.answers.items():
            if case_number in messages[1]["content"].replace(" ", ""):
                return ChatResult(ok=True, text=answer)
        return ChatResult(ok=False, error="HTTP 500 after 3 attempts")


def _answer(records, *, fenced=False, **changes) -> str:
    rows = []
    for r in records:
        d = r.to_dict()
        d["date"], d["province"] = d["meta"]["date"], d["meta"]["province"]
        d.pop("meta")
        d.update(changes)
        rows.append(d)
    text = json.dumps({"records": rows}, ensure_ascii=False)
    return f"好的，结果如下：\n```json\n{text}\n```" if fenced else text


def test_normalisation_ignores_whitespace_and_punctuation():
    assert normalize_for_compare("证据如下：\n1. 书证；") == normalize_for_compare("证据如下:1．书证;")
    assert normalize_for_compare("盗窃罪") != normalize_for_compare("抢夺罪")


def test_render_diff_is_readable():
    assert render_diff("价值人民币3000元", "价值人民币5000元") == "价值人民币[-3-]{+5+}000元"


def test_llm_track_agreement_and_disagreement(report):
    docs = {d.case_number: d for d in report.raw_documents}
    by_case = {}
    for e in report.extracted:
        by_case.setdefault(e.record.id.rsplit("-", 1)[0] if e.record.id.endswith(("-1", "-2")) else e.record.id,
                           []).append(e.record)
    agree_case, differ_case = "某检刑不诉〔2021〕12号", "某检刑不诉〔2022〕45号"
    answers = {
        agree_case: _answer(by_case[agree_case], fenced=True,
                            fact=by_case[agree_case][0].fact.replace("：", ":").replace("\n", " ")),
        differ_case: _answer(by_case[differ_case], decision="相对不起诉"),
    }
    fake = FakeBackend(answers)
    llm, errors = extract_with_llm([docs[agree_case], docs[differ_case], docs["某检刑诉〔2021〕88号"]], fake.complete)
    assert len(fake.calls) == 3 and fake.calls[0] == build_messages(docs[agree_case])
    assert list(errors.values()) == ["request failed: HTTP 500 after 3 attempts"]
    rule = by_case[agree_case] + by_case[differ_case]
    comps = compare_all(rule, llm)
    assert [c.agreed for c in comps] == [True, False]
    (diff,) = comps[1].diffs
    assert (diff.field, diff.rule, diff.llm) == ("decision", "法定不起诉", "相对不起诉")
    # no review: the disagreement is held back; reviews decide it
    assert [r.id for r in apply_reviews(rule, llm, comps, [])] == [agree_case]
    kept = apply_reviews(rule, llm, comps, [{"id": differ_case, "choice": "rule"}])
    assert kept[1].decision == "法定不起诉"
    took_llm = apply_reviews(rule, llm, comps, [{"id": differ_case, "choice": "llm"}])
    assert took_llm[1].decision == "相对不起诉"
    assert len(apply_reviews(rule, llm, comps, [{"id": differ_case, "choice": "drop"}])) == 1
    edited = replace(rule[1], fact="改写后的事实").to_dict()
    assert apply_reviews(rule, llm, comps, [{"id": differ_case, "choice": "edit", "record": edited}])[1].fact == \
        "改写后的事实"
    with pytest.raises(DataError, match="unknown review choice"):
        apply_reviews(rule, llm, comps, [{"id": differ_case, "choice": "maybe"}])
    assert review_counts([{"id": differ_case, "choice": "rule"}, {"id": agree_case, "choice": "drop"},
                          {"id": "无此案", "choice": "drop"}], comps) == {"reviews_applied": 1, "reviews_unused": 2}


def test_missing_llm_record_is_a_disagreement(records_by_id):
    rec = next(iter(records_by_id.values()))
    c = compare_records(rec, None)
    assert not c.agreed and c.missing == "llm"


@pytest.mark.parametrize("answer,match", [
    ("not json at all", "not JSON"),
    ('{"records": []}', "no non-empty"),
    ('{"records": [{"id": "x", "decision": "不起诉"}]}', "expected one of"),
])
def test_bad_llm_answers(answer, match):
    with pytest.raises(ParseError, match=match):
        parse_llm_answer(answer)


def test_llm_articles_are_normalised():
    (rec,) = parse_llm_answer('{"records": [{"id": "x", "decision": "起诉", "relevant_articles": '
                              '["cpl:第176条", "《刑法》第二百六十四条"]}]}')
    assert rec.relevant_articles == ("cl:第二百六十四条", "cpl:第一百七十六条")


def test_read_reviews_names_file_line_and_field(tmp_path):
    p = tmp_path / "reviews.jsonl"
    p.write_text('{"id": "a", "choice": "rule"}\n\n{"id": "b", "choice": "maybe"}\n', encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_reviews(p)
    assert (err.value.path, err.value.line, err.value.field) == (str(p), 3, "choice")
    assert "unknown review choice 'maybe'" in str(err.value)
    p.write_text('{"id": "a", "choice": "edit"}\n', encoding="utf-8")
    with pytest.raises(DataError, match="needs a 'record' object") as err:
        read_reviews(p)
    assert (err.value.line, err.value.field) == (1, "record")
    p.write_text('{"choice": "rule"}\n{"id": "b", "choice": "drop"}\n', encoding="utf-8")
    with pytest.raises(DataError, match="without an 'id'"):
        read_reviews(p)
    p.write_text('{"id": "a", "choice": "rule"}\n{"id": "b", "choice": "drop"}\n', encoding="utf-8")
    assert [(r.id, r.choice, r.line) for r in read_reviews(p)] == [("a", "rule", 1), ("b", "drop", 2)]
