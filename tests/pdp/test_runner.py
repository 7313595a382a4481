"""``run_pdp_eval`` against the real loopback chat server with injected faults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdp_runner_cases import write_cases

from jiancha.errors import ConfigError, ResumeMismatchError
from jiancha.llm.config import ClientConfig, GenerationConfig
from jiancha.pdp.rundir import read_predictions
from jiancha.pdp.spec import RunSpec
from jiancha.pdp.task import run_pdp_eval

FAST = ClientConfig(concurrency=4, timeout_s=0.5, max_attempts=3, backoff_base_s=0.01, backoff_max_s=0.05)


def _spec(server, data: Path, out: Path, **kw) -> RunSpec:
    kw.setdefault("api_key_env", "JIANCHA_TEST_UNSET_KEY")
    return RunSpec(model="fake-model", data=str(data), out=str(out), base_urls=(server.url,), **kw)


def _lines(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]


def test_faults_run_completes_and_records_everything(fake_openai, tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 12)
    fake_openai.reasoning = True
    fake_openai.hang_s = 3.0
    fake_openai.answers["CASE-001"] = "相对不起诉"
    fake_openai.script("CASE-001", ["429:0"])
    fake_openai.script("CASE-002", ["500", "500"])
    fake_openai.script("CASE-003", ["hang"])
    fake_openai.script("CASE-004", ["malformed"])
    fake_openai.script("CASE-005", ["length", "length"])
    fake_openai.script("CASE-006", ["reset"])
    fake_openai.script("CASE-007", ["500"] * 50)
    out = tmp_path / "run"
    s = run_pdp_eval(_spec(fake_openai, data, out, repeats=2, seed=10), FAST)

    assert (s.total, s.sent, s.already_done, s.failed, s.failed_total) == (24, 24, 0, 2, 2)
    rows = _lines(out)
    assert len(rows) == 24 and len({(r["case_id"], r["run_id"]) for r in rows}) == 24
    by = {(r["inputs"]["fact"][:8], r["run_id"]): r for r in rows}
    failed = [r for r in rows if r["status"] == "failed"]
    assert {r["inputs"]["fact"][:8] for r in failed} == {"CASE-007"}
    assert all(r["attempts"] == 3 and "HTTP 500" in r["error"] and r["raw_output"] is None for r in failed)
    # retried faults: attempts recorded per request add up to what the server saw
    for key in ("CASE-001", "CASE-002", "CASE-003", "CASE-004", "CASE-006"):
        assert sum(by[(key, i)]["attempts"] for i in (0, 1)) == fake_openai.counts[key]
    assert fake_openai.counts["CASE-002"] == 4 and fake_openai.counts["CASE-000"] == 2
    assert {by[("CASE-005", i)]["finish_reason"] for i in (0, 1)} == {"length"}
    ok = by[("CASE-001", 1)]
    assert ok["status"] == "ok" and ok["raw_output"].endswith("决定：相对不起诉")
    assert ok["reasoning"] == "思考过程 CASE-001" and ok["reasoning_tokens"] == 7 and ok["cost"] == 0.0001
    # usage is copied from the server's reply: the fake counts one token per character (+7 reasoning tokens)
    (body,) = [b for b in fake_openai.bodies
               if b["seed"] == 11 and "CASE-001" in "".join(str(m["content"]) for m in b["messages"])][-1:]
    assert ok["prompt_tokens"] == sum(len(str(m["content"])) for m in body["messages"])
    assert ok["completion_tokens"] == len(ok["raw_output"]) + 7 and ok["latency_s"] >= 0
    assert ok["gold_decision"] == "相对不起诉" and ok["messages_hash"] and ok["seed"] == 11
    # seed + run_id reaches the server
    assert {b["seed"] for b in fake_openai.bodies} == {10, 11}
    assert s.cost == pytest.approx(0.0001 * 22)
    # typed view: latest per key
    assert len(read_predictions(out)) == 24
    # the scorer ran on the run directory: every case of both runs, failures and truncations counted
    pooled = s.metrics["pooled"]
    assert (pooled["n_records"], pooled["n_cases"], pooled["n_runs"]) == (24, 12, 2)
    assert pooled["request_failed_count"] == 2 and pooled["truncated_count"] == 2
    assert (out / "metrics.json").is_file() and (out / "report.md").is_file()


def test_resume_sends_nothing_and_retry_failed_sends_only_failures(fake_openai, tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 8)
    fake_openai.script("CASE-003", ["500"] * 10)
    out = tmp_path / "run"
    spec = _spec(fake_openai, data, out)
    first = run_pdp_eval(spec, FAST, score=False)
    assert (first.sent, first.failed) == (8, 1)
    n = fake_openai.total()

    again = run_pdp_eval(spec, ClientConfig(concurrency=1, timeout_s=9), score=False)  # transport may change
    assert fake_openai.total() == n and again.sent == 0 and again.already_done == 8 and again.resumed

    fake_openai.clear_scripts()
    retried = run_pdp_eval(_spec(fake_openai, data, out, retry_failed=True), FAST, score=False)
    assert retried.sent == 1 and retried.failed == 0 and retried.failed_total == 0
    assert fake_openai.total() == n + 1
    latest = {p.inputs["fact"][:8]: p for p in read_predictions(out)}
    assert latest["CASE-003"].status == "ok"
    assert len(_lines(out)) == 9          # append-only: the failure line stays, the new line wins

    more = run_pdp_eval(_spec(fake_openai, data, out, repeats=2), FAST, score=False)   # widening the scope
    assert more.sent == 8 and more.already_done == 8


def test_changed_settings_are_refused_with_the_difference(fake_openai, tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 4)
    out = tmp_path / "run"
    run_pdp_eval(_spec(fake_openai, data, out, generation=GenerationConfig(temperature=0.0)), FAST, score=False)
    with pytest.raises(ResumeMismatchError) as err:
        run_pdp_eval(_spec(fake_openai, data, out, generation=GenerationConfig(temperature=0.7, max_tokens=99)),
                     FAST, score=False)
    msg = str(err.value)
    assert "generation.temperature: 0.0 (stored) → 0.7 (now)" in msg
    assert "generation.max_tokens: None (stored) → 99 (now)" in msg
    with pytest.raises(ResumeMismatchError, match="prompt"):
        run_pdp_eval(_spec(fake_openai, data, out, prompt="definitions",
                           generation=GenerationConfig(temperature=0.0)), FAST, score=False)
    with pytest.raises(ResumeMismatchError, match="seed: None"):
        run_pdp_eval(_spec(fake_openai, data, out, seed=1, generation=GenerationConfig(temperature=0.0)),
                     FAST, score=False)
    write_cases(data, 5)   # the data changed under the same path
    with pytest.raises(ResumeMismatchError, match="data_fingerprint"):
        run_pdp_eval(_spec(fake_openai, data, out, generation=GenerationConfig(temperature=0.0)), FAST,
                     score=False)


def test_generic_endpoint_is_part_of_identity_but_preset_replicas_are_not(fake_openai, tmp_path):
    from jiancha.llm.presets import resolve_backend

    data = write_cases(tmp_path / "cases.jsonl", 2)
    out = tmp_path / "run"
    run_pdp_eval(_spec(fake_openai, data, out), FAST, score=False)
    other = RunSpec(model="fake-model", data=str(data), out=str(out), api_key_env="JIANCHA_TEST_UNSET_KEY",
                    base_urls=(fake_openai.url.replace("127.0.0.1", "localhost"),))
    with pytest.raises(ResumeMismatchError, match="backend.endpoints"):
        run_pdp_eval(other, FAST, score=False)
    one = resolve_backend("vllm:m", ("http://a:8000/v1",)).identity()
    assert one == resolve_backend("vllm:m", ("http://a:8000/v1", "http://b:8000/v1")).identity()
    assert "endpoints" not in one


def test_api_key_never_reaches_the_run_directory(fake_openai, tmp_path, monkeypatch):
    secret = "sk-jiancha-SECRET-4f7a1c"
    monkeypatch.setenv("JIANCHA_TEST_KEY", secret)
    data = write_cases(tmp_path / "cases.jsonl", 4)
    fake_openai.script("CASE-001", ["400"])      # an error message is recorded too
    fake_openai.script("CASE-002", ["echo401"])  # even when the server echoes the Authorization header
    out = tmp_path / "run"
    run_pdp_eval(_spec(fake_openai, data, out, api_key_env="JIANCHA_TEST_KEY"), FAST, score=False)
    assert {h["authorization"] for h in fake_openai.headers} == {f"Bearer {secret}"}
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"manifest.json", "records.jsonl"}
    for p in files:
        assert secret.encode() not in p.read_bytes(), p
    assert json.loads((out / "manifest.json").read_text())["backend"]["api_key_env"] == "JIANCHA_TEST_KEY"
    echoed = [r for r in _lines(out) if r["inputs"]["fact"].startswith("CASE-002")]
    assert echoed[0]["status"] == "failed" and "Bearer ***" in echoed[0]["error"]


def test_plain_endpoint_gets_no_provider_key_unless_named(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-must-not-leak")
    data = write_cases(tmp_path / "cases.jsonl", 2)
    spec = RunSpec(model="fake-model", data=str(data), out=str(tmp_path / "run"), base_urls=(fake_openai.url,))
    run_pdp_eval(spec, FAST, score=False)
    assert fake_openai.headers and all("authorization" not in h for h in fake_openai.headers)


def test_manifest_records_provenance(fake_openai, tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 4)
    out = tmp_path / "run"
    run_pdp_eval(_spec(fake_openai, data, out, limit=2, prompt="definitions"), FAST, score=False)
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert m["data"]["n_records"] == 4 and m["data"]["n_cases"] == 2 and len(m["data"]["fingerprint"]) == 16
    assert m["prompt"]["variant"] == "definitions" and m["prompt"]["hash"] == m["identity"]["prompt"][
        "messages_hash"]
    assert m["identity"]["backend"] == {"preset": "generic", "model": "fake-model", "extra_body": {},
                                        "endpoints": [fake_openai.url]}
    assert "concurrency" not in json.dumps(m["identity"]) and "timeout" not in json.dumps(m["identity"])
    assert m["environment"]["packages"]["httpx"] and m["started_at"] and m["finished_at"]
    assert m["invocations"][0]["sent"] == 2
    assert fake_openai.total() == 2


def test_bad_settings_fail_before_any_request(fake_openai, tmp_path, monkeypatch):
    data = write_cases(tmp_path / "cases.jsonl", 2)
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENROUTER_API_KEY"):
        run_pdp_eval(RunSpec(model="openrouter:x", data=str(data), out=str(tmp_path / "r")), FAST)
    with pytest.raises(ConfigError, match="never both"):
        GenerationConfig(reasoning_effort="high", reasoning_max_tokens=100)
    assert not (tmp_path / "r").exists() and fake_openai.total() == 0


def test_openrouter_preset_and_one_shot_prompt_reach_the_wire(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-test")
    data = write_cases(tmp_path / "cases.jsonl", 2)
    spec = RunSpec(model="openrouter:vendor/model-x", data=str(data), out=str(tmp_path / "run"),
                   base_urls=(fake_openai.url,), prompt="one-shot", one_shot_classes=("DNP",),
                   extra_body={"provider": {"order": ["p1"]}},
                   generation=GenerationConfig(reasoning_effort="low", max_tokens=512))
    s = run_pdp_eval(spec, FAST, score=False)
    assert s.sent == 2 and s.cost == pytest.approx(0.0002)
    body = fake_openai.bodies[0]
    assert body["model"] == "vendor/model-x" and body["max_tokens"] == 512
    assert body["reasoning"] == {"effort": "low"} and body["usage"] == {"include": True}
    assert body["provider"] == {"require_parameters": True, "order": ["p1"]}
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    assert body["messages"][2]["content"].endswith("决定：相对不起诉")
    m = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert m["identity"]["backend"]["preset"] == "openrouter"
    assert m["identity"]["prompt"]["one_shot_classes"] == ["DNP"]


def test_plan_requests_skips_done_and_failed_unless_retrying():
    from pdp_runner_cases import make_cases

    from jiancha.evaluation.runner import plan_requests
    from jiancha.evaluation.task import Sample

    cases = [Sample(f"c{i}", r) for i, r in enumerate(make_cases(3))]
    status = {("c0", 0): "ok", ("c1", 0): "failed", ("c2", 1): "failed", ("gone", 0): "failed"}
    todo, done, kept = plan_requests(status, cases, 2, retry_failed=False)
    assert [(run, s.id) for run, s in todo] == [(0, "c2"), (1, "c0"), (1, "c1")]
    assert (done, kept) == (3, 3)
    todo, done, kept = plan_requests(status, cases, 2, retry_failed=True)
    assert [(run, s.id) for run, s in todo] == [(0, "c1"), (0, "c2"), (1, "c0"), (1, "c1"), (1, "c2")]
    assert (done, kept) == (1, 1)     # the out-of-scope failure stays counted
