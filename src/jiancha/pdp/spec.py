"""``RunSpec``: what defines a PDP evaluation run (the fields are the ``jiancha pdp eval`` flags)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jiancha.errors import ConfigError
from jiancha.llm.config import ModelRunSpec
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
    # the 'precedents' prompt (jiancha.pdp.precedent_prompts): pool, split, how many, class balance, example length
    precedents_from: str | None = None
    precedents_split: str | None = None
    precedents_k: int = 4
    precedents_balanced: bool = False
    precedents_max_chars: int | None = 600

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.cv_folds < 2:
            raise ConfigError(f"--cv-folds must be at least 2, got {self.cv_folds}")
        if self.compat not in COMPAT_MODES:
            raise ConfigError(f"unknown scoring mode {self.compat!r}; expected one of {', '.join(COMPAT_MODES)}")
        if self.precedents_from is not None:
            self.precedent_config()            # checks k and the example length up front

    def precedent_config(self):
        """The ``PrecedentConfig`` of the ``--precedents-*`` flags (None without ``--precedents-from``)."""
        if self.precedents_from is None:
            return None
        from jiancha.pdp.precedent_prompts import PrecedentConfig

        return PrecedentConfig(source=self.precedents_from, split=self.precedents_split, k=self.precedents_k,
                               balanced=self.precedents_balanced, max_chars=self.precedents_max_chars)

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["one_shot_classes"] = list(self.one_shot_classes) if self.one_shot_classes is not None else None
        return d
