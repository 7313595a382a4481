"""RL rewards for PDP with TRL's reward-function signature: ``f(prompts, completions, **kwargs) -> list[float]``.

Completions are plain strings or conversational lists of messages (the last message's content is scored). Gold
values come from dataset columns that TRL passes as keyword lists: ``decision`` (label string) and, for the
process reward, ``relevant_articles`` (canonical strings) and optionally ``date`` (``YYYY-MM-DD``, to map
2012-numbered CPL gold articles to 2018 numbering). The functions are plain Python, usable outside TRL.

Two parsing modes:

- ``compat="default"``: the evaluation parser, :func:`jiancha.pdp.parsing.parse_answer` (one parser for scoring
  and rewards): an answer is valid when evaluation would accept its decision.
- ``compat="reference"``: the published reward's rules (:mod:`jiancha.train.reference_format`), which accept
  answers evaluation rejects (a trailing ``；``, ``，`` or ``。。``) and ignore articles.

When TRL passes ``log_metric``, each reward also logs per-class means (``pdp/<reward>/<CODE>``), the valid
fraction (``pdp/valid``) and, for the process reward, each component's mean (``pdp/process/<component>``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from jiancha.errors import ConfigError
from jiancha.law.labels import LEVEL2_LABELS, Decision, level1_of
from jiancha.pdp.parsing import parse_answer
from jiancha.train.reference_format import reference_decision, reference_format_valid

RewardCompat = Literal["default", "reference"]
ArticleMatch = Literal["exact", "article"]
RewardFunc = Callable[..., list[float]]

#: The paper's outcome reward (Table 16).
OUTCOME_CORRECT = 1.0
OUTCOME_WRONG = 0.1
OUTCOME_INVALID = 0.0

def completion_text(completion: Any) -> str:
    """The text to score: a string as is; a list of messages → the last message's ``content``.

    >>> completion_text([{"role": "assistant", "content": "决定：起诉"}])
    '决定：起诉'
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return str(completion.get("content") or "")
    if isinstance(completion, (list, tuple)):
        if not completion:
            return ""
        return completion_text(completion[-1])
    return "" if completion is None else str(completion)


@dataclass(frozen=True)
class Judgement:
    """What a reward reads from one completion."""

    valid: bool
    decision: str | None
    articles: tuple[str, ...] = ()


def judge_completion(text: str, compat: RewardCompat = "default", *, finish_reason: str | None = None) -> Judgement:
    """Validity, decision and cited articles of one answer under ``compat``."""
    if compat == "reference":
        valid = reference_format_valid(text)
        decision = reference_decision(text) if valid else None
        articles = parse_answer(text, compat="reference").relevant_articles
        return Judgement(valid, decision, tuple(articles))
    if compat != "default":
        raise ConfigError(f"unknown reward compat {compat!r}; expected 'default' or 'reference'")
    p = parse_answer(text, compat="default", finish_reason=finish_reason)
    valid = bool(p.valid and p.decision is not None)
    return Judgement(valid, p.decision if valid else None, tuple(p.relevant_articles))


def _gold_label(gold: str | None, compat: RewardCompat) -> str | None:
    if compat == "reference":
        from jiancha.train.reference_format import normalise_reference_label

        return normalise_reference_label(gold)
    return gold if gold in LEVEL2_LABELS else None


def score_outcome(text: str, gold: str | None, compat: RewardCompat = "default") -> float:
    """1.0 valid and correct, 0.1 valid and wrong (also when the gold label is not a label), 0.0 invalid.

    >>> score_outcome("【适用法条】无\\n【审查分析】情节轻微。\\n【最终结论】决定：相对不起诉；", "相对不起诉",
    ...               compat="reference")
    1.0
    """
    j = judge_completion(text, compat)
    if not j.valid:
        return OUTCOME_INVALID
    return OUTCOME_CORRECT if j.decision == _gold_label(gold, compat) else OUTCOME_WRONG


# --------------------------------------------------------------------------------------------------------------
# process reward


@dataclass(frozen=True)
class ProcessWeights:
    """Weights of the process reward's components (each component is in [0, 1])."""

    decision: float = 0.5
    level1: float = 0.2
    articles: float = 0.2
    format: float = 0.1

    def __post_init__(self) -> None:
        for k, v in asdict(self).items():
            if v < 0:
                raise ConfigError(f"process reward weight '{k}' must be >= 0, got {v}")
        if sum(asdict(self).values()) <= 0:
            raise ConfigError("process reward weights are all zero; give at least one a positive weight")


@dataclass(frozen=True)
class ProcessScore:
    decision: float
    level1: float
    articles: float
    format: float
    total: float


def normalise_articles(articles: Iterable[str], *, gold: bool = False, date: str | None = None,
                       match: ArticleMatch = "exact") -> frozenset[str]:
    """Article strings as the evaluation scorer normalises them (:mod:`jiancha.pdp.scoring`): canonical form;
    for ``gold=True`` CPL citations of 2012-numbered documents mapped to 2018 numbers; paragraph and item dropped
    with ``match="article"``.

    >>> sorted(normalise_articles(["cl:《刑法》第二百六十四条", "cl:第264条"]))
    ['cl:第二百六十四条']
    """
    from jiancha.pdp.scoring import article_level, normalise_gold_articles, normalise_pred_articles

    items = tuple(a for a in articles if isinstance(a, str) and a.strip())
    out = normalise_gold_articles(items, date or None) if gold else normalise_pred_articles(items)
    if match == "article":
        out = tuple(article_level(s) for s in out)
    return frozenset(out)


def article_f1(pred: frozenset[str] | set[str], gold: frozenset[str] | set[str]) -> float:
    """Set F1; both empty → 1.0, one empty → 0.0 (the evaluation convention).

    >>> article_f1({"a", "b"}, {"b", "c", "d"})
    0.4
    """
    if not pred and not gold:
        return 1.0
    if not pred or not gold:
        return 0.0
    tp = len(pred & gold)
    if tp == 0:
        return 0.0
    p, r = tp / len(pred), tp / len(gold)
    return 2 * p * r / (p + r)


def score_process(text: str, gold_decision: str | None, gold_articles: Sequence[str] = (), *,
                  weights: ProcessWeights = ProcessWeights(), compat: RewardCompat = "default",
                  gold_date: str | None = None, match: ArticleMatch = "exact") -> ProcessScore:
    """Weighted sum of decision correctness, Level-1 correctness, article F1 and format validity.

    An invalid answer scores 0 on every component (its articles are not credited, even when gold has none).
    """
    j = judge_completion(text, compat)
    if not j.valid:
        return ProcessScore(0.0, 0.0, 0.0, 0.0, 0.0)
    gold = _gold_label(gold_decision, compat)
    dec = 1.0 if j.decision == gold else 0.0
    lvl1 = 1.0 if gold is not None and level1_of(j.decision) == level1_of(gold) else 0.0
    f1 = article_f1(normalise_articles(j.articles, match=match),
                    normalise_articles(gold_articles, gold=True, date=gold_date, match=match))
    total = weights.decision * dec + weights.level1 * lvl1 + weights.articles * f1 + weights.format * 1.0
    return ProcessScore(dec, lvl1, f1, 1.0, total)


def class_balance_weights(labels: Iterable[str]) -> dict[str, float]:
    """``N / (K · n_c)`` for the K classes present: the mean weight over the training rows is 1.

    >>> class_balance_weights(["起诉"] * 3 + ["存疑不起诉"])
    {'起诉': 0.6666666666666666, '存疑不起诉': 2.0}
    """
    counts = Counter(lab for lab in labels if lab in LEVEL2_LABELS)
    n, k = sum(counts.values()), len(counts)
    return {lab: n / (k * counts[lab]) for lab in LEVEL2_LABELS if counts[lab]}


# --------------------------------------------------------------------------------------------------------------
# TRL-signature functions


def _column(kwargs: dict[str, Any], name: str, n: int, default: Any = None, *, required: bool = False) -> list[Any]:
    col = kwargs.get(name)
    if col is None:
        if not required:
            return [default] * n
        raise ConfigError(f"the reward needs the gold column '{name}' (one value per completion); "
                          "keep it in the training dataset (remove_unused_columns=False)")
    col = list(col)
    if len(col) != n:
        raise ConfigError(f"gold column '{name}' has {len(col)} values for {n} completions")
    return col


def _log_per_class(log_metric: Callable[[str, float], None] | None, name: str, values: list[float],
                   golds: list[Any]) -> None:
    if log_metric is None:
        return
    for d in Decision:
        vs = [v for v, g in zip(values, golds, strict=True) if g == d.value]
        if vs:
            log_metric(f"pdp/{name}/{d.code}", sum(vs) / len(vs))


def make_outcome_reward(compat: RewardCompat = "default") -> RewardFunc:
    """The paper's outcome reward as a TRL reward function named ``outcome``."""
    if compat not in ("default", "reference"):
        raise ConfigError(f"unknown reward compat {compat!r}; expected 'default' or 'reference'")

    def outcome(prompts: list[Any] | None = None, completions: list[Any] | None = None,
                **kwargs: Any) -> list[float]:
        completions = list(completions or [])
        golds = _column(kwargs, "decision", len(completions), required=True)
        judged = [judge_completion(completion_text(c), compat) for c in completions]
        out = [OUTCOME_INVALID if not j.valid
               else OUTCOME_CORRECT if j.decision == _gold_label(g, compat) else OUTCOME_WRONG
               for j, g in zip(judged, golds, strict=True)]
        log_metric = kwargs.get("log_metric")
        _log_per_class(log_metric, "outcome", out, golds)
        if log_metric is not None and judged:
            log_metric("pdp/valid", sum(j.valid for j in judged) / len(judged))
        return out

    return outcome


def make_process_reward(weights: ProcessWeights = ProcessWeights(), compat: RewardCompat = "default", *,
                        class_weights: dict[str, float] | None = None, match: ArticleMatch = "exact") -> RewardFunc:
    """The process reward as a TRL reward function named ``process``.

    ``class_weights`` (e.g. :func:`class_balance_weights` of the training labels) multiplies each reward by its gold
    class's weight. Note that per-group standard-deviation scaling (TRL ``scale_rewards="group"``) cancels any
    per-prompt factor; use ``scale_rewards="batch"`` or ``"none"`` with it.
    """

    def process(prompts: list[Any] | None = None, completions: list[Any] | None = None,
                **kwargs: Any) -> list[float]:
        completions = list(completions or [])
        n = len(completions)
        golds = _column(kwargs, "decision", n, required=True)
        gold_articles = _column(kwargs, "relevant_articles", n, default=())
        dates = _column(kwargs, "date", n, default="")
        scores = [score_process(completion_text(c), g, ga or (), weights=weights, compat=compat,
                                gold_date=dt or None, match=match)
                  for c, g, ga, dt in zip(completions, golds, gold_articles, dates, strict=True)]
        out = [s.total * (class_weights.get(g, 1.0) if class_weights else 1.0)
               for s, g in zip(scores, golds, strict=True)]
        log_metric = kwargs.get("log_metric")
        if log_metric is not None and scores:
            for comp in ("decision", "level1", "articles", "format"):
                log_metric(f"pdp/process/{comp}", sum(getattr(s, comp) for s in scores) / n)
            _log_per_class(log_metric, "process", out, golds)
        return out

    return process


#: Ready-made functions with the default settings (evaluation parsing, default weights).
outcome_reward = make_outcome_reward("default")
process_reward = make_process_reward()
outcome_reward.__doc__ = """Outcome reward, evaluation parsing: 1.0 valid+correct, 0.1 valid+wrong, 0.0 invalid.

>>> outcome_reward(None, ["【适用法条】无\\n【审查分析】证据不足。\\n【最终结论】决定：存疑不起诉", "随便写写"],
...                decision=["存疑不起诉", "起诉"])
[1.0, 0.0]
"""
