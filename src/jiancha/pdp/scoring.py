"""Score run directories: parse every record, compute metrics, write metrics.json / report.md / plots.

Entry points for other modules:

- ``score_run_dirs(dirs, compat=..., write=...)`` → ``{"pooled", "per_run", "mean_se"}`` (the reference evaluation's key names).
- ``score_items(items, compat=...)`` → ``ScoreResult`` (the same dict plus per-record columns for reports), for
  callers that hold predictions in memory (``ScoreItem`` from ``jiancha.pdp.rundir``).
- ``load_run_dirs(dirs)`` → items and manifests (both directory formats).

Default mode on top of the reference computation: predicted and gold articles normalised to canonical strings,
gold CPL citations in 2012 numbering mapped to 2018 (``jiancha.law.cpl``), both-empty records left out of the
article mean, article-level partial credit (``articles_article_level_*``), invalid and truncation rates, reason
counts, failed requests as invalid predictions (reason ``request_failed``, counted separately), confusion
matrices with an INVALID column, case-bootstrap 95% CIs and breakdowns by year / province / charge.
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jiancha.errors import ConfigError, DataError, ParseError
from jiancha.pdp import metrics as M
from jiancha.pdp.parsing import REQUEST_FAILED, ParsedAnswer, check_compat, parse_answer
from jiancha.pdp.reference_results import (
    METRICS_MD,
    is_reference_dir,
    read_reference_dir,
    read_reference_metrics_md,
)
from jiancha.pdp.rundir import ScoreItem, is_project_dir, read_manifest, read_project_dir, settings_of

DEFAULT_BOOTSTRAP = 1000
DEFAULT_SEED = 0
#: Settings that may differ between directories scored together (independent repeats).
MERGEABLE_SETTINGS = ("seed", "repeats", "run_id", "run_ids", "limit")


@dataclass(frozen=True)
class ScoreResult:
    """Metrics plus the per-record columns reports need (worst confusions with case ids)."""

    result: dict[str, Any]
    compat: str
    case_ids: tuple[str, ...]
    run_ids: tuple[str, ...]
    gold: np.ndarray
    pred: np.ndarray
    reasons: tuple[str | None, ...]
    manifests: tuple[dict | None, ...] = ()
    sources: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)


# --- article normalisation (default mode) ----------------------------------------------------------------------

@functools.lru_cache(maxsize=200_000)
def _canonical_of(s: str) -> str:
    """Canonical string of one citation string, or the stripped string itself when it cannot be read."""
    from jiancha.law.articles import normalize_article_string, parse_canonical

    try:
        return parse_canonical(s).canonical()
    except ParseError:
        c = normalize_article_string(s)
        return c if c is not None else s.strip()


@functools.lru_cache(maxsize=200_000)
def normalise_gold_articles(articles: tuple[str, ...], date: str | None) -> tuple[str, ...]:
    """Gold citations as canonical strings in 2018 CPL numbering (documents citing 2012 numbers are mapped)."""
    from jiancha.law.articles import canonical_sort, parse_canonical
    from jiancha.law.cpl import NUMBERING_2012, detect_numbering, to_2018

    refs, other = [], []
    for s in articles:
        c = _canonical_of(s)
        try:
            refs.append(parse_canonical(c))
        except ParseError:
            other.append(c)
    try:
        numbering = detect_numbering(date, refs)
    except (ParseError, ValueError):
        numbering = detect_numbering(None, refs)
    if numbering == NUMBERING_2012:
        mapped = []
        for r in refs:
            try:
                mapped.append(to_2018(r))
            except ParseError:
                mapped.append(r)
        refs = mapped
    return tuple(canonical_sort([r.canonical() for r in refs] + other))


def normalise_pred_articles(articles: tuple[str, ...]) -> tuple[str, ...]:
    from jiancha.law.articles import canonical_sort

    return tuple(canonical_sort([_canonical_of(s) for s in articles]))


@functools.lru_cache(maxsize=200_000)
def article_level(s: str) -> str:
    """``cpl:第一百七十七条第二款`` → ``cpl:第一百七十七条`` (non-canonical strings unchanged)."""
    from jiancha.law.articles import parse_canonical

    try:
        return parse_canonical(s).article_level().canonical()
    except ParseError:
        return s


@functools.lru_cache(maxsize=200_000)
def article_levels(articles: tuple[str, ...]) -> frozenset[str]:
    """The set of article-level strings of citations (paragraph and item dropped)."""
    return frozenset(article_level(a) for a in articles)


# --- parsing ---------------------------------------------------------------------------------------------------

def parse_item(item: ScoreItem, compat: str) -> ParsedAnswer:
    """The prediction of one item: failed requests are invalid (``request_failed``); reference result entries
    keep their stored prediction in reference mode and are re-parsed from ``raw_output`` in default mode."""
    if item.failed:
        return ParsedAnswer(None, (), False, REQUEST_FAILED)
    if compat == "reference":
        if item.stored is not None:
            return item.stored
        return parse_answer(item.raw_output, compat="reference", finish_reason=item.finish_reason)
    if item.raw_output is not None or item.stored is None:
        return parse_answer(item.raw_output, compat="default", finish_reason=item.finish_reason)
    return ParsedAnswer(item.stored.decision, normalise_pred_articles(item.stored.relevant_articles),
                        item.stored.valid, item.stored.reason)


# --- scoring ---------------------------------------------------------------------------------------------------

def _year(date: str | None) -> str | None:
    if not date or len(date) < 4 or not date[:4].isdigit():
        return None
    return date[:4]


def _rate(a: float, b: float) -> float:
    return float(a) / float(b) if b else 0.0


def _default_extras(sel: np.ndarray, gold: np.ndarray, pred: np.ndarray, level_scores: np.ndarray,
                    exact_scores: np.ndarray, truncated: np.ndarray, failed: np.ndarray,
                    reasons: list[str | None], block: dict) -> dict[str, Any]:
    n_records = int(sel.sum())
    eval_mask = sel & (gold >= 0)
    s2 = M.scores_from_confusion(M.confusion(gold[sel], pred[sel], M.K2)[0])
    s1 = M.scores_from_confusion(M.confusion(M.to_level1(gold[sel]), M.to_level1(pred[sel]), M.K1)[0])
    supported2 = s2["support"] > 0
    supported1 = s1["support"] > 0
    lv = level_scores[sel]
    ok = ~np.isnan(lv[:, 2])
    reason_counts = Counter(reasons[i] for i in np.flatnonzero(sel) if reasons[i])
    return {
        "invalid_rate": _rate(block["decision_parse_fail_count"], block["decision_eval_count"]),
        "truncation_rate": _rate(int(truncated[sel].sum()), n_records),
        "truncated_count": int(truncated[sel].sum()),
        "request_failed_count": int(failed[sel].sum()),
        "invalid_reasons": dict(sorted(reason_counts.items())),
        "decision_level1_macro_f1_supported": float(s1["f1"][supported1].mean()) if supported1.any() else 0.0,
        "decision_level2_macro_f1_supported": float(s2["f1"][supported2].mean()) if supported2.any() else 0.0,
        "articles_article_level_precision": float(lv[ok, 0].mean()) if ok.any() else 0.0,
        "articles_article_level_recall": float(lv[ok, 1].mean()) if ok.any() else 0.0,
        "articles_article_level_f1": float(lv[ok, 2].mean()) if ok.any() else 0.0,
        "articles_scored_count": int((~np.isnan(exact_scores[sel, 2])).sum()),
        "articles_both_empty_count": int(np.isnan(exact_scores[sel, 2]).sum()),
        "n_records": n_records,
        "n_eval": int(eval_mask.sum()),
    }


def score_items(items: list[ScoreItem], *, compat: str = "default", n_boot: int = DEFAULT_BOOTSTRAP,
                seed: int = DEFAULT_SEED) -> ScoreResult:
    """Parse and score items (one record per (case, run)). Pure: no I/O.

    Items are scored in a fixed order, run id (numbers numerically) then case id, whatever order they come in
    (a run directory stores records in completion order), so that sums, bootstrap resamples and the case ids
    listed in reports are the same for the same predictions."""
    check_compat(compat)
    if not items:
        raise DataError("nothing to score: no prediction records")
    items = sorted(items, key=lambda it: (M.natural_key(it.run_id), it.case_id))
    parsed = [parse_item(it, compat) for it in items]
    gold = M.encode_labels(it.gold_decision for it in items)
    pred = M.encode_labels(p.decision for p in parsed)
    run_ids = [it.run_id for it in items]
    reasons = [p.reason for p in parsed]
    if compat == "reference":
        arts = M.article_scores([p.relevant_articles for p in parsed], [it.gold_articles for it in items],
                                both_empty=1.0)
        result = M.compute_runs(gold, pred, arts, run_ids)
        return ScoreResult(result, compat, tuple(it.case_id for it in items), tuple(run_ids), gold, pred,
                           tuple(reasons))

    gold_arts = [normalise_gold_articles(it.gold_articles, it.date) for it in items]
    pred_arts = [p.relevant_articles for p in parsed]
    arts = M.article_scores(pred_arts, gold_arts, both_empty=math.nan)
    lvl = M.article_scores([article_levels(x) for x in pred_arts], [article_levels(x) for x in gold_arts],
                           both_empty=math.nan)
    truncated = np.fromiter((it.finish_reason == "length" for it in items), dtype=bool, count=len(items))
    failed = np.fromiter((it.failed for it in items), dtype=bool, count=len(items))
    result = M.compute_runs(gold, pred, arts, run_ids)
    codes, runs = M.group_codes(run_ids)
    for i, run in enumerate(runs):
        block = result["per_run"][str(run)]
        block.update(_default_extras(codes == i, gold, pred, lvl, arts, truncated, failed, reasons, block))
    everything = np.ones(len(items), dtype=bool)
    pooled = result["pooled"]
    pooled.update(_default_extras(everything, gold, pred, lvl, arts, truncated, failed, reasons, pooled))
    case_codes, cases = M.group_codes([it.case_id for it in items])
    pooled["n_cases"] = len(cases)
    pooled["n_runs"] = len(runs)
    pooled["confusion_level2"] = M.confusion_table(gold, pred, 2)
    pooled["confusion_level1"] = M.confusion_table(gold, pred, 1)
    pooled["ci95"] = M.bootstrap_ci(gold, pred, arts[:, 2], case_codes, n_boot=n_boot, seed=seed)
    pooled["bootstrap"] = {"n_boot": n_boot, "seed": seed, "unit": "case", "method": "percentile"}
    breakdowns = {"year": M.breakdown(gold, pred, [_year(it.date) for it in items]),
                  "province": M.breakdown(gold, pred, [it.province for it in items])}
    if any(it.charges for it in items):
        rep = [i for i, it in enumerate(items) for _ in it.charges]
        keys = [c for it in items for c in it.charges]
        idx = np.asarray(rep, dtype=np.int64)
        breakdowns["charge"] = M.breakdown(gold[idx], pred[idx], keys)
    pooled["breakdowns"] = {k: v for k, v in breakdowns.items() if v}
    result["mean_se"] = M.compute_mean_se(result["per_run"], extended=True)
    return ScoreResult(result, compat, tuple(it.case_id for it in items), tuple(run_ids), gold, pred,
                       tuple(reasons))


# --- directories -----------------------------------------------------------------------------------------------

def load_run_dir(run_dir: str | Path) -> tuple[list[ScoreItem], dict | None, str]:
    """Items, manifest (None for reference dirs) and format (``project`` / ``reference``) of one directory."""
    p = Path(run_dir)
    if not p.is_dir():
        raise ConfigError(f"run directory {str(p)!r} does not exist; pass a directory made by 'jiancha pdp eval' "
                          "or a reference result directory with details_*.json files")
    if is_project_dir(p):
        return read_project_dir(p), read_manifest(p), "project"
    if is_reference_dir(p):
        return read_reference_dir(p), None, "reference"
    raise ConfigError(f"{str(p)!r} is not a run directory: it has neither records.jsonl (this project) nor "
                      "details_*.json files (reference implementation)")


def check_mergeable(manifests: list[dict | None], dirs: list[str]) -> None:
    """Refuse to pool directories whose settings differ (other than seeds / repeat counts)."""
    flat = [(d, {k: v for k, v in settings_of(m).items()
                 if not any(part in MERGEABLE_SETTINGS for part in k.split("."))})
            for d, m in zip(dirs, manifests) if m]
    if len(flat) < 2:
        return
    d0, s0 = flat[0]
    for d, s in flat[1:]:
        diff = sorted(k for k in set(s0) | set(s) if s0.get(k, "<absent>") != s.get(k, "<absent>"))
        if diff:
            lines = "; ".join(f"{k}: {s0.get(k, '<absent>')!r} vs {s.get(k, '<absent>')!r}" for k in diff[:8])
            raise ConfigError(f"refusing to pool {d0} and {d}: their settings differ ({lines}); score them "
                              "separately, or compare them with 'jiancha pdp compare'")


def load_run_dirs(run_dirs: list[str | Path]) -> tuple[list[ScoreItem], list[dict | None], list[str],
                                                      dict[str, Any] | None]:
    """Items of all directories, pooled, their manifests and formats, and their ``completeness``. When two
    directories use the same run ids, run ids are prefixed with the directory's position (``1:0``) so that their
    repeats stay separate."""
    loaded = [load_run_dir(d) for d in run_dirs]
    manifests = [m for _, m, _ in loaded]
    check_mergeable(manifests, [str(d) for d in run_dirs])
    run_sets = [{it.run_id for it in items} for items, _, _ in loaded]
    clash = len(run_sets) > 1 and sum(len(s) for s in run_sets) != len(set().union(*run_sets))
    items: list[ScoreItem] = []
    for k, (its, _, _) in enumerate(loaded):
        if clash:
            from dataclasses import replace

            its = [replace(it, run_id=f"{k}:{it.run_id}") for it in its]
        items.extend(its)
    return items, manifests, [fmt for _, _, fmt in loaded], completeness(loaded, [str(d) for d in run_dirs])


def planned_requests(manifest: dict | None) -> int | None:
    """Requests a run directory was asked for: cases in scope × repeats (None when the manifest does not say)."""
    if not isinstance(manifest, dict):
        return None
    n = (manifest.get("data") or {}).get("n_cases")
    repeats = (manifest.get("spec") or {}).get("repeats")
    return n * repeats if isinstance(n, int) and isinstance(repeats, int) else None


def completeness(loaded: list[tuple[list[ScoreItem], dict | None, str]], dirs: list[str]) -> dict[str, Any] | None:
    """``{planned, stored, missing, per_dir, same_cases}`` of the directories scored together: an interrupted run
    (14 of 60 requests stored) must never read as a finished one, and directories pooled over different case
    sets are named. None when no manifest says what was planned (reference result directories)."""
    per_dir = []
    for d, (items, manifest, _) in zip(dirs, loaded):
        planned = planned_requests(manifest)
        per_dir.append({"dir": d, "planned": planned, "stored": len(items),
                        "missing": max(0, planned - len(items)) if planned is not None else None})
    if all(p["planned"] is None for p in per_dir):
        return None
    planned = sum(p["planned"] if p["planned"] is not None else p["stored"] for p in per_dir)
    stored = sum(p["stored"] for p in per_dir)
    case_sets = [frozenset(it.case_id for it in items) for items, _, _ in loaded]
    return {"planned": planned, "stored": stored, "missing": max(0, planned - stored), "per_dir": per_dir,
            "same_cases": len(set(case_sets)) <= 1}


def completeness_warnings(result: dict[str, Any]) -> list[str]:
    """Plain sentences for people about missing requests and pooled directories that cover different cases."""
    c = (result.get("pooled") or {}).get("completeness")
    if not c:
        return []
    out = [f"{p['dir']}: {p['missing']} of {p['planned']} planned requests are missing (an interrupted or "
           "partial run; resume it with the same 'jiancha pdp eval' command)"
           for p in c["per_dir"] if p.get("missing")]
    if not c["same_cases"]:
        sizes = ", ".join(f"{p['dir']} {p['stored']}" for p in c["per_dir"])
        out.append(f"the pooled directories do not cover the same cases ({sizes} records): their repeats are not "
                   "comparable samples of one evaluation")
    return out


def score_run_dirs(run_dirs: list[str | Path], *, compat: str = "default", write: bool = True,
                   n_boot: int = DEFAULT_BOOTSTRAP, seed: int = DEFAULT_SEED, out_dir: str | Path | None = None,
                   ) -> dict:
    """Score one or more run directories (this project's format or the reference ``details_*.json`` format).

    Returns ``{"pooled": {...}, "per_run": {run_id: {...}}, "mean_se": {metric: {"mean", "se"}}}``
    (key names as the reference evaluation writes them). With ``write``, writes metrics.json, report.md and PNG plots into
    the run directory when a single project directory is scored (reference-mode files are named
    ``metrics.reference.json`` / ``report.reference.md``), and into ``out_dir`` when given.
    """
    scored = score_run_dirs_full(run_dirs, compat=compat, n_boot=n_boot, seed=seed)
    if write:
        from jiancha.pdp.reports import write_reports

        for t in report_targets(run_dirs, out_dir):
            write_reports(t, scored)
    return scored.result


def report_targets(run_dirs: list[str | Path], out_dir: str | Path | None = None) -> list[Path]:
    """Where reports go: ``out_dir`` when given, else the run directory when a single project directory is
    scored, else nowhere (pooled scores of several directories belong to no one directory)."""
    if out_dir is not None:
        return [Path(out_dir)]
    if len(run_dirs) == 1 and is_project_dir(run_dirs[0]):
        return [Path(run_dirs[0])]
    return []


def score_run_dirs_full(run_dirs: list[str | Path], *, compat: str = "default", n_boot: int = DEFAULT_BOOTSTRAP,
                        seed: int = DEFAULT_SEED) -> ScoreResult:
    """Like ``score_run_dirs`` but returns the ``ScoreResult`` (for reports and ``compare``); writes nothing."""
    check_compat(compat)
    if not run_dirs:
        raise ConfigError("no run directory given; pass at least one DIR")
    items, manifests, formats, complete = load_run_dirs(run_dirs)
    sr = score_items(items, compat=compat, n_boot=n_boot, seed=seed)
    if complete is not None:
        sr.result["pooled"]["completeness"] = complete
    from jiancha._util.provenance import environment_info

    meta = {"compat": compat, "run_dirs": [str(d) for d in run_dirs], "formats": formats,
            "scored_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "environment": environment_info()}
    published = {str(d): read_reference_metrics_md(Path(d) / METRICS_MD)
                 for d, f in zip(run_dirs, formats) if f == "reference" and (Path(d) / METRICS_MD).is_file()}
    if published:
        meta["reference_metrics_md"] = published
    return ScoreResult(sr.result, compat, sr.case_ids, sr.run_ids, sr.gold, sr.pred, sr.reasons,
                       tuple(manifests), tuple(str(d) for d in run_dirs), meta)
