"""`pdp eval --batch-out` + `pdp ingest`: a batch round trip stores what a live run stores (bar latency), partial and
failed batches are reported and re-submitted without duplicates."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from typer.testing import CliRunner

from jiancha.cli.main import app
from jiancha.llm.batchfile import parse_custom_id

runner = CliRunner()
COMMON = ["--data", "sample", "--model", "vllm:fake", "--limit", "5", "--repeats", "2", "--seed", "7",
          "--temperature", "0.5", "--no-progress"]


def _eval(server, out: Path, *extra: str):
    return runner.invoke(app, ["pdp", "eval", *COMMON, "--base-url", server.url, "--out", str(out), *extra])


def process_batch(server, requests: Path, results: Path, *, drop: int = 0, fail: int = 0) -> list[str]:
    """Play the batch API: POST each request body to the server and write OpenAI-style result lines, leaving out the
    first ``drop`` requests and answering the next ``fail`` with an error line. Returns the custom_ids sent."""
    lines = [json.loads(x) for x in requests.read_text(encoding="utf-8").splitlines()]
    out = []
    for i, line in enumerate(lines):
        if i < drop:
            continue
        if i < drop + fail:
            out.append({"id": f"b{i}", "custom_id": line["custom_id"], "response": None,
                        "error": {"code": "server_error", "message": "try again"}})
            continue
        resp = httpx.post(server.url + "/chat/completions", json=line["body"], timeout=10)
        out.append({"id": f"b{i}", "custom_id": line["custom_id"], "error": None,
                    "response": {"status_code": resp.status_code, "request_id": f"r{i}", "body": resp.json()}})
    results.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in out), encoding="utf-8")
    return [x["custom_id"] for x in lines]


def _records(run: Path) -> dict[tuple, dict]:
    rows = [json.loads(x) for x in (run / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    return {(r["case_id"], r["run_id"]): {k: v for k, v in r.items() if k != "latency_s"} for r in rows}


def _decide_by_case(body, key):
    from fake_openai import render_answer_text

    user = body["messages"][-1]["content"]
    return render_answer_text(["起诉", "相对不起诉", "法定不起诉", "存疑不起诉"][len(user) % 4])


def test_batch_round_trip_equals_a_live_run(fake_openai, tmp_path):
    fake_openai.responder = _decide_by_case
    live, batch = tmp_path / "live", tmp_path / "batch"
    assert _eval(fake_openai, live).exit_code == 0
    live_bodies = {json.dumps(b, sort_keys=True, ensure_ascii=False) for b in fake_openai.bodies}

    res = _eval(fake_openai, batch, "--batch-out", str(tmp_path / "b1.jsonl"))
    assert res.exit_code == 0, res.output
    assert "wrote 10 request(s)" in res.output and not (batch / "metrics.json").exists()
    lines = [json.loads(x) for x in (tmp_path / "b1.jsonl").read_text(encoding="utf-8").splitlines()]
    # the same request bodies as the live run sent
    assert {json.dumps(x["body"], sort_keys=True, ensure_ascii=False) for x in lines} == live_bodies
    assert sorted(parse_custom_id(x["custom_id"])[1] for x in lines) == [0] * 5 + [1] * 5

    # a partial batch: 2 requests missing, 1 failed
    process_batch(fake_openai, tmp_path / "b1.jsonl", tmp_path / "r1.jsonl", drop=2, fail=1)
    res = runner.invoke(app, ["pdp", "ingest", str(tmp_path / "r1.jsonl"), "--out", str(batch)])
    assert res.exit_code == 3, res.output
    assert "stored: 7 ok, 1 failed; skipped 0 already stored" in res.output
    assert "3 request(s) have no ok result yet (1 stored as failed)" in " ".join(res.output.split())

    # ingesting the same results again adds nothing
    n_lines = len((batch / "records.jsonl").read_text(encoding="utf-8").splitlines())
    res = runner.invoke(app, ["pdp", "ingest", str(tmp_path / "r1.jsonl"), "--out", str(batch), "--no-score"])
    assert "stored: 0 ok, 0 failed; skipped 8 already stored" in res.output
    assert len((batch / "records.jsonl").read_text(encoding="utf-8").splitlines()) == n_lines

    # re-submit: only the missing and the failed requests
    res = _eval(fake_openai, batch, "--batch-out", str(tmp_path / "b2.jsonl"), "--retry-failed")
    assert "wrote 3 request(s)" in res.output, res.output
    resent = process_batch(fake_openai, tmp_path / "b2.jsonl", tmp_path / "r2.jsonl")
    assert sorted(resent) == sorted(x["custom_id"] for x in lines[:3])
    res = runner.invoke(app, ["pdp", "ingest", str(tmp_path / "r2.jsonl"), "--out", str(batch)])
    assert res.exit_code == 0, res.output

    got, want = _records(batch), _records(live)
    assert got.keys() == want.keys() and got == want
    live_m = json.loads((live / "metrics.json").read_text(encoding="utf-8"))["pooled"]
    batch_m = json.loads((batch / "metrics.json").read_text(encoding="utf-8"))["pooled"]
    assert batch_m["decision_level2_macro_f1"] == live_m["decision_level2_macro_f1"]
    assert batch_m["confusion_level2"] == live_m["confusion_level2"]

    # the run directory is an ordinary one: a live resume has nothing left to send
    res = _eval(fake_openai, batch)
    assert res.exit_code == 0 and "0 sent now" in res.output


def test_results_of_another_run_and_a_missing_run_dir_are_refused(fake_openai, tmp_path):
    run = tmp_path / "run"
    assert _eval(fake_openai, run, "--batch-out", str(tmp_path / "b.jsonl")).exit_code == 0
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text(json.dumps({"custom_id": "其他案件:0", "response": None, "error": {"message": "x"}}) + "\n",
                       encoding="utf-8")
    res = runner.invoke(app, ["pdp", "ingest", str(foreign), "--out", str(run), "--no-score"])
    assert "ignored 1 result(s) this run does not plan (其他案件 run 0)" in " ".join(res.output.split())
    assert not (run / "records.jsonl").read_text(encoding="utf-8").strip()
    res = runner.invoke(app, ["pdp", "ingest", str(foreign), "--out", str(tmp_path / "nothing")])
    assert res.exit_code != 0 and "is not a run directory (no manifest.json)" in str(res.exception)


def test_writing_a_batch_file_needs_no_api_key(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    res = runner.invoke(app, ["pdp", "eval", "--data", "sample", "--model", "openai:gpt-x", "--limit", "2",
                              "--out", str(tmp_path / "run"), "--batch-out", str(tmp_path / "b.jsonl"), "--no-progress"])
    assert res.exit_code == 0, res.output
    body = json.loads((tmp_path / "b.jsonl").read_text(encoding="utf-8").splitlines()[0])["body"]
    assert body["model"] == "gpt-x" and "Authorization" not in json.dumps(body)
    invocation = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))["invocations"][-1]
    assert invocation["batch_out"] == str(tmp_path / "b.jsonl") and invocation["batch_requests"] == 2
