"""Rendering shared by the served app and the exported site: the Jinja environment (autoescaping every value:
model outputs and case texts are untrusted), display helpers, and the two ways of writing links."""

from __future__ import annotations

import hashlib
import re
from importlib.resources import files
from urllib.parse import urlencode

from jiancha.errors import ParseError
from jiancha.law.articles import article_name, parse_canonical
from jiancha.law.statutes import STATUTE_FILES, Statutes

#: Shown where statute texts are absent: how to add them.
STATUTES_HINT = ("法条原文未加载。启动时加 --statutes-dir DIR（LawRefBook 格式的 Markdown 文件夹，含 "
                 + "、".join(patterns[0] for patterns in STATUTE_FILES.values()) + "）即可显示原文。")
NOTICE = "仅供研究参考，不构成法律意见。"


def article_text(canonical: str, statutes: Statutes | None) -> str | None:
    if statutes is None:
        return None
    try:
        return statutes.article_text(parse_canonical(canonical))
    except ParseError:
        return None


def slug(text: str) -> str:
    """A file-name-safe, collision-free name for a run key or case id in the exported site."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")[:40]
    return f"{safe or 'x'}-{hashlib.sha1(text.encode('utf-8')).hexdigest()[:8]}"


class ServerLinks:
    """Links of the served app (query strings; the server reads the runs folder per request)."""

    static_mode = False

    def home(self) -> str:
        return "/"

    def static(self, name: str) -> str:
        return f"/static/{name}"

    def run(self, key: str) -> str:
        return "/run?" + urlencode({"run": key})

    def cases(self, key: str, **flt: str) -> str:
        return "/cases?" + urlencode({"run": key, **{k: v for k, v in flt.items() if v}})

    def case(self, case_id: str) -> str:
        return "/case?" + urlencode({"id": case_id})

    def compare(self, a: str, b: str) -> str:
        return "/compare?" + urlencode({"a": a, "b": b})

    def retrieval(self, key: str, qid: str | None = None) -> str:
        return "/retrieval?" + urlencode({"run": key, **({"q": qid} if qid else {})})

    def workbench(self) -> str:
        return "/workbench"


class ExportLinks(ServerLinks):
    """Links of the exported site: flat files side by side, opened from disk (``file://``)."""

    static_mode = True

    def home(self) -> str:
        return "index.html"

    def static(self, name: str) -> str:
        return f"static/{name}"

    def run(self, key: str) -> str:
        return f"run-{slug(key)}.html"

    def cases(self, key: str, **flt: str) -> str:
        # Filters are applied in the browser on the exported page; a link carries them in the fragment.
        frag = urlencode({k: v for k, v in flt.items() if v})
        return f"cases-{slug(key)}.html" + (f"#{frag}" if frag else "")

    def case(self, case_id: str) -> str:
        return f"case-{slug(case_id)}.html"

    def compare(self, a: str, b: str) -> str:
        return f"compare-{slug(a)}-{slug(b)}.html"

    def retrieval(self, key: str, qid: str | None = None) -> str:
        return f"retrieval-{slug(key)}" + (f"-q{slug(qid)}" if qid else "") + ".html"

    def workbench(self) -> str:
        return "workbench.html"


def fmt(value, digits: int = 4) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def fmt_int(value) -> str:
    return "–" if value is None else f"{round(value):,}"


def environment(links: ServerLinks):
    """The Jinja environment: autoescape on for every template, helpers as globals and filters."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(files("jiancha.web") / "templates")),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.globals.update(links=links, notice=NOTICE, statutes_hint=STATUTES_HINT)
    env.filters.update(article=article_name, fmt=fmt, fmt_int=fmt_int)
    return env
