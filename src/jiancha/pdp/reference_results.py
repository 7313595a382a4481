"""The reference implementation's result directories (as the published evaluation code writes them): ``details_<group>.json`` + ``metrics.md``.

A ``details_<group>.json`` file is a JSON list (UTF-8); groups are ``正确`` (correct), ``解析错误`` (invalid
prediction), ``参考标签解析错误`` (invalid gold) and ``<gold>_<pred>`` for each kind of error. An entry holds
``prediction`` and ``reference`` (each ``{relevant_articles, decision}``), the three input fields, ``raw_output``,
``raw_reasoning``, and either ``index`` (one run) or ``sample_index`` + ``run_id``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from jiancha._util.io import write_json
from jiancha.errors import DataError
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp.format import normalise_reference_decision
from jiancha.pdp.parsing import ParsedAnswer
from jiancha.pdp.rundir import ScoreItem

DETAILS_GLOB = "details_*.json"
METRICS_MD = "metrics.md"
GROUP_CORRECT = "正确"
GROUP_INVALID_PREDICTION = "解析错误"
GROUP_INVALID_REFERENCE = "参考标签解析错误"


def is_reference_dir(path: str | os.PathLike) -> bool:
    p = Path(path)
    return p.is_dir() and any(p.glob(DETAILS_GLOB))


def group_of(gold: str | None, pred: str | None) -> str:
    """The details group of one entry, as the reference names it."""
    if gold not in LEVEL2_LABELS:
        return GROUP_INVALID_REFERENCE
    if pred not in LEVEL2_LABELS:
        return GROUP_INVALID_PREDICTION
    return GROUP_CORRECT if gold == pred else f"{gold}_{pred}"


def _side(entry: dict, name: str, path: Path, i: int) -> tuple[str | None, tuple[str, ...]]:
    """One side of an entry. A stored prediction is compared as the reference compares it (normalised first:
    ``**起诉**`` and ``相对不起诉。`` are valid); the gold side is taken as stored."""
    side = entry.get(name)
    if side is None:
        return None, ()
    if not isinstance(side, dict):
        raise DataError(f"entry {i}: expected an object {{relevant_articles, decision}}, got {type(side).__name__}",
                        path=str(path), field=name)
    arts = side.get("relevant_articles") or []
    if not isinstance(arts, list) or not all(isinstance(a, str) for a in arts):
        raise DataError(f"entry {i}: relevant_articles must be a list of strings", path=str(path),
                        field=f"{name}.relevant_articles")
    dec = side.get("decision")
    if isinstance(dec, str) and name == "prediction":
        dec = normalise_reference_decision(dec)
    return (dec if isinstance(dec, str) else None), tuple(arts)


def read_reference_dir(run_dir: str | os.PathLike) -> list[ScoreItem]:
    """Every entry of every ``details_*.json`` as a ScoreItem (case id = ``sample_index``/``index``), sorted by
    (run, case). A (case, run) pair found twice is an error."""
    root = Path(run_dir)
    files = sorted(root.glob(DETAILS_GLOB))
    if not files:
        raise DataError(f"no {DETAILS_GLOB} files; is this a reference result directory?", path=str(root))
    seen: dict[tuple[str, str], Path] = {}
    items: list[ScoreItem] = []
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid JSON ({exc.msg})", path=str(path), line=exc.lineno) from None
        if not isinstance(data, list):
            raise DataError(f"expected a JSON list of entries, got {type(data).__name__}", path=str(path))
        for i, entry in enumerate(data):
            if not isinstance(entry, dict):
                raise DataError(f"entry {i}: expected an object, got {type(entry).__name__}", path=str(path))
            if "sample_index" in entry:
                case, run = entry["sample_index"], entry.get("run_id", 0)
            elif "index" in entry:
                case, run = entry["index"], 0
            else:
                raise DataError(f"entry {i}: needs 'index' or 'sample_index' (+ 'run_id')", path=str(path),
                                field="index")
            key = (str(case), str(run))
            if key in seen:
                raise DataError(f"entry {i}: sample {key[0]} run {key[1]} also appears in {seen[key].name}",
                                path=str(path))
            seen[key] = path
            gold, gold_arts = _side(entry, "reference", path, i)
            pred, pred_arts = _side(entry, "prediction", path, i)
            raw = entry.get("raw_output")
            items.append(ScoreItem(
                case_id=key[0], run_id=key[1], raw_output=raw if isinstance(raw, str) else None,
                gold_decision=gold, gold_articles=gold_arts,
                stored=ParsedAnswer(pred if pred in LEVEL2_LABELS else None, pred_arts, pred in LEVEL2_LABELS,
                                    None if pred in LEVEL2_LABELS else "unknown_label")))

    def order(it: ScoreItem) -> tuple:
        return tuple((0, int(x)) if x.lstrip("-").isdigit() else (1, x) for x in (it.run_id, it.case_id))

    return sorted(items, key=order)


_MD_ROW = re.compile(r"^\s*(?:[-*+]\s+)?\|?\s*\**([^|:*]+?)\**\s*[|:：]\s*\**([-+]?\d+(?:\.\d+)?)\s*(?:±\s*([-+]?\d+(?:\.\d+)?))?")


def read_reference_metrics_md(path: str | os.PathLike) -> dict[str, float]:
    """Best-effort reading of a reference ``metrics.md``: every ``name: number`` / ``| name | number |`` line
    (``mean ± se`` keeps the mean). Used to show the published figures next to the re-scored ones."""
    out: dict[str, float] = {}
    p = Path(path)
    if not p.is_file():
        return out
    for line in p.read_text(encoding="utf-8").splitlines():
        m = _MD_ROW.match(line)
        if m and not set(m.group(1).strip()) <= set("-"):
            out.setdefault(m.group(1).strip(), float(m.group(2)))
    return out


def write_reference_dir(run_dir: str | os.PathLike, entries: list[dict[str, Any]]) -> list[Path]:
    """Write entries (with ``prediction``/``reference``) into ``details_<group>.json`` files, grouped as the
    reference does. For fixtures and for exporting a run to users of the original code."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        g = group_of((e.get("reference") or {}).get("decision"), (e.get("prediction") or {}).get("decision"))
        groups.setdefault(g, []).append(e)
    paths = []
    for g, es in groups.items():
        p = Path(run_dir) / f"details_{g}.json"
        write_json(p, es)
        paths.append(p)
    return paths
