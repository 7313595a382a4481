import pytest

from jiancha.errors import ConfigError
from jiancha.llm.config import GenerationConfig
from jiancha.llm.presets import render_request_body, resolve_backend

MSG = [{"role": "user", "content": "x"}]


def test_resolve_presets_and_generic():
    s = resolve_backend("openrouter:google/gemini-3.1-pro")
    assert (s.preset, s.model, s.base_urls, s.api_key_env) == (
        "openrouter", "google/gemini-3.1-pro", ("https://openrouter.ai/api/v1",), "OPENROUTER_API_KEY")
    v = resolve_backend("vllm:Qwen/Qwen3-8B", ["http://a:8000/v1/", "http://b:8000/v1"])
    assert v.base_urls == ("http://a:8000/v1", "http://b:8000/v1")
    g = resolve_backend("my-model", ["http://h/v1"], api_key_env="MY_KEY")
    assert (g.preset, g.model, g.api_key_env) == ("generic", "my-model", "MY_KEY")
    # a colon in a plain model name that is not a preset stays part of the name
    assert resolve_backend("qwen3:8b", ["http://h/v1"]).model == "qwen3:8b"


def test_resolve_errors():
    with pytest.raises(ConfigError, match="no preset prefix and no --base-url"):
        resolve_backend("gpt-x")
    with pytest.raises(ConfigError, match="not an http"):
        resolve_backend("vllm:m", ["localhost:8000"])


def test_openrouter_reasoning_effort_or_budget_never_both():
    spec = resolve_backend("openrouter:m")
    body = render_request_body(spec, MSG, GenerationConfig(reasoning_effort="high", max_tokens=100), seed=3)
    assert body["reasoning"] == {"effort": "high"}
    assert body["usage"] == {"include": True}
    assert body["provider"] == {"require_parameters": True}
    assert (body["max_tokens"], body["seed"]) == (100, 3)
    body = render_request_body(spec, MSG, GenerationConfig(reasoning_max_tokens=2048), seed=None)
    assert body["reasoning"] == {"max_tokens": 2048}
    with pytest.raises(ConfigError, match="never both"):
        GenerationConfig(reasoning_effort="low", reasoning_max_tokens=10)
    with pytest.raises(ConfigError, match="unknown reasoning effort"):
        GenerationConfig(reasoning_effort="extreme")


def test_vllm_thinking_switch_and_top_k():
    spec = resolve_backend("vllm:m")
    off = render_request_body(spec, MSG, GenerationConfig(reasoning_effort="none", top_k=20), seed=None)
    assert off["chat_template_kwargs"] == {"enable_thinking": False}
    assert off["top_k"] == 20 and "reasoning_effort" not in off
    on = render_request_body(spec, MSG, GenerationConfig(reasoning_effort="high"), seed=None)
    assert on["chat_template_kwargs"] == {"enable_thinking": True} and on["reasoning_effort"] == "high"
    with pytest.raises(ConfigError, match="no reasoning token budget"):
        render_request_body(spec, MSG, GenerationConfig(reasoning_max_tokens=5), seed=None)


def test_openai_fields():
    spec = resolve_backend("openai:gpt-5.4")
    body = render_request_body(spec, MSG, GenerationConfig(reasoning_effort="minimal", max_tokens=50), seed=1)
    assert body == {"model": "gpt-5.4", "messages": MSG, "max_completion_tokens": 50, "seed": 1,
                    "reasoning_effort": "minimal"}
    with pytest.raises(ConfigError, match="top_k"):
        render_request_body(spec, MSG, GenerationConfig(top_k=5), seed=None)


def test_extra_body_merges_into_nested_objects_and_enters_identity():
    from jiancha.llm.presets import parse_extra_body

    extra = parse_extra_body('{"provider": {"order": ["deepinfra"], "allow_fallbacks": false}, "top_a": 0.1}')
    spec = resolve_backend("openrouter:m", extra_body=extra)
    body = render_request_body(spec, MSG, GenerationConfig(reasoning_effort="low"), seed=None)
    assert body["provider"] == {"require_parameters": True, "order": ["deepinfra"], "allow_fallbacks": False}
    assert body["top_a"] == 0.1
    assert spec.identity()["extra_body"] == extra
    assert parse_extra_body(None) == {}
    for bad, msg in [("{oops", "not valid JSON"), ("[1]", "must be a JSON object"),
                     ('{"model": "x"}', "may not set 'model'")]:
        with pytest.raises(ConfigError, match=msg):
            parse_extra_body(bad)


def test_extra_body_cannot_smuggle_in_a_second_reasoning_budget():
    from jiancha.llm.presets import check_generation

    spec = resolve_backend("openrouter:m", extra_body={"reasoning": {"max_tokens": 512}})
    with pytest.raises(ConfigError, match="both reasoning.effort and reasoning.max_tokens"):
        check_generation(spec, GenerationConfig(reasoning_effort="high"))
    # one of them, from either place, is fine
    assert render_request_body(spec, MSG, GenerationConfig(), seed=None)["reasoning"] == {"max_tokens": 512}
    check_generation(resolve_backend("openrouter:m", extra_body={"reasoning": {"exclude": True}}),
                     GenerationConfig(reasoning_effort="high"))


def test_credentials_in_base_urls_are_redacted_for_manifests():
    from jiancha.llm.config import redact_url

    spec = resolve_backend("vllm:m", ["http://user:hunter2@gpu1:8000/v1", "https://h/v1?token=abc&x=1"])
    public = repr(spec.public())
    assert "hunter2" not in public and "abc" not in public
    assert spec.public()["base_urls"] == ["http://user:***@gpu1:8000/v1", "https://h/v1?token=%2A%2A%2A&x=1"]
    assert redact_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
