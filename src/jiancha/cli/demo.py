"""`jiancha demo`: the main job on the embedded default data, offline."""

from __future__ import annotations

import typer


def demo(out: str = typer.Option("runs", help="Parent folder of the run directory.")) -> None:
    """Evaluate an offline model on the bundled PDP sample set and a retrieval baseline on the mini corpus."""
    raise typer.Exit(1)
