"""``baseline:tfidf-lr``: character n-gram TF-IDF + logistic regression with balanced class weights.

Trained on a given training split; without one, predictions come from stratified k-fold cross-validation on the
evaluation split (each case predicted by a model that did not see it), and the run says so.
"""

from __future__ import annotations

import warnings

import numpy as np

from jiancha.datasets.records import PDPRecord
from jiancha.errors import ConfigError
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp.baselines.base import BaselineOutput, BaselinePrediction, case_text, decision_articles

NGRAM_RANGE = (1, 3)
MAX_FEATURES = 200_000


def _pipeline(seed: int):
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    return make_pipeline(
        TfidfVectorizer(analyzer="char", ngram_range=NGRAM_RANGE, max_features=MAX_FEATURES, sublinear_tf=True,
                        dtype=np.float32),
        LogisticRegression(class_weight="balanced", max_iter=2000, random_state=seed),
    )


def _analysis(classes: list[str], probs: np.ndarray, mode: str) -> str:
    ranked = sorted(zip(classes, probs), key=lambda cp: (-cp[1], LEVEL2_LABELS.index(cp[0])))
    shown = "、".join(f"{c} {p:.2f}" for c, p in ranked)
    return f"TF-IDF字符n元组+逻辑回归（{mode}）的类别概率：{shown}。"


def _predict_with(model, records: list[PDPRecord], mode: str) -> list[BaselinePrediction]:
    texts = [case_text(r) for r in records]
    probs = model.predict_proba(texts)
    classes = [str(c) for c in model.classes_]
    out = []
    for r, p in zip(records, probs):
        best = max(range(len(classes)), key=lambda i: (p[i], -LEVEL2_LABELS.index(classes[i])))
        label = classes[best]
        out.append(BaselinePrediction(label, decision_articles(label, case_text(r)), _analysis(classes, p, mode)))
    return out


def predict_tfidf_lr(records: list[PDPRecord], *, train: list[PDPRecord] | None = None, seed: int = 0,
                     folds: int = 5) -> BaselineOutput:
    if train is not None:
        labels = [r.decision for r in train]
        if len(set(labels)) < 2:
            raise ConfigError(f"the training split has {len(set(labels))} decision class(es); logistic "
                              "regression needs at least 2")
        model = _pipeline(seed).fit([case_text(r) for r in train], labels)
        return BaselineOutput(_predict_with(model, records, "训练集训练"),
                              {"fit_on": "train", "n_train": len(train), "ngram_range": list(NGRAM_RANGE)})
    from sklearn.model_selection import StratifiedKFold

    labels = [r.decision for r in records]
    counts = {lab: labels.count(lab) for lab in set(labels)}
    if len(counts) < 2:
        raise ConfigError(f"cross-validation needs at least 2 decision classes in the evaluation split, found "
                          f"{sorted(counts)}; pass --train-data with a labelled training split")
    k = max(2, min(folds, min(counts.values()), len(records)))
    if min(counts.values()) < 2:
        k = 2
    skf = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    preds: list[BaselinePrediction | None] = [None] * len(records)
    mode = f"{k}折分层交叉验证"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # a class rarer than k is expected on small sets
        for train_idx, test_idx in skf.split(np.zeros(len(labels)), labels):
            fold_train = [records[i] for i in train_idx]
            if len({r.decision for r in fold_train}) < 2:
                raise ConfigError("a cross-validation fold holds a single class; the evaluation split is too "
                                  "small for --model baseline:tfidf-lr without --train-data")
            model = _pipeline(seed).fit([case_text(r) for r in fold_train], [r.decision for r in fold_train])
            for i, p in zip(test_idx, _predict_with(model, [records[i] for i in test_idx], mode)):
                preds[i] = p
    return BaselineOutput([p for p in preds if p is not None],
                          {"fit_on": "cross-validation on the evaluation split" + (
                               f" ({folds} folds asked, {k} possible: the smallest class has {min(counts.values())} "
                               "cases)" if k != folds else ""), "folds": k, "folds_requested": folds,
                           "shuffle_seed": seed,
                           "ngram_range": list(NGRAM_RANGE)})
