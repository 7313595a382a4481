"""Charges of a query given as text only, learned from the collection it searches: a linear classifier (TF-IDF of
character 1–2-grams of the facts, linear SVM) trained on every candidate's facts → its verdict's primary charge.

It needs no query labels: the candidates' charges come from their own verdicts. On LeCaRD v1 the top prediction
is one of the query's given charges for 60 of 107 queries, the top two for 81 (nearest-neighbour voting over BM25
matches: 45); docs/retrieval-results.md reports what ranking with predicted charges costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Characters of each fact text the classifier reads (the facts' opening states the offence).
CLASSIFIER_CHARS = 1500


@dataclass
class ChargeClassifier:
    vectoriser: object
    model: object

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[str], *, c: float = 0.5) -> ChargeClassifier:
        """Train on ``texts`` with non-empty ``labels`` (others are skipped); deterministic (liblinear, no
        shuffling)."""
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.svm import LinearSVC

        from jiancha.errors import ConfigError

        pairs = [(t[:CLASSIFIER_CHARS], y) for t, y in zip(texts, labels, strict=True) if y]
        if len({y for _, y in pairs}) < 2:
            raise ConfigError("cannot learn query charges: the collection has fewer than two charges in its verdicts")
        vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=200_000)
        x = vec.fit_transform([t for t, _ in pairs])
        return cls(vec, LinearSVC(C=c).fit(x, [y for _, y in pairs]))

    def predict(self, texts: Sequence[str], k: int = 1) -> list[tuple[str, ...]]:
        """The ``k`` highest-scoring charges of each text, best first (ties by charge name)."""
        dec = np.asarray(self.model.decision_function(self.vectoriser.transform([t[:CLASSIFIER_CHARS]
                                                                                for t in texts])))
        classes = np.asarray(self.model.classes_)
        if dec.ndim == 1:       # two classes: one decision value, positive for classes_[1]
            dec = np.column_stack([-dec, dec])
        out = []
        for row in dec:
            order = np.lexsort((classes, -row))[:k]
            out.append(tuple(str(classes[i]) for i in order))
        return out
