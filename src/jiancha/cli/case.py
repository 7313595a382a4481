"""`jiancha case ...`: use jiancha on one case, from the command line or a small web page."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from jiancha.datasets.records import PDPRecord

app = typer.Typer(no_args_is_help=True)

ModelOpt = Annotated[str, typer.Option("--model", help="baseline:rules | baseline:tfidf-lr | baseline:majority | "
                                       "openrouter:<m> | vllm:<m> | openai:<m> | <m> with --base-url.")]
PrecedentsOpt = Annotated[str, typer.Option("--precedents", help="Decided cases to search for precedents (and "
                                            "to train baseline:tfidf-lr): anything `jiancha pdp eval --data` "
                                            "accepts, or a case index folder written by `jiancha retrieval "
                                            "index`; 'sample' is the bundled set; 'none' turns it off.")]


def _load_context(precedents: str, split: str, statutes_dir: str | None):
    """(PDP records or None, the precedent index or None, statutes or None): a case index folder gives an index
    and no records."""
    from pathlib import Path

    from jiancha.datasets.pdp import load_pdp
    from jiancha.law.statutes import load_statutes
    from jiancha.retrieval.precedents import PrecedentIndex

    records, index = None, None
    if precedents != "none" and (Path(precedents) / "index.json").is_file():
        index = PrecedentIndex.from_index(precedents)
    elif precedents != "none":
        from jiancha.errors import ConfigError, DataError

        try:
            records = load_pdp(precedents, split)
        except (ConfigError, DataError) as exc:
            if not Path(precedents).is_dir():
                raise
            raise ConfigError(f"{exc}; for a folder of judgments, build a case index first (`jiancha retrieval "
                              f"index {precedents} --out IDX`) and give --precedents IDX") from None
    statutes = load_statutes(statutes_dir) if statutes_dir else None
    return records, index, statutes


CASE_FIELDS = ("person_info", "procedure", "fact")


def _document_record(path: str) -> tuple[PDPRecord, str]:
    """The case a document file holds and the document's own decision ('' when none), saying on stderr what was
    read."""
    from pathlib import Path

    from jiancha.corpus.document_case import CASE_FIELDS as CASE_FIELDS_ZH
    from jiancha.corpus.document_case import document_case
    from jiancha.datasets.records import PDPRecord
    from jiancha.errors import DataError

    read = document_case(Path(path).read_bytes(), path)
    if not read.title:
        said = "not a 起诉意见书, 起诉书 or 不起诉决定书: its whole text is taken as the facts"
    else:
        said = f"a {read.title}" + (f" on {read.suspects} people: the first one's case" if read.suspects > 1 else "")
        if read.missing:
            said += f" (not found: {'、'.join(read.missing)})"
    if not read.case["fact"].strip():
        raise DataError(f"{said}, without facts; give them with --fact", path=path)
    typer.echo(f"{path}: {said}", err=True)
    for key, zh in CASE_FIELDS_ZH:     # what was read, so the split can be checked before trusting the result
        text = read.case[key].replace("\n", " ")
        typer.echo(f"  【{zh}】{len(text):,} 字: {text[:60]}{'…' if len(text) > 60 else ''}", err=True)
    return PDPRecord(id="", decision="", **read.case), read.decision


def _read_case(obj: object, path: str) -> dict:
    """The case file's object, checked: a JSON object whose three input fields are text, with a non-empty fact."""
    from jiancha.errors import DataError

    if not isinstance(obj, dict):
        raise DataError(f"expected a JSON object with {', '.join(CASE_FIELDS)}, got a {type(obj).__name__}",
                        path=path)
    for name in CASE_FIELDS:
        if not isinstance(obj.get(name, ""), str):
            raise DataError(f"expected text, got {type(obj[name]).__name__}", path=path, field=name)
    if not obj.get("fact", "").strip():
        raise DataError("missing or empty; the facts are what the decision is predicted from", path=path,
                        field="fact")
    return obj


def _check_model(model: str, base_url: list[str] | None, api_key_env: str | None) -> None:
    """Fail before serving, not on the first request: an unknown baseline or a model without an endpoint."""
    from jiancha.llm.presets import resolve_backend
    from jiancha.pdp import baselines

    if baselines.is_baseline(model):
        baselines.get_baseline(model)
    else:
        resolve_backend(model, tuple(base_url or ()), api_key_env)


@app.command("predict")
def predict_command(
    case_file: Annotated[str | None, typer.Argument(help="A JSON file with person_info, procedure, fact (a PDP "
                                                    "record works); or use --fact.")] = None,
    document: Annotated[str | None, typer.Option("--document", help="A document file (起诉意见书 / 起诉书 / 不起诉决定书 "
                                                 "split into the three inputs; any other document's whole text is "
                                                 "the facts): .docx .doc .pdf .txt .rtf .html.")] = None,
    fact: Annotated[str | None, typer.Option("--fact", help="The facts, when no case file is given.")] = None,
    procedure: Annotated[str, typer.Option("--procedure", help="The procedural history.")] = "",
    person_info: Annotated[str, typer.Option("--person-info", help="The suspect information.")] = "",
    model: ModelOpt = "baseline:rules",
    precedents: PrecedentsOpt = "sample",
    split: Annotated[str, typer.Option("--split", help="Split of --precedents.")] = "test",
    k: Annotated[int, typer.Option("--k", help="Number of precedents (0: none).")] = 5,
    statutes_dir: Annotated[str | None, typer.Option("--statutes-dir", help="Directory of statute markdown "
                                                     "files, to print each cited article's text.")] = None,
    base_url: Annotated[list[str] | None, typer.Option("--base-url", help="OpenAI-compatible endpoint.")] = None,
    api_key_env: Annotated[str | None, typer.Option("--api-key-env", help="Env var holding the API key.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Recommend a decision for one case, with cited articles, an analysis and similar precedents."""
    from dataclasses import asdict

    from rich.console import Console

    from jiancha._util.io import read_json
    from jiancha.datasets.records import PDPRecord
    from jiancha.errors import ConfigError
    from jiancha.pdp.consult import consult

    own_decision = ""
    if sum(x is not None for x in (case_file, document, fact)) > 1:
        raise ConfigError("give one of: a case file, --document FILE, --fact TEXT")
    if case_file:
        record = PDPRecord.from_dict(_read_case(read_json(case_file), case_file))
    elif document is not None:
        record, own_decision = _document_record(document)
    elif fact is not None:
        if not fact.strip():
            raise ConfigError("--fact is empty: give the facts of the case, which the decision is predicted from")
        record = PDPRecord(id="", person_info=person_info, procedure=procedure, fact=fact, decision="")
    else:
        raise ConfigError("give a case file (JSON with person_info, procedure, fact) or --fact TEXT")
    records, index, statutes = _load_context(precedents, split, statutes_dir)
    result = consult(record, model=model, precedents=records, k=k, statutes=statutes,
                     base_urls=tuple(base_url or ()), api_key_env=api_key_env, index=index)
    if as_json:
        out = asdict(result)
        if document is not None:     # what was read from the document, and its own decision
            out["case"] = {"person_info": record.person_info, "procedure": record.procedure, "fact": record.fact}
            out["document_decision"] = own_decision
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    console = Console()
    if result.valid:
        console.print(f"[bold]决定：{result.decision}[/]  ({result.model})")
    else:
        console.print(f"[bold red]invalid answer ({result.reason})[/]  ({result.model})")
    if own_decision:
        console.print(f"文书自身的决定：{own_decision}")
    console.print("[bold]适用法条[/]")
    for a in result.relevant_articles or ("无",):
        text = result.article_texts.get(a)
        console.print(f"  {a}" + (f"  {text[:120]}" if text else ""), highlight=False)
    console.print(f"[bold]审查分析[/]\n  {result.analysis}", highlight=False)
    if result.precedents:
        from jiancha.cli._render import print_table

        print_table(console, "相似先例", ["案号", "决定", "共同罪名", "BM25", "事实摘要"],
                    [[p.id, p.decision, "、".join(p.shared_charges), f"{p.score:.2f}", p.fact_excerpt[:60] + "…"]
                     for p in result.precedents])


HostOpt = Annotated[str, typer.Option("--host", help="Interface to listen on (127.0.0.1: this machine only; "
                                      "0.0.0.0 exposes it to the network).")]
PortOpt = Annotated[int, typer.Option("--port", help="TCP port, 1–65535.")]
StatutesOpt = Annotated[str | None, typer.Option("--statutes-dir", help="Directory of statute markdown files "
                                                 "(LawRefBook layout), to show each cited article's text.")]
BaseUrlOpt = Annotated[list[str] | None, typer.Option("--base-url", help="OpenAI-compatible endpoint.")]
ApiKeyEnvOpt = Annotated[str | None, typer.Option("--api-key-env", help="Env var holding the API key.")]


def workbench_settings(model: str, precedents: str, split: str, statutes_dir: str | None,
                       base_url: list[str] | None, api_key_env: str | None) -> dict:
    """The workbench's arguments of ``create_app``, checked and loaded (shared with ``jiancha view``)."""
    _check_model(model, base_url, api_key_env)
    records, index, statutes = _load_context(precedents, split, statutes_dir)
    return {"model": model, "precedents": records, "index": index, "statutes": statutes,
            "base_urls": tuple(base_url or ()), "api_key_env": api_key_env}


@app.command("serve")
def serve_command(
    model: ModelOpt = "baseline:rules",
    precedents: PrecedentsOpt = "sample",
    split: Annotated[str, typer.Option("--split", help="Split of --precedents.")] = "test",
    statutes_dir: StatutesOpt = None,
    base_url: BaseUrlOpt = None,
    api_key_env: ApiKeyEnvOpt = None,
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
) -> None:
    """Serve the case workbench (extra `web`) on http://HOST:PORT/; `jiancha view RUNS_DIR` serves it together
    with the results explorer."""
    from jiancha.web.serve import check_listen, check_port, serve

    check_port(port)
    _check_model(model, base_url, api_key_env)
    check_listen(host, port)
    from jiancha.web.app import create_app

    serve(create_app(**workbench_settings(model, precedents, split, statutes_dir, base_url, api_key_env)),
          host, port)
