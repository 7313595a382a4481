"""The web app (FastAPI + Jinja2 + htmx, extra ``web``): results explorer over a runs folder and the case
workbench. Every error becomes a message on a page (or a JSON ``{"error": ...}`` for the API), never a bare 500.

``create_app(runs_dir=None, ...)``: without a runs folder only the workbench is served (``jiancha case serve``).
"""

# No ``from __future__ import annotations``: FastAPI reads the handlers' annotations (Request, Form) at
# definition time, and they name objects imported inside create_app (fastapi is an optional extra).
from dataclasses import asdict, replace
from importlib.resources import files
from pathlib import Path
from typing import Any

from jiancha._util.lazy import require
from jiancha.datasets.records import PDPRecord
from jiancha.law.statutes import Statutes
from jiancha.pdp.consult import DEFAULT_MODEL
from jiancha.retrieval.precedents import PrecedentIndex
from jiancha.web.explorer import CaseFilter, Explorer
from jiancha.web.render import ServerLinks, environment
from jiancha.web.runs import KIND_PDP, NotFoundError
from jiancha.web.upload import MAX_UPLOAD_BYTES, case_from_document, person_label, picked_person
from jiancha.web.workbench import (
    MAX_FIELD_CHARS,
    InputError,
    Outcome,
    Workbench,
    absent_charge_note,
    bilingual,
    guessed_charge_note,
    precedent_articles,
    precedent_reasons,
    split_precedents,
)

__all__ = ["MAX_FIELD_CHARS", "create_app", "message_title", "validation_message"]

#: Heading of an error page by HTTP status (the message under it says what to do).
TITLES = {404: "找不到（not found）", 422: "请求有误（bad request）", 400: "请求有误（bad request）",
          405: "请求有误（bad request）"}


def message_title(status: int) -> str:
    return TITLES.get(status, "出错了（server error）" if status >= 500 else "请求有误（bad request）")


def validation_message(errors: list[dict]) -> str:
    """FastAPI's validation errors in words: ``missing parameter run``, ``parameter page: <why>``."""
    parts = []
    for e in errors:
        name = ".".join(str(x) for x in e.get("loc", ())[1:]) or "request"
        parts.append(f"missing parameter {name}" if e.get("type") == "missing" else f"parameter {name}: {e.get('msg')}")
    return "; ".join(parts)


def create_app(runs_dir: str | Path | None = None, *, model: str = DEFAULT_MODEL,
               precedents: list[PDPRecord] | None = None, k: int = 5, statutes: Statutes | None = None,
               base_urls: tuple[str, ...] = (), api_key_env: str | None = None, explorer: Explorer | None = None,
               index: PrecedentIndex | None = None):
    fastapi = require("fastapi", "web")
    require("jinja2", "web")
    from fastapi import Request
    from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
    from fastapi.staticfiles import StaticFiles

    env = environment(ServerLinks())
    if explorer is None and runs_dir is not None:
        explorer = Explorer(Path(runs_dir), statutes=statutes)
    bench = Workbench(model=model, precedents=precedents, k=k, statutes=statutes, base_urls=base_urls,
                      api_key_env=api_key_env, index=index)
    app = fastapi.FastAPI(title="jiancha: results explorer and case workbench", docs_url=None, redoc_url=None,
                          openapi_url=None)
    app.mount("/static", StaticFiles(directory=str(files("jiancha.web") / "static")), name="static")

    def page(name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(has_runs=explorer is not None, **ctx),
                            status_code=status)

    def message(text: str, status: int) -> HTMLResponse:
        return page("message.html", status, title=message_title(status), message=text)

    def api_error(zh: str, en: str, status: int) -> JSONResponse:
        return JSONResponse({"error": bilingual(zh, en)}, status_code=status)

    def need_explorer() -> Explorer:
        if explorer is None:
            raise NotFoundError("no runs folder is served here; start `jiancha view RUNS_DIR` to browse results")
        return explorer

    @app.exception_handler(NotFoundError)
    async def not_found(request: Request, exc: NotFoundError):
        if request.url.path.startswith("/api/"):
            return api_error("找不到", str(exc), 404)
        return message(str(exc), 404)

    @app.exception_handler(Exception)
    async def failure(request: Request, exc: Exception):
        text = f"{type(exc).__name__}: {exc}"
        if request.url.path.startswith("/api/"):
            return api_error("服务器出错", text, 500)
        return message(f"this page could not be built ({text}); the server log has the details", 500)

    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        parts = validation_message(exc.errors())
        if request.url.path.startswith("/api/"):
            return api_error("请求有误", parts, 422)
        return message(f"bad request: {parts} ({request.url.path})", 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        if request.url.path.startswith("/api/"):
            return api_error("请求有误" if exc.status_code < 500 else "服务器出错",
                             f"{exc.status_code}: {exc.detail}", exc.status_code)
        return message(f"{exc.status_code}: {exc.detail} ({request.url.path})", exc.status_code)

    # --- results explorer --------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def home():
        if explorer is None:
            return RedirectResponse("/workbench", status_code=303)
        return page("leaderboard.html", title="Leaderboard", root=str(explorer.root), **explorer.leaderboard())

    @app.get("/run", response_class=HTMLResponse)
    def run(run: str):
        return page("run.html", title=f"Run {run}", **need_explorer().run_page(run))

    @app.get("/cases", response_class=HTMLResponse)
    def cases(request: Request, run: str, gold: str = "", pred: str = "", outcome: str = "", charge: str = "",
              province: str = "", year: str = "", q: str = "", page_no: int = fastapi.Query(1, alias="page")):
        flt = CaseFilter(gold, pred, outcome, charge, province, year, q)
        ctx = need_explorer().cases(run, flt, page_no)
        name = "_case_rows.html" if request.headers.get("HX-Request") else "cases.html"
        return page(name, title=f"Cases of {run}", **ctx)

    @app.get("/case", response_class=HTMLResponse)
    def case(id: str):
        return page("case.html", title=f"Case {id}", **need_explorer().case_page(id))

    @app.get("/compare", response_class=HTMLResponse)
    def compare(a: str = "", b: str = ""):
        ex = need_explorer()
        keys = [r.key for r in ex.runs(KIND_PDP)]
        ctx: dict[str, Any] = {"keys": keys, "a_key": a, "b_key": b, "cmp": None}
        if a and b:
            ctx["cmp"] = ex.compare(a, b)
        return page("compare.html", title="Compare runs", **ctx)

    @app.get("/retrieval", response_class=HTMLResponse)
    def retrieval(run: str, q: str | None = None):
        return page("retrieval.html", title=f"Retrieval run {run}", **need_explorer().retrieval_page(run, q))

    # --- workbench ---------------------------------------------------------------------------------------------
    def bench_page(out: Outcome | None, partial: bool) -> HTMLResponse:
        ctx = {"model": bench.model, "max_chars": MAX_FIELD_CHARS, "max_upload_mb": MAX_UPLOAD_BYTES // 2**20,
               "person_label": person_label,
               "out": out, "reasons": precedent_reasons, "cited": precedent_articles,
               "guessed_charge": guessed_charge_note, "split_precedents": split_precedents,
               "absent_charge": absent_charge_note,
               "statutes_loaded": bench.statutes is not None,
               "precedents": bench.index,
               "title": "审查起诉辅助"}
        # htmx swaps only 2xx answers into the page: a partial answer is always 200, its message says what failed.
        if partial:
            return page("_workbench_result.html", 200, **ctx)
        return page("workbench.html", out.status if out else 200, **ctx)

    @app.get("/workbench", response_class=HTMLResponse)
    def workbench_form():
        return bench_page(None, False)

    @app.post("/workbench", response_class=HTMLResponse)
    def workbench_submit(request: Request, person_info: str = fastapi.Form(""), procedure: str = fastapi.Form(""),
                         fact: str = fastapi.Form(""), document_decision: str = fastapi.Form(""),
                         document_person: str = fastapi.Form("")):
        out = bench.review(person_info, procedure, fact)
        # the decision of the document the case was read from, shown beside the result while the person is the
        # one it decided on (a case typed over the one read is no longer that document's)
        if document_decision and person_info.strip() == document_person.strip():
            out = replace(out, extra={**out.extra, "document_decision": document_decision,
                                      "document_person": document_person})
        return bench_page(out, bool(request.headers.get("HX-Request")))

    @app.post("/workbench/document", response_class=HTMLResponse)
    async def workbench_document(request: Request, document: fastapi.UploadFile | None = None,
                                 person_info: str = fastapi.Form(""), procedure: str = fastapi.Form(""),
                                 fact: str = fastapi.Form(""), document_decision: str = fastapi.Form(""),
                                 document_person: str = fastapi.Form("")):
        """Fill the form from an uploaded document; on failure the form is kept as it was and the page says why."""
        from starlette.concurrency import run_in_threadpool

        typed = {"person_info": person_info, "procedure": procedure, "fact": fact}
        data = await document.read(MAX_UPLOAD_BYTES + 1) if document is not None else b""
        name = (document.filename if document is not None else "") or ""
        try:
            up = await run_in_threadpool(case_from_document, data, name)
        except InputError as exc:   # shown next to the upload, not where a review's result goes
            out = Outcome(typed, status=422, extra={"upload_error": str(exc), "document_decision": document_decision,
                                                    "document_person": document_person})
        else:
            out = Outcome(up.read.case, extra={"upload_note": up.note, "document_decision": up.read.decision,
                                               "document_person": up.read.case["person_info"],
                                               "people": [list(p) for p in up.read.people], "picked": 0})
        # htmx swaps only 2xx answers: its request gets the page with status 200, the message says what failed
        return bench_page(replace(out, status=200) if request.headers.get("HX-Request") else out, False)

    @app.post("/workbench/pick", response_class=HTMLResponse)
    def workbench_pick(request: Request, person_info: str = fastapi.Form(""), procedure: str = fastapi.Form(""),
                       fact: str = fastapi.Form(""), people: str = fastapi.Form(""), pick: str = fastapi.Form(""),
                       upload_note: str = fastapi.Form("")):
        """Another person of an uploaded decision on several: their person information and decision."""
        typed = {"person_info": person_info, "procedure": procedure, "fact": fact}
        try:
            persons, k = picked_person(people, pick)
        except InputError as exc:
            out = Outcome(typed, status=422, extra={"upload_error": str(exc)})
        else:
            out = Outcome({**typed, "person_info": persons[k][0]},
                          extra={"upload_note": upload_note, "document_decision": persons[k][1],
                                 "document_person": persons[k][0], "people": persons, "picked": k})
        return bench_page(replace(out, status=200) if request.headers.get("HX-Request") else out, False)

    @app.post("/api/consult")
    async def api(request: Request):
        import json

        from starlette.concurrency import run_in_threadpool

        try:
            body = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return api_error("请求体不是 JSON", f"the request body is not JSON: {exc}", 422)
        if not isinstance(body, dict):
            return api_error("请求体应为含 person_info、procedure、fact 的 JSON 对象",
                             "expected a JSON object with person_info, procedure, fact", 422)
        fields = {k: body.get(k, "") for k in ("person_info", "procedure", "fact")}
        bad = [k for k, v in fields.items() if not isinstance(v, str)]
        if bad:
            return api_error(f"{'、'.join(bad)} 应为文本", f"expected text in {', '.join(bad)}", 422)
        out = await run_in_threadpool(bench.review, **fields)
        if out.error:
            return JSONResponse({"error": out.api_error}, status_code=out.status)
        return asdict(out.result)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        # Pages name an inline icon (base.html); this answers clients that ask for the file anyway.
        from fastapi.responses import Response

        return Response(status_code=204)

    @app.get("/healthz")
    def health() -> dict[str, str]:
        return {"status": "ok", "model": bench.model}

    return app
