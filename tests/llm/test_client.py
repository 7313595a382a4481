"""The real httpx client against the loopback fake server, with injected faults."""

import asyncio

import pytest

from jiancha.errors import ConfigError
from jiancha.llm.client import ChatClient, parse_completion
from jiancha.llm.config import ClientConfig, GenerationConfig
from jiancha.llm.presets import resolve_backend

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "timeout_s": 5.0}


def _messages(key: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "sys"}, {"role": "user", "content": f"案件 {key}"}]


def _run(server, keys, gen=None, **cfg):
    spec = resolve_backend("fake-model", [server.url], api_key_env="JIANCHA_TEST_NO_KEY")
    config = ClientConfig(**{**FAST, **cfg})

    async def go():
        async with ChatClient(spec, gen or GenerationConfig(), config) as client:
            return await asyncio.gather(*(client.complete(_messages(k), seed=7) for k in keys))
    return asyncio.run(go())


def test_success_fields(fake_openai):
    fake_openai.reasoning = True
    fake_openai.answers["CASE-1"] = "存疑不起诉"
    (r,) = _run(fake_openai, ["CASE-1"], gen=GenerationConfig(max_tokens=64, temperature=0.5))
    assert r.ok and r.attempts == 1 and r.error is None
    assert r.text.endswith("决定：存疑不起诉")
    assert r.reasoning == "思考过程 CASE-1"
    assert r.finish_reason == "stop"
    assert r.completion_tokens == len(r.text) + 7 and r.reasoning_tokens == 7 and r.cost == 0.0001
    assert r.latency_s is not None and r.latency_s >= 0
    body = fake_openai.bodies[0]
    assert (body["model"], body["seed"], body["max_tokens"], body["temperature"]) == ("fake-model", 7, 64, 0.5)


@pytest.mark.parametrize("fault", ["500", "malformed", "reset", "429:0"])
def test_transient_faults_are_retried(fake_openai, fault):
    fake_openai.script("CASE-2", [fault, fault])
    (r,) = _run(fake_openai, ["CASE-2"])
    assert r.ok and r.attempts == 3
    assert fake_openai.counts["CASE-2"] == 3


def _record_sleeps(monkeypatch) -> list[float]:
    """The delays the client asks ``asyncio.sleep`` for (it still sleeps them)."""
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay: float, *args, **kwargs):
        slept.append(delay)
        return await real_sleep(delay, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    return slept


def test_retry_after_is_honoured(fake_openai, monkeypatch):
    fake_openai.script("CASE-3", ["429:1"])
    slept = _record_sleeps(monkeypatch)
    (r,) = _run(fake_openai, ["CASE-3"])
    assert r.ok and r.attempts == 2
    # Retry-After: 1 outweighs the 0.01-0.05 s backoff; the cooldown it sets may add a last fraction of a second
    assert slept[0] == 1.0 and all(d <= 1.0 for d in slept)


def test_hang_past_timeout_is_retried(fake_openai, monkeypatch):
    from jiancha.llm import client as client_module

    failures: list[str] = []
    real_attempt = client_module.ChatClient._attempt

    async def attempt(self, body):
        try:
            return await real_attempt(self, body)
        except Exception as exc:
            failures.append(str(exc))
            raise

    monkeypatch.setattr(client_module.ChatClient, "_attempt", attempt)
    fake_openai.hang_s = 3.0
    fake_openai.script("CASE-4", ["hang"])
    (r,) = _run(fake_openai, ["CASE-4"], timeout_s=0.3)
    assert r.ok and r.attempts == 2
    # the client gave up on the silent reply at its own deadline, not when the server closed the connection
    assert len(failures) == 1 and failures[0].startswith("timeout after 0.3 s")


def test_persistent_failure_is_returned_not_raised(fake_openai):
    fake_openai.script("CASE-5", ["500"] * 10)
    r5, r6 = _run(fake_openai, ["CASE-5", "CASE-6"], max_attempts=3)
    assert not r5.ok and r5.attempts == 3 and "HTTP 500" in r5.error and "3 attempts" in r5.error
    assert r6.ok


def test_client_error_is_not_retried(fake_openai):
    fake_openai.script("CASE-7", ["400"])
    (r,) = _run(fake_openai, ["CASE-7"])
    assert not r.ok and r.attempts == 1 and "HTTP 400" in r.error
    assert fake_openai.counts["CASE-7"] == 1


def test_truncated_answer_is_ok_with_finish_reason(fake_openai):
    fake_openai.script("CASE-8", ["length"])
    (r,) = _run(fake_openai, ["CASE-8"])
    assert r.ok and r.finish_reason == "length" and r.attempts == 1


def test_replicas_share_the_load(fake_openai):
    from fake_openai import FakeOpenAI

    with FakeOpenAI(latency=0.05) as second:
        spec = resolve_backend("m", [fake_openai.url, second.url])

        async def go():
            async with ChatClient(spec, GenerationConfig(), ClientConfig(**FAST)) as client:
                return await asyncio.gather(*(client.complete(_messages(f"CASE-{i}")) for i in range(20)))
        results = asyncio.run(go())
        assert all(r.ok for r in results)
        assert fake_openai.total() + second.total() == 20
        assert fake_openai.total() >= 5 and second.total() >= 5


def test_api_key_from_env_only_in_header(fake_openai, monkeypatch):
    monkeypatch.setenv("JIANCHA_TEST_KEY", "sk-secret-123")
    spec = resolve_backend("m", [fake_openai.url], api_key_env="JIANCHA_TEST_KEY")
    fake_openai.script("CASE-9", ["400"])

    async def go():
        async with ChatClient(spec, GenerationConfig(), ClientConfig(**FAST)) as client:
            return await client.complete(_messages("CASE-9"))
    r = asyncio.run(go())
    assert fake_openai.headers[0]["authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in (r.error or "")
    assert "sk-secret" not in repr(spec)


def test_missing_key_for_paid_preset(monkeypatch):
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENROUTER_API_KEY"):
        ChatClient(resolve_backend("openrouter:m"), GenerationConfig())


def test_parse_completion_variants():
    body = {"choices": [{"message": {"content": None, "reasoning": "r"}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 9, "cost": 0.5}}
    f = parse_completion(body)
    assert (f["text"], f["reasoning"], f["finish_reason"], f["cost"], f["reasoning_tokens"]) == (
        None, "r", "length", 0.5, None)
    for bad in ([], {"choices": []}, {"error": {"message": "x"}}, {"choices": [{"message": {"content": 3}}]}):
        with pytest.raises((ValueError, TypeError)):
            parse_completion(bad)


def test_an_undecodable_body_is_a_failed_request_not_a_crash(fake_openai, monkeypatch):
    """httpx errors outside TransportError (DecodingError, TooManyRedirects) are retried, then recorded."""
    import httpx

    async def broken_post(self, url, **kw):
        raise httpx.DecodingError("bad gzip stream")

    monkeypatch.setattr(httpx.AsyncClient, "post", broken_post)
    (r,) = _run(fake_openai, ["CASE-1"], max_attempts=2)
    assert not r.ok and r.attempts == 2 and "DecodingError" in r.error
