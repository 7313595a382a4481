"""Which text of a query and of a candidate is indexed: explicit, validated, recorded in every manifest."""

from __future__ import annotations

from jiancha.datasets.lecard import LecardDocument, LecardQuery
from jiancha.errors import ConfigError

#: Query fields: the fact description, the longer query text (LeCaRDv2), or both joined.
QUERY_FIELDS: tuple[str, ...] = ("fact", "query", "both")
#: Candidate fields (shared names); LeCaRD v1 names are accepted as aliases.
DOC_FIELDS: tuple[str, ...] = ("fact", "qw", "fact+reason", "reason", "result", "fact+reason+result")
V1_FIELD_ALIASES: dict[str, str] = {"ajjbqk": "fact", "cpfxgc": "reason", "pjjg": "result"}


def canonical_doc_field(name: str) -> str:
    """``ajjbqk+cpfxgc`` → ``fact+reason``; unknown names raise ConfigError listing the choices."""
    parts = [V1_FIELD_ALIASES.get(p.strip(), p.strip()) for p in name.split("+")]
    canon = "+".join(parts)
    if canon not in DOC_FIELDS:
        raise ConfigError(f"unknown candidate field {name!r}; expected one of {list(DOC_FIELDS)} "
                          f"(LeCaRD v1 aliases: {sorted(V1_FIELD_ALIASES)})")
    return canon


def check_query_field(name: str) -> str:
    if name not in QUERY_FIELDS:
        raise ConfigError(f"unknown query field {name!r}; expected one of {list(QUERY_FIELDS)}")
    return name


def doc_text(doc: LecardDocument, field: str) -> str:
    """The candidate text for a canonical field; ``qw`` falls back to the joined fields when empty."""
    if field == "qw":
        return doc.qw or "\n".join(t for t in (doc.fact, doc.reason, doc.result) if t)
    return "\n".join(getattr(doc, p) for p in field.split("+") if getattr(doc, p))


def query_text(query: LecardQuery, field: str) -> str:
    if field == "fact":
        return query.fact or query.query
    if field == "query":
        return query.query or query.fact
    return query.fact if query.query == query.fact else f"{query.query}\n{query.fact}"
