"""``baseline:rules``: a transparent predictor from legal signals in the three input fields.

Rules, first match wins (the analysis quotes the rule that fired and the text that triggered it):

1. a statutory ground (情节显著轻微, 追诉时效, 特赦, 告诉才处理, 犯罪嫌疑人死亡, 不构成犯罪) → 法定不起诉
   (CPL 2018 art. 16 item + art. 177(1));
2. at least ``IENP_MIN_SUPPLEMENTARY`` returns for supplementary investigation → 存疑不起诉 (art. 175(4));
3. at least ``DNP_MIN_LENIENCY`` leniency factors and no amount at or above ``AMOUNT_LARGE`` → 相对不起诉
   (art. 177(2), Criminal Law art. 37);
4. otherwise → 起诉 (art. 176).
"""

from __future__ import annotations

from jiancha.datasets.records import PDPRecord
from jiancha.law.amounts import render_yuan
from jiancha.law.articles import ArticleRef, Law
from jiancha.law.labels import Decision
from jiancha.pdp.baselines import signals as S
from jiancha.pdp.baselines.base import BaselineOutput, BaselinePrediction, case_text, decision_articles


def count_supplementary(procedure: str) -> int:
    """Returns for supplementary investigation mentioned in the procedure (at least 2 if a second is named)."""
    n = len(S.SUPPLEMENTARY_RE.findall(procedure))
    if S.SECOND_RETURN_RE.search(procedure):
        n = max(n, 2)
    return n


def find_leniency(text: str) -> list[str]:
    return [name for name, pat in S.LENIENCY_FACTORS.items() if pat.search(text)]


#: How the analysis names the largest amount of money in the case.
_TOP_AMOUNT = "涉案最高金额"


def _concluded(label: str) -> str:
    """The closing clause of every rule's analysis."""
    return f"作出{label}决定。"


def predict_rules_one(r: PDPRecord) -> BaselinePrediction:
    text = case_text(r)
    for ground in S.STATUTORY_GROUNDS:
        m = ground.pattern.search(text)
        if m:
            label = Decision.STATUTORY.value
            extra = [ArticleRef(Law.CRIMINAL_PROCEDURE, S.CPL_ART16, item=ground.cpl16_item)] \
                if ground.cpl16_item else []
            analysis = (f"规则1（法定事由）：材料中出现「{m.group(0)}」，属于{ground.name}，"
                        f"依法应当{_concluded(label)}")
            return BaselinePrediction(label, decision_articles(label, text, extra), analysis)
    n_supp = count_supplementary(r.procedure)
    if n_supp >= S.IENP_MIN_SUPPLEMENTARY:
        label = Decision.INSUFFICIENT_EVIDENCE.value
        analysis = (f"规则2（补充侦查）：案件程序中退回补充侦查{n_supp}次（不少于{S.IENP_MIN_SUPPLEMENTARY}次），"
                    f"推定证据仍不足，{_concluded(label)}")
        return BaselinePrediction(label, decision_articles(label, text), analysis)
    factors = find_leniency(text)
    amounts = S.parse_amounts(text)
    top = max(amounts) if amounts else None
    if len(factors) >= S.DNP_MIN_LENIENCY and (top is None or top < S.AMOUNT_LARGE):
        label = Decision.DISCRETIONARY.value
        money = f"{_TOP_AMOUNT}{render_yuan(top)}（低于{render_yuan(S.AMOUNT_LARGE)}）" if top is not None else "未见涉案金额"
        analysis = (f"规则3（从宽情节）：具有{'、'.join(factors)}等{len(factors)}项从宽情节，{money}，"
                    f"犯罪情节轻微，{_concluded(label)}")
        return BaselinePrediction(label, decision_articles(label, text, [S.CL_EXEMPTION]), analysis)
    label = Decision.PROSECUTE.value
    why = [f"从宽情节{len(factors)}项（{'、'.join(factors) or '无'}）"]
    if top is not None:
        why.append(f"{_TOP_AMOUNT}{render_yuan(top)}")
    why.append(f"退回补充侦查{n_supp}次")
    analysis = f"规则4（默认）：未见法定不起诉事由；{'，'.join(why)}，不满足不起诉规则，{_concluded(label)}"
    return BaselinePrediction(label, decision_articles(label, text), analysis)


def predict_rules(records: list[PDPRecord], *, train: list[PDPRecord] | None = None,
                  seed: int = 0) -> BaselineOutput:
    return BaselineOutput([predict_rules_one(r) for r in records],
                          {"fit_on": "none (fixed rules)", "ienp_min_supplementary": S.IENP_MIN_SUPPLEMENTARY,
                           "dnp_min_leniency": S.DNP_MIN_LENIENCY, "amount_large": S.AMOUNT_LARGE})
