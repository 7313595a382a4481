"""Features of a (query, candidate) pair for the learned re-ranker.

Legal structure (:data:`PAIR_FEATURES`): the charge tiers of :mod:`jiancha.retrieval.charge` (candidate charges
from the verdict, and verdict + reasoning), Criminal Law article overlap (articles the candidate's reasoning and
verdict cite against the articles of the query's charges), the same 分则 section / chapter, money and drug
quantities on one log scale (:mod:`jiancha.law.amounts`), shared sentencing circumstances and fact markers
(:mod:`jiancha.law.circumstances`) and the longest sentence the candidate's defendants are to serve
(:func:`jiancha.law.verdicts.served_months`). Text similarity
(:data:`SCORE_FEATURES`): per-field BM25 and QLD scores, the character-bigram TF-IDF cosine of the facts
(:mod:`.chargrams`) and the dense cosine, each raw, z-scored within the query and as a rank within the query. Neighbours (:data:`NEIGHBOUR_FEATURES`): how like a candidate's facts are to the
facts of the best few other candidates of an unsupervised first stage (charge tier + z(BM25) of the facts), a
form of pseudo-relevance feedback: relevant cases resemble each other more than they resemble the rest. Charge
links (:data:`CHARGE_LINK_FEATURES`): how often the collection's judgments convict of the query's charges together
with the candidate's other charges (:mod:`.cooccurrence`). All functions here are pure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from jiancha.law.amounts import largest, log_distance, parse_amounts, parse_quantities
from jiancha.law.circumstances import FACT_MARKERS, SENTENCING_CIRCUMSTANCES, find_circumstances
from jiancha.law.penalties import term_band
from jiancha.law.verdicts import served_months
from jiancha.retrieval.ltr.cooccurrence import ChargeCooccurrence

#: Candidate fields scored by BM25 and QLD (``qw``, the full text, is left out: it is the three together).
LEXICAL_FIELDS: tuple[str, ...] = ("fact", "reason", "result")
PAIR_FEATURES: tuple[str, ...] = (
    "tier", "tier_verdict", "shared", "primary", "jaccard", "exact", "shared_verdict", "primary_verdict",
    "jaccard_verdict", "n_doc_charges", "n_query_charges", "same_section", "same_chapter", "article_overlap",
    "article_jaccard", "amount_log_ratio", "amount_both", "amount_none", "quantity_log_ratio", "quantity_both",
    "circ_jaccard", "circ_shared", "marker_jaccard", "term_months_log", "term_band", "fact_len_log_ratio",
)
#: Score lists turned into raw / z / rank features: lexical per field, the character-bigram cosine and the dense
#: cosine of the facts.
SCORE_LISTS: tuple[str, ...] = (tuple(f"{m}_{f}" for f in LEXICAL_FIELDS for m in ("bm25", "qld"))
                                + ("char2_fact", "dense_fact"))
SCORE_FEATURES: tuple[str, ...] = tuple(f"{s}_{k}" for s in SCORE_LISTS for k in ("raw", "z", "rank"))
#: Depths k of the neighbour features: a candidate's mean TF-IDF cosine to the k best other candidates.
NEIGHBOUR_DEPTHS: tuple[int, ...] = (3, 5)
NEIGHBOUR_FEATURES: tuple[str, ...] = tuple(f"nbr{k}_{v}" for k in NEIGHBOUR_DEPTHS for v in ("cos", "cos_z"))
#: How related the candidate's other charges are to the query's (:mod:`.cooccurrence`), raw and z within the query.
CHARGE_LINK_FEATURES: tuple[str, ...] = ("cooc_jaccard", "cooc_jaccard_z")
FEATURE_NAMES: tuple[str, ...] = PAIR_FEATURES + SCORE_FEATURES + NEIGHBOUR_FEATURES + CHARGE_LINK_FEATURES


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
    quantity: float | None
    circumstances: frozenset[str]
    markers: frozenset[str]


@dataclass(frozen=True)
class DocSide:
    """What the pair features need of a candidate (computed once per candidate)."""

    charges: tuple[str, ...]            # verdict + reasoning (the shipped ``charge`` default)
    verdict_charges: tuple[str, ...]    # verdict only
    fact: str
    articles: frozenset[int]
    divisions: frozenset
    amount: float | None
    quantity: float | None
    circumstances: frozenset[str]
    markers: frozenset[str]
    term_months: float | None


def compute_query_side(charges: Sequence[str], fact: str) -> QuerySide:
    return QuerySide(tuple(charges), fact, charges_articles(charges), _divisions(charges),
                     largest(parse_amounts(fact)), largest(parse_quantities(fact)),
                     find_circumstances(fact, SENTENCING_CIRCUMSTANCES), find_circumstances(fact, FACT_MARKERS))


def compute_doc_side(charges: Sequence[str], verdict_charges: Sequence[str], fact: str, reason: str,
                     result: str) -> DocSide:
    return DocSide(tuple(charges), tuple(verdict_charges), fact, cited_articles((reason, result)),
                   _divisions(charges), largest(parse_amounts(fact)), largest(parse_quantities(fact)),
                   find_circumstances(fact + reason, SENTENCING_CIRCUMSTANCES), find_circumstances(fact, FACT_MARKERS),
                   served_months(result))


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
    ``tier_verdict`` the same from the verdict's charges only; ``*_log_ratio`` is |log10(1+a) − log10(1+b)| of the
    largest sums (0 when either side has none).
    """
    qs = set(q.charges)
    shared, primary, jac, exact = _charge_match(qs, d.charges)
    shared_v, primary_v, jac_v, _ = _charge_match(qs, d.verdict_charges)
    same_div = bool(q.divisions & d.divisions)
    same_chapter = bool({x.chapter for x in q.divisions} & {x.chapter for x in d.divisions})
    amount = log_distance(q.amount, d.amount)
    quantity = log_distance(q.quantity, d.quantity)
    months = d.term_months
    return {
        "tier": shared + primary + jac, "tier_verdict": shared_v + primary_v + jac_v,
        "shared": shared, "primary": primary, "jaccard": jac, "exact": exact,
        "shared_verdict": shared_v, "primary_verdict": primary_v, "jaccard_verdict": jac_v,
        "n_doc_charges": float(len(d.charges)), "n_query_charges": float(len(q.charges)),
        "same_section": float(same_div), "same_chapter": float(same_chapter),
        "article_overlap": float(len(q.articles & d.articles)), "article_jaccard": _jaccard(q.articles, d.articles),
        "amount_log_ratio": amount or 0.0, "amount_both": float(amount is not None),
        "amount_none": float(q.amount is None and d.amount is None),
        "quantity_log_ratio": quantity or 0.0, "quantity_both": float(quantity is not None),
        "circ_jaccard": _jaccard(q.circumstances, d.circumstances),
        "circ_shared": float(len(q.circumstances & d.circumstances)),
        "marker_jaccard": _jaccard(q.markers, d.markers),
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


def idf_weights(doc_of_token: np.ndarray, token_ids: np.ndarray, n_docs: int, vocab_size: int) -> np.ndarray:
    """Smoothed inverse document frequency per token id, ln((N + 1) / (df + 1)) + 1, from a flat token array.

    >>> idf_weights(np.array([0, 0, 1]), np.array([0, 0, 1]), 2, 3).round(4).tolist()   # doc 0: a a; doc 1: b
    [1.4055, 1.4055, 2.0986]
    """
    pairs = np.unique(doc_of_token.astype(np.int64) * vocab_size + token_ids)
    df = np.bincount(pairs % vocab_size, minlength=vocab_size)
    return np.log((n_docs + 1) / (df + 1)) + 1.0


def tfidf_cosines(docs: Sequence[np.ndarray], idf: np.ndarray) -> np.ndarray:
    """Cosine similarity matrix of documents given as arrays of token ids: weights (1 + ln tf) · idf, rows
    normalised to unit length; an empty document has similarity 0 to everything.

    >>> tfidf_cosines([np.array([0, 1]), np.array([0, 1]), np.array([2])], np.ones(3)).round(3).tolist()
    [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    from scipy.sparse import csr_matrix

    rows, cols, vals = [], [], []
    for i, toks in enumerate(docs):
        ids, tf = np.unique(toks, return_counts=True)
        w = (1.0 + np.log(tf)) * idf[ids]
        n = np.sqrt((w * w).sum())
        rows += [np.full(len(ids), i)]
        cols += [ids]
        vals += [w / n if n > 0 else w]
    x = csr_matrix((np.concatenate(vals) if vals else [], (np.concatenate(rows) if rows else [],
                                                             np.concatenate(cols) if cols else [])),
                   shape=(len(docs), len(idf)))
    return np.asarray((x @ x.T).todense())


def neighbour_features(first_stage: np.ndarray, similarity: np.ndarray,
                       depths: Sequence[int] = NEIGHBOUR_DEPTHS) -> dict[str, np.ndarray]:
    """For each candidate, the mean of ``similarity`` to the ``k`` best *other* candidates by ``first_stage``
    (ties by position), raw and z-scored within the query.

    >>> s = np.array([[1, .5, .1], [.5, 1, .2], [.1, .2, 1]])
    >>> {k: v.round(3).tolist() for k, v in neighbour_features(np.array([3., 2., 1.]), s, (1,)).items()}
    {'nbr1_cos': [0.5, 0.5, 0.1], 'nbr1_cos_z': [0.707, 0.707, -1.414]}
    """
    from jiancha.retrieval.charge import standardise

    n = len(first_stage)
    order = np.argsort(-np.asarray(first_stage, dtype=np.float64), kind="stable")
    out: dict[str, np.ndarray] = {}
    for k in depths:
        raw = np.zeros(n)
        for i in range(n):
            others = order[order != i][:k]
            raw[i] = similarity[i, others].mean() if len(others) else 0.0
        out[f"nbr{k}_cos"], out[f"nbr{k}_cos_z"] = raw, standardise(raw)
    return out


def compute_query_features(q: QuerySide, docs: Sequence[DocSide], scores: Mapping[str, np.ndarray],
                           similarity: np.ndarray | None = None,
                           cooccurrence: ChargeCooccurrence | None = None) -> np.ndarray:
    """Feature matrix (len(docs) × len(FEATURE_NAMES)) of one query's candidates; ``scores`` maps names of
    :data:`SCORE_LISTS` such as ``bm25_fact`` to that query's score per candidate (missing ones are zeros);
    ``similarity`` is the candidates' fact-to-fact similarity matrix (None: the neighbour features are zeros);
    ``cooccurrence`` the charge co-occurrence counts of the collection (None: the charge-link
    features are zeros)."""
    from jiancha.retrieval.charge import standardise

    n = len(docs)
    if not n:
        return np.zeros((0, len(FEATURE_NAMES)))
    cols: dict[str, np.ndarray] = {}
    pairs = [compute_pair_features(q, d) for d in docs]
    for name in PAIR_FEATURES:
        cols[name] = np.array([p[name] for p in pairs], dtype=np.float64)
    for key in SCORE_LISTS:
        cols.update(score_features(key, scores.get(key, np.zeros(n))))
    if similarity is None:
        cols.update({k: np.zeros(n) for k in NEIGHBOUR_FEATURES})
    else:
        cols.update(neighbour_features(cols["tier"] + cols["bm25_fact_z"], similarity))
    link = np.array([cooccurrence.relatedness(q.charges, d.charges) for d in docs] if cooccurrence is not None
                    else np.zeros(n), dtype=np.float64)
    cols["cooc_jaccard"], cols["cooc_jaccard_z"] = link, standardise(link)
    return np.column_stack([cols[k] for k in FEATURE_NAMES])
