"""The police's 起诉意见书 split into the three PDP inputs (``jiancha.corpus.recommendation``)."""

from __future__ import annotations

from jiancha.corpus.document_case import document_case
from jiancha.corpus.ingest import document_lines
from jiancha.corpus.recommendation import is_recommendation, split_recommendation

HEAD = "某某市公安局\n起诉意见书\n某公（刑）诉字〔2021〕123号\n"
PERSON = ("犯罪嫌疑人张某，男，1985年3月12日出生，汉族，初中文化，无业，户籍所在地某某省某某县。\n"
          "违法犯罪经历：2015年因盗窃被某某县人民法院判处有期徒刑一年。\n"
          "因涉嫌盗窃罪于2021年3月6日被我局刑事拘留，同年4月10日经某某区人民检察院批准逮捕。\n"
          "辩护律师王某，某某律师事务所律师。\n")
PROCEDURE = ("犯罪嫌疑人张某涉嫌盗窃一案，由被害人李某于2021年3月5日报案至我局。我局经过审查，于同日立案进行侦查。\n"
             "犯罪嫌疑人张某于2021年3月6日被抓获归案。\n")
FACT = ("2021年3月5日凌晨，犯罪嫌疑人张某在某某小区撬锁进入被害人李某家中，窃得现金人民币5000元。\n"
        "认定上述事实的证据如下：被害人陈述、证人证言、监控录像等。\n上述犯罪事实清楚，证据确实、充分，足以认定。\n")
TAIL = ("综上所述，犯罪嫌疑人张某入户盗窃他人财物，其行为已触犯《中华人民共和国刑法》第二百六十四条之规定，涉嫌盗窃罪。"
        "依照《中华人民共和国刑事诉讼法》第一百六十二条之规定，特将本案移送审查起诉。\n此致\n某某区人民检察院\n某某市公安局\n"
        "2021年5月7日\n")


def _split(text: str):
    lines = document_lines(text)
    assert is_recommendation(lines)
    return split_recommendation(lines)


def test_persons_procedure_and_facts_between_the_lead_in_and_the_conclusion():
    parts = _split(HEAD + PERSON + PROCEDURE + "经依法侦查查明：\n" + FACT + TAIL)
    assert parts.person_lines == tuple(PERSON.splitlines()[:3])          # the counsel line is no input
    assert parts.procedure_lines == tuple(PROCEDURE.splitlines())
    assert parts.fact_lines == tuple(FACT.splitlines())


def test_a_lead_in_inside_the_procedure_paragraph_and_none_at_all():
    inline = PROCEDURE.replace("归案。\n", "归案。经侦查查明：" + FACT.splitlines()[0] + "\n") + "\n".join(FACT.splitlines()[1:])
    parts = _split(HEAD + PERSON + inline + "\n" + TAIL)
    assert parts.procedure_lines[-1] == "犯罪嫌疑人张某于2021年3月6日被抓获归案。"
    assert parts.fact_lines == tuple(FACT.splitlines())
    parts = _split(HEAD + PERSON + PROCEDURE + FACT + TAIL)              # no lead-in: the first narrating line
    assert parts.procedure_lines == tuple(PROCEDURE.splitlines()) and parts.fact_lines == tuple(FACT.splitlines())


def test_a_recommendation_file_gives_the_workbench_case_and_no_decision():
    read = document_case((HEAD + PERSON + PROCEDURE + "经依法侦查查明：\n" + FACT + TAIL).encode("gb18030"), "a.txt")
    assert (read.title, read.decision, read.missing) == ("起诉意见书", "", [])
    assert read.case["fact"] == FACT.strip() and read.case["procedure"] == PROCEDURE.strip()
    assert not is_recommendation(document_lines("某某县人民法院\n刑事判决书\n" + PERSON))
