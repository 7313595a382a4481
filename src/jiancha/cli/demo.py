"""`jiancha demo`: the main job on the embedded default data, offline, no key."""

from __future__ import annotations

import time
from pathlib import Path

import typer

#: Offline PDP models the demo evaluates on the bundled sample (60 fictional cases).
DEMO_PDP_MODELS = ("baseline:majority", "baseline:rules", "baseline:tfidf-lr")
#: Retrieval methods the demo runs on the bundled mini corpus (LeCaRDv2 layout).
DEMO_RETRIEVAL_METHODS = ("bm25", "qld", "charge", "fuse")
#: Retrieval metrics shown in the demo table.
DEMO_RETRIEVAL_METRICS = ("ndcg@10", "ndcg@30", "map", "mrr", "hit@10")


def demo(
    out: str = typer.Option("runs", help="Parent folder of the demo's run directory."),
    seed: int = typer.Option(0, help="Seed for the trainable baseline's cross-validation folds."),
) -> None:
    """Evaluate offline PDP baselines on the bundled sample set and retrieval baselines on the mini corpus."""
    from importlib.resources import files

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from jiancha.cli._render import print_table, wide_console
    from jiancha.pdp import reports
    from jiancha.pdp.spec import RunSpec
    from jiancha.pdp.task import run_pdp_eval
    from jiancha.retrieval.pipeline import run_and_evaluate

    console = wide_console()
    root = Path(out) / time.strftime("demo-%Y%m%d-%H%M%S")
    t0 = time.perf_counter()

    console.rule("[bold]PDP: offline models on the bundled sample (60 fictional cases)")
    rows = []
    for model in DEMO_PDP_MODELS:
        spec = RunSpec(model=model, data="sample", split="test", out=str(root / "pdp" / model.split(":")[-1]),
                       seed=seed)
        summary = run_pdp_eval(spec, show_progress=True, console=console)
        folds = summary.baseline_info.get("folds")
        rows.append((model + (f" ({folds}-fold CV)" if folds else ""), summary.metrics))
    print_table(console, "PDP-Bench metrics, paper layout (Tables 2–5)", *reports.paper_table(rows))
    print_table(console, f"Pooled detail for {rows[-1][0]}", *reports.summary_table(rows[-1][1]))

    console.rule("[bold]Retrieval: baselines on the bundled mini corpus (LeCaRDv2 layout, 12 queries)")
    corpus = str(files("jiancha") / "data" / "mini_retrieval")
    headers = ["Method", *DEMO_RETRIEVAL_METRICS]
    body = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as progress:
        task = progress.add_task("retrieval", total=len(DEMO_RETRIEVAL_METHODS))
        for method in DEMO_RETRIEVAL_METHODS:
            progress.update(task, description=f"retrieval: {method}")
            res = run_and_evaluate("lecard-v2", corpus, method, out=root / "retrieval" / method,
                                   cache=root / "retrieval" / ".cache")
            m = res["metrics"]
            body.append([method] + [f"{m[k]:.4f}" if k in m else "–" for k in DEMO_RETRIEVAL_METRICS])
            progress.advance(task)
    print_table(console, f"Retrieval metrics ({res['num_queries']} queries; relevant = grade ≥ 2)",
                headers, body)
    console.print(f"\nRun directory: [bold]{root}[/] ({time.perf_counter() - t0:.1f} s). "
                  "Re-score with: jiancha pdp score " + str(root / "pdp" / "rules"))
