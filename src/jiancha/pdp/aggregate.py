"""Self-consistency and oracle views of repeated runs (``jiancha pdp score --aggregate vote|any``).

Each case's repeats (its records over run ids) are reduced to one prediction, which is then scored like a single
run by the ordinary scorer, so every figure (macro-F1, per class, articles, CIs) is computed the same way:

- ``vote`` (self-consistency): the majority decision over the case's *valid* answers; invalid answers and failed
  requests never vote. Tie rule: among the tied decisions, the one given by the lowest run id (runs in numeric
  order). Articles: those cited by more than half of the valid answers. A case without a valid answer stays
  invalid (reason of its lowest run).
- ``any`` (oracle, any-correct-of-k): the gold decision when any valid answer has it, else the vote. Articles: the
  answer with the best article F1 against gold (lowest run id among equals). Its Level-2 accuracy is the share of
  cases that at least one repeat gets right: an upper bound, not a method.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jiancha.errors import ConfigError, DataError
from jiancha.pdp import metrics as M
from jiancha.pdp.parsing import ParsedAnswer
from jiancha.pdp.rundir import ScoreItem

AGGREGATES: tuple[str, ...] = ("vote", "any")
TIE_RULE = "lowest run id among the tied decisions"


def check_aggregate(mode: str) -> str:
    if mode not in AGGREGATES:
        raise ConfigError(f"unknown aggregate {mode!r}; expected one of {', '.join(AGGREGATES)}")
    return mode


def vote(decisions: Sequence[str | None]) -> tuple[str | None, bool]:
    """``(majority decision, tied)`` of decisions in run order; None entries (invalid answers) never vote.

    >>> vote(["起诉", None, "相对不起诉", "相对不起诉"])
    ('相对不起诉', False)
    >>> vote(["存疑不起诉", "起诉"])          # a tie: the lowest run's decision
    ('存疑不起诉', True)
    >>> vote([None, None])
    (None, False)
    """
    counts = Counter(d for d in decisions if d is not None)
    if not counts:
        return None, False
    top = max(counts.values())
    tied = [d for d, c in counts.items() if c == top]   # Counter keeps first-seen order, i.e. run order
    return tied[0], len(tied) > 1


def majority_articles(answers: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """Articles cited by more than half of the answers, in the order first cited.

    >>> majority_articles([("cl:a", "cpl:b"), ("cl:a",), ("cpl:c",)])
    ('cl:a',)
    """
    counts = Counter(a for arts in answers for a in dict.fromkeys(arts))
    return tuple(a for a, c in counts.items() if 2 * c > len(answers))


@dataclass(frozen=True)
class AggregateStats:
    """Facts about an aggregation: cases, repeats per case (min/max), ties broken, cases without a valid answer."""

    mode: str
    n_cases: int
    k_min: int
    k_max: int
    n_ties: int
    n_no_valid: int

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "n_cases": self.n_cases, "k_min": self.k_min, "k_max": self.k_max,
                "n_ties": self.n_ties, "n_no_valid": self.n_no_valid, "tie_rule": TIE_RULE}


def _best_articles(parsed: Sequence[ParsedAnswer], gold: tuple[str, ...]) -> tuple[str, ...]:
    valid = [p for p in parsed if p.valid]
    if not valid:
        return ()
    scores = M.article_scores([p.relevant_articles for p in valid], [gold] * len(valid), both_empty=1.0)[:, 2]
    best = max(range(len(valid)), key=lambda i: (scores[i] if not math.isnan(scores[i]) else -1.0, -i))
    return valid[best].relevant_articles


def aggregate_items(items: Sequence[ScoreItem], mode: str, *, compat: str = "default"
                    ) -> tuple[list[ScoreItem], AggregateStats]:
    """One item per case (run id ``mode``) holding the aggregated prediction in ``stored``; see the module doc.

    Pure: parses with the scorer's ``parse_item`` and never reads files."""
    from jiancha.pdp.scoring import normalise_gold_articles, parse_item

    check_aggregate(mode)
    if not items:
        raise DataError("nothing to aggregate: no prediction records")
    by_case: dict[str, list[ScoreItem]] = {}
    for it in items:
        by_case.setdefault(it.case_id, []).append(it)
    out: list[ScoreItem] = []
    ties = no_valid = 0
    sizes = []
    for cid in sorted(by_case):
        runs = sorted(by_case[cid], key=lambda it: M.natural_key(it.run_id))
        sizes.append(len(runs))
        parsed = [parse_item(it, compat) for it in runs]
        decision, tied = vote([p.decision if p.valid else None for p in parsed])
        ties += tied
        first = runs[0]
        if decision is None:
            no_valid += 1
            stored = ParsedAnswer(None, (), False, parsed[0].reason)
        elif mode == "vote":
            stored = ParsedAnswer(decision, majority_articles([p.relevant_articles for p in parsed if p.valid]),
                                  True, None)
        else:
            gold_arts = (normalise_gold_articles(tuple(first.gold_articles), first.date) if compat == "default"
                         else tuple(first.gold_articles))
            hit = any(p.valid and p.decision == first.gold_decision for p in parsed)
            stored = ParsedAnswer(first.gold_decision if hit else decision, _best_articles(parsed, gold_arts),
                                  True, None)
        out.append(ScoreItem(case_id=cid, run_id=mode, raw_output=None, gold_decision=first.gold_decision,
                             gold_articles=tuple(first.gold_articles), failed=all(it.failed for it in runs),
                             date=first.date, province=first.province, charges=tuple(first.charges),
                             stored=stored))
    return out, AggregateStats(mode, len(by_case), min(sizes), max(sizes), ties, no_valid)


def score_aggregate(items: Sequence[ScoreItem], mode: str, *, compat: str = "default", n_boot: int = 0,
                    seed: int = 0) -> dict[str, Any]:
    """The scorer's pooled block of the aggregated predictions, with ``aggregate`` (``AggregateStats``) added."""
    from jiancha.pdp.scoring import score_items

    agg, stats = aggregate_items(items, mode, compat=compat)
    block = dict(score_items(agg, compat=compat, n_boot=n_boot, seed=seed).result["pooled"])
    block["aggregate"] = stats.to_dict()
    return block


def score_aggregates(items: Sequence[ScoreItem], modes: Sequence[str] = AGGREGATES, *, compat: str = "default",
                     n_boot: int = 0, seed: int = 0) -> dict[str, dict[str, Any]]:
    """``{mode: pooled block}`` for each aggregate mode (for metrics.json's ``aggregates`` and the reports)."""
    return {m: score_aggregate(items, m, compat=compat, n_boot=n_boot, seed=seed) for m in modes}


#: How each aggregate is named in tables.
LABELS = {"vote": "majority vote (self-consistency)", "any": "any correct of k (oracle)"}


def attach_aggregates(result: dict[str, Any], items: Sequence[ScoreItem], modes: Sequence[str], *,
                      compat: str = "default") -> dict[str, Any]:
    """``result`` (a scorer result) with ``aggregates`` = ``score_aggregates`` of ``modes`` added in place."""
    for m in modes:
        check_aggregate(m)
    if modes:
        result["aggregates"] = score_aggregates(items, modes, compat=compat)
    return result


def aggregate_rows(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Rows for ``reports.paper_table``: the runs' mean ± SE, then each aggregate (a single value each)."""
    from jiancha.pdp.metrics import summary_metrics

    k = len(result.get("per_run", {}))
    rows: list[tuple[str, dict[str, Any]]] = [(f"mean ± SE over {k} run(s)", result)]
    for mode, block in result.get("aggregates", {}).items():
        single = {name: {"mean": v, "se": 0.0} for name, v in summary_metrics(block, extended=True).items()}
        stats = block.get("aggregate", {})
        span = stats.get("k_max") if stats.get("k_min") == stats.get("k_max") else \
            f"{stats.get('k_min')}–{stats.get('k_max')}"
        rows.append((f"{LABELS.get(mode, mode)}, k = {span}", {"per_run": {mode: block}, "mean_se": single}))
    return rows


def aggregate_notes(result: dict[str, Any]) -> list[str]:
    """One line per aggregate: ties broken (and how) and cases without any valid answer."""
    out = []
    for mode, block in result.get("aggregates", {}).items():
        s = block.get("aggregate", {})
        ties = f"{s.get('n_ties')} tie(s) broken by {TIE_RULE}; " if mode == "vote" else ""
        out.append(f"{mode}: {s.get('n_cases')} cases; {ties}{s.get('n_no_valid')} case(s) without a valid answer")
    return out
