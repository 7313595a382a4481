"""The pages in a real browser (Playwright driving Debian's chromium): the figures a person reads, filtering, a
case page, compare, the exported site opened from disk, and the workbench's loading indicator and error paths."""

from __future__ import annotations

import json
import re

import pytest
from conftest import THEFT_FACT
from typer.testing import CliRunner

from jiancha.cli.main import app as cli

pytestmark = pytest.mark.usefixtures("browser")



@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.set_default_timeout(15_000)
    yield p
    context.close()


def score_json(path) -> dict:
    res = CliRunner().invoke(cli, ["pdp", "score", str(path), "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def expected_cells(scored: dict) -> list[str]:
    """The leaderboard's metric cells as `jiancha pdp score --json` gives them (one repeat: the plain mean)."""
    from jiancha.pdp.reports import L1_COLUMNS, L2_COLUMNS

    keys = [m for m, _ in (*L1_COLUMNS, *L2_COLUMNS)] + ["articles_f1"]
    return [f"{scored['mean_se'][k]['mean']:.4f}" for k in keys]


def test_leaderboard_figures_equal_pdp_score_json(page, live, runs_dir):
    page.goto(live.url + "/")
    for key in ("rules", "more/majority", "hostile"):
        scored = score_json(runs_dir / key)
        row = page.locator(f'#leaderboard tr[data-run="{key}"]')
        cells = row.locator("td[data-metric]")
        shown = [cells.nth(i).inner_text().split("\n")[0].strip() for i in range(cells.count())]
        assert shown == expected_cells(scored), key
        ci = scored["pooled"]["ci95"]["level2_macro_f1"]
        assert f"[{ci[0]:.4f}, {ci[1]:.4f}]" in cells.nth(4).inner_text()
    hostile = page.locator('#leaderboard tr[data-run="hostile"]').inner_text()
    assert "fake:hostile" in hostile and "61,770 / 12,000" in hostile


def test_leaderboard_sorts_by_a_column(page, live):
    page.goto(live.url + "/")
    header = page.locator("#leaderboard thead th", has_text="L2 Macro-F1")
    header.click()
    header.click()   # descending
    order = page.locator("#leaderboard tbody tr").evaluate_all(
        "rows => rows.map(r => parseFloat(r.querySelector('td[data-metric=\"L2 Macro-F1\"]').dataset.sort))")
    assert order == sorted(order, reverse=True) and len(order) == 3


def test_case_list_filters_and_case_page(page, live, runs_dir):
    page.goto(live.url + "/cases?run=rules")
    assert page.locator("#shown-count").inner_text() == "60"
    page.select_option("select[name=outcome]", "wrong")
    page.wait_for_function("document.querySelector('#shown-count').textContent !== '60'")
    cm = score_json(runs_dir / "rules")["pooled"]["confusion_level2"]["matrix"]
    wrong = sum(sum(row[:4]) - row[i] for i, row in enumerate(cm))
    assert page.locator("#shown-count").inner_text() == str(wrong)
    assert page.locator("#case-table tbody tr").count() == wrong
    assert "outcome=wrong" in page.url   # the filter is in the address, so it can be shared
    page.locator("#case-table tbody a").first.click()
    page.wait_for_url(re.compile(r"/case\?id="))
    assert page.locator("article.answer").count() == 3
    assert page.locator("h2", has_text="Gold").is_visible()


def test_hostile_answer_shows_as_text_and_runs_nothing(page, live):
    page.goto(live.url + "/cases?run=hostile")
    page.locator("#case-table tbody a").first.click()
    page.wait_for_url(re.compile(r"/case\?id="))
    assert page.evaluate("window.__pwned") is None
    raw = page.locator("article.answer", has=page.locator("a", has_text="hostile")).locator("details.raw")
    raw.locator("summary").click()
    assert "<script>window.__pwned = 1</script>" in raw.inner_text()
    reasoning = page.locator("details.reasoning")
    assert not reasoning.locator("pre").is_visible()      # collapsed until asked for
    reasoning.locator("summary").click()
    assert "这是推理过程" in reasoning.inner_text()
    assert page.evaluate("window.__pwned") is None


def test_compare_page(page, live):
    page.goto(live.url + "/")
    page.select_option("select[name=a]", "rules")
    page.select_option("select[name=b]", "more/majority")
    page.locator("form.inline button").click()
    page.wait_for_url(re.compile(r"/compare\?"))
    rows = page.locator("#paired tbody tr")
    assert rows.count() == 2
    l2 = rows.nth(0).locator("td")
    a, b, diff = (float(l2.nth(i).inner_text()) for i in range(3))
    assert diff == pytest.approx(a - b, abs=1.5e-4)
    low, high = (float(x) for x in re.findall(r"-?\d+\.\d+", l2.nth(3).inner_text()))
    assert low <= diff <= high
    assert int(page.locator("#n-disagree").inner_text()) == page.locator("#disagree tbody tr").count()


def test_exported_site_opens_from_disk(page, runs_dir, tmp_path):
    site = tmp_path / "site"
    res = CliRunner().invoke(cli, ["view", str(runs_dir), "--export", str(site)])
    assert res.exit_code == 0, res.output
    page.goto((site / "index.html").as_uri())
    scored = score_json(runs_dir / "rules")
    cells = page.locator('#leaderboard tr[data-run="rules"] td[data-metric]')
    assert cells.nth(4).inner_text().split("\n")[0] == expected_cells(scored)[4]
    page.locator('#leaderboard tr[data-run="rules"] a', has_text="cases").click()
    assert page.locator("#shown-count").inner_text() == "60"
    page.select_option("select[name=outcome]", "wrong")
    cm = scored["pooled"]["confusion_level2"]["matrix"]
    wrong = sum(sum(row[:4]) - row[i] for i, row in enumerate(cm))
    assert page.locator("#shown-count").inner_text() == str(wrong)
    assert page.locator("#case-table tbody tr:not([hidden])").count() == wrong
    page.locator("#case-table tbody tr:not([hidden]) a").first.click()
    assert page.url.startswith("file://") and page.locator("article.answer").count() == 3
    page.goto((site / "index.html").as_uri())
    page.locator("#compare + ul a").first.click()
    assert page.locator("#paired tbody tr").count() == 2


def test_exported_case_list_follows_the_address_fragment(page, runs_dir, tmp_path):
    site = tmp_path / "site"
    res = CliRunner().invoke(cli, ["view", str(runs_dir), "--export", str(site)])
    assert res.exit_code == 0, res.output
    cm = score_json(runs_dir / "rules")["pooled"]["confusion_level2"]["matrix"]
    counts = {"correct": str(sum(cm[i][i] for i in range(4))),
              "wrong": str(sum(sum(row[:4]) - row[i] for i, row in enumerate(cm)))}
    assert counts["correct"] != counts["wrong"]
    url = next(site.glob("cases-rules-*.html")).as_uri()

    def shown(outcome: str) -> None:
        page.wait_for_function(f"document.querySelector('#shown-count').textContent === '{counts[outcome]}'")
        assert page.input_value("select[name=outcome]") == outcome
        assert page.locator("#case-table tbody tr:not([hidden])").count() == int(counts[outcome])

    page.goto(url + "#outcome=wrong")
    shown("wrong")
    page.goto(url + "#outcome=correct")   # the same page, another fragment: no reload
    shown("correct")
    page.go_back()
    shown("wrong")
    page.go_forward()
    shown("correct")
    page.select_option("select[name=outcome]", "wrong")   # the form writes the filters back into the address
    shown("wrong")
    assert page.url.endswith("#outcome=wrong")


# --- workbench -----------------------------------------------------------------------------------------------------

def test_workbench_result_and_layout_at_390px(browser, live):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(live.url + "/workbench")
        page.fill("#fact", THEFT_FACT)
        page.click("#submit")
        page.locator("#decision").wait_for()
        assert page.locator("#decision").inner_text() == "决定：相对不起诉"
        assert page.locator("#articles li").first.inner_text().startswith("刑法第二百六十四条")
        assert page.locator("ol.precedents > li").count() == 3
        # the fact names no charge after 涉嫌 / 指控: the shared charge is shown as a guess
        assert "推定罪名相同（本案未写明涉嫌罪名，系推定）：盗窃罪" in page.locator("ol.precedents").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"page is {width}px wide at a 390px viewport"
        assert "仅供研究参考" in page.inner_text("body")
    finally:
        context.close()


@pytest.mark.parametrize("fact, expected", [("   ", "【案件事实】为空"), ("盗" * 20_001, "20,001 字，超过上限")])
def test_workbench_input_errors_keep_the_input(page, live, fact, expected):
    page.goto(live.url + "/workbench")
    page.fill("#procedure", "程序文字")
    page.fill("#fact", fact)
    page.click("#submit")
    page.locator("#error").wait_for()
    assert expected in page.locator("#error").inner_text()
    assert page.input_value("#procedure") == "程序文字" and page.input_value("#fact") == fact


def test_workbench_shows_a_loading_indicator_then_a_backend_failure(page):
    from conftest import LiveServer
    from fake_openai import FakeOpenAI

    from jiancha.web.app import create_app

    with FakeOpenAI(latency=1.5) as fake:
        fake.default = "400"
        with LiveServer(create_app(None, model="test-model", base_urls=(fake.url,))) as server:
            page.goto(server.url + "/")
            page.fill("#fact", THEFT_FACT)
            page.click("#submit")
            page.locator("#busy").wait_for(state="visible")
            assert page.locator("#submit").is_disabled()
            page.locator("#error").wait_for()
            assert not page.locator("#busy").is_visible()
            assert "模型服务没有给出回答" in page.locator("#error").inner_text()
            assert page.input_value("#fact") == THEFT_FACT


def test_workbench_reads_a_document_then_reviews_it(page, live, tmp_path):
    from importlib.resources import files

    decision = tmp_path / "决定书.txt"
    decision.write_bytes((files("jiancha") / "data" / "raw_docs" / "d01_dnp_2018.txt").read_bytes())
    page.goto(live.url + "/workbench")
    page.set_input_files("#document", str(decision))
    page.click("#read-document")
    page.locator("#upload-note").wait_for()
    assert "已从 决定书.txt（不起诉决定书）读出三部分" in page.locator("#upload-note").inner_text()
    assert page.input_value("#person_info").startswith("被不起诉人") and page.input_value("#fact")
    page.click("#submit")
    page.locator("#decision").wait_for()
    assert page.locator("#document-decision").inner_text().startswith("所读文书自身的决定：相对不起诉（与建议")
    # an unreadable file: a message, and what the form held is still there
    bad = tmp_path / "扫描件.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    page.fill("#fact", "事实文字")
    page.set_input_files("#document", str(bad))
    page.click("#read-document")
    page.locator("#upload-error").wait_for()
    assert page.locator("#upload-error").inner_text().startswith("无法读取 扫描件.pdf：文件已损坏或不完整")
    assert page.input_value("#fact") == "事实文字"
    box = page.locator("#upload-error").bounding_box()
    assert box["y"] < page.locator("#person_info").bounding_box()["y"]    # by the upload, above the form
    # a decision on two people: the second one picked, the facts as edited kept
    two = tmp_path / "两人.txt"
    two.write_bytes((files("jiancha") / "data" / "raw_docs" / "d09_multi_differing.txt").read_bytes())
    page.set_input_files("#document", str(two))
    page.click("#read-document")
    page.locator("#people").wait_for()
    page.fill("#fact", "改过的事实")
    page.locator("#people button").nth(1).click()
    page.wait_for_function("document.querySelector('#person_info').value.startsWith('被不起诉人冯某某')")
    assert page.input_value("#fact") == "改过的事实"
    assert page.locator("#people button").nth(1).is_disabled()
    page.screenshot(path=str(tmp_path / "upload.png"), full_page=True)


# --- every page at a phone's width -----------------------------------------------------------------------------------

#: Elements that reach past the viewport's right edge, outside any box that scrolls sideways (for the message).
WIDE_ELEMENTS = """() => {
  const w = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('body *')) {
    let p = el.parentElement, scrolls = false;
    for (; p; p = p.parentElement) if (getComputedStyle(p).overflowX === 'auto') { scrolls = true; break; }
    const r = el.getBoundingClientRect();
    if (!scrolls && r.right > w + 0.5) out.push(el.tagName + (el.id ? '#' + el.id : '') + ' ' + Math.round(r.right));
  }
  return out.slice(0, 8).join(', ');
}"""


def served_pages(live) -> dict[str, tuple[str, int]]:
    """Every kind of page the server answers, with the status it answers with."""
    import httpx

    cases = httpx.get(live.url + "/cases", params={"run": "hostile"}).text
    case_id = re.search(r'href="/case\?id=([^"]+)"', cases).group(1)
    return {"leaderboard": ("/", 200), "run": ("/run?run=hostile", 200), "cases": ("/cases?run=hostile", 200),
            "case": (f"/case?id={case_id}", 200), "compare": ("/compare?a=rules&b=more%2Fmajority", 200),
            "compare form": ("/compare", 200), "retrieval": ("/retrieval?run=retrieval%2Fbm25", 200),
            "retrieval query": ("/retrieval?run=retrieval%2Fbm25&q=5", 200), "workbench": ("/workbench", 200),
            "bad request": ("/run", 422), "not found": ("/case?id=nope", 404)}


def test_every_page_fits_a_390px_screen_and_fetches_nothing_missing(browser, live):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    try:
        for name, (url, status) in served_pages(live).items():
            failed.clear()
            assert page.goto(live.url + url).status == status, name
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{name} ({url}) is {width}px wide at 390px: {page.evaluate(WIDE_ELEMENTS)}"
            header = page.evaluate("document.querySelector('header.top').getBoundingClientRect().width")
            assert header == pytest.approx(390, abs=1), name
            # Nothing a page asks for is missing (no /favicon.ico 404); the page itself may be a 404/422 message.
            assert [f for f in failed if not f.endswith(url)] == [], name
    finally:
        context.close()


def test_exported_pages_fit_a_390px_screen(browser, runs_dir, tmp_path):
    site = tmp_path / "site"
    res = CliRunner().invoke(cli, ["view", str(runs_dir), "--export", str(site)])
    assert res.exit_code == 0, res.output
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        kinds = ["index.html", "workbench.html"] + [next(site.glob(f"{k}-*.html")).name
                                                    for k in ("run", "cases", "case", "compare", "retrieval")]
        for name in kinds:
            page.goto((site / name).as_uri())
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"exported {name} is {width}px wide at 390px: {page.evaluate(WIDE_ELEMENTS)}"
    finally:
        context.close()
