"""``RunSpec``: what defines a PDP evaluation run (the fields are the ``jiancha pdp eval`` flags)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from jiancha.errors import ConfigError
from jiancha.llm.config import ModelRunSpec, redact_url
from jiancha.pdp.parsing import COMPAT_MODES


@dataclass(frozen=True, kw_only=True)
class RunSpec(ModelRunSpec):
    """One evaluation: a model over a PDP split, ``repeats`` times. Transport settings (timeouts, concurrency,
    retries, rate limit) are not here: they live in ``jiancha.llm.ClientConfig`` and never change an answer."""

    split: str = "test"
    prompt: str = "baseline"
    template: str | None = None
    one_shot_classes: tuple[str, ...] | None = None
    train_data: str | None = None
    train_split: str = "test"
    cv_folds: int = 5
    compat: str = "default"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.cv_folds < 2:
            raise ConfigError(f"--cv-folds must be at least 2, got {self.cv_folds}")
        if self.compat not in COMPAT_MODES:
            raise ConfigError(f"unknown scoring mode {self.compat!r}; expected one of {', '.join(COMPAT_MODES)}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["one_shot_classes"] = list(self.one_shot_classes) if self.one_shot_classes is not None else None
        d["base_urls"] = [redact_url(u) for u in self.base_urls]
        return d
