"""Typed records that cross module boundaries."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: PDP-Bench fields that are model inputs, in prompt order.
PDP_INPUT_FIELDS: tuple[str, ...] = ("person_info", "procedure", "fact")


@dataclass(frozen=True)
class PDPRecord:
    """One PDP-Bench case. ``relevant_articles`` are canonical strings (``cl:第二百六十四条``)."""

    id: str
    person_info: str
    procedure: str
    fact: str
    decision: str
    relevant_articles: tuple[str, ...] = ()
    date: str | None = None          # meta.date, YYYY-MM-DD
    province: str | None = None      # meta.province
    raw_reasoning_and_decision: str = ""
    source_url: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """PDP-Bench layout (``meta`` nested), the inverse of ``PDPRecord.from_dict``."""
        d = asdict(self)
        out = {
            "id": d["id"],
            "meta": {"date": d["date"], "province": d["province"]},
            "person_info": d["person_info"],
            "procedure": d["procedure"],
            "fact": d["fact"],
            "relevant_articles": list(d["relevant_articles"]),
            "decision": d["decision"],
            "raw_reasoning_and_decision": d["raw_reasoning_and_decision"],
            "source_url": d["source_url"],
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PDPRecord:
        """Build from the PDP-Bench layout without validation (see ``jiancha.datasets.pdp`` for that)."""
        meta = d.get("meta") or {}
        known = {"id", "meta", "person_info", "procedure", "fact", "relevant_articles", "decision",
                 "raw_reasoning_and_decision", "source_url"}
        return cls(
            id=str(d.get("id", "")),
            person_info=d.get("person_info") or "",
            procedure=d.get("procedure") or "",
            fact=d.get("fact") or "",
            decision=d.get("decision") or "",
            relevant_articles=tuple(d.get("relevant_articles") or ()),
            date=meta.get("date"),
            province=meta.get("province"),
            raw_reasoning_and_decision=d.get("raw_reasoning_and_decision") or "",
            source_url=d.get("source_url") or "",
            extra={k: v for k, v in d.items() if k not in known},
        )


@dataclass(frozen=True)
class RawRow:
    """One record as read from a source, before validation, with where it came from."""

    data: Any
    path: str
    line: int | None = None  # JSON-lines line number (1-based)
    row: int | None = None   # position in a JSON list, Parquet file or Arrow dataset (1-based)
