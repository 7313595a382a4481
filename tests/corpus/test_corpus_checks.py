"""Refinement checks: leakage with spans, reasoning in facts, short facts, evidence lists; address rewriting."""

from __future__ import annotations

import dataclasses
from collections import Counter

from jiancha.corpus.checks import CHECKS, check_record, is_procedural_return, rewrite_addresses
from jiancha.datasets.records import PDP_INPUT_FIELDS, PDPRecord

EVIDENCE = "\n认定上述事实的证据如下：\n1.书证：扣押清单；\n2.犯罪嫌疑人的供述与辩解。"
FACT = "2020年1月1日，犯罪嫌疑人甲某在某某超市内盗窃手机一部，价值人民币3,000元，后被店员当场抓获并移交公安机关处理。"


def _rec(fact: str = FACT + EVIDENCE, person: str = "犯罪嫌疑人甲某，男。", procedure: str = "本案由某某县公安局侦查终结。"):
    return PDPRecord(id="r", person_info=person, procedure=procedure, fact=fact, decision="起诉")


def test_clean_record_has_no_findings():
    assert check_record(_rec()) == []


def test_address_leaks_with_spans():
    rec = _rec(person="被不起诉单位某某公司。被告人甲某，男。", procedure="以被不起诉人甲某涉嫌盗窃罪移送。被告单位某某公司。")
    found = [(f.field, f.span, f.start) for f in check_record(rec) if f.check == "address_leak"]
    assert found == [("person_info", "被不起诉单位", 0), ("person_info", "被告人", 11),
                     ("procedure", "被不起诉人", 1), ("procedure", "被告单位", 16)]
    fixed = rewrite_addresses(rec)
    assert fixed.person_info == "犯罪嫌疑单位某某公司。犯罪嫌疑人甲某，男。"
    assert fixed.procedure == "以犯罪嫌疑人甲某涉嫌盗窃罪移送。犯罪嫌疑单位某某公司。"
    assert not [f for f in check_record(fixed) if f.check == "address_leak"]


def test_conclusory_phrases_and_reasoning_in_fact():
    fact = FACT + "上述证据收集合法，证据确实、充分，足以认定。本院认为，其行为已构成盗窃罪。" + EVIDENCE
    found = [(f.check, f.span) for f in check_record(_rec(fact=fact))]
    assert ("conclusion_leak", "证据确实、充分") in found and ("conclusion_leak", "足以认定") in found
    assert ("reasoning_in_fact", "本院认为") in found and ("reasoning_in_fact", "其行为已构成") in found
    f = next(x for x in check_record(_rec(fact=fact)) if x.span == "本院认为")
    assert fact[f.start:f.end] == "本院认为"


def test_short_fact_and_evidence_not_list():
    checks = Counter(f.check for f in check_record(_rec(fact="甲某盗窃手机一部。")))
    assert checks == {"fact_too_short": 1, "evidence_not_list": 1}
    prose = FACT + "\n上述事实，有被害人的陈述，证人的证言等证据证实。"
    assert [f.check for f in check_record(_rec(fact=prose))] == ["evidence_not_list"]


def test_bundled_findings(records_by_id):
    d05 = Counter(f.check for f in check_record(records_by_id["某检公诉刑不诉〔2016〕3号"]))
    assert d05["evidence_not_list"] == 1 and d05["fact_too_short"] == 0
    d03 = [f for f in check_record(records_by_id["某检一部刑不诉〔2020〕7号"]) if f.check == "conclusion_leak"]
    # "因部分事实不清、证据不足，本院…两次退回侦查机关补充侦查": a return for supplementary investigation (QA: was a
    # false positive); the real conclusion (…证据不足，不符合起诉条件) is in raw_reasoning, not an input field
    assert d03 == []
    for rec in records_by_id.values():
        rewritten = rewrite_addresses(rec)
        for field in PDP_INPUT_FIELDS:
            text = getattr(rewritten, field)
            assert "被不起诉人" not in text and "被告人" not in text and "被不起诉单位" not in text
        assert rewritten.raw_reasoning_and_decision == rec.raw_reasoning_and_decision


def test_every_check_id_is_registered():
    person = "被告人甲某，男。"
    rec = _rec(fact="本院认为，甲某盗窃。证据不足。", person=person)
    rec = dataclasses.replace(rec, extra={"flags": ["no_procedure"], "flag_detail": ""})
    found = {f.check for f in check_record(rec)}
    assert found == {"address_leak", "conclusion_leak", "reasoning_in_fact", "fact_too_short", "evidence_not_list",
                     "extraction"}
    assert found == set(CHECKS)
    assert [f.span for f in check_record(rec) if f.check == "extraction"] == ["no_procedure"]


def _leaks(procedure: str) -> list[tuple[str, int]]:
    return [(f.span, f.start) for f in check_record(_rec(procedure=procedure)) if f.check == "conclusion_leak"]


def test_return_for_supplementary_investigation_is_not_a_leak():
    # Returned to the police because of insufficient evidence: a procedural event, not the decision.
    assert _leaks("本院于2020年3月1日因部分事实不清、证据不足退回公安机关补充侦查，公安机关补充侦查完毕后重新移送。") == []
    assert _leaks("本院以部分事实不清、证据不足为由，退回侦查机关补充侦查一次。") == []
    assert _leaks("因证据不足退查。") == []


def test_insufficient_evidence_as_the_conclusion_is_still_a_leak():
    assert _leaks("本院认为，本案证据不足，不符合起诉条件。") == [("证据不足", 7), ("不符合起诉条件", 12)]
    # 补充侦查 before the phrase, or in the next sentence, does not excuse it
    assert _leaks("经两次退回补充侦查，仍然证据不足，不符合起诉条件。") == [("证据不足", 12), ("不符合起诉条件", 17)]
    assert _leaks("证据不足。本案曾退回补充侦查。") == [("证据不足", 0)]
    # a conclusory phrase between the reason and 补充侦查 keeps both findings
    assert _leaks("证据不足，不符合起诉条件，不再退回补充侦查。") == [("证据不足", 0), ("不符合起诉条件", 5)]


def test_is_procedural_return_only_excuses_insufficient_evidence():
    import re

    text = "犯罪情节轻微，退回补充侦查。"
    m = re.search("犯罪情节轻微", text)
    assert m is not None and not is_procedural_return(text, m)
    assert _leaks(text) == [("犯罪情节轻微", 0)]
