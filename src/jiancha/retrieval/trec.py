"""TREC run and qrels files.

A run line is ``qid Q0 docid rank score tag``; reading orders each query's documents by score descending, ties by
the file's rank column (then file order). A qrels line is ``qid iter docid grade`` (parsed by
:func:`jiancha.datasets.lecard.read_qrels_file`, re-exported here as :func:`read_qrels`). :func:`read_run` also
reads the JSON rankings others publish: ``{qid: {doc id: score}}`` (KELLER's) or ``{qid: [doc ids best first]}``
(LeCaRD's ``prediction/*.json``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from jiancha._util.io import atomic_write_text
from jiancha.datasets.lecard import read_qrels_file
from jiancha.errors import DataError

#: ``{qid: [(doc id, score), ...]}`` in rank order.
Run = Mapping[str, Sequence[tuple[str, float]]]

read_qrels = read_qrels_file


def render_trec_run(run: Run, tag: str) -> str:
    """Render a run: one line per (query, document), ranks from 1, scores with 6 decimals."""
    if not tag or any(c.isspace() for c in tag):
        raise DataError(f"run tag {tag!r} must be non-empty without whitespace")
    lines = []
    for qid, ranked in run.items():
        for rank, (doc, score) in enumerate(ranked, start=1):
            lines.append(f"{qid} Q0 {doc} {rank} {score:.6f} {tag}\n")
    return "".join(lines)


def write_trec_run(path: str | os.PathLike, run: Run, tag: str) -> None:
    atomic_write_text(path, render_trec_run(run, tag))


def parse_trec_run(text: str, *, path: str = "<string>") -> dict[str, list[tuple[str, float]]]:
    """Parse run text; a malformed line raises DataError naming the line and the field."""
    rows: dict[str, list[tuple[float, int, int, str]]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 6:
            raise DataError(f"expected 6 columns 'qid Q0 docid rank score tag', got {len(parts)}: {line.strip()!r}",
                            path=path, line=lineno)
        qid, _, doc, rank, score, _tag = parts
        try:
            r = int(rank)
        except ValueError:
            raise DataError(f"rank {rank!r} is not an integer", path=path, line=lineno, field="rank") from None
        try:
            s = float(score)
        except ValueError:
            raise DataError(f"score {score!r} is not a number", path=path, line=lineno, field="score") from None
        if math.isnan(s):  # NaN has no place in a ranking (it compares false with everything)
            raise DataError(f"score {score!r} is not a number", path=path, line=lineno, field="score")
        rows.setdefault(qid, []).append((-s, r, lineno, doc))
    out: dict[str, list[tuple[str, float]]] = {}
    for qid, items in rows.items():
        items.sort()
        seen: set[str] = set()
        ranked = []
        for neg, _r, lineno, doc in items:
            if doc in seen:
                raise DataError(f"document {doc!r} appears twice for query {qid!r}", path=path, line=lineno)
            seen.add(doc)
            ranked.append((doc, -neg))
        out[qid] = ranked
    return out


def read_trec_run(path: str | os.PathLike) -> dict[str, list[tuple[str, float]]]:
    p = Path(path)
    if not p.exists():
        raise DataError("run file not found", path=str(p))
    return parse_trec_run(p.read_text(encoding="utf-8"), path=str(p))


def parse_json_run(obj, *, path: str = "<json>") -> dict[str, list[tuple[str, float]]]:
    """A JSON ranking: ``{qid: {doc: score}}`` (score descending, ties by doc id) or ``{qid: [doc, ...]}`` (list
    order; scores n, n−1, …)."""
    if not isinstance(obj, dict):
        raise DataError("expected a JSON object {query id: {doc id: score}} or {query id: [doc ids]}", path=path)
    out: dict[str, list[tuple[str, float]]] = {}
    for qid, ranked in obj.items():
        if isinstance(ranked, dict):
            try:
                items = [(str(d), float(s)) for d, s in ranked.items()]
            except (TypeError, ValueError):
                raise DataError(f"query {qid!r}: scores must be numbers", path=path) from None
            out[str(qid)] = sorted(items, key=lambda x: (-x[1], x[0]))
        elif isinstance(ranked, list):
            out[str(qid)] = [(str(d), float(len(ranked) - i)) for i, d in enumerate(ranked)]
        else:
            raise DataError(f"query {qid!r}: expected an object of scores or a list of doc ids", path=path)
    return out


def read_run(path: str | os.PathLike) -> dict[str, list[tuple[str, float]]]:
    """A TREC run, or a JSON ranking (file ending in ``.json``, see :func:`parse_json_run`)."""
    import json

    p = Path(path)
    if p.suffix.lower() != ".json":
        return read_trec_run(p)
    if not p.exists():
        raise DataError("run file not found", path=str(p))
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DataError(f"not valid JSON ({e})", path=str(p)) from None
    return parse_json_run(obj, path=str(p))
