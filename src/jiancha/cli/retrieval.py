"""`jiancha retrieval ...`: eval (run + score), run (write a TREC run), score (a run file), compare (two runs,
paired), index (build a case index) and search (free text over an index).

Method options are generated from :class:`~jiancha.retrieval.pipeline.RetrievalSpec` and its nested configs
(:mod:`jiancha.cli._dataclass_options`): their flags, defaults, help and choices live on the fields.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from jiancha._util.cache import CACHE_DEFAULT_TEXT
from jiancha.cli._dataclass_options import build, field_options, with_options
from jiancha.datasets.lecard import DATASETS
from jiancha.retrieval.pipeline import RUN_METHODS, SETTINGS, RetrievalSpec

app = typer.Typer(no_args_is_help=True)

#: Generated options: every RetrievalSpec field but the dataset and method (explicit below).
SPEC_OPTIONS = field_options(RetrievalSpec, skip=("dataset", "method"))
_BY_GROUP: dict[str, tuple[str, ...]] = {}
for _o in SPEC_OPTIONS:
    _BY_GROUP.setdefault(_o.path[0] if len(_o.path) > 1 else "", ())
    _BY_GROUP[_o.path[0] if len(_o.path) > 1 else ""] += (_o.name,)

_Dataset = Annotated[str, typer.Option("--dataset", help=f"One of: {', '.join(DATASETS)}.")]
_DataDir = Annotated[Path, typer.Option("--data-dir", help="Dataset root in its official layout.")]
_Method = Annotated[str, typer.Option("--method", help=f"One of: {', '.join(RUN_METHODS)} (ltr: learned re-ranker, "
                                      "cross-validated on the labelled queries).")]
_TrainQrels = Annotated[Path | None, typer.Option(help="ltr: train on these labels (LeCaRD v1 .json or TREC qrels) "
                                                  "instead of cross-validating; their queries are not scored.")]
_SaveModel = Annotated[Path | None, typer.Option(help="ltr: write the trained model (JSON weights) here.")]
_LoadModel = Annotated[Path | None, typer.Option(help="ltr: apply this saved model (JSON written by --save-model); "
                                                 "queries it was trained on are not scored.")]
_Cache = Annotated[Path | None, typer.Option(help=f"Tokens/index/embedding cache (default {CACHE_DEFAULT_TEXT}).")]

#: Options that only one dataset has: given for the other one they would be silently ignored.
DATASET_ONLY_OPTIONS = {"pool": "lecard-v1", "scope": "lecard-v2", "setting": "lecard-v2"}
#: Option groups (nested spec fields) and the methods that read them.
GROUP_METHODS = {"ltr": ("ltr",), "fuse": ("fuse",), "dense": ("dense", "fuse", "ltr"),
                 "charge": ("charge", "fuse", "ltr")}
LTR_PATH_OPTIONS = ("train_qrels", "save_model", "load_model")


def _check_options(ctx: typer.Context, dataset: str, method: str) -> None:
    """Refuse options the chosen dataset or method would silently ignore."""
    from jiancha.cli._render import refuse_ignored_options

    for name, owner in DATASET_ONLY_OPTIONS.items():
        if dataset != owner:
            refuse_ignored_options(ctx, (name,), f"with --dataset {dataset}: it applies to {owner} only")
    for group, methods in GROUP_METHODS.items():
        if method not in methods:
            refuse_ignored_options(ctx, _BY_GROUP.get(group, ()) + (LTR_PATH_OPTIONS if group == "ltr" else ()),
                                   f"with --method {method}: it applies to --method {'/'.join(methods)} only")
    if method == "ltr":
        refuse_ignored_options(ctx, ("doc_field", "model", "batch_size", "chunk_chars", "max_chunks"),
                               "with --method ltr: it scores the facts, reasoning and verdict fields itself "
                               "(--ltr-dense picks its encoder)")


def _progress(it, desc: str, total: int):
    """Progress on standard error, so that standard output carries only the result (--json stays clean): a bar on
    a terminal, else a plain line every few seconds (a log would get a blank line per redrawn bar)."""
    from rich.console import Console
    from rich.progress import track

    from jiancha._util.progress import logged

    console = Console(stderr=True)
    if not console.is_terminal:
        return logged(it, desc, total, lambda line: typer.echo(line, err=True))
    return track(it, description=desc, total=total, transient=True, console=console)


def _execute(dataset, data_dir, method, values, *, cache_dir, train_qrels=None, save_model=None, load_model=None,
             **top):
    from jiancha.retrieval.pipeline import run_spec

    given = [o for o in SPEC_OPTIONS if o.name in values]
    spec = build(RetrievalSpec, given, values, dataset=dataset, method=method, **top)
    return spec.resolved(), run_spec(spec, data_dir, cache=cache_dir, progress=_progress, train_qrels=train_qrels,
                                     load_model=load_model, save_model=save_model)


@app.command("eval")
@with_options(SPEC_OPTIONS)
def eval_cmd(
    ctx: typer.Context,
    dataset: _Dataset,
    data_dir: _DataDir,
    out: Annotated[Path, typer.Option("--out", help="Directory for run.trec, metrics.json and manifest.json.")],
    method: _Method = "bm25",
    as_json: Annotated[bool, typer.Option("--json", help="Print {'metrics': {...}, 'num_queries': n}.")] = False,
    train_qrels: _TrainQrels = None,
    save_model: _SaveModel = None,
    load_model: _LoadModel = None,
    cache_dir: _Cache = None,
    values: dict | None = None,
) -> None:
    """Run a method on a dataset and evaluate it; writes run.trec, metrics.json and manifest.json to --out.

    --method ltr never scores a query it was trained on: by default it cross-validates over the labelled queries
    and reports the held-out figures."""
    from jiancha.retrieval.evaluate import evaluate
    from jiancha.retrieval.pipeline import write_outputs

    _check_options(ctx, dataset, method)
    spec, (run, manifest, _, qrels) = _execute(dataset, data_dir, method, values, cache_dir=cache_dir,
                                               train_qrels=train_qrels, save_model=save_model, load_model=load_model)
    result = evaluate(dataset, run, qrels, setting=spec.setting)
    write_outputs(out, run, result, manifest, spec.tag())
    if method == "ltr":
        title = f"{dataset} ltr ({spec.ltr.model}, {manifest['training']['mode']}, held-out queries only)"
    else:
        title = f"{dataset} {method} (query {spec.query_field}, candidates {spec.doc_field})"
    _print_result(result.to_json(), as_json, title)


@app.command("run")
@with_options([o for o in SPEC_OPTIONS if o.name != "setting"])
def run_cmd(
    ctx: typer.Context,
    dataset: _Dataset,
    data_dir: _DataDir,
    out: Annotated[Path, typer.Option("--out", help="TREC run file to write (manifest beside it).")],
    method: _Method = "bm25",
    train_qrels: _TrainQrels = None,
    save_model: _SaveModel = None,
    load_model: _LoadModel = None,
    cache_dir: _Cache = None,
    values: dict | None = None,
) -> None:
    """Rank every query (labelled or not) and write a TREC run (its manifest beside it, as RUN.manifest.json)."""
    _check_options(ctx, dataset, method)
    spec, (run, manifest, _, _) = _execute(dataset, data_dir, method, values, cache_dir=cache_dir,
                                           train_qrels=train_qrels, save_model=save_model, load_model=load_model,
                                           setting="zero-shot")   # `run` ranks every query
    _write_run_file(out, run, spec.tag(), manifest)


def _write_run_file(out: Path, run, tag: str, manifest: dict) -> None:
    """Write the run and ``<out>.manifest.json``; an existing run made under other settings is refused, not
    overwritten."""
    from jiancha._util.io import read_json, write_json
    from jiancha.retrieval.pipeline import refuse_other_settings
    from jiancha.retrieval.trec import write_trec_run

    mpath = Path(str(out) + ".manifest.json")
    if mpath.exists():
        refuse_other_settings(out, read_json(mpath), manifest)
    write_trec_run(out, run, tag)
    write_json(mpath, manifest)
    typer.echo(f"wrote {out} ({len(run)} queries, {sum(len(v) for v in run.values())} lines)")


_Setting = Annotated[str, typer.Option(help=f"LeCaRDv2: {' or '.join(SETTINGS)}.")]


@app.command("score")
def score_cmd(
    ctx: typer.Context,
    run_file: Annotated[Path, typer.Argument(help="TREC run (qid Q0 docid rank score tag) or JSON ranking.")],
    dataset: _Dataset,
    data_dir: _DataDir,
    setting: _Setting = "zero-shot",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Score an external run against the dataset's labels (run queries without labels are counted and skipped with
    a warning; labelled queries absent from the run score 0)."""
    from jiancha.retrieval.evaluate import compute_run_coverage, evaluate, render_coverage_warnings
    from jiancha.retrieval.pipeline import load_qrels
    from jiancha.retrieval.trec import read_run

    _check_options(ctx, dataset, "")
    run = read_run(run_file)
    qrels = load_qrels(dataset, data_dir, setting=setting)
    labels = f"{dataset} ({setting})" if dataset == "lecard-v2" else dataset
    for line in render_coverage_warnings(compute_run_coverage(run, qrels), str(run_file), labels):
        typer.secho(f"warning: {line}", fg="yellow", err=True)
    result = evaluate(dataset, run, qrels, setting=setting)
    _print_result(result.to_json(), as_json, f"{dataset} {run_file}")


@app.command("compare")
def compare_cmd(
    run_a: Annotated[Path, typer.Argument(help="Run A (TREC or JSON ranking).")],
    run_b: Annotated[Path, typer.Argument(help="Run B, compared with A query by query.")],
    data_dir: _DataDir,
    others: Annotated[list[Path] | None, typer.Argument(help="More runs, scored on the same queries.")] = None,
    dataset: Annotated[str, typer.Option("--dataset", help="lecard-v1, the only one (its judged pools give the "
                                                          "random floor and the oracle ceiling).")] = "lecard-v1",
    samples: Annotated[int, typer.Option(help="Bootstrap resamples and randomisation sign vectors.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Seed of the resampling and of the random-order floor.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Paired comparison of A and B on the labelled queries every run covers: both NDCG conventions, MAP, P@5/10,
    the random-order floor and the oracle ceiling; A − B per metric with a paired bootstrap 95 % interval and a
    randomisation-test p-value."""
    from dataclasses import asdict, replace

    from jiancha.errors import ConfigError
    from jiancha.retrieval.compare import compare_runs
    from jiancha.retrieval.pipeline import load_qrels
    from jiancha.retrieval.trec import read_run

    if dataset != "lecard-v1":
        raise ConfigError(f"compare supports --dataset lecard-v1 (its judged pools give the floor and ceiling), "
                          f"not {dataset!r}")
    paths = [run_a, run_b, *(others or [])]
    names = [str(p) for p in paths]
    if len(set(names)) != len(names):
        raise ConfigError("the same run file is given twice; compare two different runs")
    runs = {n: read_run(p) for n, p in zip(names, paths, strict=True)}
    empty = [n for n, r in runs.items() if not r]
    if empty:
        raise ConfigError(f"{empty[0]}: the run ranks no query")
    from jiancha.retrieval.evaluate import compute_run_coverage, render_coverage_warnings

    qrels = load_qrels(dataset, data_dir)
    for n, r in runs.items():
        cov = compute_run_coverage(r, qrels)
        if cov.scored_hits and not cov.judged_hits:
            for line in render_coverage_warnings(replace(cov, unlabelled=(), missing=()), n, dataset):
                typer.secho(f"warning: {line}", fg="yellow", err=True)
    cmp = compare_runs(dataset, runs, qrels, n=samples, seed=seed)
    if not cmp.queries:
        raise ConfigError("the runs share no labelled query; compare runs of the same dataset")
    if as_json:
        typer.echo(json.dumps({"queries": list(cmp.queries), "metrics": cmp.metrics,
                               "paired": [asdict(p) for p in cmp.paired]}, ensure_ascii=False))
        return
    from rich.markup import escape

    from jiancha.cli._render import print_table, wide_console

    console = wide_console()
    console.print(escape(f"{dataset}: {len(cmp.queries)} labelled queries covered by every run "
                         "(ndcg = official, kndcg = KELLER's exponential gain)"), highlight=False)
    metrics = list(next(iter(cmp.metrics.values())))
    print_table(console, "", ["run", *metrics], [[n, *(f"{v[m]:.4f}" for m in metrics)] for n, v in cmp.metrics.items()])
    print_table(console, f"A − B (A = {names[0]}, B = {names[1]}; bootstrap and randomisation, n = {samples})",
                ["metric", "A", "B", "A − B", "95% CI", "p", "A wins / ties / B wins"],
                [[p.metric, f"{p.mean_a:.4f}", f"{p.mean_b:.4f}", f"{p.delta:+.4f}",
                  f"[{p.ci_low:+.4f}, {p.ci_high:+.4f}]", _p_text(p.p_value, samples), f"{p.wins} / {p.ties} / {p.losses}"]
                 for p in cmp.paired])


def _p_text(p: float, samples: int) -> str:
    """A randomisation p-value; the smallest one ``samples`` sign vectors give, 1 / (samples + 1), means that none
    was as extreme as the observed difference: the p-value is below about 1 / samples."""
    return f"< {1 / samples:.2g}" if p <= 1 / (samples + 1) + 1e-15 else f"{p:.4f}"


@app.command("index")
def index_cmd(
    src: Annotated[Path, typer.Argument(help="A folder of judgments (LeCaRD v1/v2 candidate .json, court documents "
                                             "as .txt (UTF-8 or GB18030), .html, .docx, .doc, .wps, .rtf or .pdf, "
                                             ".jsonl exports), or a PDP-style .jsonl "
                                             "export (fact, decision, relevant_articles).")],
    out: Annotated[Path, typer.Option("--out", help="Index folder to write.")],
    charge_model: Annotated[bool, typer.Option(
        "--charge-model/--no-charge-model", help="Train a classifier on the collection's facts → verdict charges "
        "to guess the charges of a query that names none (a collection of 500 judgments with charges or more; "
        "about a minute more for 9,000 judgments).")] = True,
    balanced_charges: Annotated[bool, typer.Option(
        "--balanced-charges/--no-balanced-charges", help="Train that classifier with every charge weighted alike, "
        "not as often as the collection has it: rare charges are guessed right more often, common ones a little "
        "less often (docs/retrieval-results.md).")] = False,
) -> None:
    """Build a case index for `jiancha retrieval search`."""
    import time

    from jiancha.errors import ConfigError
    from jiancha.retrieval.charge_model import MIN_TRAINING_DOCS
    from jiancha.retrieval.search import SearchIndex, SourceReport, read_case_docs

    if src.is_dir() and (out.resolve() == src.resolve() or src.resolve() in out.resolve().parents):
        raise ConfigError(f"--out {out} is inside the source folder {src}: the index would be mixed with the "
                          "documents; write it elsewhere")
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file; give a folder for the index")
    if out.is_dir() and any(out.iterdir()) and not (out / "index.json").is_file():
        raise ConfigError(f"--out {out} is a folder of other files; give a new folder, or an index to replace")
    t0 = time.perf_counter()
    report = SourceReport()
    try:
        idx = SearchIndex.build(read_case_docs(src, report), progress=_progress, charge_model=charge_model,
                                balanced_charges=balanced_charges)
    finally:
        for line in report.lines():
            typer.secho(f"warning: {line}", fg="yellow", err=True)
    idx.save(out)
    folded = sum(len(d.also) for d in idx.docs)
    typer.echo(f"indexed {len(idx.docs)} documents into {out} in {time.perf_counter() - t0:.1f}s"
               + (f" ({folded} identical {'copy' if folded == 1 else 'copies'} folded into them)" if folded else ""))
    if idx.charge_model is not None:
        typer.echo(f"charges of a query that names none: guessed by a classifier of {len(idx.charge_model.classes)} "
                   "charges learned from the verdicts" + (", every charge weighted alike" if balanced_charges else ""))
    else:
        why = (f"a classifier needs {MIN_TRAINING_DOCS} judgments with charges" if charge_model
               else "--no-charge-model") + ("; --balanced-charges has no classifier to weigh" if balanced_charges else "")
        typer.echo(f"charges of a query that names none: guessed from its closest cases ({why})")


@app.command("search")
def search_cmd(
    text: Annotated[str, typer.Argument(help="The facts of a case (案情), in Chinese.")],
    index: Annotated[Path, typer.Option("--index", help="Folder written by `jiancha retrieval index`.")],
    k: Annotated[int, typer.Option("-k", help="Number of cases.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON lines, one hit each.")] = False,
) -> None:
    """Similar cases for a case description: charges, decision or sentence, the matching passage, and why."""
    import time
    from dataclasses import asdict

    from jiancha.law.articles import article_name
    from jiancha.retrieval.search import SearchIndex

    idx = SearchIndex.load(index)
    t0 = time.perf_counter()
    hits = idx.search(text, k)
    ms = (time.perf_counter() - t0) * 1000
    if as_json:
        for h in hits:
            typer.echo(json.dumps(asdict(h), ensure_ascii=False))
        return
    from rich.markup import escape

    from jiancha.cli._render import wide_console

    console = wide_console()
    say = partial(console.print, highlight=False, soft_wrap=True)   # one line per field, whatever its length: a
    say(f"{len(hits)} of {len(idx.docs)} cases ({ms:.0f} ms)")      # pipe to grep sees whole passages
    for i, h in enumerate(hits, start=1):
        also = f" (also {', '.join(h.also)})" if h.also else ""
        number = f" {h.case_number}" if h.case_number and h.case_number != h.id else ""
        charges = "、".join(h.charges) or (f"指控{'、'.join(h.accused)}（未认定）" if h.accused else "罪名未识别")
        say(escape(f"{i}. {h.id}{number}{also}  {h.score:.3f}  {charges}  {h.decision}"))
        say(escape(f"   {h.reason}"))
        if h.articles:
            say(escape(f"   引用法条：{'、'.join(article_name(a) for a in h.articles)}"))
        say(escape(f"   「{h.passage}」"))


def _print_result(res: dict, as_json: bool, title: str) -> None:
    if as_json:
        typer.echo(json.dumps(res, ensure_ascii=False))
        return
    from rich.markup import escape

    from jiancha.cli._render import print_table, wide_console

    console = wide_console()
    # The title goes on its own line: as a table title it would wrap to the width of the two-column table.
    console.print(escape(f"{title}: {res['num_queries']} queries"), highlight=False)
    print_table(console, "", ["metric", "value"], [[k, f"{v:.4f}"] for k, v in res["metrics"].items()])



