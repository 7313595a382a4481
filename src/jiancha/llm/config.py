"""Settings of a model backend: what changes the answer (GenerationConfig, BackendSpec) and what does not
(ClientConfig: timeouts, concurrency, retries, rate limit)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from jiancha.errors import ConfigError

#: Reasoning effort levels accepted by ``--reasoning-effort`` (OpenRouter's and OpenAI's vocabulary).
REASONING_EFFORTS: tuple[str, ...] = ("none", "minimal", "low", "medium", "high", "xhigh")


@dataclass(frozen=True)
class GenerationConfig:
    """Decoding and reasoning settings. Every field changes the answer, so all of them enter run identity."""

    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    reasoning_effort: str | None = None
    reasoning_max_tokens: int | None = None

    def __post_init__(self) -> None:
        if self.reasoning_effort is not None and self.reasoning_effort not in REASONING_EFFORTS:
            raise ConfigError(f"unknown reasoning effort {self.reasoning_effort!r}; expected one of "
                              f"{', '.join(REASONING_EFFORTS)}")
        if self.reasoning_effort is not None and self.reasoning_max_tokens is not None:
            raise ConfigError("--reasoning-effort and --reasoning-max-tokens were both given; a reasoning budget "
                              "is either an effort level or a token count, never both: drop one of them")
        for name in ("max_tokens", "reasoning_max_tokens", "top_k"):
            v = getattr(self, name)
            if v is not None and v <= 0:
                raise ConfigError(f"{name} must be a positive integer, got {v}")
        if self.temperature is not None and not 0 <= self.temperature <= 2:
            raise ConfigError(f"temperature must be in [0, 2], got {self.temperature}")
        if self.top_p is not None and not 0 < self.top_p <= 1:
            raise ConfigError(f"top_p must be in (0, 1], got {self.top_p}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: Query parameters whose values are credentials (``?key=…``, ``?api_key=…``, ``?token=…``, ``?sig=…``).
_SECRET_PARAM = re.compile(r"key|token|secret|sig|password|auth", re.IGNORECASE)


def redact_url(url: str) -> str:
    """``url`` with credentials replaced by ``***`` (a password in ``user:pass@``, secret-looking query values),
    for manifests and error messages.

    >>> redact_url("https://me:pw@h.example/v1?api-version=2&key=abc")
    'https://me:***@h.example/v1?api-version=2&key=%2A%2A%2A'
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, sep, _ = userinfo.partition(":")
        netloc = f"{user}{':***' if sep else ''}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if _SECRET_PARAM.search(k) else v) for k, v in pairs])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


#: The preset of a plain model name given with --base-url.
GENERIC_PRESET = "generic"


@dataclass(frozen=True)
class BackendSpec:
    """Which model, through which preset. Under a named preset (openrouter, vllm, openai) ``base_urls`` are
    replicas of one deployment: recorded, but not part of run identity (the preset and the model are), so a run
    can later be spread over more replicas. Under the generic preset the URL is what names the provider (the
    same model name can be served by several), so the endpoints enter identity."""

    preset: str
    model: str
    base_urls: tuple[str, ...]
    api_key_env: str | None = None
    extra_body: dict[str, Any] = field(default_factory=dict, hash=False)

    def identity(self) -> dict[str, Any]:
        ident: dict[str, Any] = {"preset": self.preset, "model": self.model, "extra_body": self.extra_body}
        if self.preset == GENERIC_PRESET:
            ident["endpoints"] = sorted({redact_url(u) for u in self.base_urls})
        return ident

    def public(self) -> dict[str, Any]:
        """What a manifest records about the backend: no secret (URLs redacted, the key's variable name only)."""
        return {"preset": self.preset, "model": self.model, "base_urls": [redact_url(u) for u in self.base_urls],
                "api_key_env": self.api_key_env}


@dataclass(frozen=True)
class ClientConfig:
    """How requests are sent. Nothing here changes an answer, so none of it enters run identity."""

    concurrency: int = 8
    rate_limit_rpm: float | None = None
    timeout_s: float = 600.0
    max_attempts: int = 6
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    retry_after_max_s: float = 600.0

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {self.concurrency}")
        if self.rate_limit_rpm is not None and self.rate_limit_rpm <= 0:
            raise ConfigError(f"rate limit must be a positive number of requests per minute, got "
                              f"{self.rate_limit_rpm}")
        if self.timeout_s <= 0:
            raise ConfigError(f"timeout must be positive, got {self.timeout_s}")
        if self.max_attempts < 1:
            raise ConfigError(f"max attempts must be at least 1, got {self.max_attempts}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, kw_only=True)
class ModelRunSpec:
    """What every run of a model over a data set is given (the shared flags of ``pdp eval`` and ``ljp eval``).

    ``generation``, ``extra_body`` and ``seed`` change answers (they enter run identity); ``repeats``, ``limit``
    and ``retry_failed`` only choose which requests to send. Task specs extend it with their own fields."""

    model: str
    data: str
    out: str
    generation: GenerationConfig = field(default_factory=GenerationConfig)
    base_urls: tuple[str, ...] = ()
    api_key_env: str | None = None
    extra_body: dict[str, Any] = field(default_factory=dict, hash=False)
    repeats: int = 1
    limit: int | None = None
    seed: int | None = None
    retry_failed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The spec for a manifest: plain JSON values, base URLs without secrets."""
        d = asdict(self)
        d["base_urls"] = [redact_url(u) for u in self.base_urls]
        return d

    def __post_init__(self) -> None:
        if self.repeats < 1:
            raise ConfigError(f"--repeats must be at least 1, got {self.repeats}")
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"--limit must be at least 1, got {self.limit}")
