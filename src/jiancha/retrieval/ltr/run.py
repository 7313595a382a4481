"""Learned re-ranking of a LeCaRD dataset: features for every (query, candidate), cross-validated by query.

A model needs graded queries, so it is never scored on the queries it was trained on: by default the labelled
queries are split into folds (seeded K-fold by query, or the ridx-parity halves) and each fold is ranked by a model
trained on the others; unlabelled queries are ranked by the model trained on all labelled ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from jiancha.errors import ConfigError
from jiancha.retrieval.ltr.chargrams import CharBigramIndex
from jiancha.retrieval.ltr.cooccurrence import ChargeCooccurrence
from jiancha.retrieval.ltr.features import (
    FEATURE_NAMES,
    LEXICAL_FIELDS,
    DocSide,
    compute_doc_side,
    compute_query_features,
    compute_query_side,
    idf_weights,
    tfidf_cosines,
)
from jiancha.retrieval.ltr.model import (
    LTRConfig,
    cross_validate,
    fit_model,
    load_model,
    make_folds,
    predict_scores,
    save_model,
    sorted_ids,
)

DEFAULT_LTR = LTRConfig()


@dataclass(frozen=True)
class QueryFeatures:
    """One query's candidates (document ids, ranking order) and their feature matrix."""

    doc_ids: tuple[str, ...]
    features: np.ndarray
    charges: tuple[str, ...] = ()


def predict_charges_for(dataset, retriever, queries: Sequence, k: int, balanced: bool = False
                        ) -> dict[str, tuple[str, ...]]:
    """The ``k`` charges a classifier trained on the collection's facts → verdict primary charges predicts for each
    query's facts (:mod:`jiancha.retrieval.charge_model`; every charge weighted alike when ``balanced``); none are
    trained when no query needs them."""
    if not queries:
        return {}
    from jiancha.retrieval.charge_model import ChargeClassifier

    charges = retriever.doc_charges()
    # 200,000 features, as the figures in the docs were measured with
    clf = ChargeClassifier.fit([dataset.documents[d].fact for d in retriever.doc_ids],
                               [c[0] if c else "" for c in charges], max_features=200_000, balanced=balanced)
    return dict(zip((q.id for q in queries), clf.predict([q.fact or q.query for q in queries], k), strict=True))


def extract_features(dataset, base_spec, config: LTRConfig = DEFAULT_LTR, *, cache=None, progress=None,
                     queries: Sequence | None = None) -> dict[str, QueryFeatures]:
    """Features of every (query, candidate) pair of ``queries`` (default: all) under ``base_spec`` (a resolved
    :class:`~jiancha.retrieval.pipeline.RetrievalSpec`: tokeniser, BM25/QLD parameters, charge options, pool;
    its candidate field is replaced by each of :data:`LEXICAL_FIELDS`) and ``config.dense`` (resolved)."""
    from jiancha.retrieval.charge import document_charges, resolve_charge_finder
    from jiancha.retrieval.dense import DenseConfig
    from jiancha.retrieval.fields import query_text
    from jiancha.retrieval.pipeline import Retriever

    config = config.resolved()
    if dataset.name == "lecard-v2" and base_spec.scope != "pool":
        raise ConfigError("ltr on lecard-v2 re-ranks the ranking pools only; add --scope pool")
    progress = progress or (lambda it, desc, total: it)
    spec = base_spec if config.dense == "none" else replace(
        base_spec, dense=replace(base_spec.dense or DenseConfig(), model=config.dense))
    rets = {f: Retriever(dataset, replace(spec, doc_field=f).resolved(), cache=cache, progress=progress)
            for f in LEXICAL_FIELDS}
    r = rets["fact"]
    charges = r.doc_charges()
    find, _ = resolve_charge_finder(r.charge_names)
    sides: dict[int, DocSide] = {}
    out: dict[str, QueryFeatures] = {}
    qs = list(queries if queries is not None else dataset.queries)
    char2 = CharBigramIndex.fit([dataset.documents[d].fact for d in r.doc_ids])
    cooccurrence = ChargeCooccurrence.fit(charges)
    toks = r.tokens
    lengths = toks.lengths()
    long_token = np.array([len(t) >= 2 for t in sorted(toks.vocab, key=toks.vocab.__getitem__)], dtype=bool)
    idf = idf_weights(np.repeat(np.arange(len(lengths)), lengths), toks.ids, len(lengths), len(toks.vocab))

    def fact_tokens(i: int) -> np.ndarray:   # one-character tokens (particles, digits) carry no topic
        t = toks.ids[toks.offsets[i]:toks.offsets[i + 1]]
        return t[long_token[t]]

    # given: the dataset's charges, else those the query's text names (a LeCaRDv2 query holds its indictment),
    # else predicted; predicted: always from the facts, as for a search that names none
    given = {q.id: r.query_charges(q) for q in qs} if config.query_charges == "given" else {}
    predicted = predict_charges_for(dataset, r, [q for q in qs if not given.get(q.id)],
                                    config.predicted_charges, config.predicted_balanced)
    for q in progress(qs, "ltr features", len(qs)):
        cand = r.candidates_for(q.id)
        docs = []
        for i in cand:
            if i not in sides:
                d = dataset.documents[r.doc_ids[i]]
                verdict = document_charges((d.result, d.reason, d.fact), d.charges, find)
                sides[i] = compute_doc_side(charges[i], verdict, d.fact, d.reason, d.result)
            docs.append(sides[i])
        scores = {}
        for f, rr in rets.items():
            scores[f"bm25_{f}"] = rr.score("bm25", q, cand)
            scores[f"qld_{f}"] = rr.score("qld", q, cand)
        scores["char2_fact"] = char2.cosines(query_text(q, r.spec.query_field), cand)
        if config.dense != "none":
            scores["dense_fact"] = r.score("dense", q, cand)
        qc = tuple(given.get(q.id) or predicted[q.id])
        similarity = tfidf_cosines([fact_tokens(int(i)) for i in cand], idf)
        out[q.id] = QueryFeatures(tuple(r.doc_ids[i] for i in cand),
                                  compute_query_features(compute_query_side(qc, q.fact), docs, scores, similarity,
                                                         cooccurrence),
                                  qc)
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


def read_train_qrels(path) -> dict[str, dict[str, int]]:
    """Training labels: a LeCaRD v1 label file (``.json``, ``{qid: {doc id: grade}}``) or TREC qrels."""
    from pathlib import Path

    from jiancha.datasets.lecard import read_v1_labels
    from jiancha.retrieval.trec import read_qrels

    p = Path(path)
    return read_v1_labels(p) if p.suffix == ".json" else read_qrels(p)


def run_ltr(base_spec, data_dir, config: LTRConfig = DEFAULT_LTR, *, split: str | None = None,
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
    from jiancha._util.cache import resolve_cache_dir
    from jiancha._util.hashing import file_sha256, stable_hash
    from jiancha._util.provenance import environment_info
    from jiancha.retrieval.pipeline import load_for_spec

    if train_qrels_path is not None and load_model_path is not None:
        raise ConfigError("give either --train-qrels (train a model) or --load-model (apply one), not both")
    loaded = load_model(load_model_path) if load_model_path is not None else None   # a bad file fails first
    if loaded is not None:
        config = loaded[1]
    config = config.resolved()
    split = split or config.split
    base = base_spec.resolved()
    cache_path = resolve_cache_dir(cache)
    ds = load_for_spec(base, data_dir, cache_path)
    feats = extract_features(ds, base, config, cache=cache_path, progress=progress)
    xs = {q: f.features for q, f in feats.items()}
    source: dict = {}
    if loaded is not None:
        model, _, info = loaded
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
        train_ids = sorted_ids(grades)
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
        "evaluated_queries": sorted_ids(eval_qrels), "excluded_train_queries": sorted_ids(trained & set(ds.qrels)),
        "query_charges": {q: list(f.charges) for q, f in feats.items()},
        "data": {"dataset": ds.name, "root": str(ds.root), "fingerprint": ds.fingerprint,
                 "num_queries": len(ds.queries), "num_documents": len(ds.documents)},
        "environment": environment_info(),
    }
    return run, manifest, ds, eval_qrels


__all__ = ["FEATURE_NAMES", "QueryFeatures", "extract_features", "grade_vectors", "rank_run", "read_train_qrels", "run_ltr"]
