"""A small web page for one case (FastAPI, extra ``web``): paste the three fields, get a recommendation."""

from __future__ import annotations

from dataclasses import asdict
from importlib.resources import files
from typing import Any

from pydantic import BaseModel, Field

from jiancha._util.lazy import require
from jiancha.datasets.records import PDPRecord
from jiancha.law.statutes import Statutes
from jiancha.web.consult import DEFAULT_MODEL, consult
from jiancha.web.precedents import PrecedentIndex

#: Longest accepted field, in characters (a real 不起诉决定书 fact section is a few thousand).
MAX_FIELD_CHARS = 20_000


class CaseIn(BaseModel):
    """The three model inputs of a PDP case."""

    person_info: str = Field("", max_length=MAX_FIELD_CHARS)
    procedure: str = Field("", max_length=MAX_FIELD_CHARS)
    fact: str = Field(..., min_length=1, max_length=MAX_FIELD_CHARS)


def create_app(*, model: str = DEFAULT_MODEL, precedents: list[PDPRecord] | None = None, k: int = 5,
               statutes: Statutes | None = None, base_urls: tuple[str, ...] = (),
               api_key_env: str | None = None):
    fastapi = require("fastapi", "web")
    jinja2 = require("jinja2", "web")
    from fastapi.responses import HTMLResponse

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(files("jiancha.web") / "templates")),
                             autoescape=True)
    page = env.get_template("case.html")
    index = PrecedentIndex(precedents) if precedents else None
    app = fastapi.FastAPI(title="jiancha: prosecutorial review of one case")

    def run(case: CaseIn) -> dict[str, Any]:
        record = PDPRecord(id="", person_info=case.person_info, procedure=case.procedure, fact=case.fact,
                           decision="")
        result = consult(record, model=model, precedents=precedents, k=k, statutes=statutes,
                         base_urls=base_urls, api_key_env=api_key_env, index=index)
        return asdict(result)

    @app.get("/", response_class=HTMLResponse)
    def form() -> str:
        return page.render(model=model, case={}, result=None)

    @app.post("/", response_class=HTMLResponse)
    def form_submit(person_info: str = fastapi.Form(""), procedure: str = fastapi.Form(""),
                    fact: str = fastapi.Form(...)) -> str:
        case = CaseIn(person_info=person_info, procedure=procedure, fact=fact)
        return page.render(model=model, case=case.model_dump(), result=run(case))

    @app.post("/api/consult")
    def api(case: CaseIn) -> dict[str, Any]:
        return run(case)

    @app.get("/healthz")
    def health() -> dict[str, str]:
        return {"status": "ok", "model": model}

    return app
