"""The web app through its HTTP interface (FastAPI's TestClient): every page, escaping, paths that must not be
reachable, the workbench's error messages, and the CLI around it."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest
from conftest import THEFT_FACT
from typer.testing import CliRunner

from jiancha.cli import main as cli_main
from jiancha.cli.main import app as cli
from jiancha.datasets.pdp import load_pdp

pytest.importorskip("fastapi", reason="the web extra is not installed")
from fastapi.testclient import TestClient

from jiancha.web.app import create_app
from jiancha.web.workbench import MAX_FIELD_CHARS

THEFT_PROCEDURE = "本案由某县公安局侦查终结，以犯罪嫌疑人王某涉嫌盗窃罪，于2023年6月1日移送本院审查起诉。"


@pytest.fixture(scope="module")
def client(runs_dir):
    return TestClient(create_app(runs_dir, precedents=load_pdp("sample"), k=3), raise_server_exceptions=False)


def score_json(run: Path) -> dict:
    res = CliRunner().invoke(cli, ["pdp", "score", str(run), "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def alerts(text: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'role="alert"[^>]*>(.*?)</p>', text, re.DOTALL)]


def test_leaderboard_lists_each_kind_of_run(client):
    page = client.get("/")
    assert page.status_code == 200
    for key in ("rules", "more/majority", "hostile", "retrieval/bm25", "ljp/cail"):
        assert f">{key}<" in page.text
    ljp = page.text[page.text.index('id="ljp-table"'):page.text.index('id="retrieval-table"')]
    assert "charge_macro_f1" in ljp and "0.4321" in ljp and "0.8750" in ljp and "fake:ljp" in ljp
    assert "OUTSIDE" not in page.text and "link-out" not in page.text
    assert '<meta name="viewport"' in page.text


def test_run_page_figures_equal_the_scorer(client, runs_dir):
    scored = score_json(runs_dir / "hostile")
    page = client.get("/run", params={"run": "hostile"})
    assert page.status_code == 200
    pooled = scored["pooled"]
    assert f"{pooled['decision_level2_macro_f1']:.4f}" in page.text
    assert f"{pooled['articles_f1']:.4f}" in page.text
    # the hostile copy has one failed request and one truncated answer
    assert pooled["request_failed_count"] == 1 and pooled["truncated_count"] == 1
    cm = pooled["confusion_level2"]["matrix"]
    cells = re.findall(r'<td class="num(?: diag)?" style="[^"]*">\s*(?:<a [^>]*>)?(\d+)', page.text)
    assert [int(c) for c in cells[:20]] == [n for row in cm for n in row]


def test_case_filters_count_what_the_confusion_matrix_says(client, runs_dir):
    cm = score_json(runs_dir / "rules")["pooled"]["confusion_level2"]
    labels, matrix = cm["rows"], cm["matrix"]
    for g, row in zip(labels, matrix):
        wrong = client.get("/cases", params={"run": "rules", "gold": g, "outcome": "wrong"}).text
        assert f'<span id="shown-count">{sum(row[:4]) - row[labels.index(g)]}</span>' in wrong
    text = client.get("/cases", params={"run": "rules", "q": "交通肇事"}).text
    n = int(re.search(r'id="shown-count">(\d+)<', text).group(1))
    assert n == sum("交通肇事" in json.dumps(json.loads(line), ensure_ascii=False)
                    for line in (runs_dir / "rules" / "records.jsonl").read_text(encoding="utf-8").splitlines())
    assert n > 0


def test_model_output_and_case_text_are_escaped(client):
    page = client.get("/case", params={"id": first_case_id(client)})
    assert page.status_code == 200
    assert "<script>window.__pwned" not in page.text
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in page.text
    assert 'onerror="window.__pwned' not in page.text
    assert "&lt;b&gt;不是粗体&lt;/b&gt;" in page.text
    assert "刑法第二百六十四条" in page.text


def first_case_id(client) -> str:
    text = client.get("/cases", params={"run": "hostile"}).text
    return html.unescape(re.search(r'<a href="/case\?id=[^"]*">([^<]+)</a>', text).group(1))


@pytest.mark.parametrize("url", [
    "/run?run=../rules", "/run?run=%2Fetc", "/run?run=link-out", "/cases?run=link-out", "/case?id=OUTSIDE",
    "/retrieval?run=..%2F..%2Fetc", "/static/../app.py", "/static/%2e%2e/app.py", "/run?run=rules%2F..%2F..",
])
def test_no_url_reads_outside_the_runs_folder(client, url):
    page = client.get(url)
    assert page.status_code == 404, url
    assert "TOP-SECRET" not in page.text and "create_app" not in page.text


def heading(text: str) -> str:
    return html.unescape(re.search(r"<h1>(.*?)</h1>", text, re.DOTALL).group(1))


def test_unknown_pages_and_bad_parameters_are_messages(client):
    page = client.get("/cases", params={"run": "rules", "outcome": "bogus"})
    assert page.status_code == 404 and "expected one of correct, wrong, invalid, truncated" in alerts(page.text)[0]
    assert heading(page.text) == "找不到（not found）"
    for url in ("/cases", "/run"):
        page = client.get(url)
        assert page.status_code == 422
        assert heading(page.text) == "请求有误（bad request）"
        assert alerts(page.text)[0] == f"bad request: missing parameter run ({url})"
    page = client.get("/cases", params={"run": "rules", "page": "x"})
    assert page.status_code == 422 and alerts(page.text)[0].startswith("bad request: parameter page: ")


def test_pages_name_an_inline_icon_and_the_icon_file_is_no_404(client):
    assert '<link rel="icon" href="data:image/svg+xml,' in client.get("/").text
    assert client.get("/favicon.ico").status_code == 204


def test_compare_page_shows_the_paired_test(client):
    page = client.get("/compare", params={"a": "rules", "b": "more/majority"})
    assert page.status_code == 200
    assert "paired bootstrap" in page.text and "McNemar" in page.text
    n = int(re.search(r'id="n-disagree">(\d+)<', page.text).group(1))
    assert n > 0


def test_retrieval_page_shows_labels_and_texts(client):
    page = client.get("/retrieval", params={"run": "retrieval/bm25", "q": "5"})
    assert page.status_code == 200
    assert "Query 5" in page.text and "Shared charges" in page.text
    assert "盗窃罪" in page.text     # query 5 is a theft case; its ranked candidates share the charge


# --- workbench -----------------------------------------------------------------------------------------------------

def test_workbench_reviews_a_case(client):
    page = client.post("/workbench", data={"procedure": THEFT_PROCEDURE, "fact": THEFT_FACT})
    assert page.status_code == 200
    assert "决定：相对不起诉" in page.text and "刑法第二百六十四条" in page.text
    assert "cl:第二百六十四条" not in page.text.replace('title="cl:第二百六十四条"', "")
    assert "同罪名：盗窃罪" in page.text and "BM25" not in page.text
    assert "仅供研究参考" in page.text


@pytest.mark.parametrize("fact, status, expected", [
    ("   ", 422, "【案件事实】为空"),
    ("盗" * (MAX_FIELD_CHARS + 1), 422, f"{MAX_FIELD_CHARS + 1:,} 字，超过上限"),
])
def test_workbench_input_errors_are_messages_with_the_input_kept(client, fact, status, expected):
    for headers in ({}, {"HX-Request": "true"}):
        page = client.post("/workbench", data={"procedure": "程序文字", "fact": fact}, headers=headers)
        assert page.status_code == (200 if headers else status)
        assert expected in alerts(page.text)[0]
        if not headers:  # the full page keeps the input in the form (htmx leaves the form untouched)
            assert "程序文字</textarea>" in page.text


def test_workbench_backend_down_is_a_message(runs_dir):
    from conftest import free_port

    app = create_app(None, model="test-model", base_urls=(f"http://127.0.0.1:{free_port()}/v1",))
    client = TestClient(app, raise_server_exceptions=False)
    assert client.get("/").url.path == "/workbench"
    page = client.post("/workbench", data={"fact": THEFT_FACT})
    assert page.status_code == 502
    assert "模型服务没有给出回答" in alerts(page.text)[0]
    assert THEFT_FACT in page.text
    api = client.post("/api/consult", json={"fact": THEFT_FACT})
    assert api.status_code == 502 and "模型服务" in api.json()["error"]
    assert BILINGUAL.search(api.json()["error"]) and "输入已保留" not in api.json()["error"]


#: An API error: a Chinese sentence, then its English in parentheses (full-width, as the Chinese text uses).
BILINGUAL = re.compile(r"[\u4e00-\u9fff].*（[^（）]*[A-Za-z][^（）]*）$", re.DOTALL)


def test_api_errors_are_json(client):
    assert client.post("/api/consult", json={"fact": " "}).json()["error"].startswith("【案件事实】为空")
    assert client.post("/api/consult", json={"fact": 3}).status_code == 422


@pytest.mark.parametrize("body, status, english", [
    ({"json": {"fact": " "}}, 422, "fact is empty"),
    ({"json": {"fact": "盗" * (MAX_FIELD_CHARS + 1)}}, 422, f"fact has {MAX_FIELD_CHARS + 1:,} characters"),
    ({"content": b"{not json"}, 422, "the request body is not JSON"),
    ({"json": ["a list"]}, 422, "expected a JSON object"),
    ({"json": {"fact": 3}}, 422, "expected text in fact"),
])
def test_api_errors_speak_one_way_and_mention_no_form(client, body, status, english):
    answer = client.post("/api/consult", **body)
    assert answer.status_code == status
    error = answer.json()["error"]
    assert BILINGUAL.search(error), error
    assert english in error and "输入已保留" not in error
    form = client.post("/workbench", data={"fact": " "})
    assert alerts(form.text)[0].endswith("输入已保留。")   # the form keeps the input, and says so


def test_precedent_similarity_is_worded_as_a_rank_not_a_percentage():
    from jiancha.web.workbench import similarity_wording

    scores = [12.0, 10.0, 6.0, 5.0]
    assert [similarity_wording(x, scores) for x in scores] == [
        "事实表述：所列先例中最相近", "事实表述：与最相近的一件相当", "事实表述：不及最相近的一件",
        "事实表述：远不及最相近的一件"]
    assert similarity_wording(7.0, [7.0, 7.0]) == "事实表述：所列先例中最相近"   # equals share the first place


def test_workbench_precedents_carry_no_percentage(client):
    page = client.post("/workbench", data={"procedure": THEFT_PROCEDURE, "fact": THEFT_FACT})
    why = page.text[page.text.index('<ol class="precedents">'):]
    assert "所列先例中最相近" in why and "%" not in why and "100" not in why
    ok = client.post("/api/consult", json={"fact": THEFT_FACT, "procedure": THEFT_PROCEDURE})
    assert ok.status_code == 200 and ok.json()["decision"] == "相对不起诉" and len(ok.json()["precedents"]) == 3


# --- CLI ----------------------------------------------------------------------------------------------------------

def run_main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["jiancha", *args])
    monkeypatch.delenv("JIANCHA_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exc:
        cli_main.main()
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize("args", [("case", "serve", "--port", "99999"), ("case", "serve", "--port", "0"),
                                  ("view", ".", "--port", "65536")])
def test_a_port_out_of_range_is_one_line(monkeypatch, capsys, args):
    code, _, err = run_main(monkeypatch, capsys, *args)
    assert code == 2
    assert err.startswith(f"error: --port {args[-1]} is not a TCP port; expected 1–65535") and err.count("\n") == 1


def test_case_predict_refuses_empty_facts(monkeypatch, capsys):
    code, out, err = run_main(monkeypatch, capsys, "case", "predict", "--fact", "   ")
    assert code == 2 and out == ""
    assert err.startswith("error: --fact is empty") and err.count("\n") == 1


def test_view_refuses_a_missing_folder(monkeypatch, capsys, tmp_path):
    code, _, err = run_main(monkeypatch, capsys, "view", str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in err


def test_view_export_writes_a_site_that_links_to_itself(runs_dir, tmp_path):
    site = tmp_path / "site"
    res = CliRunner().invoke(cli, ["view", str(runs_dir), "--export", str(site)])
    assert res.exit_code == 0, res.output
    pages = {p.name for p in site.glob("*.html")}
    assert "index.html" in pages and "workbench.html" in pages
    assert (site / "static" / "htmx.min.js").is_file() and (site / "static" / "htmx.LICENSE").is_file()
    for page in pages:
        for href in re.findall(r'(?:href|src)="([^"#?]+)', (site / page).read_text(encoding="utf-8")):
            if href.startswith("data:"):
                continue   # an inline image (the icon)
            assert not href.startswith(("/", "http")), (page, href)
            assert (site / href).exists(), (page, href)
    bench = html.unescape((site / "workbench.html").read_text(encoding="utf-8"))
    assert "审查起诉辅助需要运行中的服务" in bench and f"jiancha view {runs_dir}" in bench
    assert "jiancha case serve" in bench and "每部分最多" not in bench and "模型：" not in bench
    refused = CliRunner().invoke(cli, ["view", str(runs_dir), "--export", str(runs_dir / "site")])
    assert refused.exit_code != 0 and "inside the runs folder" in str(refused.exception)


# --- incomplete runs and repeats -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def repeat_runs(tmp_path_factory):
    """A complete run, the same run interrupted after 14 of its 60 requests, and a run of two repeats whose second
    repeat answers 起诉 for the first 20 cases (so that vote, any-correct and the mean differ)."""
    root = tmp_path_factory.mktemp("repeat-runs")
    for name, extra in (("complete", []), ("partial", []), ("twice", ["--repeats", "2"])):
        res = CliRunner().invoke(cli, ["pdp", "eval", "--data", "sample", "--model", "baseline:rules",
                                       "--out", str(root / name), *extra])
        assert res.exit_code == 0, res.output
    partial = root / "partial" / "records.jsonl"
    partial.write_text("".join(partial.read_text(encoding="utf-8").splitlines(keepends=True)[:14]), encoding="utf-8")
    twice = root / "twice" / "records.jsonl"
    out, changed = [], 0
    for line in twice.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if str(rec["run_id"]) == "1" and changed < 20:
            rec["raw_output"] = "【适用法条】\n刑法：第二百六十四条\n\n【审查分析】\n改判。\n\n【最终结论】\n决定：起诉"
            changed += 1
        out.append(json.dumps(rec, ensure_ascii=False))
    twice.write_text("\n".join(out) + "\n", encoding="utf-8")
    for name in ("partial", "twice"):
        (root / name / "metrics.json").unlink()   # stale now; the explorer scores these runs itself
    return root


def test_an_incomplete_run_is_flagged_on_the_leaderboard_and_its_page(repeat_runs):
    client = TestClient(create_app(repeat_runs), raise_server_exceptions=False)
    board = client.get("/").text
    rows = {m.group(1): m.group(0) for m in re.finditer(r'<tr data-run="([^"]+)".*?</tr>', board, re.DOTALL)}
    assert "incomplete: 14 of 60" in rows["partial"]
    assert "incomplete" not in rows["complete"] and "incomplete" not in rows["twice"]
    page = client.get("/run", params={"run": "partial"}).text
    assert "incomplete: 14 of 60" in page and "46 of 60 planned requests" in page
    assert 'id="incomplete"' not in client.get("/run", params={"run": "complete"}).text


def test_completeness_is_read_defensively():
    from jiancha.web.explorer import completeness_of

    manifest = {"data": {"n_cases": 60}, "spec": {"repeats": 2}}
    scored = {"pooled": {"completeness": {"planned": 120, "stored": 100, "missing": 20, "per_dir": []}}}
    assert completeness_of(scored, manifest, 7) == {"planned": 120, "stored": 100, "missing": 20}
    assert completeness_of({"pooled": {}}, manifest, 100) == {"planned": 120, "stored": 100, "missing": 20}
    assert completeness_of({"pooled": {}}, None, 100) is None            # a reference directory: nothing planned
    assert completeness_of({"pooled": {}}, {"data": {}}, 100) is None


def test_the_run_page_shows_vote_and_any_correct_next_to_mean_and_se(repeat_runs, tmp_path):
    import shutil

    from jiancha.pdp.aggregate import aggregate_rows
    from jiancha.pdp.reports import paper_table

    client = TestClient(create_app(repeat_runs), raise_server_exceptions=False)
    page = client.get("/run", params={"run": "twice"}).text
    copy = tmp_path / "twice"
    shutil.copytree(repeat_runs / "twice", copy)   # scored with the CLI apart, so the page computes its own
    res = CliRunner().invoke(cli, ["pdp", "score", str(copy), "--aggregate", "vote", "--aggregate", "any", "--json"])
    assert res.exit_code == 0, res.output
    _, expected = paper_table(aggregate_rows(json.loads(res.stdout)))
    table = page[page.index('id="repeats"'):]
    table = table[:table.index("</table>")]
    shown = [[html.unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
             for row in re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>"):], re.DOTALL)]
    assert shown == expected and len(shown) == 3
    assert expected[1][5] != expected[2][5]     # the edited repeat makes vote and any-correct differ (L2 macro)
    assert 'id="repeats"' not in client.get("/run", params={"run": "complete"}).text   # one repeat: no table
