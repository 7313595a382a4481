"""The retrieval-run page: metrics per query and, per query, the ranked candidates with their graded labels, shared
charges and texts (read from the dataset folder the run's manifest names, when it is on this machine)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jiancha.web.runs import (
    METRICS_FILE,
    TREC_RUN_FILE,
    NotFoundError,
    RunRef,
    inside,
    read_json_inside,
)

#: Ranked candidates shown per retrieval query.
RETRIEVAL_DEPTH = 30



def retrieval_page(root: Path, r: RunRef, qid: str | None = None) -> dict[str, Any]:
    """Overall and per-query metrics of a retrieval run; with ``qid``, that query's ranked list (top
    ``RETRIEVAL_DEPTH``) with graded labels, charges shared with the query, and texts from the run's dataset."""
    from jiancha.retrieval.trec import parse_trec_run

    metrics = read_json_inside(root, r.file(METRICS_FILE))
    per_query = metrics.get("per_query") or {}
    names = list(next(iter(per_query.values()), {}).keys())
    queries = sorted(per_query, key=lambda q: (len(q), q))
    out: dict[str, Any] = {"run": r, "metrics": metrics.get("metrics") or {}, "names": names,
                           "queries": [(q, per_query[q]) for q in queries], "qid": None, "ranked": [],
                           "dataset_note": None}
    if qid is None:
        return out
    if qid not in per_query:
        raise NotFoundError(f"no query {qid!r} in run {r.key!r}")
    text = inside(root, r.file(TREC_RUN_FILE)).read_text(encoding="utf-8")
    ranked = parse_trec_run(text, path=TREC_RUN_FILE).get(qid, [])[:RETRIEVAL_DEPTH]
    dataset, note = _load_retrieval_dataset(r)
    out.update(qid=qid, dataset_note=note)
    qrels = dataset.qrels.get(qid, {}) if dataset else {}
    query = next((q for q in dataset.queries if q.id == qid), None) if dataset else None
    from jiancha.retrieval.charge import find_case_charges

    q_charges = find_case_charges(query.query) if query else []
    out["query_text"] = query.query if query else ""
    out["query_charges"] = q_charges
    rows = []
    for rank, (doc, score) in enumerate(ranked, start=1):
        d = dataset.documents.get(doc) if dataset else None
        text = (d.fact or d.qw) if d else ""
        d_charges = list(d.charges) if d and d.charges else (find_case_charges(text) if text else [])
        rows.append({"rank": rank, "doc": doc, "score": score, "grade": qrels.get(doc),
                     "shared": [c for c in q_charges if c in d_charges], "text": text})
    out["ranked"] = rows
    return out


def _load_retrieval_dataset(r: RunRef):
    """The dataset a retrieval run was made on (its manifest's ``data.root``), for graded labels and texts; None
    with a note saying what to do when it cannot be read."""
    from jiancha.errors import JianchaError

    data = (r.manifest or {}).get("data") or {}
    name, root = data.get("dataset"), data.get("root")
    if not name or not root:
        return None, "this run's manifest names no dataset folder: labels and texts are not shown"
    if not Path(root).is_dir():
        return None, (f"the dataset folder {root} named in the manifest is not on this machine: labels and texts "
                      "are not shown; run `jiancha view` from the folder the run was made in")
    spec = (r.manifest or {}).get("spec") or {}
    try:
        return _dataset_cache(name, str(Path(root).resolve()), spec.get("setting", "zero-shot"),
                              spec.get("pool", "judged")), None
    except (JianchaError, OSError) as exc:
        return None, f"the dataset could not be read ({exc}): labels and texts are not shown"


_DATASETS: dict[tuple, Any] = {}


def _dataset_cache(name: str, root: str, setting: str, pool: str):
    key = (name, root, setting, pool)
    if key not in _DATASETS:
        from jiancha.datasets.lecard import load_lecard

        _DATASETS[key] = load_lecard(name, root, setting=setting, pool=pool)
    return _DATASETS[key]

