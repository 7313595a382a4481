"""Supervised learning-to-rank re-ranking (``--method ltr``): :mod:`.features` per (query, candidate),
:mod:`.chargrams` (character-bigram TF-IDF of the facts), :mod:`.cooccurrence` (how related two charges are in
the collection), :mod:`.model` (weights, cross-validation, JSON storage)
and :mod:`.run` (a whole dataset, manifest)."""

from jiancha.retrieval.ltr.chargrams import CharBigramIndex
from jiancha.retrieval.ltr.cooccurrence import ChargeCooccurrence
from jiancha.retrieval.ltr.features import (
    CHARGE_LINK_FEATURES,
    FEATURE_NAMES,
    LEXICAL_FIELDS,
    PAIR_FEATURES,
    SCORE_LISTS,
    DocSide,
    QuerySide,
    compute_doc_side,
    compute_pair_features,
    compute_query_features,
    compute_query_side,
    score_features,
)
from jiancha.retrieval.ltr.model import (
    ENSEMBLE_MEMBERS,
    MODEL_FORMAT,
    MODELS,
    QUERY_CHARGES,
    SPLITS,
    LTRConfig,
    cross_validate,
    fit_model,
    kfold_by_query,
    load_model,
    make_folds,
    parity_folds,
    predict_scores,
    save_model,
)
from jiancha.retrieval.ltr.run import QueryFeatures, extract_features, grade_vectors, rank_run, run_ltr

__all__ = [
    "CHARGE_LINK_FEATURES", "ENSEMBLE_MEMBERS", "FEATURE_NAMES", "LEXICAL_FIELDS", "MODELS", "MODEL_FORMAT", "PAIR_FEATURES", "QUERY_CHARGES", "SCORE_LISTS",
    "SPLITS", "CharBigramIndex", "ChargeCooccurrence", "DocSide", "LTRConfig", "QueryFeatures", "QuerySide", "compute_doc_side", "compute_pair_features",
    "compute_query_features", "compute_query_side", "cross_validate", "extract_features", "fit_model",
    "grade_vectors", "kfold_by_query", "load_model", "make_folds", "parity_folds", "predict_scores", "rank_run",
    "run_ltr", "save_model", "score_features",
]
