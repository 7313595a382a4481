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
    from jiancha.cli import case, corpus, data, demo, export, ljp, pdp, retrieval, train, view

    app.add_typer(pdp.app, name="pdp", help="Prosecution decision prediction: eval, parse, score, compare.")
    app.add_typer(retrieval.app, name="retrieval", help="Legal case retrieval: eval, run, score, compare, index, search.")
    app.add_typer(corpus.app, name="build", help="Build PDP-style datasets from prosecutorial documents.")
    app.add_typer(train.app, name="train", help="SFT and RLVR (DAPO, GSPO) training recipes.")
    app.add_typer(data.app, name="data", help="Dataset info and download.")
    app.add_typer(case.app, name="case", help="Use it on one case: decision, articles, analysis, precedents "
                  "(CLI or web page).")
    app.add_typer(ljp.app, name="ljp", help="CAIL2018 charge prediction (the LJP reference task).")
    app.command("demo")(demo.demo)
    app.add_typer(export.app, name="export", help="PDP as a task of other evaluation tools (lm-evaluation-harness).")
    app.command("view", help="Results explorer and case workbench in the browser (extra `web`); --export writes "
                "a static copy.")(view.view)


_register()


def _os_error_message(exc: OSError) -> str:
    """One line for a file that cannot be read or written: which path, why, and what to do."""
    reason = (exc.strerror or str(exc)).rstrip(".")
    if exc.filename is None:
        return f"{reason}"
    hint = {FileNotFoundError: "check the path", IsADirectoryError: "pass a file, not a folder",
            NotADirectoryError: "pass a folder, not a file", PermissionError: "check the permissions"}
    tip = next((h for cls, h in hint.items() if isinstance(exc, cls)), "check the path")
    return f"{exc.filename}: {reason[0].lower() + reason[1:]}; {tip}"


def main() -> None:
    """Entry point: run the app; a JianchaError or an unreadable file becomes one red line and exit code 2
    (``JIANCHA_DEBUG=1`` shows the traceback instead)."""
    import os

    from jiancha.errors import JianchaError

    try:
        app()
    except (JianchaError, OSError) as exc:
        if os.environ.get("JIANCHA_DEBUG"):
            raise
        from rich.console import Console

        message = _os_error_message(exc) if isinstance(exc, OSError) else str(exc)
        # The message is printed as plain text (no markup: case numbers, charge names and metric names contain
        # brackets) and soft-wrapped, so that it stays one line in logs.
        console = Console(stderr=True, highlight=False, soft_wrap=True)
        console.print("[bold red]error:[/] ", end="")
        console.out(message, highlight=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
