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
    return json.loads(res.output)


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
        assert "同罪名：盗窃罪" in page.locator("ol.precedents").inner_text()
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
