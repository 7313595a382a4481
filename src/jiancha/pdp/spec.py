"""``RunSpec``: what defines a PDP evaluation run (the fields are the ``jiancha pdp eval`` flags)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from jiancha.errors import ConfigError
from jiancha.llm.config import GenerationConfig

COMPAT_MODES = ("default", "reference")


@dataclass(frozen=True)
class RunSpec:
    """One evaluation: a model over a PDP split, ``repeats`` times. Transport settings (timeouts, concurrency,
    retries, rate limit) are not here: they live in ``jiancha.llm.ClientConfig`` and never change an answer."""

    model: str
    data: str
    out: str
    split: str = "test"
    prompt: str = "baseline"
    template: str | None = None
    one_shot_classes: tuple[str, ...] | None = None
    generation: GenerationConfig = field(default_factory=GenerationConfig)
    base_urls: tuple[str, ...] = ()
    api_key_env: str | None = None
    extra_body: dict[str, Any] = field(default_factory=dict, hash=False)
    repeats: int = 1
    limit: int | None = None
    seed: int | None = None
    retry_failed: bool = False
    train_data: str | None = None
    train_split: str = "test"
    cv_folds: int = 5
    compat: str = "default"

    def __post_init__(self) -> None:
        if self.repeats < 1:
            raise ConfigError(f"--repeats must be at least 1, got {self.repeats}")
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"--limit must be at least 1, got {self.limit}")
        if self.cv_folds < 2:
            raise ConfigError(f"--cv-folds must be at least 2, got {self.cv_folds}")
        if self.compat not in COMPAT_MODES:
            raise ConfigError(f"unknown scoring mode {self.compat!r}; expected one of {', '.join(COMPAT_MODES)}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["one_shot_classes"] = list(self.one_shot_classes) if self.one_shot_classes is not None else None
        d["base_urls"] = list(self.base_urls)
        return d
