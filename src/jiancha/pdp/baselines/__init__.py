"""Offline PDP baselines with the runner's interface: ``baseline:majority``, ``baseline:rules``,
``baseline:tfidf-lr``. Each returns one prediction per case; the runner renders it in the three-section answer
format so that the same parser scores baselines and models."""

from __future__ import annotations

from collections.abc import Callable

from jiancha.errors import ConfigError
from jiancha.pdp.baselines.base import BaselineOutput, BaselinePrediction
from jiancha.pdp.baselines.majority import predict_majority
from jiancha.pdp.baselines.rules import predict_rules
from jiancha.pdp.baselines.tfidf import predict_tfidf_lr

PREFIX = "baseline:"

BASELINES: dict[str, Callable[..., BaselineOutput]] = {
    "majority": predict_majority,
    "rules": predict_rules,
    "tfidf-lr": predict_tfidf_lr,
}

#: Baselines that learn from data (take --train-data; otherwise see their docs).
TRAINABLE = ("majority", "tfidf-lr")


def is_baseline(model: str) -> bool:
    return model.startswith(PREFIX)


def get_baseline(model: str) -> Callable[..., BaselineOutput]:
    name = model[len(PREFIX):] if is_baseline(model) else model
    if name not in BASELINES:
        raise ConfigError(f"unknown baseline {model!r}; expected one of "
                          f"{', '.join(PREFIX + n for n in BASELINES)}")
    return BASELINES[name]


__all__ = ["BASELINES", "PREFIX", "TRAINABLE", "BaselineOutput", "BaselinePrediction", "get_baseline",
           "is_baseline"]
