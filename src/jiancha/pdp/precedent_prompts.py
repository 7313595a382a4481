"""Precedent-augmented prompts: for each case, the k most similar decided cases of a training pool, shown as
worked examples (``--prompt precedents --precedents-from POOL``).

Retrieval is ``jiancha.retrieval.precedents.PrecedentIndex`` (charge-aware BM25: pool cases that share a charge
with the case rank first, then BM25 over the facts, ties broken by id). Selection:

- plain: the top ``k`` of that ranking;
- class-balanced (``balanced=True``): the best-ranked pool case of every decision the pool holds, then the best
  of the rest up to ``k``; shown in ranking order. ``k`` must be at least the number of decisions in the pool.

Examples are shown most similar first; each example's facts and reasoning are cut at ``max_chars`` characters.
The pool must be disjoint from the evaluation set, by case id and by normalised-fact hash
(``jiancha.datasets.leakage``): an overlap is refused, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jiancha.datasets.leakage import check_leakage
from jiancha.datasets.records import PDPRecord
from jiancha.errors import ConfigError
from jiancha.law.labels import LEVEL2_LABELS

DEFAULT_K = 4
DEFAULT_MAX_CHARS = 600
#: Leaked ids named in the refusal message (the rest are counted).
_SHOWN_LEAKS = 5


@dataclass(frozen=True)
class PrecedentConfig:
    """What defines the precedents a run shows (the ``--precedents-*`` flags)."""

    source: str
    split: str | None = None      # None: 'train' when the source has it, else its only split
    k: int = DEFAULT_K
    balanced: bool = False
    max_chars: int | None = DEFAULT_MAX_CHARS

    def __post_init__(self) -> None:
        if self.k < 1:
            raise ConfigError(f"--precedents-k must be at least 1, got {self.k}")
        if self.max_chars is not None and self.max_chars < 1:
            raise ConfigError(f"--precedents-max-chars must be at least 1, got {self.max_chars}")

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "split": self.split, "k": self.k, "balanced": self.balanced,
                "max_chars": self.max_chars}


@dataclass(frozen=True)
class ShownPrecedent:
    """One precedent shown to one case: its id, decision, retrieval score and the charges it shares."""

    id: str
    decision: str
    score: float
    shared_charges: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "decision": self.decision, "score": self.score,
                "shared_charges": list(self.shared_charges)}


def check_pool_leakage(pool: Sequence[PDPRecord], evaluation: Sequence[PDPRecord], *, source: str = "") -> None:
    """Refuse a pool that shares a case id or a normalised fact with the evaluation set (ConfigError)."""
    report = check_leakage(pool, evaluation)
    if report.clean:
        return
    leaked = report.leaked_ids
    named = ", ".join(leaked[:_SHOWN_LEAKS]) + (f" and {len(leaked) - _SHOWN_LEAKS} more"
                                                if len(leaked) > _SHOWN_LEAKS else "")
    raise ConfigError(f"precedent pool {source or '(given)'} overlaps the evaluation set: {len(report.id_overlap)} "
                      f"case id(s) and {len(report.fact_overlap)} fact(s) in common ({named}); precedents must never "
                      "come from the evaluated cases: pass a pool without them (e.g. the training split)")


def unique_pool(pool: Sequence[PDPRecord]) -> list[PDPRecord]:
    """The pool with one record per case id (the first), since precedents are named by id."""
    seen: set[str] = set()
    out = []
    for r in pool:
        if r.id not in seen:
            seen.add(r.id)
            out.append(r)
    return out


def pool_decisions(pool: Sequence[PDPRecord]) -> tuple[str, ...]:
    """The decisions a pool holds, in table order."""
    present = {r.decision for r in pool}
    return tuple(lab for lab in LEVEL2_LABELS if lab in present)


def select_balanced(ranked: Sequence[ShownPrecedent], k: int) -> list[ShownPrecedent]:
    """Class-balanced top ``k`` of a ranking: the best of each decision in it, then the best of the rest;
    returned in ranking order.

    >>> r = [ShownPrecedent(i, d, 0.0, ()) for i, d in [("a", "起诉"), ("b", "起诉"), ("c", "存疑不起诉")]]
    >>> [p.id for p in select_balanced(r, 2)]
    ['a', 'c']
    """
    chosen: set[int] = set()
    seen: set[str] = set()
    for i, p in enumerate(ranked):
        if p.decision not in seen:
            seen.add(p.decision)
            chosen.add(i)
    for i in range(len(ranked)):
        if len(chosen) >= k:
            break
        chosen.add(i)
    return [ranked[i] for i in sorted(chosen)]


class PrecedentSelector:
    """Retrieves and selects the precedents of each case from one pool (leakage-checked at construction)."""

    def __init__(self, pool: Sequence[PDPRecord], config: PrecedentConfig, *,
                 evaluation: Sequence[PDPRecord] = ()) -> None:
        from jiancha.retrieval.precedents import PrecedentIndex

        if not pool:
            raise ConfigError(f"precedent pool {config.source} (split {config.split!r}) holds no records")
        check_pool_leakage(pool, evaluation, source=config.source)
        self.config = config
        self.pool = unique_pool(pool)
        self.by_id = {r.id: r for r in self.pool}
        self.decisions = pool_decisions(self.pool)
        if config.balanced and config.k < len(self.decisions):
            raise ConfigError(f"--precedents-k {config.k} is smaller than the {len(self.decisions)} decisions in the "
                              f"pool ({', '.join(self.decisions)}); class-balanced selection shows at least one of "
                              f"each: pass --precedents-k {len(self.decisions)} or more, or drop --precedents-balanced")
        self.index = PrecedentIndex(self.pool)
        self._shown: dict[tuple[str, str, str], tuple[ShownPrecedent, ...]] = {}

    def shown(self, case: PDPRecord) -> tuple[ShownPrecedent, ...]:
        """The precedents shown to ``case``, most similar first (computed once per case: the messages, their hash
        and the manifest's table all ask)."""
        key = (case.id, case.fact, case.procedure)
        if key not in self._shown:
            self._shown[key] = self._select(case)
        return self._shown[key]

    def _select(self, case: PDPRecord) -> tuple[ShownPrecedent, ...]:
        k = len(self.pool) if self.config.balanced else self.config.k
        ranked = [ShownPrecedent(p.id, p.decision, p.score, p.shared_charges)
                  for p in self.index.search(case, k, exclude_id=case.id)]
        if self.config.balanced:
            ranked = select_balanced(ranked, self.config.k)
        return tuple(ranked)

    def records(self, case: PDPRecord) -> list[PDPRecord]:
        """The pool records shown to ``case``, in the order shown."""
        return [self.by_id[p.id] for p in self.shown(case)]

    def messages(self, case: PDPRecord) -> list[dict[str, str]]:
        """The chat messages of ``case`` with its precedents as worked examples."""
        from jiancha.pdp.prompts import build_messages

        return build_messages(case, "precedents", precedents=self.records(case),
                              precedent_chars=self.config.max_chars)

    def spec(self) -> dict[str, Any]:
        """What identifies the precedent setting (for run identity): the flags and the pool's fingerprint."""
        from jiancha.datasets.pdp import compute_fingerprint

        return {**self.config.to_dict(), "pool_fingerprint": compute_fingerprint(self.pool),
                "pool_size": len(self.pool), "retrieval": "charge-aware bm25"}


def resolve_split(source: str, split: str | None) -> str:
    """``split``, or when None: ``train`` if the source holds it, else the source's only split."""
    if split is not None:
        return split
    from jiancha.datasets.pdp import list_pdp_splits

    splits = [s for s in list_pdp_splits(source) if s != "test_rq2"]
    if "train" in splits or len(splits) != 1:
        return "train"
    return splits[0]


def load_selector(config: PrecedentConfig, evaluation: Sequence[PDPRecord]) -> PrecedentSelector:
    """Load the pool named by ``config`` and build its selector, checked against ``evaluation``."""
    from dataclasses import replace

    from jiancha.datasets.pdp import load_pdp

    config = replace(config, split=resolve_split(config.source, config.split))
    return PrecedentSelector(load_pdp(config.source, config.split), config, evaluation=evaluation)


def selector_for(prompt: str, config: PrecedentConfig | None, evaluation: Sequence[PDPRecord]
                 ) -> PrecedentSelector | None:
    """The selector a run needs: one for the ``precedents`` prompt (which needs a pool), None otherwise (where a
    pool is refused: it would be silently unused)."""
    from jiancha.pdp.prompts import normalise_variant

    wanted = normalise_variant(prompt) == "precedents"
    if wanted and config is None:
        raise ConfigError("prompt 'precedents' needs a pool of decided cases: pass --precedents-from POOL (never the "
                          "evaluated split)")
    if config is not None and not wanted:
        raise ConfigError(f"--precedents-from is only used by --prompt precedents, not {prompt!r}; drop it or pass "
                          "--prompt precedents")
    return load_selector(config, evaluation) if config is not None else None
