"""PNG plots of scored runs (matplotlib, Agg backend). Class names are drawn as codes (P, DNP, SNP, IENP, NP) so
that plots render without CJK fonts."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from jiancha.law.labels import LEVEL1_LABELS, LEVEL2_LABELS


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _code(label: str) -> str:
    from jiancha.pdp.reports import CODE_OF

    return CODE_OF.get(label, label)


def plot_confusion(table: dict, path: str | Path) -> Path:
    """Heat map of a confusion table (``{"rows", "columns", "matrix"}``), row-normalised colours, counts."""
    plt = _plt()
    m = np.asarray(table["matrix"], dtype=float)
    share = m / np.maximum(m.sum(axis=1, keepdims=True), 1)
    fig, ax = plt.subplots(figsize=(1.2 * m.shape[1] + 1.5, 1.0 * m.shape[0] + 1.2))
    im = ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(m.shape[1]), [_code(c) for c in table["columns"]])
    ax.set_yticks(range(m.shape[0]), [_code(r) for r in table["rows"]])
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            ax.text(j, i, f"{int(m[i, j])}", ha="center", va="center",
                    color="white" if share[i, j] > 0.6 else "black", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="share of gold row")
    ax.set_title("Confusion matrix (Level 2)")
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p, dpi=120)
    plt.close(fig)
    return p


def plot_per_class_f1(result: dict, path: str | Path) -> Path:
    """Per-class F1 (pooled) of both levels with 95% bootstrap CI bars (or ± SE over runs when no CI)."""
    plt = _plt()
    pooled = result["pooled"]
    ci = pooled.get("ci95", {})
    ms = result.get("mean_se", {})
    names, vals, lo, hi = [], [], [], []
    for level, key, labels in ((1, "level1_per_class", LEVEL1_LABELS), (2, "decision_per_class", LEVEL2_LABELS)):
        for lab in labels:
            v = pooled[key][lab]["f1"]
            metric = f"level{level}_f1_{lab}"
            if metric in ci:
                a, b = ci[metric]
            else:
                se = ms.get(metric, {}).get("se", 0.0)
                a, b = v - se, v + se
            names.append(f"L{level} {_code(lab)}")
            vals.append(v)
            lo.append(max(v - a, 0.0))
            hi.append(max(b - v, 0.0))
    fig, ax = plt.subplots(figsize=(7, 3.6))
    colors = ["#8fb3d9"] * len(LEVEL1_LABELS) + ["#2b6cb0"] * len(LEVEL2_LABELS)
    ax.bar(range(len(vals)), vals, yerr=[lo, hi], capsize=4, color=colors)
    ax.set_xticks(range(len(vals)), names)
    ax.set_ylim(0, 1)
    ax.set_ylabel("F1")
    ax.set_title("Per-class F1 (bars: 95% CI over cases)" if ci else "Per-class F1 (bars: ± SE over runs)")
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p, dpi=120)
    plt.close(fig)
    return p


#: Metrics drawn by ``plot_compare``: (mean_se name, legend label).
COMPARE_METRICS = (("level1_macro_f1", "L1 Macro-F1"), ("level2_macro_f1", "L2 Macro-F1"),
                   ("level2_micro_f1", "L2 Micro-F1"), (f"level2_f1_{LEVEL2_LABELS[3]}", "IENP F1"),
                   (f"level2_f1_{LEVEL2_LABELS[2]}", "SNP F1"), (f"level2_f1_{LEVEL2_LABELS[1]}", "DNP F1"),
                   ("articles_f1", "Articles F1"))


def plot_compare(setting: str, values: list[str], results: list[dict], path: str | Path) -> Path:
    """Metrics (mean ± SE over runs) against the setting(s) that differ between runs (paper Table 3/5)."""
    plt = _plt()
    import textwrap

    # compound values of several settings ("a, b") get a line each, long ones are wrapped, so the layout fits
    ticks = ["\n".join(textwrap.fill(part, 24) for part in str(v).split(", ")) for v in values]
    height = 4 + 0.15 * max(t.count("\n") for t in ticks)
    fig, ax = plt.subplots(figsize=(max(5.0, 2.0 * len(values) + 3), height))
    x = np.arange(len(values))
    for metric, label in COMPARE_METRICS:
        means = [r["mean_se"].get(metric, {}).get("mean", np.nan) for r in results]
        ses = [r["mean_se"].get(metric, {}).get("se", 0.0) for r in results]
        ax.errorbar(x, means, yerr=ses, marker="o", capsize=3, label=label,
                    linestyle="-" if "Macro" in label or "Micro" in label else "--")
    ax.set_xticks(x, ticks, fontsize=8)
    ax.set_xlabel(setting)
    ax.set_ylim(0, 1)
    ax.set_ylabel("score")
    ax.legend(fontsize=8, ncol=2, loc="lower left")
    ax.set_title(f"PDP metrics by {setting}")
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p, dpi=120)
    plt.close(fig)
    return p
