"""Evaluate a run on LeCaRD v1 (official metrics) or LeCaRDv2 (trec_eval recall and standard measures).

Conventions (stated once, used everywhere):

- LeCaRD v1: evaluated queries = those with labels (77 here); metrics from :mod:`metrics` ``lecard_v1_*``; the sum
  over queries is divided by the number of evaluated queries (a query missing from the run contributes 0).
- LeCaRDv2: relevant = grade ≥ 2 (primary) or ≥ 1 (names suffixed ``[rel>=1]``). Threshold-t measures are averaged
  over the queries that have at least one document of grade ≥ t — exactly trec_eval on the qrels filtered at t,
  i.e. ``relevence_gold.trec`` for t = 2 (798 queries zero-shot, as the dataset's tables). ``ndcg@k`` uses the graded
  qrels over the primary query set. ``hit@k`` is the seed's "any relevant in the top k" rate (ir_measures
  ``Success@k``), not recall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from jiancha.errors import ConfigError
from jiancha.retrieval import metrics as M
from jiancha.retrieval.trec import Run

Qrels = Mapping[str, Mapping[str, int]]
V2_RECALL_DEPTHS: tuple[int, ...] = (100, 200, 500, 1000)
V2_HIT_DEPTHS: tuple[int, ...] = (10, 100)
#: LeCaRD v1 metrics: official NDCG (``ndcg@k``), KELLER's exponential-gain NDCG (``kndcg@k``), P@k and MAP at
#: grade 3. The two NDCG conventions are not comparable with each other.
V1_METRICS: tuple[str, ...] = ("ndcg@10", "ndcg@20", "ndcg@30", "kndcg@10", "kndcg@30", "p@5", "p@10", "map")
LECARD_V2_TEST_IDS = frozenset(str(i) for i in range(5, 801, 5))


@dataclass(frozen=True)
class EvalResult:
    metrics: dict[str, float]
    num_queries: int
    per_query: dict[str, dict[str, float]] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        return {"metrics": {k: round(v, 6) for k, v in self.metrics.items()}, "num_queries": self.num_queries}


def _ranked(run: Run, qid: str) -> list[str]:
    return [d for d, _ in run.get(qid, ())]


def _mean(per_query: dict[str, dict[str, float]], names: Sequence[str]) -> dict[str, float]:
    n = len(per_query)
    return {m: (sum(v[m] for v in per_query.values()) / n if n else 0.0) for m in names}


def evaluate_lecard_v1(run: Run, qrels: Qrels) -> EvalResult:
    """Official LeCaRD v1 NDCG@10/20/30, KELLER's NDCG@10/30, P@5, P@10 (grade 3), MAP (grade 3) over the
    labelled queries."""
    per: dict[str, dict[str, float]] = {}
    for qid, grades in qrels.items():
        r = _ranked(run, qid)
        per[qid] = {"ndcg@10": M.lecard_v1_ndcg(r, grades, 10), "ndcg@20": M.lecard_v1_ndcg(r, grades, 20),
                    "ndcg@30": M.lecard_v1_ndcg(r, grades, 30), "kndcg@10": M.keller_ndcg(r, grades, 10),
                    "kndcg@30": M.keller_ndcg(r, grades, 30), "p@5": M.lecard_v1_precision(r, grades, 5),
                    "p@10": M.lecard_v1_precision(r, grades, 10), "map": M.lecard_v1_average_precision(r, grades)}
    return EvalResult(_mean(per, V1_METRICS), len(per), per)


def _v2_block(run: Run, qrels: Qrels, threshold: int, suffix: str, with_ndcg: bool):
    per: dict[str, dict[str, float]] = {}
    for qid, grades in qrels.items():
        if not any(g >= threshold for g in grades.values()):
            continue
        r = _ranked(run, qid)
        row = {f"recall@{k}{suffix}": M.recall_at_k(r, grades, k, threshold) for k in V2_RECALL_DEPTHS}
        if with_ndcg:
            row["ndcg@10"] = M.ndcg_at_k(r, grades, 10)
            row["ndcg@30"] = M.ndcg_at_k(r, grades, 30)
        row[f"map{suffix}"] = M.average_precision(r, grades, threshold)
        row[f"mrr{suffix}"] = M.reciprocal_rank(r, grades, threshold)
        for k in V2_HIT_DEPTHS:
            row[f"hit@{k}{suffix}"] = M.hit_at_k(r, grades, k, threshold)
        per[qid] = row
    names = list(next(iter(per.values())).keys()) if per else []
    return per, _mean(per, names)


def evaluate_lecard_v2(run: Run, qrels: Qrels, *, setting: str = "zero-shot") -> EvalResult:
    """LeCaRDv2 recall@100/200/500/1000, ndcg@10/30, map, mrr, hit@10/100 at grade ≥ 2, and the same at ≥ 1
    (suffix ``[rel>=1]``). ``setting``: ``zero-shot`` (every query of the qrels) or ``test`` (ids 5, 10, ..., 800)."""
    if setting not in ("zero-shot", "test"):
        raise ConfigError(f"unknown LeCaRDv2 setting {setting!r}; expected 'zero-shot' or 'test'")
    if setting == "test":
        qrels = {q: g for q, g in qrels.items() if q in LECARD_V2_TEST_IDS}
    per2, m2 = _v2_block(run, qrels, 2, "", True)
    _, m1 = _v2_block(run, qrels, 1, "[rel>=1]", False)
    return EvalResult({**m2, **m1}, len(per2), per2)


@dataclass(frozen=True)
class RunCoverage:
    """How a run's query ids meet the labels: ``unlabelled`` run queries are not scored (unknown ids, or queries
    without labels in this dataset/setting); ``missing`` labelled queries are absent from the run (they score 0);
    ``judged_hits`` of the ``scored_hits`` documents the run ranks for labelled queries have a label (none at all
    means document ids of another collection, or with a prefix)."""

    run_queries: int
    unlabelled: tuple[str, ...]
    missing: tuple[str, ...]
    scored_hits: int = 0
    judged_hits: int = 0


def _id_key(qid: str) -> tuple[int, str]:
    return (len(qid), qid)


def compute_run_coverage(run: Run, qrels: Qrels) -> RunCoverage:
    scored = [(q, d) for q, hits in run.items() if q in qrels for d, _ in hits]
    return RunCoverage(len(run), tuple(sorted((q for q in run if q not in qrels), key=_id_key)),
                       tuple(sorted((q for q in qrels if q not in run), key=_id_key)),
                       len(scored), sum(d in qrels[q] for q, d in scored))


def render_coverage_warnings(cov: RunCoverage, where: str, labels: str, *, show: int = 5) -> list[str]:
    """One warning line per problem, each with the count and the first ``show`` ids."""
    def ids(xs: tuple[str, ...]) -> str:
        return ", ".join(repr(x) for x in xs[:show]) + (", ..." if len(xs) > show else "")

    out = []
    if cov.unlabelled:
        out.append(f"{len(cov.unlabelled)} of {cov.run_queries} queries in {where} have no relevance labels in "
                   f"{labels} (unknown query ids?) and are not scored: {ids(cov.unlabelled)}")
    if cov.missing:
        out.append(f"{len(cov.missing)} labelled queries of {labels} are absent from {where} and score 0: "
                   f"{ids(cov.missing)}")
    if cov.scored_hits and not cov.judged_hits:
        out.append(f"none of the {cov.scored_hits} documents {where} ranks for labelled queries has a label in "
                   f"{labels}, so every score is 0: are its document ids those of this collection?")
    return out


def evaluate(dataset: str, run: Run, qrels: Qrels, *, setting: str = "zero-shot") -> EvalResult:
    if dataset == "lecard-v1":
        return evaluate_lecard_v1(run, qrels)
    if dataset == "lecard-v2":
        return evaluate_lecard_v2(run, qrels, setting=setting)
    raise ConfigError(f"unknown dataset {dataset!r}; expected 'lecard-v1' or 'lecard-v2'")
