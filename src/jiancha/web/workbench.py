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


def bilingual(zh: str, en: str) -> str:
    """How the JSON API words an error: the Chinese sentence, then the English in parentheses."""
    return f"{zh}（{en}）"


class InputError(ConfigError):
    """The submitted case cannot be reviewed as given (empty facts, a field too long); ``en`` is the English."""

    def __init__(self, zh: str, en: str) -> None:
        super().__init__(zh)
        self.en = en


def check_case(person_info: str, procedure: str, fact: str) -> PDPRecord:
    """The case as a record, or InputError naming the field and the fix."""
    values = {"person_info": person_info, "procedure": procedure, "fact": fact}
    for name, heading in FIELDS:
        n = len(values[name])
        if n > MAX_FIELD_CHARS:
            raise InputError(f"{heading}有 {n:,} 字，超过上限 {MAX_FIELD_CHARS:,} 字：请删去与决定无关的部分"
                             "（如证据清单）后再提交。",
                             f"{name} has {n:,} characters, over the limit of {MAX_FIELD_CHARS:,}: remove what the "
                             "decision does not rest on (such as the list of evidence) and submit again")
    if not fact.strip():
        raise InputError("【案件事实】为空：请填写案件事实，建议依据的就是这一部分。",
                         "fact is empty: fill in the facts of the case, which the recommendation rests on")
    return PDPRecord(id="", person_info=person_info, procedure=procedure, fact=fact, decision="")


@dataclass(frozen=True)
class Outcome:
    """What the workbench shows after a submission: a result, or a message (the input is kept either way).
    ``error`` is the page's Chinese sentence, ``error_en`` its English; the API sends both (``api_error``)."""

    case: dict[str, str]
    result: Consultation | None = None
    error: str | None = None
    error_en: str | None = None
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def api_error(self) -> str | None:
        """The error as the JSON API words it (no mention of a form: there is none)."""
        return bilingual(self.error, self.error_en or "") if self.error else None


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
            return Outcome(case, error=str(exc), error_en=exc.en, status=422)
        try:
            result = consult(record, model=self.model, precedents=self.precedents, k=self.k,
                             statutes=self.statutes, base_urls=self.base_urls, api_key_env=self.api_key_env,
                             index=self.index)
        except BackendError as exc:
            return Outcome(case, error=f"模型服务没有给出回答（{exc}）。请确认服务已启动、地址和密钥正确后重试。",
                           error_en="the model service gave no answer: check that it is running and that its "
                                    "address and key are right, then try again", status=502)
        except (JianchaError, OSError) as exc:
            return Outcome(case, error=f"审查失败：{exc}。", error_en="the review failed for the reason given",
                           status=500)
        return Outcome(case, result=result)


#: Fact similarity relative to the closest precedent listed (BM25 score ratio) → words; the first threshold met.
SIMILARITY_WORDS = ((0.8, "与最相近的一件相当"), (0.5, "不及最相近的一件"), (0.0, "远不及最相近的一件"))


def similarity_wording(score: float, scores: list[float]) -> str:
    """How close a precedent's facts read, in words that cannot pass for an absolute similarity: the closest of the
    listed precedents by fact similarity (BM25), or a bucket of ``score / max``. No rank: the list is ordered by
    shared charge first, so a rank by facts would contradict its numbers.

    >>> similarity_wording(12.0, [12.0, 9.0, 4.0])
    '事实表述：所列先例中最相近'
    >>> similarity_wording(10.0, [12.0, 10.0, 4.0])
    '事实表述：与最相近的一件相当'
    >>> similarity_wording(9.0, [12.0, 9.0, 4.0]), similarity_wording(4.0, [12.0, 9.0, 4.0])
    ('事实表述：不及最相近的一件', '事实表述：远不及最相近的一件')
    """
    top = max(scores)
    if score >= top:
        return "事实表述：所列先例中最相近"
    ratio = score / top if top > 0 else 0.0
    return "事实表述：" + next(w for t, w in SIMILARITY_WORDS if ratio >= t)


def absent_charge_note(precedents) -> str:
    """When the case names its charges and no listed precedent has any of them: say so, as the list then holds
    only cases of other charges (the collection has none of that charge among the cases its words reach).

    >>> from types import SimpleNamespace as P
    >>> absent_charge_note([P(shared_charges=(), charges_guessed=False)])[:13]
    '所列先例均无本案写明的罪名'
    >>> absent_charge_note([P(shared_charges=("盗窃罪",), charges_guessed=False)]), absent_charge_note([])
    ('', '')
    """
    if not precedents or any(p.shared_charges or p.charges_guessed for p in precedents):
        return ""
    return "所列先例均无本案写明的罪名：先例库中可能没有该罪名的判决，以下先例仅供事实对照。"


def article_level(canonical: str) -> str:
    """``cl:第二百三十四条第一款`` → ``cl:第二百三十四条`` (条之N kept); a string that is no canonical citation unchanged."""
    from jiancha.errors import ParseError
    from jiancha.law.articles import parse_canonical

    try:
        return parse_canonical(canonical).article_level().canonical()
    except ParseError:
        return canonical


#: Articles a precedent cites that its line shows, before it says how many more there are.
SHOWN_PRECEDENT_ARTICLES = 6


def precedent_articles(precedent) -> str:
    """The provisions a precedent cites, by name with their 款 and 项 (刑法第六十七条第三款 is 坦白, 第一款 自首), the
    first :data:`SHOWN_PRECEDENT_ARTICLES` and how many there are; '' when none."""
    from jiancha.web.render import article_name

    cited = list(dict.fromkeys(precedent.relevant_articles))
    shown = "、".join(article_name(a) for a in cited[:SHOWN_PRECEDENT_ARTICLES])
    return shown + (f"，共 {len(cited)} 条" if len(cited) > SHOWN_PRECEDENT_ARTICLES else "")


def guessed_charge_note(result: Consultation) -> str:
    """When the case names no charge and the recommendation cites no Criminal Law article: the charges its precedents
    are guessed to share, with those charges' articles (盗窃罪：刑法第二百六十四条), for the reader to check; ''
    otherwise."""
    from jiancha.law.articles import Law
    from jiancha.law.charges import charge_articles
    from jiancha.web.render import article_name

    if any(article_level(a).startswith(f"{Law.CRIMINAL_LAW.value}:") for a in result.relevant_articles):
        return ""
    guessed = next((p.shared_charges for p in result.precedents if p.charges_guessed and p.shared_charges), ())
    if not guessed:
        return ""
    said = "；".join(f"{c}：{'、'.join(article_name(a.canonical()) for a in charge_articles(c))}" for c in guessed)
    return f"本案未写明涉嫌罪名，建议未引刑法条文；相似先例推定的罪名及其条文为 {said}，请核对。"


def precedent_reasons(precedent, result: Consultation) -> list[str]:
    """Why a precedent is listed, in words: shared charges, articles it shares with the recommendation, and how
    close its facts read among the precedents listed (``similarity_wording``)."""
    from jiancha.web.render import article_name

    reasons = []
    if precedent.shared_charges:
        label = "推定罪名相同（本案未写明涉嫌罪名，系推定）" if precedent.charges_guessed else "同罪名"
        label += "（该先例仅为指控罪名，法院未认定）：" if not precedent.charges and precedent.accused else "："
        reasons.append(label + "、".join(precedent.shared_charges))
    recommended = {article_level(a) for a in result.relevant_articles}
    common = list(dict.fromkeys(article_level(a) for a in precedent.relevant_articles
                                if article_level(a) in recommended))
    if common:
        reasons.append("同引法条：" + "、".join(article_name(a) for a in common))
    scores = [p.fact_score for p in result.precedents]
    if scores and max(scores) > 0:
        reasons.append(similarity_wording(precedent.fact_score, scores))
    return reasons


#: A precedent whose facts score below this share of the closest one's (BM25), and that shares no charge with
#: the case, is folded away: the ``远不及最相近的一件`` of :data:`SIMILARITY_WORDS`.
FOLD_BELOW = 0.5


def split_precedents(precedents) -> tuple[list, list]:
    """The precedents a page lists, and those it folds away: the closest always listed; another folded when it
    shares no charge with the case and its facts read far from the case's (BM25 below :data:`FOLD_BELOW` of the
    closest one's), as such a case says little about this one.

    >>> from types import SimpleNamespace as P
    >>> shown, folded = split_precedents([P(fact_score=9.0, shared_charges=("盗窃罪",)),
    ...     P(fact_score=3.0, shared_charges=("盗窃罪",)), P(fact_score=6.0, shared_charges=()),
    ...     P(fact_score=4.0, shared_charges=())])
    >>> [p.fact_score for p in shown], [p.fact_score for p in folded]
    ([9.0, 3.0, 6.0], [4.0])
    """
    top = max((p.fact_score for p in precedents), default=0.0)
    far = [i > 0 and top > 0 and p.fact_score < FOLD_BELOW * top and not p.shared_charges
           for i, p in enumerate(precedents)]
    return ([p for p, f in zip(precedents, far, strict=True) if not f],
            [p for p, f in zip(precedents, far, strict=True) if f])
