"""Supervised learning-to-rank re-ranking (``--method ltr``): features per (query, candidate), a seeded model,
and cross-validation by query.

Features (:data:`FEATURE_NAMES`) come from what the pipeline already has: the charge tiers of :mod:`charge`
(candidate charges from the verdict, and verdict + reasoning), per-field BM25 and QLD scores (raw, z-scored within
the query, rank within the query), Criminal Law article overlap (articles the candidate's reasoning and verdict
cite against the articles of the query's charges, :func:`jiancha.law.charges.charge_articles`), the same 分则
section / chapter (:mod:`jiancha.law.divisions`), amount agreement (the largest 元 amount of each fact text),
overlap of key circumstances (:data:`CIRCUMSTANCES`) and the candidate's prison-term band (its verdict).

A model needs graded queries, so it is never scored on the queries it was trained on: :func:`cross_validate`
splits the labelled queries into folds (seeded K-fold by query, or the ridx-parity halves) and ranks each fold
with a model trained on the others. Feature extraction and the models are pure functions of their inputs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

#: Key sentencing circumstances whose presence in both fact texts is compared (retrieval heuristic, one place).
CIRCUMSTANCES: tuple[str, ...] = (
    "自首", "坦白", "立功", "累犯", "前科", "未遂", "中止", "预备", "从犯", "主犯", "胁从", "共同犯罪", "结伙",
    "多次", "入户", "持刀", "凶器", "轻伤", "重伤", "死亡", "未成年", "谅解", "赔偿", "退赃", "退赔", "醉酒",
    "逃逸", "毒品", "海洛因", "甲基苯丙胺", "网络", "电话", "银行卡", "公务", "国家工作人员",
)
#: An amount in yuan: digits (with , or . and an optional 万) directly before 元.
AMOUNT_RE = re.compile(r"(\d[\d,，.]*)\s*(万)?元")
#: A fixed-term prison sentence in a verdict: 有期徒刑X年(Y个月) or 有期徒刑Y个月.
PRISON_TERM_RE = re.compile(r"有期徒刑(?:([零〇一二两三四五六七八九十百\d]+)年)?(?:([零〇一二两三四五六七八九十\d]+)个?月)?")
LIFE_OR_DEATH = ("无期徒刑", "死刑")
SHORT_PENALTIES = ("拘役", "管制", "单处罚金", "免予刑事处罚")

#: Candidate fields scored by BM25 and QLD (``qw``, the full text, is left out: it is the three together).
LEXICAL_FIELDS: tuple[str, ...] = ("fact", "reason", "result")
PAIR_FEATURES: tuple[str, ...] = (
    "tier", "tier_verdict", "shared", "primary", "jaccard", "exact", "shared_verdict", "primary_verdict",
    "jaccard_verdict", "n_doc_charges", "n_query_charges", "same_section", "same_chapter", "article_overlap",
    "article_jaccard", "amount_log_ratio", "amount_both", "amount_none", "circ_jaccard", "circ_shared",
    "term_months_log", "term_band", "fact_len_log_ratio",
)
FEATURE_NAMES: tuple[str, ...] = PAIR_FEATURES + tuple(
    f"{m}_{f}_{k}" for f in LEXICAL_FIELDS for m in ("bm25", "qld") for k in ("raw", "z", "rank"))
MODELS: tuple[str, ...] = ("gbrt", "hgb", "pairwise", "pointwise-linear")


@dataclass(frozen=True)
class LTRConfig:
    """The model and its cross-validation. ``features``: names of :data:`FEATURE_NAMES` to use (empty = all)."""

    model: str = "pairwise"
    seed: int = 13
    folds: int = 5
    n_estimators: int = 200
    learning_rate: float = 0.05
    max_depth: int = 3
    min_samples_leaf: int = 20
    subsample: float = 0.8
    c: float = 1.0
    features: tuple[str, ...] = ()

    def feature_names(self) -> tuple[str, ...]:
        return self.features or FEATURE_NAMES

    def to_dict(self) -> dict:
        return asdict(self)


# ------------------------------------------------------------------------------------------ text features
def parse_amounts(text: str) -> list[float]:
    """Amounts in yuan named in ``text`` (万元 multiplied out).

    >>> parse_amounts("窃取现金3,000元及价值1.5万元的手机")
    [3000.0, 15000.0]
    """
    out = []
    for m in AMOUNT_RE.finditer(text):
        s = m.group(1).replace(",", "").replace("，", "").rstrip(".")
        try:
            v = float(s)
        except ValueError:
            continue
        out.append(v * 10000 if m.group(2) else v)
    return out


def _cn_int(s: str | None) -> int:
    if not s:
        return 0
    from jiancha.errors import ParseError
    from jiancha.law.numerals import parse_number

    try:
        return parse_number(s)
    except ParseError:
        return 0


def parse_prison_months(verdict: str) -> float | None:
    """The longest fixed prison term the verdict imposes, in months; 0 for only 拘役/管制/罚金/免予处罚, 600 for
    life or death; None when the verdict names no penalty.

    >>> parse_prison_months("判处有期徒刑三年六个月，并处罚金"), parse_prison_months("判处拘役四个月")
    (42.0, 0.0)
    """
    if any(w in verdict for w in LIFE_OR_DEATH):
        return 600.0
    terms = [12 * _cn_int(m.group(1)) + _cn_int(m.group(2)) for m in PRISON_TERM_RE.finditer(verdict)]
    terms = [t for t in terms if t > 0]
    if terms:
        return float(max(terms))
    if any(w in verdict for w in SHORT_PENALTIES):
        return 0.0
    return None


def term_band(months: float | None) -> int:
    """Sentence band: -1 unknown, 0 no prison, 1 under 3 years, 2 3–10 years, 3 over 10 years / life / death."""
    if months is None:
        return -1
    if months <= 0:
        return 0
    return 1 if months < 36 else 2 if months <= 120 else 3


def circumstances(text: str) -> frozenset[str]:
    """The :data:`CIRCUMSTANCES` words present in ``text``."""
    return frozenset(w for w in CIRCUMSTANCES if w in text)


def cited_articles(texts: Sequence[str]) -> frozenset[int]:
    """Criminal Law article numbers cited in ``texts`` (a bare 第N条 after 刑法 counts; others need a law name)."""
    from jiancha.law.articles import Law, parse_articles

    out: set[int] = set()
    for t in texts:
        if t:
            out.update(r.article for r in parse_articles(t) if Law(r.law) is Law.CRIMINAL_LAW)
    return frozenset(out)


def charges_articles(charges: Sequence[str]) -> frozenset[int]:
    """Criminal Law article numbers of ``charges`` (unknown names contribute none)."""
    from jiancha.law.articles import Law
    from jiancha.law.charges import charge_articles

    return frozenset(r.article for c in charges for r in charge_articles(c) if Law(r.law) is Law.CRIMINAL_LAW)


def _divisions(charges: Sequence[str]) -> frozenset:
    from jiancha.retrieval.charge import charges_divisions

    return charges_divisions(tuple(charges))


@dataclass(frozen=True)
class QuerySide:
    """What the pair features need of a query (computed once per query)."""

    charges: tuple[str, ...]
    fact: str
    articles: frozenset[int]
    divisions: frozenset
    amount: float | None
    circumstances: frozenset[str]


@dataclass(frozen=True)
class DocSide:
    """What the pair features need of a candidate (computed once per candidate)."""

    charges: tuple[str, ...]            # verdict + reasoning (the shipped ``charge`` default)
    verdict_charges: tuple[str, ...]    # verdict only
    fact: str
    articles: frozenset[int]
    divisions: frozenset
    amount: float | None
    circumstances: frozenset[str]
    term_months: float | None


def _max_amount(text: str) -> float | None:
    a = parse_amounts(text)
    return max(a) if a else None


def compute_query_side(charges: Sequence[str], fact: str) -> QuerySide:
    return QuerySide(tuple(charges), fact, charges_articles(charges), _divisions(charges), _max_amount(fact),
                     circumstances(fact))


def compute_doc_side(charges: Sequence[str], verdict_charges: Sequence[str], fact: str, reason: str,
                     result: str) -> DocSide:
    return DocSide(tuple(charges), tuple(verdict_charges), fact, cited_articles((reason, result)),
                   _divisions(charges), _max_amount(fact), circumstances(fact), parse_prison_months(result))


def _charge_match(qs: set[str], cs: Sequence[str]) -> tuple[float, float, float, float]:
    ds = set(cs)
    shared = bool(qs & ds)
    primary = bool(cs) and cs[0] in qs
    jac = len(qs & ds) / len(qs | ds) if shared else 0.0
    return float(shared), float(primary), jac, float(bool(qs) and ds == qs)


def _jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def compute_pair_features(q: QuerySide, d: DocSide) -> dict[str, float]:
    """The :data:`PAIR_FEATURES` of one (query, candidate) pair.

    ``tier`` is the shipped ``charge`` tier (overlap 1 + primary 1 + Jaccard 1, reasoning charges included),
    ``tier_verdict`` the same from the verdict's charges only.
    """
    qs = set(q.charges)
    shared, primary, jac, exact = _charge_match(qs, d.charges)
    shared_v, primary_v, jac_v, _ = _charge_match(qs, d.verdict_charges)
    same_div = bool(q.divisions & d.divisions)
    same_chapter = bool({x.chapter for x in q.divisions} & {x.chapter for x in d.divisions})
    if q.amount is not None and d.amount is not None:
        ratio = abs(math.log10(1 + q.amount) - math.log10(1 + d.amount))
    else:
        ratio = 0.0
    months = d.term_months
    return {
        "tier": shared + primary + jac, "tier_verdict": shared_v + primary_v + jac_v,
        "shared": shared, "primary": primary, "jaccard": jac, "exact": exact,
        "shared_verdict": shared_v, "primary_verdict": primary_v, "jaccard_verdict": jac_v,
        "n_doc_charges": float(len(d.charges)), "n_query_charges": float(len(q.charges)),
        "same_section": float(same_div), "same_chapter": float(same_chapter),
        "article_overlap": float(len(q.articles & d.articles)), "article_jaccard": _jaccard(q.articles, d.articles),
        "amount_log_ratio": ratio, "amount_both": float(q.amount is not None and d.amount is not None),
        "amount_none": float(q.amount is None and d.amount is None),
        "circ_jaccard": _jaccard(q.circumstances, d.circumstances),
        "circ_shared": float(len(q.circumstances & d.circumstances)),
        "term_months_log": math.log1p(months) if months is not None else -1.0, "term_band": float(term_band(months)),
        "fact_len_log_ratio": abs(math.log((1 + len(q.fact)) / (1 + len(d.fact)))),
    }


def score_features(name: str, scores: np.ndarray) -> dict[str, np.ndarray]:
    """Raw, per-query z-scored and rank (0 = best, ties share the best rank, divided by n) of one score list.

    >>> {k: np.round(v, 4).tolist() for k, v in score_features("bm25", np.array([1.0, 3.0, 3.0])).items()}
    {'bm25_raw': [1.0, 3.0, 3.0], 'bm25_z': [-1.4142, 0.7071, 0.7071], 'bm25_rank': [0.6667, 0.0, 0.0]}
    """
    from jiancha.retrieval.charge import standardise

    s = np.asarray(scores, dtype=np.float64)
    rank = np.array([(s > v).sum() for v in s], dtype=np.float64) / max(len(s), 1)
    return {f"{name}_raw": s, f"{name}_z": standardise(s), f"{name}_rank": rank}


def compute_query_features(q: QuerySide, docs: Sequence[DocSide],
                           lexical: Mapping[str, np.ndarray]) -> np.ndarray:
    """Feature matrix (len(docs) × len(FEATURE_NAMES)) of one query's candidates; ``lexical`` maps names such as
    ``bm25_fact`` to that query's score per candidate (missing ones are zeros)."""
    cols: dict[str, np.ndarray] = {}
    pairs = [compute_pair_features(q, d) for d in docs]
    for name in PAIR_FEATURES:
        cols[name] = np.array([p[name] for p in pairs], dtype=np.float64)
    n = len(docs)
    for f in LEXICAL_FIELDS:
        for m in ("bm25", "qld"):
            key = f"{m}_{f}"
            cols.update(score_features(key, lexical.get(key, np.zeros(n))))
    return np.column_stack([cols[k] for k in FEATURE_NAMES]) if n else np.zeros((0, len(FEATURE_NAMES)))


# ------------------------------------------------------------------------------------------------- models
def _select(x: np.ndarray, config: LTRConfig) -> np.ndarray:
    idx = [FEATURE_NAMES.index(f) for f in config.feature_names()]
    return x[:, idx]


def fit_model(xs: Sequence[np.ndarray], ys: Sequence[np.ndarray], config: LTRConfig):
    """Train on per-query feature matrices ``xs`` and grade vectors ``ys``; returns a fitted scikit-learn model.

    ``gbrt``/``hgb``: pointwise gradient-boosted regression on the grade; ``pointwise-linear``: ridge regression on
    standardised features; ``pairwise``: logistic regression on feature differences of every pair of the same
    query with different grades (RankSVM-style, both orientations).
    """
    from jiancha.errors import ConfigError

    if config.model not in MODELS:
        raise ConfigError(f"unknown ltr model {config.model!r}; expected one of {list(MODELS)}")
    bad = [f for f in config.feature_names() if f not in FEATURE_NAMES]
    if bad:
        raise ConfigError(f"unknown ltr features {bad}; choose among {list(FEATURE_NAMES)}")
    xs = [_select(x, config) for x in xs]
    if config.model in ("gbrt", "hgb", "pointwise-linear"):
        x = np.vstack(xs)
        y = np.concatenate(ys).astype(np.float64)
        if config.model == "gbrt":
            from sklearn.ensemble import GradientBoostingRegressor

            m = GradientBoostingRegressor(n_estimators=config.n_estimators, learning_rate=config.learning_rate,
                                          max_depth=config.max_depth, min_samples_leaf=config.min_samples_leaf,
                                          subsample=config.subsample, random_state=config.seed)
        elif config.model == "hgb":
            from sklearn.ensemble import HistGradientBoostingRegressor

            m = HistGradientBoostingRegressor(max_iter=config.n_estimators, learning_rate=config.learning_rate,
                                              max_depth=config.max_depth, min_samples_leaf=config.min_samples_leaf,
                                              random_state=config.seed)
        else:
            from sklearn.linear_model import Ridge
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            m = make_pipeline(StandardScaler(), Ridge(alpha=1.0 / config.c))
        return m.fit(x, y)
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    diffs, labels = [], []
    for x, y in zip(xs, ys):
        i, j = np.where(y[:, None] > y[None, :])
        if len(i):
            d = x[i] - x[j]
            diffs += [d, -d]
            labels += [np.ones(len(i)), np.zeros(len(i))]
    m = make_pipeline(StandardScaler(with_mean=False), LogisticRegression(C=config.c, max_iter=2000))
    return m.fit(np.vstack(diffs), np.concatenate(labels))


def predict_scores(model, x: np.ndarray, config: LTRConfig) -> np.ndarray:
    """Ranking scores of one query's candidates (higher is better)."""
    x = _select(x, config)
    if len(x) == 0:
        return np.zeros(0)
    if config.model == "pairwise":
        return np.asarray(model.decision_function(x), dtype=np.float64)
    return np.asarray(model.predict(x), dtype=np.float64)


# ------------------------------------------------------------------------------------------ cross-validation
def kfold_by_query(qids: Sequence[str], k: int, seed: int) -> dict[str, int]:
    """Fold (0..k-1) of each query: a seeded permutation of the ids sorted numerically-then-lexically, dealt round
    robin, so every fold has ⌊n/k⌋ or ⌈n/k⌉ queries.

    >>> sorted(kfold_by_query(["1", "2", "3", "4"], 2, 0).values())
    [0, 0, 1, 1]
    """
    from jiancha.errors import ConfigError

    ids = sorted(set(qids), key=lambda q: (len(q), q))
    if not 2 <= k <= len(ids):
        raise ConfigError(f"cannot split {len(ids)} labelled queries into {k} folds; choose 2 ≤ folds ≤ {len(ids)}")
    order = np.random.default_rng(seed).permutation(len(ids))
    return {ids[i]: pos % k for pos, i in enumerate(order)}


def parity_folds(qids: Sequence[str]) -> dict[str, int]:
    """The ridx-parity halves of phase F: even ids fold 0, odd ids fold 1."""
    return {q: int(q) % 2 for q in qids}


def cross_validate(features: Mapping[str, np.ndarray], grades: Mapping[str, np.ndarray],
                   folds: Mapping[str, int], config: LTRConfig) -> tuple[dict[str, np.ndarray], dict[int, list[str]]]:
    """Score each query of ``folds`` with a model trained on the labelled queries of the *other* folds only.

    ``features``: query → feature matrix; ``grades``: labelled query → grade per candidate (same order). Returns
    the held-out scores per query and the training queries of each fold (for the manifest and the tests).
    """
    scores: dict[str, np.ndarray] = {}
    trained_on: dict[int, list[str]] = {}
    for fold in sorted(set(folds.values())):
        train = sorted((q for q, f in folds.items() if f != fold and q in grades), key=lambda q: (len(q), q))
        test = [q for q, f in folds.items() if f == fold]
        model = fit_model([features[q] for q in train], [grades[q] for q in train], config)
        trained_on[fold] = train
        for q in test:
            scores[q] = predict_scores(model, features[q], config)
    return scores, trained_on


# ------------------------------------------------------------------------------------ runs on a dataset
MODEL_FORMAT = "jiancha-ltr/1"
SPLITS: tuple[str, ...] = ("kfold", "parity")


@dataclass(frozen=True)
class QueryFeatures:
    """One query's candidates (document ids, ranking order) and their feature matrix."""

    doc_ids: tuple[str, ...]
    features: np.ndarray


def extract_features(dataset, base_spec, *, cache=None, progress=None,
                     queries: Sequence | None = None) -> dict[str, QueryFeatures]:
    """Features of every (query, candidate) pair of ``queries`` (default: all) under ``base_spec`` (a resolved
    :class:`~jiancha.retrieval.pipeline.RetrievalSpec`: tokeniser, BM25/QLD parameters, charge options, pool;
    its candidate field is replaced by each of :data:`LEXICAL_FIELDS`)."""
    from dataclasses import replace

    from jiancha.errors import ConfigError
    from jiancha.retrieval.charge import document_charges, resolve_charge_finder
    from jiancha.retrieval.pipeline import Retriever

    if dataset.name == "lecard-v2" and base_spec.scope != "pool":
        raise ConfigError("ltr on lecard-v2 re-ranks the ranking pools only; add --scope pool")
    no_progress = (lambda it, desc, total: it)
    progress = progress or no_progress
    rets = {f: Retriever(dataset, replace(base_spec, doc_field=f).resolved(), cache=cache, progress=progress)
            for f in LEXICAL_FIELDS}
    r = rets["fact"]
    charges = r.doc_charges()
    find, _ = resolve_charge_finder(r.charge_names)
    sides: dict[int, DocSide] = {}
    out: dict[str, QueryFeatures] = {}
    qs = list(queries if queries is not None else dataset.queries)
    for q in progress(qs, "ltr features", len(qs)):
        cand = r.candidates_for(q.id)
        docs = []
        for i in cand:
            if i not in sides:
                d = dataset.documents[r.doc_ids[i]]
                verdict = document_charges((d.result, d.reason, d.fact), d.charges, find)
                sides[i] = compute_doc_side(charges[i], verdict, d.fact, d.reason, d.result)
            docs.append(sides[i])
        lex = {}
        for f, rr in rets.items():
            lex[f"bm25_{f}"] = rr.score("bm25", q, cand)
            lex[f"qld_{f}"] = rr.score("qld", q, cand)
        out[q.id] = QueryFeatures(tuple(r.doc_ids[i] for i in cand),
                                  compute_query_features(compute_query_side(r.query_charges(q), q.fact), docs, lex))
    return out


def grade_vectors(feats: Mapping[str, QueryFeatures], qrels: Mapping[str, Mapping[str, int]]) -> dict:
    """Grade per candidate (unjudged = 0) of each query that has labels."""
    return {q: np.array([qrels[q].get(d, 0) for d in f.doc_ids], dtype=np.float64)
            for q, f in feats.items() if q in qrels}


def rank_run(feats: Mapping[str, QueryFeatures], scores: Mapping[str, np.ndarray], depth: int) -> dict:
    """A run from per-query scores: score descending, ties by document id."""
    from jiancha.retrieval.ranking import doc_id_order, top_k

    run = {}
    for q, f in feats.items():
        s = scores[q]
        best = top_k(s, doc_id_order(f.doc_ids), depth) if len(s) else []
        run[q] = [(f.doc_ids[i], float(s[i])) for i in best]
    return run


def make_folds(qids: Sequence[str], split: str, folds: int, seed: int) -> dict[str, int]:
    from jiancha.errors import ConfigError

    if split == "kfold":
        return kfold_by_query(qids, folds, seed)
    if split == "parity":
        return parity_folds(qids)
    raise ConfigError(f"unknown cross-validation split {split!r}; expected one of {list(SPLITS)}")


def _sorted_ids(qids) -> list[str]:
    return sorted(qids, key=lambda q: (len(q), q))


def save_model(path, model, config: LTRConfig, train_queries: Sequence[str], meta: Mapping) -> None:
    """Pickle the model with its config, feature names, training queries and provenance (``meta``)."""
    import pickle

    from jiancha._util.io import atomic_write_bytes

    blob = {"format": MODEL_FORMAT, "config": config.to_dict(), "feature_names": list(FEATURE_NAMES),
            "train_queries": _sorted_ids(train_queries), "meta": dict(meta), "model": model}
    atomic_write_bytes(path, pickle.dumps(blob))


def load_model(path) -> tuple[object, LTRConfig, dict]:
    """A model written by :func:`save_model` (a pickle: load only files you made); returns (model, config, blob
    without the model)."""
    import pickle
    from pathlib import Path

    from jiancha.errors import ConfigError

    try:
        blob = pickle.loads(Path(path).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError) as e:
        raise ConfigError(f"cannot read ltr model {path}: {e}; expected a file written by --save-model") from None
    if not isinstance(blob, dict) or blob.get("format") != MODEL_FORMAT:
        raise ConfigError(f"{path} is not a {MODEL_FORMAT} model; write one with --save-model")
    if blob["feature_names"] != list(FEATURE_NAMES):
        raise ConfigError(f"{path} was trained on other features ({len(blob['feature_names'])} names, this version "
                          f"has {len(FEATURE_NAMES)}); retrain it with --save-model")
    cfg = blob["config"]
    config = LTRConfig(**{**cfg, "features": tuple(cfg.get("features", ()))})
    return blob["model"], config, {k: v for k, v in blob.items() if k != "model"}


def read_train_qrels(path) -> dict[str, dict[str, int]]:
    """Training labels: a LeCaRD v1 label file (``.json``, ``{qid: {doc id: grade}}``) or TREC qrels."""
    from pathlib import Path

    from jiancha.datasets.lecard import read_qrels_file, read_v1_labels

    p = Path(path)
    return read_v1_labels(p) if p.suffix == ".json" else read_qrels_file(p)


def run_ltr(base_spec, data_dir, config: LTRConfig = LTRConfig(), *, split: str = "kfold",
            train_qrels_path=None, load_model_path=None, save_model_path=None, cache=None,
            progress=None) -> tuple[dict, dict, object, dict]:
    """Rank every query of the dataset with a learned re-ranker that never scores a query it was trained on.

    - default: cross-validation over the dataset's labelled queries (``split`` ``kfold``: ``config.folds`` seeded
      folds; ``parity``: the ridx-parity halves); each labelled query is ranked by the model trained on the other
      folds, the unlabelled queries by a model trained on all labelled queries (the one ``save_model_path`` keeps);
    - ``train_qrels_path``: train on those labels, rank everything, evaluate the labelled queries not trained on;
    - ``load_model_path``: apply a saved model, evaluate the labelled queries it was not trained on.

    Returns (run, manifest, dataset, qrels of the evaluated queries). Raises ConfigError when no labelled query is
    left to evaluate.
    """
    from pathlib import Path

    from jiancha._util.hashing import file_sha256, stable_hash
    from jiancha._util.provenance import environment_info
    from jiancha.datasets.lecard import cache_dir
    from jiancha.errors import ConfigError
    from jiancha.retrieval.pipeline import load_for_spec

    if train_qrels_path is not None and load_model_path is not None:
        raise ConfigError("give either --train-qrels (train a model) or --load-model (apply one), not both")
    base = base_spec.resolved()
    cache_path = Path(cache) if cache is not None else cache_dir()
    ds = load_for_spec(base, data_dir, cache_path)
    feats = extract_features(ds, base, cache=cache_path, progress=progress)
    xs = {q: f.features for q, f in feats.items()}
    source: dict = {}
    if load_model_path is not None:
        model, config, info = load_model(load_model_path)
        trained = set(info["train_queries"]) if info["meta"].get("dataset") == ds.name else set()
        scores = {q: predict_scores(model, x, config) for q, x in xs.items()}
        source = {"mode": "loaded model", "path": str(load_model_path), "sha256": file_sha256(load_model_path),
                  "trained_on": info["meta"], "train_queries": info["train_queries"]}
    else:
        if train_qrels_path is not None:
            tq = read_train_qrels(train_qrels_path)
            missing = [q for q in tq if q not in feats]
            if missing:
                raise ConfigError(f"{train_qrels_path}: {len(missing)} training queries are not queries of "
                                  f"{ds.name} (first {missing[:5]}); train on labels of this dataset's queries")
            trained = set(tq)
            source = {"mode": "trained on --train-qrels", "path": str(train_qrels_path),
                      "sha256": file_sha256(train_qrels_path)}
        else:
            tq = dict(ds.qrels)
            trained = set()
        grades = grade_vectors(feats, tq)
        train_ids = _sorted_ids(grades)
        if not train_ids:
            raise ConfigError(f"{ds.name} has no labelled queries to train an ltr model on; give --train-qrels")
        model = fit_model([xs[q] for q in train_ids], [grades[q] for q in train_ids], config)
        scores = {q: predict_scores(model, x, config) for q, x in xs.items()}
        if train_qrels_path is None:
            folds = make_folds(train_ids, split, config.folds, config.seed)
            held, trained_on = cross_validate(xs, grades, folds, config)
            scores.update(held)
            source = {"mode": "cross-validation", "split": split,
                      "folds": config.folds if split == "kfold" else 2, "seed": config.seed,
                      "fold_of_query": folds, "train_queries_per_fold": {str(k): v for k, v in trained_on.items()},
                      "unlabelled_queries": "ranked by the model trained on all labelled queries"}
        meta = {"dataset": ds.name, "data_fingerprint": ds.fingerprint, "base_spec_key": base.key()}
        source["model_train_queries"] = train_ids
        if save_model_path is not None:
            save_model(save_model_path, model, config, train_ids, meta)
            source["saved_model"] = str(save_model_path)
    eval_qrels = {q: g for q, g in ds.qrels.items() if q not in trained}
    if not eval_qrels:
        raise ConfigError(f"every labelled query of {ds.name} was used for training ({len(trained)} queries); "
                          "evaluate on other queries, or drop --train-qrels/--load-model to cross-validate")
    run = rank_run(feats, scores, base.depth)
    spec = {"dataset": ds.name, "method": "ltr", "base": base.to_dict(), "ltr": config.to_dict(),
            "lexical_fields": list(LEXICAL_FIELDS), "feature_names": list(config.feature_names()),
            "training": {k: v for k, v in source.items() if k not in ("saved_model", "sha256")}}
    manifest = {
        "spec": spec, "spec_key": stable_hash(spec), "training": source,
        "evaluated_queries": _sorted_ids(eval_qrels), "excluded_train_queries": _sorted_ids(trained & set(ds.qrels)),
        "data": {"dataset": ds.name, "root": str(ds.root), "fingerprint": ds.fingerprint,
                 "num_queries": len(ds.queries), "num_documents": len(ds.documents)},
        "environment": environment_info(),
    }
    return run, manifest, ds, eval_qrels
