"""``baseline:majority``: always the most frequent decision of the training split (of the evaluation split when
no training split is given: the classic majority-class reference)."""

from __future__ import annotations

from jiancha.datasets.records import PDPRecord
from jiancha.pdp.baselines.base import (
    BaselineOutput,
    BaselinePrediction,
    case_text,
    decision_articles,
    majority_label,
)


def predict_majority(records: list[PDPRecord], *, train: list[PDPRecord] | None = None,
                     seed: int = 0) -> BaselineOutput:
    source = train if train is not None else records
    label = majority_label([r.decision for r in source])
    n = sum(r.decision == label for r in source)
    where = "训练集" if train is not None else "评测集"
    analysis = f"多数类基线：{where}中最常见的决定为「{label}」（{n}/{len(source)} 件），一律预测该决定。"
    preds = [BaselinePrediction(label, decision_articles(label, case_text(r)), analysis) for r in records]
    return BaselineOutput(preds, {"fit_on": "train" if train is not None else "evaluation split",
                                  "label": label, "support": n, "n_fit": len(source)})
