"""Screenshots of every page of `jiancha view` at 1280 px and 390 px wide, for docs/web.md.

    .venv/bin/python docs/screenshots/take_screenshots.py RUNS_DIR [--statutes-dir DIR] [--run KEY]
        [--out docs/screenshots]

Serves RUNS_DIR on 127.0.0.1 (a free port), drives Debian's chromium with Playwright, and writes
``<page>-1280.png`` / ``<page>-390.png``. Needs the `web` and `browser` extras and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from importlib.resources import files
from pathlib import Path

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
FACT = ("2023年5月2日，犯罪嫌疑人王某在某县某超市内盗窃白酒两瓶，价值300元。案发后王某主动投案，如实供述，"
        "退赔全部损失并取得被害单位谅解，系初犯。")
PROCEDURE = "本案由某县公安局侦查终结，以犯罪嫌疑人王某涉嫌盗窃罪，于2023年6月1日移送本院审查起诉。"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs_dir")
    ap.add_argument("--statutes-dir")
    ap.add_argument("--run", help="the PDP run shown on the run and cases pages (default: the first)")
    ap.add_argument("--out", default=str(Path(__file__).parent))
    args = ap.parse_args()

    import uvicorn
    from playwright.sync_api import sync_playwright

    from jiancha.datasets.pdp import load_pdp
    from jiancha.law.statutes import load_statutes
    from jiancha.web.app import create_app
    from jiancha.web.explorer import Explorer
    from jiancha.web.runs import KIND_PDP, KIND_RETRIEVAL

    statutes = load_statutes(args.statutes_dir) if args.statutes_dir else None
    explorer = Explorer(Path(args.runs_dir), statutes=statutes)
    pdp = [r.key for r in explorer.runs(KIND_PDP)]
    retrieval = [r.key for r in explorer.runs(KIND_RETRIEVAL)]
    if len(pdp) < 2:
        sys.exit("need at least two PDP runs under RUNS_DIR")
    if args.run:
        if args.run not in pdp:
            sys.exit(f"--run {args.run}: no such PDP run under RUNS_DIR; expected one of {', '.join(pdp)}")
        pdp.remove(args.run)
        pdp.insert(0, args.run)
    explorer.warm()
    first_wrong = next(row for row in explorer.cases(pdp[0], explorer_filter("wrong"))["rows"])
    app = create_app(explorer=explorer, precedents=load_pdp("sample"), k=3, statutes=statutes)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    from jiancha.web.render import ServerLinks

    links, base = ServerLinks(), f"http://127.0.0.1:{port}"
    pages = {"leaderboard": links.home(), "run": links.run(pdp[0]),
             "cases": links.cases(pdp[0], outcome="wrong"), "case": links.case(first_wrong["case_id"]),
             "compare": links.compare(pdp[0], pdp[1])}
    if retrieval:
        pages["retrieval"] = links.retrieval(retrieval[0], explorer.retrieval_page(retrieval[0])["queries"][0][0])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for width in (1280, 390):
            page = browser.new_page(viewport={"width": width, "height": 900})
            for name, url in pages.items():
                page.goto(base + url)
                page.screenshot(path=str(out / f"{name}-{width}.png"), full_page=True)
            page.goto(base + links.workbench())
            page.fill("#procedure", PROCEDURE)
            page.fill("#fact", FACT)
            page.click("#submit")
            page.locator("#decision").wait_for()
            page.screenshot(path=str(out / f"workbench-{width}.png"), full_page=True)
            page.goto(base + links.workbench())
            page.fill("#fact", "   ")
            page.click("#submit")
            page.locator("#error").wait_for()
            page.screenshot(path=str(out / f"workbench-error-{width}.png"), full_page=True)
            page.goto(base + links.workbench())    # a bundled decision on two people, read from its file
            page.set_input_files("#document", str(files("jiancha") / "data" / "raw_docs" / "d09_multi_differing.txt"))
            page.click("#read-document")
            page.locator("#people").wait_for()
            page.screenshot(path=str(out / f"workbench-upload-{width}.png"), full_page=True)
            page.close()
        browser.close()
    server.should_exit = True
    print(f"wrote {len(list(out.glob('*.png')))} screenshots to {out}")


def explorer_filter(outcome: str):
    from jiancha.web.explorer import CaseFilter

    return CaseFilter(outcome=outcome)


if __name__ == "__main__":
    main()
