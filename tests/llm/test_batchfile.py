"""Batch-API request and result files: custom ids, the live request body, and every kind of result line."""

from __future__ import annotations

import json

import pytest

from jiancha.errors import DataError
from jiancha.llm.batchfile import (
    custom_id,
    parse_custom_id,
    read_batch_results,
    render_batch_line,
    result_of_line,
    write_batch_file,
)
from jiancha.llm.config import GenerationConfig
from jiancha.llm.presets import render_request_body, resolve_backend
from jiancha.llm.types import ChatRequest


@pytest.mark.parametrize("key", [("某检刑不诉[2016]370号", 0), ("a:b:c", 12), ("x#2", 3), ("", 0), ("100%", 7)])
def test_custom_id_round_trips_and_is_ascii(key):
    cid = custom_id(key)
    assert cid.isascii() and parse_custom_id(cid) == key


def test_a_custom_id_without_run_is_refused():
    with pytest.raises(ValueError, match="is not '<item id>:<run id>'"):
        parse_custom_id("abc")


def test_request_line_carries_the_live_body():
    spec = resolve_backend("openrouter:some/model")
    gen = GenerationConfig(max_tokens=100, temperature=0.7, reasoning_effort="low")
    req = ChatRequest(key=("C1", 2), messages=[{"role": "user", "content": "问"}], seed=44)
    line = render_batch_line(spec, gen, req)
    assert line == {"custom_id": "C1:2", "method": "POST", "url": "/v1/chat/completions",
                    "body": render_request_body(spec, req.messages, gen, 44)}
    assert line["body"]["seed"] == 44 and line["body"]["reasoning"] == {"effort": "low"}


def _ok(cid: str, text: str = "答", finish: str = "stop") -> dict:
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 3}}
    return {"id": "r", "custom_id": cid, "response": {"status_code": 200, "request_id": "q", "body": body},
            "error": None}


def test_result_lines_become_chat_results():
    ok = result_of_line(_ok("a:0", finish="length"))
    assert ok.ok and ok.text == "答" and ok.finish_reason == "length" and ok.prompt_tokens == 5 and ok.latency_s is None
    err = result_of_line({"custom_id": "a:0", "response": None, "error": {"code": "batch_expired", "message": "late"}})
    assert not err.ok and err.error == "batch error: batch_expired: late"
    http = result_of_line({"custom_id": "a:0", "error": None,
                           "response": {"status_code": 429, "body": {"error": {"message": "slow down"}}}})
    assert not http.ok and http.error == "batch response HTTP 429: slow down"
    bad = result_of_line({"custom_id": "a:0", "error": None, "response": {"status_code": 200, "body": {"x": 1}}})
    assert not bad.ok and bad.error == "malformed batch response body: response has no choices"


def test_reading_result_files_an_ok_result_wins_and_oddities_are_counted(tmp_path):
    out = tmp_path / "out.jsonl"
    errors = tmp_path / "errors.jsonl"
    out.write_text("".join(json.dumps(x) + "\n" for x in [_ok("a:0"), _ok("b:1"), _ok("weird")]), encoding="utf-8")
    errors.write_text(json.dumps({"custom_id": "a:0", "response": None, "error": {"message": "x"}}) + "\n"
                      + json.dumps({"custom_id": "c:0", "response": None, "error": {"message": "y"}}) + "\n",
                      encoding="utf-8")
    res = read_batch_results([out, errors])
    assert sorted(res.results) == [("a", 0), ("b", 1), ("c", 0)]
    assert res.results[("a", 0)].ok and not res.results[("c", 0)].ok
    assert (res.n_ok, res.n_failed, res.duplicates, res.bad_ids) == (2, 1, 1, ["weird"])


def test_a_file_that_is_not_a_result_file_names_the_line(tmp_path):
    p = tmp_path / "requests.jsonl"
    p.write_text('{"custom_id": "a:0"}\n{"method": "POST"}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"requests.jsonl, line 2, field 'custom_id': not a batch result line"):
        read_batch_results([p])


def test_write_batch_file(tmp_path):
    spec = resolve_backend("vllm:m")
    reqs = [ChatRequest(key=(f"c{i}", 0), messages=[{"role": "user", "content": str(i)}]) for i in range(3)]
    path = tmp_path / "b.jsonl"
    assert write_batch_file(path, spec, GenerationConfig(), reqs) == 3
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert [x["custom_id"] for x in lines] == ["c0:0", "c1:0", "c2:0"] and lines[2]["body"]["model"] == "m"
