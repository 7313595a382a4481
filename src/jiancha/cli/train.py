"""`jiancha train ...` commands: splits, sft, dapo, gspo, presets.

The recipe commands' options are generated from the config dataclasses (``jiancha.train.config``): every field is
a flag (``max_prompt_length`` → ``--max-prompt-length``) and a YAML key. Flags override ``--config FILE``, which
overrides ``--preset NAME``, which overrides the defaults.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
from typing import Any

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
console = Console()


# ---------------------------------------------------------------------------------------------------- splits


@app.command("splits")
def splits_command(
    pool: str = typer.Option(..., "--pool", help="Labelled PDP-format pool (file, folder or load_pdp source)."),
    out: str = typer.Option(..., "--out", help="Folder for <split>.jsonl files and manifest.json."),
    pool_split: str | None = typer.Option(None, "--pool-split", help="Split of --pool to read (default: its first)."),
    names: str | None = typer.Option(None, "--names", help="Comma-separated splits (default: all: natural, "
                                     "balanced, <CODE>-40, <CODE>-55)."),
    size: int = typer.Option(2000, "--size", help="Rows per split."),
    seed: int = typer.Option(42, "--seed", help="Seed of the sampling and shuffling."),
    compat: str = typer.Option("default", "--compat", help="default (shuffled splits) | reference (prefixes of one "
                               "seed-42 shuffled pool per class, not shuffled after)."),
    with_replacement: bool = typer.Option(False, "--with-replacement", help="Sample a class with replacement when "
                                          "it has fewer rows than a split needs."),
    natural: str | None = typer.Option(None, "--natural", help="Class distribution of the natural split: "
                                       "bench (PDP-Bench test, default), pool, or P,DNP,SNP,IENP numbers."),
    eval_set: str | None = typer.Option(None, "--eval-set", help="Evaluation source to check leakage against "
                                        "(ids and normalised-fact hashes)."),
    eval_split: str = typer.Option("test", "--eval-split", help="Split of --eval-set."),
    on_leak: str = typer.Option("fail", "--on-leak", help="fail | drop (drop leaking pool rows first)."),
) -> None:
    """Build class-ratio training splits with a manifest (counts, ids, fingerprints, leakage report)."""
    from jiancha.datasets.pdp import list_pdp_splits, load_pdp
    from jiancha.train.splits import SplitSpec, create_splits, parse_natural, split_names, write_splits

    records = load_pdp(pool, pool_split or list_pdp_splits(pool)[0])
    spec = SplitSpec(names=tuple(n for n in (names or "").split(",") if n.strip()) or split_names(), size=size,
                     seed=seed, compat=compat, with_replacement=with_replacement,  # type: ignore[arg-type]
                     natural=parse_natural(natural, records))
    evaluation = load_pdp(eval_set, eval_split) if eval_set else None
    splits, manifest = create_splits(records, spec, evaluation=evaluation, on_leak=on_leak,  # type: ignore[arg-type]
                                     source=pool)
    path = write_splits(splits, out, manifest)
    from rich.table import Table

    from jiancha.law.labels import Decision

    table = Table(title=f"splits of {len(records)} pool rows ({compat})")
    table.add_column("split")
    for d in Decision:
        table.add_column(d.code, justify="right")
    table.add_column("total", justify="right")
    for name, s in splits.items():
        table.add_row(name, *(str(s.counts[d.value]) for d in Decision), str(len(s.records)))
    console.print(table)
    if manifest["dropped_for_leakage"]:
        console.print(f"[yellow]dropped {len(manifest['dropped_for_leakage'])} pool rows that occur in the "
                      "evaluation set[/]")
    console.print(f"wrote {path}")


# ---------------------------------------------------------------------------------------------------- recipes


def _option_for(f: dataclasses.Field, hint: Any) -> inspect.Parameter:
    from rich.markup import escape

    args = typing.get_args(hint)
    base = next((a for a in args if a is not type(None)), hint) if args and type(None) in args else hint
    flag = "--" + f.name.replace("_", "-")
    help_text = f.metadata.get("help", "")
    default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
    shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
    if base is bool and isinstance(shown, bool):
        shown = flag[2:] if shown else f"no-{flag[2:]}"
    if typing.get_origin(base) is tuple and "comma-separated" not in help_text:
        help_text += " (comma-separated)"
    # The option's own default stays None so that --config / --preset values apply; the dataclass default is
    # shown in the help, escaped: typer renders help as rich markup, where a bare "[default: …]" would vanish.
    if shown not in ("", None):
        help_text = f"{help_text} {escape(f'[default: {shown}]')}"
    if base is bool:
        opt = typer.Option(None, f"{flag}/--no-{flag[2:]}", help=help_text, show_default=False)
        annotation: Any = bool | None
    elif typing.get_origin(base) is tuple:
        opt = typer.Option(None, flag, help=help_text, show_default=False)
        annotation = str | None
    else:
        opt = typer.Option(None, flag, help=help_text, show_default=False)
        annotation = (base if base in (int, float) else str) | None
    return inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=opt, annotation=annotation)


def _recipe_command(kind: str, doc: str) -> None:
    from jiancha.train.config import CONFIG_CLASSES

    cls = CONFIG_CLASSES[kind]
    hints = typing.get_type_hints(cls)
    skip = {"algorithm"}
    params = [
        inspect.Parameter("preset", inspect.Parameter.KEYWORD_ONLY, annotation=str | None,
                          default=typer.Option(None, "--preset", help="Preset name (see `jiancha train presets`).")),
        inspect.Parameter("config", inspect.Parameter.KEYWORD_ONLY, annotation=str | None,
                          default=typer.Option(None, "--config", help="YAML file of settings (keys = flag names "
                                               "with underscores).")),
        inspect.Parameter("print_config", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
                          default=typer.Option(False, "--print-config", help="Print the resolved settings as "
                                               "YAML and exit without training.")),
    ] + [_option_for(f, hints[f.name]) for f in dataclasses.fields(cls) if f.name not in skip]

    def command(**kwargs: Any) -> None:
        _run_recipe(kind, kwargs)

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__doc__ = doc
    command.__name__ = f"{kind}_command"
    app.command(kind)(command)


def _run_recipe(kind: str, kwargs: dict[str, Any]) -> None:
    from jiancha.train.config import build_config

    preset, config_file, print_config = kwargs.pop("preset"), kwargs.pop("config"), kwargs.pop("print_config")
    cfg = build_config(kind, preset=preset, config_file=config_file, overrides=kwargs,  # type: ignore[arg-type]
                       validate=not print_config)
    if print_config:
        import dataclasses

        import yaml

        console.print(yaml.safe_dump(cfg.to_dict(), allow_unicode=True, sort_keys=False), highlight=False,
                      markup=False)
        # the settings must hold together even when the paths are still to be given (a preset being previewed)
        dataclasses.replace(cfg, **{k: getattr(cfg, k) or "<unset>" for k in ("model", "data", "output_dir")}
                            ).validate()
        return
    console.print(f"[bold]jiancha train {kind}[/] → {cfg.output_dir}")
    if kind == "sft":
        from jiancha.train.sft import run_sft

        result = run_sft(cfg, console=console)  # type: ignore[arg-type]
    else:
        from jiancha.train.rl import run_rl

        result = run_rl(cfg, console=console)  # type: ignore[arg-type]
    console.print(f"[green]done[/]: {result.global_step} steps; model in {result.final_dir}"
                  + (f", merged model in {result.merged_dir}" if result.merged_dir else "")
                  + f"; metrics in {result.metrics_path}")


_recipe_command("sft", "Supervised fine-tuning on gold PDP answers (prompt/completion chat data).")
_recipe_command("dapo", "RLVR with DAPO (TRL GRPOTrainer, loss_type=dapo, clip 0.2/0.28, no KL).")
_recipe_command("gspo", "RLVR with GSPO (sequence-level importance sampling, clip 3e-4/4e-4).")


@app.command("presets")
def presets_command(name: str | None = typer.Argument(None, help="Show one preset's settings per recipe.")) -> None:
    """List the bundled presets, or show one."""
    from jiancha.train.config import RECIPES, load_preset, preset_names

    if name is None:
        for n in preset_names():
            console.print(n)
        return
    console.print_json(json.dumps({k: load_preset(name, k) for k in RECIPES}, ensure_ascii=False))  # type: ignore[arg-type]
