"""PDP metrics as pure, vectorised functions on label arrays (the reference evaluation's conventions, stated below).

Labels are integer codes: Level 2 ``0..3`` in ``LEVEL2_LABELS`` order (P, DNP, SNP, IENP), Level 1 ``0`` = 起诉,
``1`` = 不起诉; ``-1`` (``INVALID``) is an invalid prediction or an invalid gold label.

Conventions (the reference's, reproduced exactly):

- Per class, one-vs-rest over records with a valid gold label: tp, fp = predicted c but gold not c, fn = gold c
  but not predicted c (invalid predictions included); P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2PR/(P+R), 0 for a
  zero denominator. An invalid prediction is never a false positive.
- Macro-F1: plain mean over *all* classes of the level, including classes without gold support (F1 0).
- Micro: P = correct/N_valid_pred, R = correct/N (= accuracy), F1 = 2PR/(P+R) = 2·correct/(N+N_valid_pred).
- Records with an invalid gold label are skipped for decisions (counted in ``reference_parse_fail_count``).
- Articles: per record on sets, P = tp/|pred|, R = tp/|gold|, F1 = 2PR/(P+R); both empty → 1,1,1 (reference)
  or excluded from the mean (default mode, NaN); one side empty → 0,0,0; unweighted mean over records.
- Repeats: metrics per run; mean and SE = sample std (ddof 1) / √runs; SE 0 for one run.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from jiancha.evaluation.stats import mean_se
from jiancha.law.labels import LEVEL1_LABELS, LEVEL2_LABELS

INVALID = -1
K2 = len(LEVEL2_LABELS)
K1 = len(LEVEL1_LABELS)
#: Level-2 code → Level-1 code.
L2_TO_L1 = np.array([0] + [1] * (K2 - 1), dtype=np.int64)
_L2_INDEX = {label: i for i, label in enumerate(LEVEL2_LABELS)}
INVALID_COLUMN = "INVALID"


def encode_labels(labels: Iterable[str | None]) -> np.ndarray:
    """Level-2 codes of label strings; anything that is not exactly one of the four labels is ``INVALID``."""
    get = _L2_INDEX.get
    return np.fromiter((get(x, INVALID) if isinstance(x, str) else INVALID for x in labels), dtype=np.int64)


def to_level1(codes: np.ndarray) -> np.ndarray:
    """Level-1 codes of Level-2 codes; invalid stays invalid."""
    codes = np.asarray(codes, dtype=np.int64)
    return np.where(codes >= 0, L2_TO_L1[np.clip(codes, 0, None)], INVALID)


def confusion(gold: np.ndarray, pred: np.ndarray, k: int, groups: np.ndarray | None = None,
              n_groups: int = 1) -> np.ndarray:
    """Counts ``[group, gold, pred]`` of shape (n_groups, k, k+1); the last column is INVALID predictions.

    Records with an invalid gold label are left out."""
    gold = np.asarray(gold, dtype=np.int64)
    pred = np.asarray(pred, dtype=np.int64)
    g = np.zeros(gold.shape, dtype=np.int64) if groups is None else np.asarray(groups, dtype=np.int64)
    keep = gold >= 0
    col = np.where(pred >= 0, pred, k)
    flat = (g[keep] * k + gold[keep]) * (k + 1) + col[keep]
    return np.bincount(flat, minlength=n_groups * k * (k + 1)).reshape(n_groups, k, k + 1)


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.zeros(np.broadcast(a, b).shape, dtype=np.float64)
    np.divide(a, b, out=out, where=b != 0)
    return out


def _f1(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    return _div(2 * p * r, p + r)


def scores_from_confusion(cm: np.ndarray) -> dict[str, np.ndarray]:
    """Per-class and summary scores of confusion matrices ``(..., k, k+1)``, vectorised over leading axes.

    Keys: ``precision``, ``recall``, ``f1``, ``support`` (..., k); ``macro_f1``, ``micro_precision``,
    ``micro_recall``, ``micro_f1``, ``accuracy``, ``n``, ``n_valid``, ``n_invalid``, ``correct`` (...).
    """
    cm = np.asarray(cm)
    k = cm.shape[-2]
    tp = np.diagonal(cm[..., :k], axis1=-2, axis2=-1).astype(np.float64)
    support = cm.sum(axis=-1).astype(np.float64)
    predicted = cm[..., :, :k].sum(axis=-2).astype(np.float64)
    p = _div(tp, predicted)
    r = _div(tp, support)
    f1 = _f1(p, r)
    correct = tp.sum(axis=-1)
    n = support.sum(axis=-1)
    n_valid = predicted.sum(axis=-1)
    mp, mr = _div(correct, n_valid), _div(correct, n)
    return {"precision": p, "recall": r, "f1": f1, "support": support, "macro_f1": f1.mean(axis=-1),
            "micro_precision": mp, "micro_recall": mr, "micro_f1": _f1(mp, mr), "accuracy": _div(correct, n),
            "n": n, "n_valid": n_valid, "n_invalid": n - n_valid, "correct": correct}


def _per_class(s: dict[str, np.ndarray], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    return {lab: {"precision": float(s["precision"][i]), "recall": float(s["recall"][i]),
                  "f1": float(s["f1"][i]), "count": int(s["support"][i])} for i, lab in enumerate(labels)}


def _micro(s: dict[str, np.ndarray]) -> dict[str, float]:
    return {"precision": float(s["micro_precision"]), "recall": float(s["micro_recall"]),
            "f1": float(s["micro_f1"])}


def article_scores(pred: Sequence[Iterable[str]], gold: Sequence[Iterable[str]], *,
                   both_empty: float = 1.0) -> np.ndarray:
    """Per-record article (precision, recall, f1), shape (n, 3), on exact string sets.

    ``both_empty`` is the score of a record where both sets are empty (1.0 in the reference; NaN excludes it)."""
    out = np.empty((len(pred), 3), dtype=np.float64)
    for i, (ps, gs) in enumerate(zip(pred, gold)):
        ps, gs = set(ps), set(gs)
        if not ps and not gs:
            out[i] = both_empty
        elif not ps or not gs:
            out[i] = 0.0
        else:
            tp = len(ps & gs)
            p, r = tp / len(ps), tp / len(gs)
            out[i] = (p, r, 2 * p * r / (p + r) if tp else 0.0)
    return out


def _nanmean(x: np.ndarray) -> float:
    """Mean of the non-NaN values (0 when there are none), from the correctly rounded sum (``math.fsum``), so that
    the result does not depend on record order or on summation strategy."""
    x = np.asarray(x, dtype=np.float64)
    x = x[~np.isnan(x)]
    return math.fsum(x.tolist()) / x.size if x.size else 0.0


def _mean(values: np.ndarray) -> float:
    """Plain mean of a few values (macro averages), from the correctly rounded sum."""
    v = np.asarray(values, dtype=np.float64).tolist()
    return math.fsum(v) / len(v)


def compute_block(gold: np.ndarray, pred: np.ndarray, articles: np.ndarray) -> dict:
    """The reference evaluation's metric dictionary for one set of records (one run, or all runs pooled).

    ``gold``/``pred``: Level-2 codes; ``articles``: per-record (p, r, f1) rows, NaN rows left out of the mean.
    """
    gold = np.asarray(gold, dtype=np.int64)
    pred = np.asarray(pred, dtype=np.int64)
    s2 = scores_from_confusion(confusion(gold, pred, K2)[0])
    s1 = scores_from_confusion(confusion(to_level1(gold), to_level1(pred), K1)[0])
    articles = np.asarray(articles, dtype=np.float64).reshape(-1, 3)
    return {
        "articles_precision": _nanmean(articles[:, 0]),
        "articles_recall": _nanmean(articles[:, 1]),
        "articles_f1": _nanmean(articles[:, 2]),
        "decision_level1_accuracy": float(s1["accuracy"]),
        "decision_level2_accuracy": float(s2["accuracy"]),
        "level1_per_class": _per_class(s1, LEVEL1_LABELS),
        "decision_per_class": _per_class(s2, LEVEL2_LABELS),
        "decision_level1_macro_f1": _mean(s1["f1"]),
        "decision_level2_macro_f1": _mean(s2["f1"]),
        "decision_level1_micro": _micro(s1),
        "decision_level2_micro": _micro(s2),
        "decision_parse_fail_count": int(s2["n_invalid"]),
        "decision_eval_count": int(s2["n"]),
        "reference_parse_fail_count": int((gold < 0).sum()),
    }


#: Default-mode figures also reported as mean ± SE when a block has them.
EXTENDED_SUMMARY = ("decision_level1_accuracy", "decision_level2_accuracy", "invalid_rate", "truncation_rate",
                    "articles_article_level_f1", "decision_level2_macro_f1_supported")


def summary_metrics(block: dict, *, extended: bool = False) -> dict[str, float]:
    """The scalar metrics reported as mean ± SE over runs (names as in ``mean_se``): exactly the published set
    (macro/micro F1 of both levels, article F1, per-class F1) and, with ``extended``, ``EXTENDED_SUMMARY``."""
    out = {
        "level1_macro_f1": block["decision_level1_macro_f1"],
        "level1_micro_f1": block["decision_level1_micro"]["f1"],
        "level2_macro_f1": block["decision_level2_macro_f1"],
        "level2_micro_f1": block["decision_level2_micro"]["f1"],
        "articles_f1": block["articles_f1"],
    }
    for lab, v in block["level1_per_class"].items():
        out[f"level1_f1_{lab}"] = v["f1"]
    for lab, v in block["decision_per_class"].items():
        out[f"level2_f1_{lab}"] = v["f1"]
    if extended:
        out.update({name: block[name] for name in EXTENDED_SUMMARY if name in block})
    return out


def compute_mean_se(per_run: dict[str, dict], *, extended: bool = False) -> dict[str, dict[str, float]]:
    """``{metric: {"mean", "se"}}`` over the runs' blocks (metric names from ``summary_metrics``)."""
    rows = [summary_metrics(b, extended=extended) for b in per_run.values()]
    if not rows:
        return {}
    out = {}
    for name in rows[0]:
        m, se = mean_se([r[name] for r in rows])
        out[name] = {"mean": m, "se": se}
    return out


def natural_key(k) -> tuple:
    """Numbers (and digit strings) in numeric order before other keys: runs 0, 1, 2, 10 — not 0, 1, 10, 2."""
    if isinstance(k, int | np.integer) or (isinstance(k, str) and k.isdigit()):
        return (0, int(k), "")
    return (1, 0, str(k))



def group_codes(keys: Sequence) -> tuple[np.ndarray, list]:
    """Integer codes of ``keys`` and the sorted distinct keys (deterministic order)."""
    uniq = sorted(set(keys), key=natural_key)
    index = {k: i for i, k in enumerate(uniq)}
    return np.fromiter((index[k] for k in keys), dtype=np.int64, count=len(keys)), uniq


def compute_runs(gold: np.ndarray, pred: np.ndarray, articles: np.ndarray, run_ids: Sequence) -> dict:
    """``{"pooled", "per_run", "mean_se"}`` (reference computation); run ids become strings."""
    codes, runs = group_codes(list(run_ids))
    per_run = {}
    for i, run in enumerate(runs):
        sel = codes == i
        per_run[str(run)] = compute_block(gold[sel], pred[sel], articles[sel])
    return {"pooled": compute_block(gold, pred, articles), "per_run": per_run, "mean_se": compute_mean_se(per_run)}


# --- default-mode extras ---------------------------------------------------------------------------------------

def confusion_table(gold: np.ndarray, pred: np.ndarray, level: int = 2) -> dict:
    """``{"rows", "columns", "matrix"}`` with an INVALID column, for JSON and reports."""
    if level == 1:
        gold, pred, labels = to_level1(gold), to_level1(pred), LEVEL1_LABELS
    else:
        labels = LEVEL2_LABELS
    cm = confusion(gold, pred, len(labels))[0]
    return {"rows": list(labels), "columns": [*labels, INVALID_COLUMN], "matrix": cm.tolist()}


def bootstrap_ci(gold: np.ndarray, pred: np.ndarray, articles_f1: np.ndarray, case_codes: np.ndarray, *,
                 n_boot: int = 1000, seed: int = 0, alpha: float = 0.05,
                 chunk_cells: int = 2_000_000) -> dict[str, list[float]]:
    """Percentile (1-alpha) intervals of the pooled metrics, resampling *cases* with replacement (all runs of
    a drawn case come along). Vectorised: per-case confusion counts × bootstrap case weights, in chunks of
    resamples so that memory stays bounded (``chunk_cells`` weights at a time). NaN article scores are left out.
    """
    gold = np.asarray(gold, dtype=np.int64)
    pred = np.asarray(pred, dtype=np.int64)
    case_codes = np.asarray(case_codes, dtype=np.int64)
    n_cases = int(case_codes.max()) + 1 if case_codes.size else 0
    if n_cases == 0 or n_boot <= 0:
        return {}
    rng = np.random.default_rng(seed)
    levels = {1: (to_level1(gold), to_level1(pred), LEVEL1_LABELS), 2: (gold, pred, LEVEL2_LABELS)}
    per_case = {lvl: confusion(g, p, len(labels), groups=case_codes, n_groups=n_cases).reshape(n_cases, -1)
                .astype(np.float64) for lvl, (g, p, labels) in levels.items()}
    af = np.asarray(articles_f1, dtype=np.float64)
    ok = ~np.isnan(af)
    art_sums = np.bincount(case_codes[ok], weights=af[ok], minlength=n_cases)
    art_counts = np.bincount(case_codes[ok], minlength=n_cases).astype(np.float64)
    parts: dict[str, list[np.ndarray]] = defaultdict(list)
    step = max(1, chunk_cells // n_cases)
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        draws = rng.integers(0, n_cases, size=(b, n_cases))
        weights = np.bincount((draws + np.arange(b)[:, None] * n_cases).ravel(),
                              minlength=b * n_cases).reshape(b, n_cases).astype(np.float64)
        for lvl, (_, _, labels) in levels.items():
            k = len(labels)
            sc = scores_from_confusion((weights @ per_case[lvl]).reshape(b, k, k + 1))
            parts[f"level{lvl}_macro_f1"].append(sc["macro_f1"])
            parts[f"level{lvl}_micro_f1"].append(sc["micro_f1"])
            parts[f"decision_level{lvl}_accuracy"].append(sc["accuracy"])
            for i, lab in enumerate(labels):
                parts[f"level{lvl}_f1_{lab}"].append(sc["f1"][:, i])
        parts["articles_f1"].append(_div(weights @ art_sums, weights @ art_counts))
    lo, hi = 100 * alpha / 2, 100 * (1 - alpha / 2)
    out = {}
    for name, chunks in parts.items():
        v = np.concatenate(chunks)
        out[name] = [float(np.percentile(v, lo)), float(np.percentile(v, hi))]
    return out


def breakdown(gold: np.ndarray, pred: np.ndarray, keys: Sequence, *, min_count: int = 1) -> dict[str, dict]:
    """Decision metrics per group (year, province, charge…): ``{key: {n, level1_macro_f1, level2_macro_f1,
    level2_accuracy, invalid_rate, level2_f1_<label>…}}``. ``keys`` may hold None (record left out)."""
    idx = [i for i, k in enumerate(keys) if k is not None]
    if not idx:
        return {}
    sel = np.asarray(idx, dtype=np.int64)
    codes, uniq = group_codes([keys[i] for i in idx])
    g, p = np.asarray(gold)[sel], np.asarray(pred)[sel]
    s2 = scores_from_confusion(confusion(g, p, K2, groups=codes, n_groups=len(uniq)))
    s1 = scores_from_confusion(confusion(to_level1(g), to_level1(p), K1, groups=codes, n_groups=len(uniq)))
    out = {}
    for j, key in enumerate(uniq):
        n = int(s2["n"][j])
        if n < min_count:
            continue
        row = {"n": n, "level1_macro_f1": float(s1["macro_f1"][j]), "level2_macro_f1": float(s2["macro_f1"][j]),
               "level2_accuracy": float(s2["accuracy"][j]), "invalid_rate": float(_div(s2["n_invalid"][j], n))}
        for i, lab in enumerate(LEVEL2_LABELS):
            row[f"level2_f1_{lab}"] = float(s2["f1"][j, i])
        out[str(key)] = row
    return out
