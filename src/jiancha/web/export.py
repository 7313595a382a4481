"""``jiancha view RUNS_DIR --export SITE_DIR``: the explorer's pages as flat HTML files that open from disk.

Written: ``index.html`` (leaderboard), per PDP run ``run-*.html`` and ``cases-*.html`` (every record; the filters
run in the browser), ``case-*.html`` per case, ``compare-*.html`` per pair of PDP runs, per retrieval run
``retrieval-*.html`` and one page per query, ``workbench.html`` (says that reviewing a case needs a running server, and the commands that start one),
and ``static/`` (stylesheet, scripts, htmx with its licence).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from jiancha._util.io import atomic_write_text
from jiancha.errors import ConfigError
from jiancha.web.explorer import CaseFilter, Explorer
from jiancha.web.render import ExportLinks, environment
from jiancha.web.runs import KIND_PDP, KIND_RETRIEVAL


def export_site(explorer: Explorer, out: str | Path, *, progress: Callable[[str], None] | None = None) -> int:
    """Write the static site into ``out`` (created; must not be inside the runs folder). Returns pages written."""
    out = Path(out)
    root = explorer.root.resolve()
    target = out.resolve()
    if target == root or target.is_relative_to(root):
        raise ConfigError(f"--export {out} is inside the runs folder {explorer.root}: choose a folder outside it, "
                          "so that the site does not become part of what it shows")
    out.mkdir(parents=True, exist_ok=True)
    static = out / "static"
    static.mkdir(exist_ok=True)
    for f in (files("jiancha.web") / "static").iterdir():
        if f.is_file():
            (static / f.name).write_bytes(f.read_bytes())
    env = environment(ExportLinks())
    links = env.globals["links"]
    count = 0

    def write(name: str, template: str, **ctx) -> None:
        nonlocal count
        atomic_write_text(out / name, env.get_template(template).render(has_runs=True, **ctx))
        count += 1
        if progress:
            progress(name)

    write("index.html", "leaderboard.html", title="Leaderboard", root=explorer.root.name, **explorer.leaderboard())
    pdp = explorer.runs(KIND_PDP)
    case_ids: dict[str, None] = {}
    for r in pdp:
        write(links.run(r.key), "run.html", title=f"Run {r.key}", **explorer.run_page(r.key))
        ctx = explorer.cases(r.key, CaseFilter(), page_size=None)
        write(links.cases(r.key), "cases.html", title=f"Cases of {r.key}", **ctx)
        case_ids.update(dict.fromkeys(explorer.cache.index(r).case_ids))
    for cid in case_ids:
        write(links.case(cid), "case.html", title=f"Case {cid}", **explorer.case_page(cid))
    keys = [r.key for r in pdp]
    for a in keys:
        for b in keys:
            if a < b:
                write(links.compare(a, b), "compare.html", title="Compare runs", keys=keys, a_key=a, b_key=b,
                      cmp=explorer.compare(a, b))
    for r in explorer.runs(KIND_RETRIEVAL):
        ctx = explorer.retrieval_page(r.key)
        write(links.retrieval(r.key), "retrieval.html", title=f"Retrieval run {r.key}", **ctx)
        for qid, _ in ctx["queries"]:
            write(links.retrieval(r.key, qid), "retrieval.html", title=f"Retrieval run {r.key}",
                  **explorer.retrieval_page(r.key, qid))
    # The workbench asks a model: the exported page says which command serves it, with this runs folder.
    write(links.workbench(), "workbench.html", title="审查起诉辅助", serve_dir=shlex.quote(str(explorer.root)))
    return count

