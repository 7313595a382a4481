"""`jiancha view RUNS_DIR`: the results explorer and case workbench in the browser, or a static copy of it."""

from __future__ import annotations

from typing import Annotated

import typer

from jiancha.cli.case import (
    ApiKeyEnvOpt,
    BaseUrlOpt,
    HostOpt,
    ModelOpt,
    PortOpt,
    PrecedentsOpt,
    StatutesOpt,
)


def view(
    runs_dir: Annotated[str, typer.Argument(help="Folder holding run directories (PDP, LJP, retrieval), at any "
                                            "depth.")],
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    export: Annotated[str | None, typer.Option("--export", help="Write a self-contained static copy into this "
                                               "folder (opens from disk) instead of serving.")] = None,
    statutes_dir: StatutesOpt = None,
    model: ModelOpt = "baseline:rules",
    precedents: PrecedentsOpt = "sample",
    split: Annotated[str, typer.Option("--split", help="Split of --precedents.")] = "test",
    base_url: BaseUrlOpt = None,
    api_key_env: ApiKeyEnvOpt = None,
) -> None:
    """Browse evaluation results: leaderboard, runs, cases, comparisons, retrieval runs; plus the case workbench
    (extra `web`). Serves on http://HOST:PORT/, or writes a static site with --export."""
    import os
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from jiancha.cli.case import _check_model
    from jiancha.errors import ConfigError
    from jiancha.web.explorer import Explorer
    from jiancha.web.runs import KIND_PDP
    from jiancha.web.serve import check_listen, check_port

    if export is None:
        check_port(port)
    root = Path(runs_dir)
    if not root.is_dir():
        raise ConfigError(f"runs folder {runs_dir!r} does not exist; pass the folder your run directories are in "
                          "(e.g. runs/)")
    if export is None:
        _check_model(model, base_url, api_key_env)
        check_listen(host, port)
    from jiancha.law.statutes import load_statutes

    statutes = load_statutes(statutes_dir) if statutes_dir else None
    from jiancha.web.runs import RunCache, default_cache_dir

    explorer = Explorer(root, statutes=statutes, cache=RunCache(disk=default_cache_dir()))
    console = Console(stderr=True)
    runs = explorer.runs()
    pdp = [r for r in runs if r.kind == KIND_PDP]
    console.print(f"{len(runs)} runs under {root} ({len(pdp)} PDP)")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("indexing PDP runs", total=len(pdp))
        explorer.warm(lambda key: progress.advance(task), workers=os.cpu_count() or 1)
    if export is not None:
        from jiancha.web.export import export_site

        with Progress(TextColumn("{task.description}"), TimeElapsedColumn(), console=console,
                      transient=True) as progress:
            task = progress.add_task("writing pages")
            n = export_site(explorer, export,
                            progress=lambda name: progress.update(task, description=f"writing {name}"))
        console.print(f"wrote {n} pages to {export}; open {Path(export) / 'index.html'} in a browser")
        return
    from jiancha.cli.case import workbench_settings
    from jiancha.web.app import create_app
    from jiancha.web.serve import serve

    bench = workbench_settings(model, precedents, split, statutes_dir=None, base_url=base_url,
                               api_key_env=api_key_env)
    bench["statutes"] = statutes
    console.print(f"serving on http://{host}:{port}/ (Ctrl-C stops)")
    serve(create_app(explorer=explorer, **bench), host, port)
