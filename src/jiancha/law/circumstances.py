"""Sentencing circumstances (量刑情节) and fact markers named in judgments, one list, used as retrieval signal."""

from __future__ import annotations

#: Statutory and discretionary sentencing circumstances: surrender, confession, merit, recidivism, stage of the
#: crime, role in a joint crime, victim forgiveness, restitution, minors.
SENTENCING_CIRCUMSTANCES: tuple[str, ...] = (
    "自首", "坦白", "立功", "累犯", "前科", "未遂", "中止", "预备", "从犯", "主犯", "胁从", "共同犯罪",
    "未成年", "谅解", "赔偿", "退赃", "退赔", "认罪认罚",
)
#: Fact markers that separate cases of one charge (manner, harm, object).
FACT_MARKERS: tuple[str, ...] = (
    "结伙", "多次", "入户", "持刀", "凶器", "轻伤", "重伤", "死亡", "醉酒", "逃逸", "毒品", "海洛因",
    "甲基苯丙胺", "网络", "电话", "银行卡", "公务", "国家工作人员",
)
CIRCUMSTANCES: tuple[str, ...] = SENTENCING_CIRCUMSTANCES + FACT_MARKERS


def find_circumstances(text: str, words: tuple[str, ...] = CIRCUMSTANCES) -> frozenset[str]:
    """The ``words`` present in ``text``.

    >>> sorted(find_circumstances("被告人到案后如实供述，系自首，取得被害人谅解"))
    ['自首', '谅解']
    """
    return frozenset(w for w in words if w in text)
