"""The case workbench: one case in, a recommendation out, every failure turned into a message for the page.

Precedents come through :func:`precedent_index`, the one place that knows which retrieval index backs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jiancha.datasets.records import PDPRecord
from jiancha.errors import BackendError, ConfigError, JianchaError
from jiancha.law.statutes import Statutes
from jiancha.pdp.consult import DEFAULT_MODEL, Consultation, consult
from jiancha.retrieval.precedents import PrecedentIndex

#: Longest accepted field, in characters (a real 不起诉决定书 fact section is a few thousand).
MAX_FIELD_CHARS = 20_000
#: The form's fields, in order, with their headings as they appear in a 不起诉决定书.
FIELDS = (("person_info", "【犯罪嫌疑人信息】"), ("procedure", "【案件程序】"), ("fact", "【案件事实】"))


def precedent_index(records: list[PDPRecord] | None) -> PrecedentIndex | None:
    """The precedent search behind the workbench (charge-aware BM25 over decided records)."""
    return PrecedentIndex(records) if records else None


class InputError(ConfigError):
    """The submitted case cannot be reviewed as given (empty facts, a field too long)."""


def check_case(person_info: str, procedure: str, fact: str) -> PDPRecord:
    """The case as a record, or InputError naming the field and the fix."""
    values = {"person_info": person_info, "procedure": procedure, "fact": fact}
    for name, heading in FIELDS:
        n = len(values[name])
        if n > MAX_FIELD_CHARS:
            raise InputError(f"{heading}有 {n:,} 字，超过上限 {MAX_FIELD_CHARS:,} 字：请删去与决定无关的部分"
                             "（如证据清单）后再提交。")
    if not fact.strip():
        raise InputError("【案件事实】为空：请填写案件事实，建议依据的就是这一部分。")
    return PDPRecord(id="", person_info=person_info, procedure=procedure, fact=fact, decision="")


@dataclass(frozen=True)
class Outcome:
    """What the workbench shows after a submission: a result, or a message (the input is kept either way)."""

    case: dict[str, str]
    result: Consultation | None = None
    error: str | None = None
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Workbench:
    model: str = DEFAULT_MODEL
    precedents: list[PDPRecord] | None = None
    k: int = 5
    statutes: Statutes | None = None
    base_urls: tuple[str, ...] = ()
    api_key_env: str | None = None
    index: PrecedentIndex | None = None

    def __post_init__(self) -> None:
        if self.index is None:
            self.index = precedent_index(self.precedents)

    def review(self, person_info: str, procedure: str, fact: str) -> Outcome:
        case = {"person_info": person_info, "procedure": procedure, "fact": fact}
        try:
            record = check_case(person_info, procedure, fact)
        except InputError as exc:
            return Outcome(case, error=str(exc), status=422)
        try:
            result = consult(record, model=self.model, precedents=self.precedents, k=self.k,
                             statutes=self.statutes, base_urls=self.base_urls, api_key_env=self.api_key_env,
                             index=self.index)
        except BackendError as exc:
            return Outcome(case, error=f"模型服务没有给出回答（{exc}）。请确认服务已启动、地址和密钥正确后重试；"
                                       "输入已保留。", status=502)
        except (JianchaError, OSError) as exc:
            return Outcome(case, error=f"审查失败：{exc}。输入已保留。", status=500)
        return Outcome(case, result=result)


def precedent_reasons(precedent, result: Consultation, top_score: float) -> list[str]:
    """Why a precedent is listed, in words: shared charges, articles it shares with the recommendation, and how
    close its facts read compared with the closest one (BM25 relative to the best match)."""
    from jiancha.web.render import article_name

    reasons = []
    if precedent.shared_charges:
        reasons.append("同罪名：" + "、".join(precedent.shared_charges))
    common = [a for a in precedent.relevant_articles if a in set(result.relevant_articles)]
    if common:
        reasons.append("同引法条：" + "、".join(article_name(a) for a in common))
    if top_score > 0:
        reasons.append(f"事实表述相近（为最相近先例的 {100 * precedent.score / top_score:.0f}%）")
    return reasons

