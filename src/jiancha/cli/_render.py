"""Printing helpers shared by the CLI modules (rich tables, a console that does not truncate when piped)."""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator

import typer
from rich.console import Console
from rich.table import Table


def wide_console() -> Console:
    """A console that does not truncate wide tables when output is piped to a file."""
    return Console() if sys.stdout.isatty() else Console(width=200)


_CJK = re.compile(r"[\u4e00-\u9fff]")


def print_table(console: Console, title: str, headers: list[str], rows: list[list[str]]) -> None:
    """Cells are plain text, never rich markup (metric names like ``recall@100[rel>=1]`` contain brackets)."""
    from rich.markup import escape

    table = Table(title=escape(title), title_justify="left", header_style="bold")
    for i, h in enumerate(headers):
        # figures align right; the first column and any column of Chinese text (a fact excerpt) left
        text = i == 0 or any(_CJK.search(r[i]) for r in rows if i < len(r))
        table.add_column(escape(h), justify="left" if text else "right", overflow="fold")
    for r in rows:
        table.add_row(*(escape(c) for c in r))
    console.print(table)


@contextlib.contextmanager
def interrupt_note(console: Console, run_dir: str) -> Iterator[None]:
    """On Ctrl-C, say where the finished work is and how to resume, then exit 130 (the shell's code for SIGINT)."""
    try:
        yield
    except KeyboardInterrupt as exc:
        from rich.markup import escape

        if getattr(exc, "resume_note_printed", False):     # the run store has said how to resume
            raise typer.Exit(130) from None
        console.print(f"\n[yellow]interrupted[/]: every completed request is stored in {escape(run_dir)}; "
                      "run the same command again to resume (nothing is sent twice)", highlight=False)
        raise typer.Exit(130) from None


def given_on_command_line(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was typed by the user (not its default)."""
    source = ctx.get_parameter_source(name) if name in ctx.params else None
    return source is not None and source.name == "COMMANDLINE"  # by name: typer may vendor click's enum


def refuse_ignored_options(ctx: typer.Context, names: tuple[str, ...], reason: str) -> None:
    """A ConfigError for the first option in ``names`` given on the command line that would be silently ignored."""
    from jiancha.errors import ConfigError

    for name in names:
        if given_on_command_line(ctx, name):
            raise ConfigError(f"--{name.replace('_', '-')} has no effect {reason}; drop it")
