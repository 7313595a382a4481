"""Printing helpers shared by the CLI modules (rich tables, a console that does not truncate when piped)."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table


def wide_console() -> Console:
    """A console that does not truncate wide tables when output is piped to a file."""
    return Console() if sys.stdout.isatty() else Console(width=200)


def print_table(console: Console, title: str, headers: list[str], rows: list[list[str]]) -> None:
    table = Table(title=title, title_justify="left", header_style="bold")
    for i, h in enumerate(headers):
        table.add_column(h, justify="left" if i == 0 else "right", overflow="fold")
    for r in rows:
        table.add_row(*r)
    console.print(table)
