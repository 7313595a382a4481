"""Offline charge predictors for ``jiancha ljp eval``: ``baseline:charge-match`` finds candidate charge names in
the facts (bracketed CAIL forms such as ``[走私、贩卖、运输、制造]毒品`` expand to each alternative)."""

from __future__ import annotations

import re

from jiancha.errors import ConfigError

PREFIX = "baseline:"
_BRACKET = re.compile(r"^(?P<pre>.*?)\[(?P<alts>[^\]]+)\](?P<post>.*)$")


def charge_terms(charge: str) -> tuple[str, ...]:
    """Surface forms of a candidate: ``[走私、贩卖]毒品`` → ``走私毒品``, ``贩卖毒品``, ``走私、贩卖毒品``."""
    m = _BRACKET.match(charge)
    if not m:
        return (charge,)
    alts = m.group("alts").split("、")
    return (*(m.group("pre") + a + m.group("post") for a in alts), m.group("pre") + "、".join(alts) + m.group("post"))


def predict_charge_match(fact: str, candidates: tuple[str, ...]) -> list[str]:
    """Candidates one of whose terms occurs in ``fact``; a match inside a longer matched term is dropped."""
    hits: list[tuple[str, str]] = []
    for c in candidates:
        for term in charge_terms(c):
            if term and term in fact:
                hits.append((c, term))
                break
    terms = [t for _, t in hits]
    return [c for c, t in hits if not any(t != u and t in u for u in terms)]


BASELINES = {"charge-match": predict_charge_match}


def get_ljp_baseline(model: str):
    name = model[len(PREFIX):]
    if name not in BASELINES:
        raise ConfigError(f"unknown LJP baseline {model!r}; expected one of "
                          f"{', '.join(PREFIX + n for n in BASELINES)}")
    return BASELINES[name]
