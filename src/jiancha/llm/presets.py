"""Backend presets: how a model name maps to an endpoint, and how generation settings become request fields.

- ``openrouter:<model>``: OpenRouter. ``reasoning: {effort}`` or ``reasoning: {max_tokens}`` (never both),
  ``usage: {include: true}`` so the response reports its cost, and ``provider.require_parameters`` so that
  requests are only routed to providers that honour the parameters sent (reasoning, seed, top_k).
- ``vllm:<model>``: a local ``vllm serve``. Thinking on/off through ``chat_template_kwargs.enable_thinking``;
  ``top_k`` as an extra body field; a reasoning effort is passed as ``reasoning_effort`` (gpt-oss templates).
- ``openai:<model>``: the OpenAI API. ``reasoning_effort``; ``max_completion_tokens`` instead of ``max_tokens``.
- a plain name with ``--base-url``: any OpenAI-compatible endpoint, fields sent as given.

``--extra-body JSON`` adds provider-specific fields (merged into nested objects, e.g. OpenRouter's
``{"provider": {"order": [...], "allow_fallbacks": false}}``); they change answers, so they enter run identity.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jiancha.errors import ConfigError
from jiancha.llm.config import GENERIC_PRESET, BackendSpec, GenerationConfig


@dataclass(frozen=True)
class Preset:
    name: str
    default_base_url: str | None
    default_api_key_env: str | None
    render: Callable[[GenerationConfig, int | None], dict[str, Any]]
    api_key_required: bool = True


def _common(gen: GenerationConfig, seed: int | None, *, max_tokens_field: str = "max_tokens") -> dict[str, Any]:
    body: dict[str, Any] = {}
    if gen.max_tokens is not None:
        body[max_tokens_field] = gen.max_tokens
    if gen.temperature is not None:
        body["temperature"] = gen.temperature
    if gen.top_p is not None:
        body["top_p"] = gen.top_p
    if gen.top_k is not None:   # presets without top_k (openai) refuse it before rendering
        body["top_k"] = gen.top_k
    if seed is not None:
        body["seed"] = seed
    return body


def _render_openrouter(gen: GenerationConfig, seed: int | None) -> dict[str, Any]:
    body = _common(gen, seed)
    if gen.reasoning_effort is not None:
        body["reasoning"] = {"effort": gen.reasoning_effort}
    elif gen.reasoning_max_tokens is not None:
        body["reasoning"] = {"max_tokens": gen.reasoning_max_tokens}
    body["usage"] = {"include": True}
    if gen.reasoning_effort is not None or gen.reasoning_max_tokens is not None or gen.top_k is not None \
            or seed is not None:
        body["provider"] = {"require_parameters": True}
    return body


def _render_vllm(gen: GenerationConfig, seed: int | None) -> dict[str, Any]:
    if gen.reasoning_max_tokens is not None:
        raise ConfigError("the vllm preset has no reasoning token budget (vLLM's chat API does not take one); "
                          "use --reasoning-effort none to turn thinking off, or bound the whole answer with "
                          "--max-tokens")
    body = _common(gen, seed)
    if gen.reasoning_effort is not None:
        body["chat_template_kwargs"] = {"enable_thinking": gen.reasoning_effort != "none"}
        if gen.reasoning_effort != "none":
            body["reasoning_effort"] = gen.reasoning_effort
    return body


def _render_openai(gen: GenerationConfig, seed: int | None) -> dict[str, Any]:
    if gen.reasoning_max_tokens is not None:
        raise ConfigError("the openai preset takes a reasoning effort, not a token budget; use "
                          "--reasoning-effort instead of --reasoning-max-tokens")
    if gen.top_k is not None:
        raise ConfigError("the OpenAI API has no top_k; drop --top-k")
    body = _common(gen, seed, max_tokens_field="max_completion_tokens")
    if gen.reasoning_effort is not None:
        body["reasoning_effort"] = gen.reasoning_effort
    return body


def _render_generic(gen: GenerationConfig, seed: int | None) -> dict[str, Any]:
    body = _common(gen, seed)
    if gen.reasoning_effort is not None:
        body["reasoning_effort"] = gen.reasoning_effort
    elif gen.reasoning_max_tokens is not None:
        body["reasoning"] = {"max_tokens": gen.reasoning_max_tokens}
    return body


PRESETS: dict[str, Preset] = {
    "openrouter": Preset("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", _render_openrouter),
    "vllm": Preset("vllm", "http://127.0.0.1:8000/v1", "VLLM_API_KEY", _render_vllm, api_key_required=False),
    "openai": Preset("openai", "https://api.openai.com/v1", "OPENAI_API_KEY", _render_openai),
    # No default key for an arbitrary URL: a provider's key must never be sent to an endpoint the user did not name
    # it for; pass --api-key-env to send one.
    GENERIC_PRESET: Preset(GENERIC_PRESET, None, None, _render_generic, api_key_required=False),
}


def resolve_backend(name: str, base_urls: tuple[str, ...] | list[str] = (), api_key_env: str | None = None,
                    extra_body: dict[str, Any] | None = None) -> BackendSpec:
    """``openrouter:m`` / ``vllm:m`` / ``openai:m`` / plain ``m`` (needs a base URL) → BackendSpec."""
    base_urls = tuple(u.rstrip("/") for u in base_urls)
    prefix, sep, rest = name.partition(":")
    if sep and prefix in PRESETS and prefix != GENERIC_PRESET:
        preset, model = PRESETS[prefix], rest
    elif sep and re.fullmatch(r"[a-z][a-z0-9_-]*", prefix) and not base_urls:
        known = ", ".join(f"{p}:" for p in PRESETS if p != GENERIC_PRESET)
        raise ConfigError(f"unknown backend preset {prefix!r} in --model {name!r}; expected one of {known}, "
                          "baseline:NAME, or a plain model name with --base-url")
    else:
        preset, model = PRESETS[GENERIC_PRESET], name
        if not base_urls:
            raise ConfigError(f"model {name!r} has no preset prefix and no --base-url was given; write "
                              f"'<preset>:<model>' with preset one of "
                              f"{', '.join(p for p in PRESETS if p != 'generic')}, or pass --base-url URL of an "
                              "OpenAI-compatible endpoint")
    if not model:
        raise ConfigError(f"model name {name!r} is empty after the preset prefix; write e.g. '{prefix}:<model>'")
    if not base_urls:
        base_urls = (preset.default_base_url,)  # type: ignore[assignment]
    for u in base_urls:
        if not u.startswith(("http://", "https://")):
            raise ConfigError(f"base URL {u!r} is not an http(s) URL; expected e.g. http://127.0.0.1:8000/v1")
    return BackendSpec(preset=preset.name, model=model, base_urls=tuple(base_urls),
                       api_key_env=api_key_env or preset.default_api_key_env, extra_body=dict(extra_body or {}))


def render_request_body(spec: BackendSpec, messages: list[dict[str, str]], gen: GenerationConfig,
                        seed: int | None) -> dict[str, Any]:
    """The JSON body of one chat-completions request."""
    body: dict[str, Any] = {"model": spec.model, "messages": messages}
    body.update(PRESETS[spec.preset].render(gen, seed))
    body = merge_body(body, spec.extra_body)
    _check_reasoning(body)
    return body


def _check_reasoning(body: dict[str, Any]) -> None:
    """A reasoning budget is an effort level or a token count, never both (OpenRouter rejects the pair); the
    pair can arise when ``--extra-body`` adds one to a request that sets the other."""
    reasoning = body.get("reasoning")
    if isinstance(reasoning, dict) and "effort" in reasoning and "max_tokens" in reasoning:
        raise ConfigError(f"the request would carry both reasoning.effort and reasoning.max_tokens ({reasoning}); "
                          "set only one: --reasoning-effort, --reasoning-max-tokens, or 'reasoning' in "
                          "--extra-body")


def merge_body(body: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` merged into ``body``; nested objects are merged key by key, everything else replaced.

    >>> merge_body({"provider": {"require_parameters": True}}, {"provider": {"order": ["a"]}})
    {'provider': {'require_parameters': True, 'order': ['a']}}
    """
    out = dict(body)
    for k, v in extra.items():
        out[k] = merge_body(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def parse_extra_body(text: str | None) -> dict[str, Any]:
    """``--extra-body`` JSON object (e.g. OpenRouter provider routing) → dict; ConfigError otherwise."""
    import json

    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--extra-body is not valid JSON ({exc.msg} at column {exc.colno}): {text!r}; "
                          'expected an object such as \'{"provider": {"order": ["deepinfra"]}}\'') from None
    if not isinstance(value, dict):
        raise ConfigError(f"--extra-body must be a JSON object, got {type(value).__name__}")
    if {"model", "messages"} & set(value):
        raise ConfigError("--extra-body may not set 'model' or 'messages'; use --model and --prompt")
    return value


def check_generation(spec: BackendSpec, gen: GenerationConfig) -> None:
    """Raise ConfigError up front if the preset (with ``--extra-body``) cannot express these settings."""
    render_request_body(spec, [], gen, None)
