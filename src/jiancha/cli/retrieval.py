"""`jiancha retrieval ...` commands: eval (run + score), run (write a TREC run), score (evaluate a TREC run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(no_args_is_help=True)

_Dataset = Annotated[str, typer.Option("--dataset", help="lecard-v1 or lecard-v2.")]
_DataDir = Annotated[Path, typer.Option("--data-dir", help="Dataset root in its official layout.")]
_Method = Annotated[str, typer.Option("--method", help="bm25, qld, dense, charge, fuse or ltr (learned re-ranker, "
                                      "cross-validated on the labelled queries).")]
_QueryField = Annotated[str, typer.Option(help="fact, query or both (default: the dataset's).")]
_DocField = Annotated[str, typer.Option(help="fact, qw, reason, result, fact+reason or fact+reason+result "
                                        "(LeCaRD v1 names ajjbqk, cpfxgc, pjjg also work; default: the "
                                        "dataset's).")]
_Pool = Annotated[str, typer.Option(help="LeCaRD v1: judged (official) or all (100 per query).")]
_Scope = Annotated[str, typer.Option(help="LeCaRDv2: corpus (all candidates) or pool (ranking pools).")]
_Depth = Annotated[int, typer.Option(help="Documents per query in the run.")]
_K1 = Annotated[float | None, typer.Option(help="BM25 k1 (default 0.9, as Lucene).")]
_B = Annotated[float | None, typer.Option(help="BM25 b (default 0.4, as Lucene).")]
_BM25Method = Annotated[str, typer.Option(help="bm25s variant: lucene, robertson, atire, bm25l, bm25+.")]
_Mu = Annotated[float, typer.Option(help="QLD Dirichlet mu.")]
_Model = Annotated[str, typer.Option(help="dense: sentence-transformers model directory, or a hub id (needs the "
                                     "hub, or the model in the Hugging Face cache with HF_HUB_OFFLINE=1).")]
_BatchSize = Annotated[int, typer.Option(help="dense: encoding batch size.")]
_FuseMethods = Annotated[str, typer.Option(help="fuse: comma-separated methods.")]
_Fusion = Annotated[str, typer.Option(help="fuse: weighted or rrf.")]
_RrfK = Annotated[float, typer.Option(help="fuse: RRF k.")]
_Weights = Annotated[str, typer.Option(help="fuse: comma-separated weights, one per method.")]
_Protect = Annotated[bool, typer.Option("--protect-charges/--no-protect-charges",
                                        help="Keep charge names as one token.")]
_PrimaryW = Annotated[float, typer.Option(help="charge: weight of a shared primary charge.")]
_OverlapW = Annotated[float, typer.Option(help="charge: weight of any shared charge.")]
_ExactW = Annotated[float, typer.Option(help="charge: weight of an identical charge set.")]
_JaccardW = Annotated[float, typer.Option(help="charge: weight of the charge-set Jaccard.")]
_ReasonCharges = Annotated[bool, typer.Option("--reason-charges/--no-reason-charges",
                                              help="charge: also count the charges the court's reasoning names.")]
_SectionW = Annotated[float, typer.Option(help="charge: weight of a charge in the same Criminal Law section.")]
_QldW = Annotated[float, typer.Option(help="charge: weight of z-scored QLD added to z-scored BM25 in tiers.")]
_LtrModel = Annotated[str, typer.Option(help="ltr: pairwise (logistic regression on pair differences), gbrt, hgb "
                                        "or pointwise-linear.")]
_CvSplit = Annotated[str, typer.Option(help="ltr: cross-validation by query, kfold (seeded) or parity (ridx halves).")]
_CvFolds = Annotated[int, typer.Option(help="ltr: number of folds for --cv-split kfold.")]
_Seed = Annotated[int, typer.Option(help="ltr: seed of the folds and the model.")]
_TrainQrels = Annotated[Path | None, typer.Option(help="ltr: train on these labels (LeCaRD v1 .json or TREC qrels) "
                                                  "instead of cross-validating; their queries are not scored.")]
_SaveModel = Annotated[Path | None, typer.Option(help="ltr: write the trained model (all training queries) here.")]
_LoadModel = Annotated[Path | None, typer.Option(help="ltr: apply this saved model; queries it was trained on are "
                                                 "not scored.")]
LTR_OPTIONS = ("ltr_model", "cv_split", "cv_folds", "seed", "train_qrels", "save_model", "load_model")
_Cache = Annotated[Path | None, typer.Option(help="Tokens/index cache (default $JIANCHA_CACHE or "
                                             "~/.cache/jiancha).")]


#: Options that only one dataset has: given for the other one they would be silently ignored.
DATASET_ONLY_OPTIONS = {"pool": "lecard-v1", "scope": "lecard-v2", "setting": "lecard-v2"}


def _check_dataset_options(ctx: typer.Context, dataset: str) -> None:
    from jiancha.cli._render import refuse_ignored_options

    for name, owner in DATASET_ONLY_OPTIONS.items():
        if dataset != owner:
            refuse_ignored_options(ctx, (name,), f"with --dataset {dataset}: it applies to {owner} only")


def _check_ltr_options(ctx: typer.Context, method: str) -> None:
    from jiancha.cli._render import refuse_ignored_options

    if method != "ltr":
        refuse_ignored_options(ctx, LTR_OPTIONS, f"with --method {method}: it applies to --method ltr only")
    else:
        refuse_ignored_options(ctx, ("doc_field", "model", "batch_size", "fuse_methods", "fusion", "rrf_k", "weights"),
                               "with --method ltr: it scores the facts, reasoning and verdict fields itself")


def _run_ltr(spec_options: dict, ltr_model: str, cv_split: str, cv_folds: int, seed: int, train_qrels: Path | None,
             save_model: Path | None, load_model: Path | None, cache_dir: Path | None, data_dir: Path):
    """The ltr method: base spec (tokeniser, BM25/QLD, charge options) as for charge, then the learned re-ranker."""
    from jiancha.retrieval.ltr import LTRConfig, run_ltr

    base = _spec_from(spec_options, method="charge")
    return run_ltr(base, data_dir, LTRConfig(model=ltr_model, seed=seed, folds=cv_folds), split=cv_split,
                   train_qrels_path=train_qrels, load_model_path=load_model, save_model_path=save_model,
                   cache=cache_dir, progress=_progress)


def _progress(it, desc: str, total: int):
    """Progress bar on standard error, so that standard output carries only the result (--json stays clean)."""
    from rich.console import Console
    from rich.progress import track

    return track(it, description=desc, total=total, transient=True, console=Console(stderr=True))


def _spec(*, dataset: str, method: str, query_field: str, doc_field: str, pool: str, scope: str, setting: str,
          depth: int, k1: float | None, b: float | None, bm25_method: str, mu: float, model: str, batch_size: int,
          fuse_methods: str, fusion: str, rrf_k: float, weights: str, protect_charges: bool, primary_weight: float,
          overlap_weight: float, exact_weight: float, jaccard_weight: float = 1.0, reason_charges: bool = True,
          section_weight: float = 0.0, qld_weight: float = 0.0):
    from jiancha.errors import ConfigError
    from jiancha.retrieval.bm25 import BM25Config
    from jiancha.retrieval.charge import ChargeConfig
    from jiancha.retrieval.dense import DenseConfig
    from jiancha.retrieval.fuse import FuseConfig
    from jiancha.retrieval.pipeline import RetrievalSpec
    from jiancha.retrieval.qld import QLDConfig

    base = BM25Config()
    try:
        w = tuple(float(x) for x in weights.split(",") if x.strip())
    except ValueError:
        raise ConfigError(f"--weights {weights!r}: expected comma-separated numbers such as 1,1,2") from None
    return RetrievalSpec(
        dataset=dataset, method=method, query_field=query_field, doc_field=doc_field, pool=pool, scope=scope,
        setting=setting, depth=depth, protect_charges=protect_charges,
        bm25=BM25Config(k1=base.k1 if k1 is None else k1, b=base.b if b is None else b, method=bm25_method),
        qld=QLDConfig(mu=mu), dense=DenseConfig(model=model, batch_size=batch_size),
        charge=ChargeConfig(primary_weight=primary_weight, overlap_weight=overlap_weight, exact_weight=exact_weight,
                            jaccard_weight=jaccard_weight, reason_charges=reason_charges,
                            section_weight=section_weight, qld_weight=qld_weight),
        fuse=FuseConfig(methods=tuple(m.strip() for m in fuse_methods.split(",") if m.strip()), kind=fusion,
                        k=rrf_k, weights=w),
    ).resolved()


def _spec_from(options: dict, **overrides):
    """``_spec`` from a command's options (its ``locals()``): the spec's parameters are picked by name, so the
    commands cannot pass them in the wrong order."""
    import inspect

    names = inspect.signature(_spec).parameters
    return _spec(**{k: v for k, v in {**options, **overrides}.items() if k in names})


@app.command("eval")
def eval_cmd(
    ctx: typer.Context,
    dataset: _Dataset,
    data_dir: _DataDir,
    out: Annotated[Path, typer.Option("--out", help="Directory for run.trec, metrics.json and manifest.json.")],
    method: _Method = "bm25",
    as_json: Annotated[bool, typer.Option("--json", help="Print {'metrics': {...}, 'num_queries': n}.")] = False,
    query_field: _QueryField = "",
    doc_field: _DocField = "",
    pool: _Pool = "judged",
    scope: _Scope = "corpus",
    setting: Annotated[str, typer.Option(help="LeCaRDv2: zero-shot (all queries) or test (160).")] = "zero-shot",
    depth: _Depth = 1000,
    k1: _K1 = None,
    b: _B = None,
    bm25_method: _BM25Method = "lucene",
    mu: _Mu = 1000.0,
    model: _Model = "",
    batch_size: _BatchSize = 32,
    fuse_methods: _FuseMethods = "bm25,qld,charge",
    fusion: _Fusion = "weighted",
    rrf_k: _RrfK = 60.0,
    weights: _Weights = "",
    protect_charges: _Protect = True,
    primary_weight: _PrimaryW = 1.0,
    overlap_weight: _OverlapW = 1.0,
    exact_weight: _ExactW = 0.0,
    jaccard_weight: _JaccardW = 1.0,
    reason_charges: _ReasonCharges = True,
    section_weight: _SectionW = 0.0,
    qld_weight: _QldW = 0.0,
    ltr_model: _LtrModel = "pairwise",
    cv_split: _CvSplit = "kfold",
    cv_folds: _CvFolds = 5,
    seed: _Seed = 13,
    train_qrels: _TrainQrels = None,
    save_model: _SaveModel = None,
    load_model: _LoadModel = None,
    cache_dir: _Cache = None,
) -> None:
    """Run a method on a dataset and evaluate it; writes run.trec, metrics.json and manifest.json to --out.

    --method ltr never scores a query it was trained on: by default it cross-validates over the labelled queries
    and reports the held-out figures."""
    from jiancha.retrieval.evaluate import evaluate
    from jiancha.retrieval.pipeline import run_retrieval, write_outputs

    options = dict(locals())
    _check_dataset_options(ctx, dataset)
    _check_ltr_options(ctx, method)
    if method == "ltr":
        run, manifest, ds, qrels = _run_ltr(
            options, ltr_model, cv_split, cv_folds, seed, train_qrels, save_model, load_model, cache_dir, data_dir)
        result = evaluate(dataset, run, qrels, setting=setting)
        write_outputs(out, run, result, manifest, "jiancha-ltr")
        mode = manifest["training"]["mode"]
        _print_result(result.to_json(), as_json, f"{dataset} ltr ({ltr_model}, {mode}, held-out queries only)")
        return
    spec = _spec_from(options)
    run, manifest, ds = run_retrieval(spec, data_dir, cache=cache_dir, progress=_progress)
    result = evaluate(spec.dataset, run, ds.qrels, setting=spec.setting)
    write_outputs(out, run, result, manifest, spec.tag())
    _print_result(result.to_json(), as_json, f"{dataset} {method} (query {spec.query_field}, "
                                              f"candidates {spec.doc_field})")


@app.command("run")
def run_cmd(
    ctx: typer.Context,
    dataset: _Dataset,
    data_dir: _DataDir,
    out: Annotated[Path, typer.Option("--out", help="TREC run file to write (manifest beside it).")],
    method: _Method = "bm25",
    query_field: _QueryField = "",
    doc_field: _DocField = "",
    pool: _Pool = "judged",
    scope: _Scope = "corpus",
    depth: _Depth = 1000,
    k1: _K1 = None,
    b: _B = None,
    bm25_method: _BM25Method = "lucene",
    mu: _Mu = 1000.0,
    model: _Model = "",
    batch_size: _BatchSize = 32,
    fuse_methods: _FuseMethods = "bm25,qld,charge",
    fusion: _Fusion = "weighted",
    rrf_k: _RrfK = 60.0,
    weights: _Weights = "",
    protect_charges: _Protect = True,
    primary_weight: _PrimaryW = 1.0,
    overlap_weight: _OverlapW = 1.0,
    exact_weight: _ExactW = 0.0,
    jaccard_weight: _JaccardW = 1.0,
    reason_charges: _ReasonCharges = True,
    section_weight: _SectionW = 0.0,
    qld_weight: _QldW = 0.0,
    ltr_model: _LtrModel = "pairwise",
    cv_split: _CvSplit = "kfold",
    cv_folds: _CvFolds = 5,
    seed: _Seed = 13,
    train_qrels: _TrainQrels = None,
    save_model: _SaveModel = None,
    load_model: _LoadModel = None,
    cache_dir: _Cache = None,
) -> None:
    """Rank every query (labelled or not) and write a TREC run (its manifest beside it, as RUN.manifest.json)."""
    from jiancha.retrieval.pipeline import run_retrieval

    options = dict(locals(), setting="zero-shot")   # `run` ranks every query
    _check_dataset_options(ctx, dataset)
    _check_ltr_options(ctx, method)
    if method == "ltr":
        run, manifest, _, _ = _run_ltr(
            options, ltr_model, cv_split, cv_folds, seed, train_qrels, save_model, load_model, cache_dir, data_dir)
        _write_run_file(out, run, "jiancha-ltr", manifest)
        return
    spec = _spec_from(options)
    run, manifest, _ = run_retrieval(spec, data_dir, cache=cache_dir, progress=_progress)
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


@app.command("score")
def score_cmd(
    ctx: typer.Context,
    run_file: Annotated[Path, typer.Argument(help="TREC run: qid Q0 docid rank score tag.")],
    dataset: _Dataset,
    data_dir: _DataDir,
    setting: Annotated[str, typer.Option(help="LeCaRDv2: zero-shot or test.")] = "zero-shot",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Score an external TREC run against the dataset's labels (run queries without labels are counted and
    skipped with a warning; labelled queries absent from the run score 0)."""
    from jiancha.retrieval.evaluate import compute_run_coverage, evaluate, render_coverage_warnings
    from jiancha.retrieval.pipeline import load_qrels
    from jiancha.retrieval.trec import read_trec_run

    _check_dataset_options(ctx, dataset)
    run = read_trec_run(run_file)
    qrels = load_qrels(dataset, data_dir, setting=setting)
    labels = f"{dataset} ({setting})" if dataset == "lecard-v2" else dataset
    for line in render_coverage_warnings(compute_run_coverage(run, qrels), str(run_file), labels):
        typer.secho(f"warning: {line}", fg="yellow", err=True)
    result = evaluate(dataset, run, qrels, setting=setting)
    _print_result(result.to_json(), as_json, f"{dataset} {run_file}")


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
