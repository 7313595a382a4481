"""Multi-label charge-prediction metrics (pure functions)."""

from __future__ import annotations

from collections.abc import Sequence


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def compute_charge_metrics(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str] | None],
                           labels: Sequence[str] | None = None) -> dict:
    """Per-label one-vs-rest counts over sets of charges; ``pred`` None is an invalid answer (an empty set).

    - ``macro_f1``: the mean F1 over labels with gold support > 0 (labels nobody has are left out, as in the
      paper's CAIL Macro-F1); ``macro_precision``/``macro_recall`` likewise.
    - ``micro_precision/recall/f1``: from summed tp, fp, fn.
    - ``exact_match``: share of cases whose predicted set equals the gold set.
    ``labels`` fixes the label universe (default: every label in gold or pred), sorted for determinism.
    """
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} cases but pred has {len(pred)}")
    gold_sets = [set(g) for g in gold]
    pred_sets = [set(p) if p is not None else set() for p in pred]
    universe = sorted(set(labels) if labels is not None else set().union(*gold_sets, *pred_sets))
    counts = {lab: [0, 0, 0] for lab in universe}   # tp, fp, fn
    for g, p in zip(gold_sets, pred_sets):
        for lab in g | p:
            c = counts.setdefault(lab, [0, 0, 0])
            if lab in g and lab in p:
                c[0] += 1
            elif lab in p:
                c[1] += 1
            else:
                c[2] += 1
    per_label = {}
    for lab, (tp, fp, fn) in sorted(counts.items()):
        p, r, f = _prf(tp, fp, fn)
        per_label[lab] = {"precision": p, "recall": r, "f1": f, "support": tp + fn, "tp": tp, "fp": fp, "fn": fn}
    supported = [m for m in per_label.values() if m["support"] > 0]
    n_sup = len(supported)
    tp, fp, fn = (sum(c[i] for c in counts.values()) for i in range(3))
    mp, mr, mf = _prf(tp, fp, fn)
    n = len(gold_sets)
    return {
        "n": n,
        "invalid": sum(p is None for p in pred),
        "labels_with_support": n_sup,
        "macro_precision": sum(m["precision"] for m in supported) / n_sup if n_sup else 0.0,
        "macro_recall": sum(m["recall"] for m in supported) / n_sup if n_sup else 0.0,
        "macro_f1": sum(m["f1"] for m in supported) / n_sup if n_sup else 0.0,
        "micro_precision": mp, "micro_recall": mr, "micro_f1": mf,
        "exact_match": sum(g == p for g, p in zip(gold_sets, pred_sets)) / n if n else 0.0,
        "per_label": per_label,
    }
