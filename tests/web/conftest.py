"""Fixtures of the web tests: a runs folder made by the real commands (two offline PDP baselines, a retrieval run
on the bundled mini corpus) plus a run whose answers are hostile HTML, and a live server for the browser tests."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from importlib.resources import files
from pathlib import Path
from typing import Self

import pytest
from typer.testing import CliRunner

from jiancha.cli.main import app as cli

#: A model answer that must show as text: a script and an onerror attribute that would set window.__pwned.
HOSTILE = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
           "【适用法条】\n刑法：第二百六十四条\n\n【审查分析】\n<b>不是粗体</b>\n\n【最终结论】\n决定：起诉")
#: A small theft case the rules baseline answers 相对不起诉 for (with precedents sharing 盗窃罪).
THEFT_FACT = ("2023年5月2日，犯罪嫌疑人王某在某县某超市内盗窃白酒两瓶，价值300元。案发后王某主动投案，如实供述，"
              "退赔全部损失并取得被害单位谅解，系初犯。")
HOSTILE_REASONING = "先想一想：<script>window.__pwned = 3</script> 这是推理过程。"


def _eval(out: Path, model: str) -> None:
    res = CliRunner().invoke(cli, ["pdp", "eval", "--data", "sample", "--model", model, "--out", str(out)])
    assert res.exit_code == 0, res.output


def _hostile_copy(src: Path, dst: Path) -> None:
    """A copy of a run whose records look like an LLM's: usage figures, reasoning, one truncated answer, one
    failed request, and hostile HTML in one answer and one case text."""
    shutil.copytree(src, dst)
    manifest = json.loads((dst / "manifest.json").read_text(encoding="utf-8"))
    manifest["spec"]["model"] = "fake:hostile"
    manifest["identity"]["model"] = "fake:hostile"
    (dst / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    lines = (dst / "records.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        rec = json.loads(line)
        rec.update(prompt_tokens=1000 + i, completion_tokens=200, reasoning_tokens=50, cost=0.001,
                   latency_s=1.0 + i / 10)
        if i == 0:
            rec.update(raw_output=HOSTILE, reasoning=HOSTILE_REASONING)
            rec["inputs"]["fact"] = '<img src=y onerror="window.__pwned = 4">' + rec["inputs"]["fact"]
        elif i == 1:
            rec.update(finish_reason="length", raw_output=rec["raw_output"][:15])
        elif i == 2:
            rec.update(status="failed", raw_output=None, error="HTTP 400: bad request")
        out.append(json.dumps(rec, ensure_ascii=False))
    (dst / "records.jsonl").write_text("\n".join(out) + "\n", encoding="utf-8")
    (dst / "metrics.json").unlink()   # stale now; the explorer scores the run itself


@pytest.fixture(scope="session")
def runs_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    _eval(root / "rules", "baseline:rules")
    _eval(root / "more" / "majority", "baseline:majority")
    _hostile_copy(root / "rules", root / "hostile")
    mini = str(files("jiancha") / "data" / "mini_retrieval")
    res = CliRunner().invoke(cli, ["retrieval", "eval", "--dataset", "lecard-v2", "--data-dir", mini,
                                   "--method", "bm25", "--out", str(root / "retrieval" / "bm25")])
    assert res.exit_code == 0, res.output
    # An LJP run as `jiancha ljp eval` lays it out (manifest task "ljp"; metrics mean ± SE per metric).
    ljp = root / "ljp" / "cail"
    ljp.mkdir(parents=True)
    (ljp / "manifest.json").write_text(json.dumps({"task": "ljp", "spec": {"model": "fake:ljp"}}), encoding="utf-8")
    (ljp / "records.jsonl").write_text('{"case_id": "c1", "run_id": 0, "status": "ok"}\n', encoding="utf-8")
    (ljp / "metrics.json").write_text(json.dumps({"runs": 1, "mean_se": {"charge_macro_f1": {"mean": 0.4321, "se": 0},
                                                                         "charge_accuracy": {"mean": 0.875, "se": 0}}}),
                                      encoding="utf-8")
    # Things no URL may reach: a folder and a file outside the runs folder, linked from inside it.
    secret = tmp_path_factory.mktemp("outside")
    (secret / "records.jsonl").write_text('{"case_id": "OUTSIDE", "run_id": 0, "status": "ok", "raw_output": "TOP-SECRET"}\n', encoding="utf-8")
    (secret / "secret.txt").write_text("TOP-SECRET", encoding="utf-8")
    (root / "link-out").symlink_to(secret, target_is_directory=True)
    (root / "rules" / "secret.json").symlink_to(secret / "secret.txt")
    return root


# --- browser -----------------------------------------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright (which cannot download its own browser here). Module scope:
    Playwright's synchronous API keeps an event loop running in this thread until it is closed, which would
    stop later tests from calling asyncio.run."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install -e '.[browser]')")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium fonts-noto-cjk")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """A FastAPI app served by uvicorn on 127.0.0.1 in a background thread."""

    def __init__(self, app) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start in 20 s")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live(runs_dir):
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from jiancha.datasets.pdp import load_pdp
    from jiancha.web.app import create_app

    with LiveServer(create_app(runs_dir, precedents=load_pdp("sample"), k=3)) as server:
        yield server


@pytest.fixture(autouse=True)
def _cache_in_tmp(monkeypatch, tmp_path):
    """`jiancha view` keeps record indexes under $XDG_CACHE_HOME: tests keep them in their own folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
