"""What each results page shows, as plain data for the templates: leaderboard, run, case list, case, comparison of
two runs and retrieval run. Reads the runs folder through ``jiancha.web.runs`` only; renders nothing."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jiancha._util.dicts import flatten
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.law.statutes import Statutes
from jiancha.pdp import metrics as M
from jiancha.pdp import reports
from jiancha.pdp.compare import differing_settings
from jiancha.pdp.consult import analysis_section
from jiancha.pdp.rundir import settings_of
from jiancha.web.runs import (
    KIND_LJP,
    KIND_PDP,
    KIND_RETRIEVAL,
    METRICS_FILE,
    OUTCOMES,
    NotFoundError,
    RunCache,
    RunRef,
    discover_runs,
    inside,
    read_json_inside,
)

#: Rows of the case list per page (server); the exported site lists every row and filters in the browser.
PAGE_SIZE = 100
#: ``reasoning`` segments some models put inside the answer text.
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


def split_reasoning(raw: str | None, stored: str | None) -> tuple[str, str]:
    """(reasoning, answer) of a raw output: the record's separate ``reasoning`` field, or a leading
    ``<think>…</think>`` block of the answer text; the answer unchanged when there is neither."""
    raw = raw or ""
    if stored:
        return stored, raw
    start = raw.find(THINK_OPEN)
    end = raw.find(THINK_CLOSE)
    if start >= 0 and end > start:
        return raw[start + len(THINK_OPEN):end].strip(), (raw[:start] + raw[end + len(THINK_CLOSE):]).strip()
    return "", raw


def completeness_of(result: dict[str, Any], manifest: dict | None, n_records: int) -> dict[str, int] | None:
    """``{planned, stored, missing}`` of a run: the scorer's ``pooled.completeness`` when it has one, else the
    manifest's planned requests (cases in scope × repeats) against the records stored; None when nothing says what
    was planned (reference result directories)."""
    c = (result.get("pooled") or {}).get("completeness")
    if isinstance(c, dict) and all(isinstance(c.get(k), int) for k in ("planned", "stored", "missing")):
        return {k: c[k] for k in ("planned", "stored", "missing")}
    from jiancha.pdp.scoring import planned_requests

    planned = planned_requests(manifest)
    if planned is None:
        return None
    return {"planned": planned, "stored": n_records, "missing": max(0, planned - n_records)}


@dataclass(frozen=True)
class CaseFilter:
    """The case list's filters (empty string: no filter)."""

    gold: str = ""
    pred: str = ""
    outcome: str = ""
    charge: str = ""
    province: str = ""
    year: str = ""
    q: str = ""

    def active(self) -> dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if v}


@dataclass
class Explorer:
    """The runs folder and what it serves; one instance per app."""

    root: Path
    statutes: Statutes | None = None
    cache: RunCache = field(default_factory=RunCache)

    # --- runs ---------------------------------------------------------------------------------------------------
    def runs(self, kind: str | None = None) -> list[RunRef]:
        found = discover_runs(self.root)
        return [r for r in found if kind is None or r.kind == kind]

    def run(self, key: str, kind: str | None = None) -> RunRef:
        inside(self.root, key) if key != "." else None
        for r in self.runs(kind):
            if r.key == key:
                return r
        raise NotFoundError(f"no {kind + ' ' if kind else ''}run {key!r} under the runs folder")

    def warm(self, progress=None, *, workers: int = 1) -> None:
        """Index and score every PDP run now (``jiancha view`` does this before serving, with a progress bar).
        Indexes missing from the cache are built by ``workers`` processes (reading and parsing records is CPU
        work: one process a core)."""
        runs = self.runs(KIND_PDP)
        todo = self.cache.missing(runs) if workers > 1 else []
        if len(todo) > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            from jiancha.web.runs import RECORDS_FILE, build_record_index

            # spawn, not fork: this process may already run threads (a progress bar), which fork does not copy
            with ProcessPoolExecutor(max_workers=min(workers, len(todo)),
                                     mp_context=multiprocessing.get_context("spawn")) as pool:
                futures = {r.key: pool.submit(build_record_index, r.path / RECORDS_FILE) for r in todo}
                for r in todo:
                    self.cache.index(r, built=futures[r.key].result())
                    self.cache.scores(r)
                    if progress:
                        progress(r.key)
        done = {r.key for r in todo} if len(todo) > 1 else set()
        for r in runs:
            if r.key in done:
                continue
            self.cache.index(r)
            self.cache.scores(r)
            if progress:
                progress(r.key)

    # --- leaderboard --------------------------------------------------------------------------------------------
    def leaderboard(self) -> dict[str, Any]:
        pdp = self.runs(KIND_PDP)
        manifests = [r.manifest for r in pdp]
        diff = differing_settings(manifests) if len(pdp) > 1 else []
        headers, _ = reports.paper_table([])
        rows = []
        for r in pdp:
            result = self.cache.scores(r)
            _, body = reports.paper_table([(r.key, result)])
            pooled, idx = result["pooled"], self.cache.index(r)
            ci = pooled.get("ci95", {})
            flat = settings_of(r.manifest)
            usage = _usage(idx)
            rows.append({
                "key": r.key, "model": r.model, "cells": body[0][1:],
                "sort": [_mean(result, m) for m, _ in (*reports.L1_COLUMNS, *reports.L2_COLUMNS)]
                + [_mean(result, "articles_f1")],
                "ci": {name: ci.get(name) for name in ("level1_macro_f1", "level2_macro_f1", "articles_f1")},
                "runs": reports.n_runs(result), "records": pooled.get("n_records", pooled["decision_eval_count"]),
                "invalid_rate": pooled.get("invalid_rate", 0.0), "truncation_rate": pooled.get("truncation_rate", 0.0),
                "failed": pooled.get("request_failed_count", 0), "settings": [_setting(flat, k) for k in diff],
                "completeness": completeness_of(result, r.manifest, len(idx)), **usage})
        return {"pdp_headers": headers[1:], "pdp_rows": rows, "settings": diff,
                "ljp": self._metric_table(self.runs(KIND_LJP), lambda m: {k: v["mean"] for k, v in
                                                                        (m.get("mean_se") or {}).items()}),
                "retrieval": self._metric_table(self.runs(KIND_RETRIEVAL), lambda m: m.get("metrics") or {})}

    def _metric_table(self, runs: list[RunRef], pick) -> dict[str, Any]:
        rows, names = [], []
        for r in runs:
            try:
                values = pick(read_json_inside(self.root, r.file(METRICS_FILE)))
            except (NotFoundError, ValueError):
                values = {}
            values = {k: v for k, v in values.items() if isinstance(v, int | float)}
            names += [k for k in values if k not in names]
            rows.append({"key": r.key, "model": r.model, "values": values})
        return {"metrics": names, "rows": rows}

    # --- one run ------------------------------------------------------------------------------------------------
    def run_page(self, key: str) -> dict[str, Any]:
        r = self.run(key, KIND_PDP)
        result = self.cache.scores(r)
        idx = self.cache.index(r)
        pooled = result["pooled"]
        heat = confusion_with_invalid_row(idx.gold, idx.pred)
        manifest = r.manifest or {}
        env = manifest.get("environment") or {}
        breakdowns = {name: sorted(rows.items(), key=lambda kv: (-kv[1]["n"], kv[0]))
                      for name, rows in pooled.get("breakdowns", {}).items()}
        repeats = reports.n_runs(result)
        repeat_table = None
        if repeats > 1:
            from jiancha.pdp.aggregate import aggregate_notes, aggregate_rows

            with_aggs = {**result, "aggregates": self.cache.aggregates(r)}
            repeat_table = {"table": reports.paper_table(aggregate_rows(with_aggs)),
                            "notes": aggregate_notes(with_aggs)}
        return {"run": r, "summary": reports.summary_table(result), "per_class": reports.per_class_table(result),
                "completeness": completeness_of(result, manifest, len(idx)), "repeats": repeats,
                "repeat_table": repeat_table,
                "heat": heat, "breakdowns": breakdowns,
                "articles": _article_rows(pooled),
                "settings": sorted({**flatten(manifest.get("spec") or {}), **settings_of(manifest)}.items()),
                "packages": sorted((env.get("packages") or {}).items()),
                "environment": {k: v for k, v in env.items() if k != "packages"},
                "data": manifest.get("data") or {}, "usage": _usage(idx),
                "invalid_reasons": pooled.get("invalid_reasons", {})}

    # --- cases --------------------------------------------------------------------------------------------------
    def case_choices(self, key: str) -> dict[str, list[str]]:
        idx = self.cache.index(self.run(key, KIND_PDP))
        charges = Counter(c for cs in idx.charges for c in cs)
        return {"labels": list(LEVEL2_LABELS), "outcomes": list(OUTCOMES),
                "charges": [c for c, _ in sorted(charges.items(), key=lambda kv: (-kv[1], kv[0]))],
                "provinces": sorted({p for p in idx.provinces if p}),
                "years": sorted({y for y in idx.years if y})}

    def cases(self, key: str, flt: CaseFilter, page: int = 1, *, page_size: int | None = PAGE_SIZE
              ) -> dict[str, Any]:
        r = self.run(key, KIND_PDP)
        idx = self.cache.index(r)
        mask = np.ones(len(idx), dtype=bool)
        code = {lab: i for i, lab in enumerate(LEVEL2_LABELS)}
        if flt.gold:
            mask &= idx.gold == code.get(flt.gold, -2)
        if flt.pred:
            mask &= idx.pred == (M.INVALID if flt.pred == M.INVALID_COLUMN else code.get(flt.pred, -2))
        if flt.outcome:
            mask &= idx.outcome_mask(flt.outcome)
        if flt.charge:
            mask &= np.fromiter((flt.charge in cs for cs in idx.charges), dtype=bool, count=len(idx))
        if flt.province:
            mask &= np.asarray([p == flt.province for p in idx.provinces], dtype=bool)
        if flt.year:
            mask &= np.asarray([y == flt.year for y in idx.years], dtype=bool)
        if flt.q.strip():
            mask &= idx.search(flt.q.strip())
        hits = np.flatnonzero(mask)
        total = int(hits.size)
        pages = max(1, math.ceil(total / page_size)) if page_size else 1
        page = min(max(1, page), pages)
        shown = hits[(page - 1) * page_size: page * page_size] if page_size else hits
        rows = [{"case_id": idx.case_ids[i], "run_id": idx.run_ids[i], "gold": _label(idx.gold[i]),
                 "pred": _label(idx.pred[i]), "outcome": idx.outcome(i), "truncated": bool(idx.truncated[i]),
                 "charges": idx.charges[i], "province": idx.provinces[i], "year": idx.years[i]} for i in shown]
        return {"run": r, "rows": rows, "total": total, "n_records": len(idx), "page": page, "pages": pages,
                "filter": flt, "choices": self.case_choices(key)}

    def case_page(self, case_id: str) -> dict[str, Any]:
        answers, first = [], None
        for r in self.runs(KIND_PDP):
            idx = self.cache.index(r)
            for i in idx.by_case.get(case_id, ()):
                rec = idx.record(i)
                first = first or rec
                answers.append(self._answer(r, idx, i, rec))
        if first is None:
            raise NotFoundError(f"no case {case_id!r} in any PDP run under the runs folder")
        from jiancha.pdp.scoring import normalise_gold_articles

        gold_articles = normalise_gold_articles(tuple(first.get("gold_articles") or ()), first.get("date"))
        return {"case_id": case_id, "inputs": first.get("inputs") or {}, "gold": first.get("gold_decision"),
                "gold_articles": [self.article(a) for a in gold_articles], "date": first.get("date"),
                "province": first.get("province"), "charges": first.get("charges") or [], "answers": answers,
                "statutes_loaded": self.statutes is not None}

    def _answer(self, r: RunRef, idx, i: int, rec: dict) -> dict[str, Any]:
        from jiancha.pdp.rundir import ScoreItem
        from jiancha.pdp.scoring import normalise_gold_articles, parse_item

        raw = rec.get("raw_output") if isinstance(rec.get("raw_output"), str) else None
        item = ScoreItem(case_id=idx.case_ids[i], run_id=idx.run_ids[i], raw_output=raw,
                         gold_decision=rec.get("gold_decision"), finish_reason=rec.get("finish_reason"),
                         failed=rec.get("status") == "failed")
        parsed = parse_item(item, "default")
        gold = set(normalise_gold_articles(tuple(rec.get("gold_articles") or ()), rec.get("date")))
        cited = [{**self.article(a), "in_gold": a in gold} for a in parsed.relevant_articles]
        missed = [self.article(a) for a in sorted(gold - set(parsed.relevant_articles))]
        reasoning, answer = split_reasoning(raw, rec.get("reasoning") if isinstance(rec.get("reasoning"), str)
                                            else None)
        return {"run": r.key, "run_id": idx.run_ids[i], "decision": parsed.decision, "valid": parsed.valid,
                "reason": parsed.reason, "outcome": idx.outcome(i), "truncated": bool(idx.truncated[i]),
                "cited": cited, "missed": missed, "analysis": analysis_section(answer) if answer else "",
                "raw": answer, "reasoning": reasoning, "error": rec.get("error"), "status": rec.get("status")}

    def article(self, canonical: str) -> dict[str, Any]:
        from jiancha.web.render import article_name, article_text

        return {"code": canonical, "name": article_name(canonical), "text": article_text(canonical, self.statutes)}

    # --- compare ------------------------------------------------------------------------------------------------
    def compare(self, key_a: str, key_b: str, *, n_boot: int = 1000, seed: int = 0, limit: int | None = 200
                ) -> dict[str, Any]:
        from jiancha.pdp.paired import mcnemar, paired_bootstrap

        ra, rb = self.run(key_a, KIND_PDP), self.run(key_b, KIND_PDP)
        ia, ib = self.cache.index(ra), self.cache.index(rb)
        pos_b = {(c, k): j for j, (c, k) in enumerate(zip(ib.case_ids, ib.run_ids))}
        pairs = [(i, pos_b[(c, k)]) for i, (c, k) in enumerate(zip(ia.case_ids, ia.run_ids)) if (c, k) in pos_b]
        a_i = np.asarray([p[0] for p in pairs], dtype=np.int64)
        b_i = np.asarray([p[1] for p in pairs], dtype=np.int64)
        gold, pa, pb = ia.gold[a_i], ia.pred[a_i], ib.pred[b_i]
        codes: dict[str, int] = {}
        cases = np.fromiter((codes.setdefault(ia.case_ids[i], len(codes)) for i in a_i), dtype=np.int64,
                            count=len(a_i))
        levels = {lvl: paired_bootstrap(gold, pa, pb, clusters=cases, level=lvl, n_boot=n_boot, seed=seed)
                  for lvl in (2, 1)}
        test = mcnemar(gold, pa, pb)
        sa = M.scores_from_confusion(M.confusion(gold, pa, M.K2)[0])
        sb = M.scores_from_confusion(M.confusion(gold, pb, M.K2)[0])
        per_class = [{"label": lab, "a": float(sa["f1"][k]), "b": float(sb["f1"][k]),
                      "diff": float(sa["f1"][k] - sb["f1"][k]), "support": int(sa["support"][k])}
                     for k, lab in enumerate(LEVEL2_LABELS)]
        disagree = np.flatnonzero(pa != pb)
        rows = [{"case_id": ia.case_ids[a_i[j]], "run_id": ia.run_ids[a_i[j]], "gold": _label(gold[j]),
                 "a": _label(pa[j]), "b": _label(pb[j]),
                 "winner": "a" if pa[j] == gold[j] else ("b" if pb[j] == gold[j] else "")}
                for j in (disagree[:limit] if limit else disagree)]
        return {"a": ra, "b": rb, "n_pairs": len(pairs), "n_disagree": int(disagree.size), "levels": levels,
                "mcnemar": test, "per_class": per_class, "rows": rows,
                "settings": _setting_diff(ra.manifest, rb.manifest)}

    # --- retrieval ------------------------------------------------------------------------------------------------
    def retrieval_page(self, key: str, qid: str | None = None) -> dict[str, Any]:
        from jiancha.web.retrieval import retrieval_page

        return retrieval_page(self.root, self.run(key, KIND_RETRIEVAL), qid)


# --- helpers --------------------------------------------------------------------------------------------------------


def _label(code: int) -> str:
    return LEVEL2_LABELS[int(code)] if code >= 0 else M.INVALID_COLUMN


def _mean(result: dict, metric: str) -> float | None:
    ms = result.get("mean_se", {}).get(metric)
    return None if ms is None else ms["mean"]


def _setting(flat: dict, key: str) -> str:
    exact = flat.get(key)
    if exact is not None or key in flat:
        return str(exact)
    sub = {k: v for k, v in flat.items() if k.startswith(key + ".") and v not in (None, {}, [], "")}
    return ", ".join(f"{k[len(key) + 1:]}={v}" for k, v in sub.items()) if sub else "–"


def _setting_diff(a: dict, b: dict) -> list[tuple[str, str, str]]:
    keys = differing_settings([a, b])
    fa, fb = settings_of(a), settings_of(b)
    return [(k, _setting(fa, k), _setting(fb, k)) for k in keys]


def _usage(idx) -> dict[str, Any]:
    """Tokens, cost and latency of a run's records (None where no record reports them)."""
    def total(a: np.ndarray) -> float | None:
        ok = ~np.isnan(a)
        return float(a[ok].sum()) if ok.any() else None

    lat = idx.latency[~np.isnan(idx.latency)]
    return {"prompt_tokens": total(idx.prompt_tokens), "completion_tokens": total(idx.completion_tokens),
            "reasoning_tokens": total(idx.reasoning_tokens), "cost": total(idx.cost),
            "latency_median": float(np.median(lat)) if lat.size else None,
            "latency_p95": float(np.percentile(lat, 95)) if lat.size else None}


def _article_rows(pooled: dict) -> list[tuple[str, Any]]:
    keys = ("articles_precision", "articles_recall", "articles_f1", "articles_article_level_precision",
            "articles_article_level_recall", "articles_article_level_f1", "articles_scored_count",
            "articles_both_empty_count")
    return [(k, pooled[k]) for k in keys if k in pooled]


def confusion_with_invalid_row(gold: np.ndarray, pred: np.ndarray) -> dict[str, Any]:
    """Level-2 counts, rows gold (plus an INVALID row: records whose gold label is not one of the four), columns
    predicted (plus INVALID); ``share`` is each cell over its row total (the heat-map shade)."""
    k = M.K2
    g = np.where(gold >= 0, gold, k)
    p = np.where(pred >= 0, pred, k)
    cm = np.bincount(g * (k + 1) + p, minlength=(k + 1) ** 2).reshape(k + 1, k + 1)
    labels = [*LEVEL2_LABELS, M.INVALID_COLUMN]
    totals = cm.sum(axis=1, keepdims=True)
    share = np.divide(cm, totals, out=np.zeros(cm.shape, dtype=np.float64), where=totals > 0)
    return {"labels": labels, "matrix": cm.tolist(), "share": share.tolist()}
