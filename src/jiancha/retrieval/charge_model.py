"""Charges of a query given as text only, learned from the collection it searches: a linear classifier (TF-IDF of
character 1–2-grams of the facts, linear SVM) trained on every candidate's facts → its verdict's primary charge.

It needs no query labels: the candidates' charges come from their own verdicts. On LeCaRD v1 the top prediction
is one of the query's given charges for 58 of 107 queries, the top two for 78 (nearest-neighbour voting over BM25
matches: 45; with every charge weighted alike, 64 and 78); docs/retrieval-results.md reports what ranking with
predicted charges costs.

For case search the decision values of the :data:`SHARE_CHARGES` best charges become shares by a softmax,

    share_c = exp((s_c − s_max) / T) / Σ_{c' in top k} exp((s_c' − s_max) / T),   k = 5, T = 1,

and a document's charge tier is averaged over them (:func:`jiancha.retrieval.charge.expected_tiers`).

Saved as plain files in a folder: ``vocab.json`` (n-gram → column), ``idf.npy``, ``coef.npy`` (classes × columns,
float16), ``intercept.npy`` and ``model.json`` (classes, characters read, format).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jiancha.errors import ConfigError, DataError

#: Characters of each fact text the classifier reads (the facts' opening states the offence).
CLASSIFIER_CHARS = 1500
#: The fewest labelled texts a classifier is trained on: fewer guess worse than the closest cases' votes.
MIN_TRAINING_DOCS = 500
#: Its vocabulary, character 1–2-grams: 50,000 keep the weights near 20 MB and guess as well as 200,000.
CLASSIFIER_FEATURES = 50_000
#: Charges a search shares its guess among, and the softmax temperature over their decision values.
SHARE_CHARGES = 5
SHARE_TEMPERATURE = 1.0
MODEL_FORMAT = "jiancha-charge-classifier/1"
#: A run of two or more spaces, read as one (as scikit-learn's character analyser does).
_SPACES = re.compile(r"\s\s+")


def _vectoriser(max_features: int | None = None):
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(analyzer="char", ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=max_features)


@dataclass
class ChargeClassifier:
    """The TF-IDF vocabulary (n-gram → column) and idf of the training texts, and the linear model's weights
    (``coef``: classes × features). Fitting uses scikit-learn; predicting needs only numpy (:meth:`tfidf`)."""

    vocab: dict[str, int]
    idf: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    classes: tuple[str, ...]
    balanced: bool = False   # trained with every charge weighted alike (:meth:`fit`)

    @staticmethod
    def trainable(labels: Sequence[str]) -> bool:
        """Whether ``labels`` hold :data:`MIN_TRAINING_DOCS` non-empty ones of two or more charges."""
        named = [y for y in labels if y]
        return len(named) >= MIN_TRAINING_DOCS and len(set(named)) > 1

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[str], *, c: float = 0.5,
            max_features: int = CLASSIFIER_FEATURES, balanced: bool = False) -> ChargeClassifier:
        """Train on ``texts`` with non-empty ``labels`` (others are skipped); deterministic (liblinear's dual
        solver, its order of visiting the texts seeded). ``balanced`` weighs each text of charge y by
        N / (K · n_y) (N texts, K charges, n_y of them y), so that every charge counts alike: rare charges are
        guessed more often and right more often, common ones a little less (docs/retrieval-results.md)."""
        from sklearn.svm import LinearSVC

        pairs = [(t[:CLASSIFIER_CHARS], y) for t, y in zip(texts, labels, strict=True) if y]
        if len({y for _, y in pairs}) < 2:
            raise ConfigError("cannot learn query charges: the collection has fewer than two charges in its verdicts")
        vec = _vectoriser(max_features=max_features)
        x = vec.fit_transform([t for t, _ in pairs])
        # the dual solver: scikit-learn picks the primal once there are more texts than features, which at 55,000
        # texts took 2.7 times as long for the same accuracy (benchmarks/charge_classifier_speed.py)
        svm = LinearSVC(C=c, dual=True, random_state=0, class_weight="balanced" if balanced else None
                        ).fit(x, [y for _, y in pairs])
        coef, intercept = np.asarray(svm.coef_), np.asarray(svm.intercept_)   # float64, as sklearn decides
        if coef.shape[0] == 1:   # two classes: one decision value, positive for classes_[1]
            coef, intercept = np.vstack([-coef, coef]), np.concatenate([-intercept, intercept])
        return cls({str(t): int(i) for t, i in vec.vocabulary_.items()}, np.asarray(vec.idf_), coef, intercept,
                   tuple(str(y) for y in svm.classes_), balanced)

    def tfidf(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The columns and values of ``text``'s TF-IDF vector, as scikit-learn's ``TfidfVectorizer`` (character
        1–2-grams of the lower-cased text, runs of spaces as one; (1 + ln tf) · idf; unit length) computes it."""
        t = _SPACES.sub(" ", text[:CLASSIFIER_CHARS].lower())
        counts = Counter(t) + Counter(t[i:i + 2] for i in range(len(t) - 1))
        found = [(self.vocab[g], n) for g, n in counts.items() if g in self.vocab]
        if not found:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        cols = np.array([c for c, _ in found], dtype=np.int64)
        vals = (1.0 + np.log([n for _, n in found])) * self.idf[cols]
        return cols, vals / np.linalg.norm(vals)

    def decision(self, texts: Sequence[str]) -> np.ndarray:
        """Decision values, texts × classes."""
        out = np.empty((len(texts), len(self.classes)))
        for row, text in enumerate(texts):
            cols, vals = self.tfidf(text)
            out[row] = self.coef[:, cols] @ vals + self.intercept
        return out

    def predict(self, texts: Sequence[str], k: int = 1) -> list[tuple[str, ...]]:
        """The ``k`` highest-scoring charges of each text, best first (ties by charge name)."""
        classes = np.asarray(self.classes)
        return [tuple(str(classes[i]) for i in np.lexsort((classes, -row))[:k]) for row in self.decision(texts)]

    def shares(self, text: str, k: int = SHARE_CHARGES, temperature: float = SHARE_TEMPERATURE) -> dict[str, float]:
        """The ``k`` likeliest charges of ``text`` with shares summing to 1, best first (formula in the module
        docstring)."""
        row = self.decision([text])[0]
        classes = np.asarray(self.classes)
        top = np.lexsort((classes, -row))[:k]
        w = np.exp((row[top] - row[top[0]]) / temperature)
        return {str(classes[i]): float(v) for i, v in zip(top, w / w.sum(), strict=True)}

    def save(self, out: str | os.PathLike) -> Path:
        from jiancha._util.io import atomic_write_text

        d = Path(out)
        d.mkdir(parents=True, exist_ok=True)
        atomic_write_text(d / "vocab.json", json.dumps(self.vocab, ensure_ascii=False))
        np.save(d / "idf.npy", np.asarray(self.idf, dtype=np.float64))
        np.save(d / "coef.npy", self.coef.astype(np.float16))
        np.save(d / "intercept.npy", self.intercept.astype(np.float32))
        atomic_write_text(d / "model.json", json.dumps({"format": MODEL_FORMAT, "classes": list(self.classes),
                                                        "chars": CLASSIFIER_CHARS, "balanced": self.balanced},
                                                       ensure_ascii=False))
        return d

    @classmethod
    def load(cls, path: str | os.PathLike) -> ChargeClassifier:
        d = Path(path)
        try:
            meta = json.loads((d / "model.json").read_text(encoding="utf-8"))
            vocab = json.loads((d / "vocab.json").read_text(encoding="utf-8"))
            idf = np.load(d / "idf.npy")
            coef = np.load(d / "coef.npy").astype(np.float32)
            intercept = np.load(d / "intercept.npy")
        except (OSError, ValueError, UnicodeDecodeError) as e:   # json, numpy and missing-file errors
            raise DataError(f"corrupt charge classifier ({type(e).__name__}: {e}); rebuild the index with "
                            "`jiancha retrieval index`", path=str(d)) from None
        if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
            raise DataError(f"not a {MODEL_FORMAT} model; rebuild the index with `jiancha retrieval index`",
                            path=str(d / "model.json"))
        classes = tuple(meta.get("classes", ()))
        if coef.shape != (len(classes), len(vocab)) \
                or idf.shape != (len(vocab),) or intercept.shape != (len(classes),):
            raise DataError(f"corrupt charge classifier: {len(classes)} classes and {len(vocab)} n-grams, weights "
                            f"{coef.shape}; rebuild the index with `jiancha retrieval index`", path=str(d))
        return cls(vocab, idf, coef, intercept, classes, bool(meta.get("balanced", False)))
