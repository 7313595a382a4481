"""Fictional PDP cases for the runner and baseline tests. Every fact carries a ``CASE-nnn`` marker so that the
fake server can attribute requests to cases."""

from __future__ import annotations

import json
from pathlib import Path

from jiancha.datasets.records import PDPRecord

CLASSES = ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")

_PROCEDURE = "本案由某县公安局侦查终结，以犯罪嫌疑人某甲涉嫌盗窃罪，于2021年4月1日移送本院审查起诉。"
_TWO_RETURNS = ("本院于2021年5月1日第一次退回侦查机关补充侦查，侦查机关于2021年6月1日补查重报；"
                "本院于2021年7月1日第二次退回侦查机关补充侦查，侦查机关于2021年8月1日补查重报。")
_FACTS = {
    "起诉": "经审查查明：2021年1月，犯罪嫌疑人某甲窃取被害人财物，价值人民币50000元。",
    "相对不起诉": "经审查查明：2021年1月，犯罪嫌疑人某甲窃取被害人手机一部，价值人民币2000元。案发后某甲主动投案自首，"
              "退赔全部损失并取得被害人谅解。",
    "法定不起诉": "经审查查明：2021年1月，某甲与邻居发生争执并推搡，情节显著轻微，危害不大。",
    "存疑不起诉": "经审查查明：2021年1月，某店铺财物被盗，现有证据不能证明系某甲所为。",
}
_ARTICLES = {
    "起诉": ["cl:第二百六十四条", "cpl:第一百七十六条"],
    "相对不起诉": ["cl:第二百六十四条", "cl:第三十七条", "cpl:第一百七十七条第二款"],
    "法定不起诉": ["cpl:第十六条第（一）项", "cpl:第一百七十七条第一款"],
    "存疑不起诉": ["cpl:第一百七十五条第四款"],
}


def make_case(i: int, decision: str) -> PDPRecord:
    return PDPRecord(
        id=f"某检刑诉〔2021〕{i}号",
        person_info=f"犯罪嫌疑人某甲{i}，男，1980年出生，汉族，因涉嫌盗窃罪于2021年3月1日被取保候审。",
        procedure=_PROCEDURE + (_TWO_RETURNS if decision == "存疑不起诉" else ""),
        fact=f"CASE-{i:03d} {_FACTS[decision]}",
        decision=decision,
        relevant_articles=tuple(_ARTICLES[decision]),
        date="2021-09-01",
        province="某省",
    )


def make_cases(n: int) -> list[PDPRecord]:
    return [make_case(i, CLASSES[i % 4]) for i in range(n)]


def write_cases(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in make_cases(n)),
                    encoding="utf-8")
    return path
