"""The legal signals the rules baseline reads, defined once: Chinese phrases, amounts and the CPL articles that
ground each decision (2018 numbering).

Every phrase is a plain string or a named regex so that the rule that fired can be quoted in the analysis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiancha.law.amounts import AMOUNT_RE, parse_amounts  # noqa: F401  (re-exported: the rules quote them)
from jiancha.law.articles import ArticleRef, Law
from jiancha.law.labels import Decision
from jiancha.law.phrases import SUPPLEMENTARY_INVESTIGATION_RE

# ---------------------------------------------------------------- supplementary investigation (退回补充侦查)
#: One mention of a return for supplementary investigation in the procedure field.
SUPPLEMENTARY_RE = SUPPLEMENTARY_INVESTIGATION_RE
#: Explicit second return: 第二次退回 / 二次退回 / 两次退回.
SECOND_RETURN_RE = re.compile(r"(?:第二次|二次|两次|2次)退回")
#: Returns needed before an insufficient-evidence (存疑) decision is the likely outcome (CPL 2018 art. 175(4)).
IENP_MIN_SUPPLEMENTARY = 2

# ---------------------------------------------------------------- leniency (从宽情节)
#: Leniency factors, name → pattern. DNP (CPL 2018 art. 177(2)) typically rests on several of them.
LENIENCY_FACTORS: dict[str, re.Pattern[str]] = {
    "自首": re.compile(r"自首|主动投案"),
    "坦白": re.compile(r"坦白|如实供述"),
    "退赃退赔": re.compile(r"退赃|退赔|退还|赔偿"),
    "谅解": re.compile(r"谅解"),
    "初犯偶犯": re.compile(r"初犯|偶犯|无前科|无犯罪前科"),
    "认罪认罚": re.compile(r"认罪认罚"),
    "从犯": re.compile(r"从犯"),
    "未成年": re.compile(r"未成年|未满十八周岁"),
}
#: Leniency factors needed for the discretionary (相对不起诉) rule.
DNP_MIN_LENIENCY = 2

# ---------------------------------------------------------------- statutory grounds (CPL 2018 art. 16)
@dataclass(frozen=True)
class StatutoryGround:
    name: str
    pattern: re.Pattern[str]
    cpl16_item: int | None   # the item of CPL 2018 art. 16, None for "no crime" (art. 177(1) alone)


STATUTORY_GROUNDS: tuple[StatutoryGround, ...] = (
    StatutoryGround("情节显著轻微", re.compile(r"情节显著轻微|危害不大|不认为是犯罪"), 1),
    StatutoryGround("已过追诉时效", re.compile(r"(?:已过|超过)追诉时效|追诉时效(?:期限)?已过"), 2),
    StatutoryGround("特赦", re.compile(r"特赦"), 3),
    StatutoryGround("告诉才处理", re.compile(r"告诉才处理|撤回告诉|没有告诉"), 4),
    StatutoryGround("犯罪嫌疑人死亡", re.compile(r"犯罪嫌疑人[^，。；]{0,8}(?:死亡|病故|身亡)"), 5),
    StatutoryGround("不构成犯罪", re.compile(r"不构成犯罪|没有犯罪事实"), None),
)

# ---------------------------------------------------------------- amounts
#: At or above this amount (yuan) the discretionary rule does not fire: a sum this large (数额巨大 for theft and
#: fraud under the 2011/2013 SPC-SPP interpretations starts at 30,000 yuan) weighs against non-prosecution.
AMOUNT_LARGE = 30_000.0


# ---------------------------------------------------------------- articles grounding each decision (2018 CPL)
def _decision_articles() -> dict[Decision, tuple[ArticleRef, ...]]:
    """From ``jiancha.law.cpl`` (2018 numbering), without the bare art. 16: the statutory rule cites art. 16 with
    the item of the ground it found."""
    from jiancha.law.cpl import NUMBERING_2018, decision_articles

    return {d: tuple(r for r in refs if not (r.article == CPL_ART16 and r.item is None))
            for d, refs in decision_articles(NUMBERING_2018).items()}


#: CPL 2018 art. 16, cited with its item for a statutory ground.
CPL_ART16 = 16
DECISION_ARTICLES: dict[Decision, tuple[ArticleRef, ...]] = _decision_articles()
#: Criminal Law art. 37 (exemption from punishment), cited with discretionary non-prosecution.
CL_EXEMPTION = ArticleRef(Law.CRIMINAL_LAW, 37)
