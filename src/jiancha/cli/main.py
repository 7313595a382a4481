"""The ``jiancha`` command. Each subcommand group lives in its own module and is imported lazily."""

from __future__ import annotations

import sys

import typer

from jiancha import __version__

app = typer.Typer(
    name="jiancha",
    help="jiancha (检察): Chinese criminal legal AI — prosecution decision prediction, case retrieval, "
    "dataset building and training.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"jiancha {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """jiancha (检察): Chinese criminal legal AI toolkit."""


def _register() -> None:
    from jiancha.cli import build, case, data, demo, ljp, pdp, retrieval, train

    app.add_typer(pdp.app, name="pdp", help="Prosecution decision prediction: eval, parse, score, compare.")
    app.add_typer(retrieval.app, name="retrieval", help="Legal case retrieval: run, eval, score, index.")
    app.add_typer(build.app, name="build", help="Build PDP-style datasets from prosecutorial documents.")
    app.add_typer(train.app, name="train", help="SFT and RLVR (DAPO, GSPO) training recipes.")
    app.add_typer(data.app, name="data", help="Dataset info and download.")
    app.add_typer(case.app, name="case", help="Use it on one case: decision, articles, analysis, precedents "
                  "(CLI or web page).")
    app.add_typer(ljp.app, name="ljp", help="CAIL2018 charge prediction (the LJP reference task).")
    app.command("demo")(demo.demo)


_register()


def main() -> None:
    from jiancha.errors import JianchaError

    try:
        app()
    except JianchaError as exc:
        from rich.console import Console

        Console(stderr=True).print(f"[bold red]error:[/] {exc}", highlight=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
