"""Reports of scored runs: paper-layout tables (Tables 2–5), confusion matrices, worst confusions with case ids;
``write_reports`` puts metrics.json, report.md and PNG plots into a directory.

Table functions return plain header/row string lists so that the CLI can print them with rich and report.md can
print them as Markdown from the same data.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from jiancha import __version__
from jiancha._util.io import atomic_write_text, write_json
from jiancha.law.labels import LEVEL1_LABELS, LEVEL2_LABELS, Decision, Level1
from jiancha.pdp.metrics import INVALID_COLUMN

#: Column groups of the paper's Tables 2–5: (metric in mean_se, header).
L1_COLUMNS = (("level1_macro_f1", "Macro-F1"), ("level1_micro_f1", "Micro-F1"),
              (f"level1_f1_{Level1.NOT_PROSECUTE.value}", "NP"), (f"level1_f1_{Level1.PROSECUTE.value}", "P"))
L2_COLUMNS = (("level2_macro_f1", "Macro-F1"), ("level2_micro_f1", "Micro-F1"),
              (f"level2_f1_{Decision.INSUFFICIENT_EVIDENCE.value}", "IENP"),
              (f"level2_f1_{Decision.STATUTORY.value}", "SNP"), (f"level2_f1_{Decision.DISCRETIONARY.value}", "DNP"))
CODE_OF = {d.value: d.code for d in Decision} | {Level1.PROSECUTE.value: "P", Level1.NOT_PROSECUTE.value: "NP"}


def fmt_value(mean: float, se: float | None = None, *, digits: int = 4) -> str:
    """``mean ± se`` rounded to ``digits`` (an SE of exactly 0 or of float noise both read ``± 0.0000``); the
    plain value when ``se`` is None (one run: there is no SE to show)."""
    if se is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {abs(se):.{digits}f}"


def n_runs(result: dict) -> int:
    return len(result.get("per_run", {}))


def _cell(result: dict, metric: str) -> str:
    ms = result.get("mean_se", {}).get(metric)
    if ms is None:
        return "–"
    return fmt_value(ms["mean"], ms["se"] if n_runs(result) > 1 else None)


def paper_table(rows: list[tuple[str, dict]], *, name_header: str = "Run",
                articles: bool = True) -> tuple[list[str], list[list[str]]]:
    """Headers and rows laid out like the paper's Tables 2–5: PDP L1 (Macro, Micro, NP, P) then PDP L2 (Macro,
    Micro, IENP, SNP, DNP), values mean ± SE over runs (plain value for one run), plus Articles F1."""
    headers = [name_header] + [f"L1 {h}" for _, h in L1_COLUMNS] + [f"L2 {h}" for _, h in L2_COLUMNS]
    if articles:
        headers.append("Articles F1")
    body = []
    for name, result in rows:
        cells = [name] + [_cell(result, m) for m, _ in L1_COLUMNS] + [_cell(result, m) for m, _ in L2_COLUMNS]
        if articles:
            cells.append(_cell(result, "articles_f1"))
        body.append(cells)
    return headers, body


def per_class_table(result: dict) -> tuple[list[str], list[list[str]]]:
    """Pooled per-class precision / recall / F1 / support (+ 95% CI of F1 when bootstrapped), both levels."""
    pooled = result["pooled"]
    ci = pooled.get("ci95", {})
    headers = ["Level", "Class", "Precision", "Recall", "F1", "F1 95% CI", "Support"]
    body = []
    for level, key, labels in ((1, "level1_per_class", LEVEL1_LABELS), (2, "decision_per_class", LEVEL2_LABELS)):
        for lab in labels:
            v = pooled[key][lab]
            c = ci.get(f"level{level}_f1_{lab}")
            body.append([f"L{level}", f"{lab} ({CODE_OF[lab]})", f"{v['precision']:.4f}", f"{v['recall']:.4f}",
                         f"{v['f1']:.4f}", f"[{c[0]:.4f}, {c[1]:.4f}]" if c else "–", str(v["count"])])
    return headers, body


def summary_table(result: dict) -> tuple[list[str], list[list[str]]]:
    """Pooled headline figures with 95% CI where available (default mode adds invalid / truncation rates)."""
    pooled = result["pooled"]
    ci = pooled.get("ci95", {})
    rows = [("L2 accuracy", pooled["decision_level2_accuracy"], "decision_level2_accuracy"),
            ("L2 Macro-F1", pooled["decision_level2_macro_f1"], "level2_macro_f1"),
            ("L2 Micro-F1", pooled["decision_level2_micro"]["f1"], "level2_micro_f1"),
            ("L1 Macro-F1", pooled["decision_level1_macro_f1"], "level1_macro_f1"),
            ("L1 Micro-F1", pooled["decision_level1_micro"]["f1"], "level1_micro_f1"),
            ("Articles P", pooled["articles_precision"], None), ("Articles R", pooled["articles_recall"], None),
            ("Articles F1", pooled["articles_f1"], "articles_f1")]
    for key, label in (("articles_article_level_f1", "Articles F1 (article level)"),
                       ("invalid_rate", "Invalid-prediction rate"), ("truncation_rate", "Truncation rate")):
        if key in pooled:
            rows.append((label, pooled[key], None))
    body = []
    for label, value, ci_key in rows:
        c = ci.get(ci_key) if ci_key else None
        body.append([label, f"{value:.4f}", f"[{c[0]:.4f}, {c[1]:.4f}]" if c else "–"])
    body += [["Evaluated records", str(pooled["decision_eval_count"]), "–"],
             ["Invalid predictions", str(pooled["decision_parse_fail_count"]), "–"],
             ["Invalid gold labels (skipped)", str(pooled["reference_parse_fail_count"]), "–"]]
    if "request_failed_count" in pooled:
        body.append(["Failed requests (counted invalid)", str(pooled["request_failed_count"]), "–"])
    return ["Metric", "Pooled", "95% CI (cases)"], body


def confusion_of(scored, level: int = 2) -> dict:
    """The pooled confusion table of a ScoreResult (computed from its columns in reference mode)."""
    from jiancha.pdp.metrics import confusion_table

    return scored.result["pooled"].get(f"confusion_level{level}") or confusion_table(scored.gold, scored.pred,
                                                                                      level)


def confusion_rows(result: dict, level: int = 2, table: dict | None = None
                   ) -> tuple[list[str], list[list[str]]] | None:
    table = table or result["pooled"].get(f"confusion_level{level}")
    if table is None:
        return None
    headers = ["gold \\ pred"] + [CODE_OF.get(c, c) for c in table["columns"]]
    body = [[CODE_OF[r]] + [str(x) for x in row] for r, row in zip(table["rows"], table["matrix"])]
    return headers, body


def worst_confusions(gold: np.ndarray, pred: np.ndarray, case_ids: tuple[str, ...], run_ids: tuple[str, ...],
                     *, top: int = 8, examples: int = 8) -> list[dict[str, Any]]:
    """The most frequent (gold, predicted) errors, INVALID included, each with up to ``examples`` case ids."""
    cells: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i in np.flatnonzero((gold >= 0) & (gold != pred)):
        cells[(int(gold[i]), int(pred[i]))].append(int(i))
    ordered = sorted(cells.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    out = []
    for (g, p), idx in ordered[:top]:
        ids = list(dict.fromkeys(case_ids[i] for i in idx))
        out.append({"gold": LEVEL2_LABELS[g], "pred": LEVEL2_LABELS[p] if p >= 0 else INVALID_COLUMN,
                    "count": len(idx), "cases": ids[:examples], "n_cases": len(ids)})
    return out


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    esc = [[c.replace("|", "\\|") for c in r] for r in [headers, *rows]]
    lines = ["| " + " | ".join(esc[0]) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in esc[1:]]
    return "\n".join(lines)


def _settings_line(manifest: dict | None) -> list[str]:
    if not manifest:
        return []
    from jiancha.pdp.rundir import settings_of

    flat = settings_of(manifest)
    keep = [k for k in flat if any(w in k for w in ("model", "prompt", "variant", "reasoning", "max_tokens",
                                                   "temperature", "split", "fingerprint", "seed"))]
    return [f"- `{k}`: {flat[k]}" for k in keep[:20]]


def render_report(scored, *, title: str | None = None) -> str:
    """report.md of a ``ScoreResult``."""
    r = scored.result
    pooled = r["pooled"]
    lines = [f"# PDP evaluation report{': ' + title if title else ''}", ""]
    lines += [(f"- compat mode: `{scored.compat}`; runs: {n_runs(r)}; records: {len(scored.case_ids)}; "
               f"cases: {len(set(scored.case_ids))}"),
              f"- sources: {', '.join(scored.sources) if scored.sources else '(in memory)'}",
              f"- jiancha {__version__}, scored {_dt.datetime.now(_dt.UTC).isoformat(timespec='seconds')}"]
    for m in scored.manifests:
        lines += _settings_line(m)
    from jiancha.pdp.scoring import completeness_warnings

    lines += [f"- **warning:** {w}" for w in completeness_warnings(r)]
    lines += ["", "## PDP L1 / L2 (paper layout, mean ± SE over runs)", "",
              markdown_table(*paper_table([(title or "this run", r)])), "",
              *_aggregate_section(r),
              "## Summary (pooled over runs)", "", markdown_table(*summary_table(r)), "",
              "## Per class (pooled)", "", markdown_table(*per_class_table(r)), ""]
    for level in (2, 1):
        cm = confusion_rows(r, level, confusion_of(scored, level))
        if cm:
            lines += [f"## Confusion matrix, Level {level} (rows gold, columns predicted)", "",
                      markdown_table(*cm), ""]
    if pooled.get("invalid_reasons"):
        lines += ["## Invalid predictions by reason", "",
                  markdown_table(["Reason", "Count"], [[k, str(v)] for k, v in pooled["invalid_reasons"].items()]),
                  ""]
    worst = worst_confusions(scored.gold, scored.pred, scored.case_ids, scored.run_ids)
    if worst:
        lines += ["## Worst confusions", "",
                  markdown_table(["Gold", "Predicted", "Count", "Cases", "Case ids (first)"],
                                 [[w["gold"], w["pred"], str(w["count"]), str(w["n_cases"]), ", ".join(w["cases"])]
                                  for w in worst]), ""]
    for name, rows in pooled.get("breakdowns", {}).items():
        top = sorted(rows.items(), key=lambda kv: (-kv[1]["n"], kv[0]))[:20]
        lines += [f"## By {name} (largest {len(top)})", "",
                  markdown_table([name.capitalize(), "N", "L1 Macro-F1", "L2 Macro-F1", "L2 accuracy", "Invalid"],
                                 [[k, str(v["n"]), f"{v['level1_macro_f1']:.4f}", f"{v['level2_macro_f1']:.4f}",
                                   f"{v['level2_accuracy']:.4f}", f"{v['invalid_rate']:.4f}"] for k, v in top]), ""]
    for src, published in scored.meta.get("reference_metrics_md", {}).items():
        rows = []
        for name, value in published.items():
            ours = _lookup(r, name)
            rows.append([name, f"{value:.4f}", f"{ours:.4f}" if ours is not None else "–"])
        if rows:
            lines += [f"## Published metrics.md of {src} vs re-scored ({scored.compat} mode)", "",
                      markdown_table(["Metric", "metrics.md", "re-scored"], rows), ""]
    if len(r["per_run"]) > 1:
        lines += ["## Per run", "",
                  markdown_table(*paper_table([(f"run {k}", {"per_run": {k: v}, "mean_se": _single(v)})
                                               for k, v in r["per_run"].items()], articles=True)), ""]
    return "\n".join(lines)


def _aggregate_section(result: dict) -> list[str]:
    """Self-consistency and any-correct-of-k next to mean ± SE (``pdp score --aggregate``), when scored."""
    if not result.get("aggregates"):
        return []
    from jiancha.pdp.aggregate import aggregate_notes, aggregate_rows

    return ["## Repeats: mean ± SE, majority vote, any correct of k", "",
            markdown_table(*paper_table(aggregate_rows(result))), "", *[f"- {n}" for n in aggregate_notes(result)],
            ""]


def _lookup(result: dict, name: str) -> float | None:
    """A metric by name: a pooled scalar, a mean_se mean, or a dotted path into pooled (``a.b``)."""
    pooled = result["pooled"]
    if isinstance(pooled.get(name), int | float):
        return float(pooled[name])
    if name in result.get("mean_se", {}):
        return float(result["mean_se"][name]["mean"])
    node = pooled
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return float(node) if isinstance(node, int | float) else None


def _single(block: dict) -> dict:
    from jiancha.pdp.metrics import summary_metrics

    return {k: {"mean": v, "se": 0.0} for k, v in summary_metrics(block, extended=True).items()}


def write_reports(out_dir: str | Path, scored, *, plots: bool = True) -> list[Path]:
    """metrics.json (the result plus scoring metadata), report.md and PNG plots; reference-mode names carry a
    ``.reference`` infix so that both modes can live in one run directory."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    suffix = ".reference" if scored.compat == "reference" else ""
    metrics_path = out / f"metrics{suffix}.json"
    write_json(metrics_path, {**scored.result, "meta": scored.meta})
    report_path = out / f"report{suffix}.md"
    atomic_write_text(report_path, render_report(scored, title=out.name) + "\n")
    paths = [metrics_path, report_path]
    if plots:
        from jiancha.pdp import plots as P

        paths.append(P.plot_confusion(confusion_of(scored, 2), out / f"confusion{suffix}.png"))
        paths.append(P.plot_per_class_f1(scored.result, out / f"per_class_f1{suffix}.png"))
    return paths
