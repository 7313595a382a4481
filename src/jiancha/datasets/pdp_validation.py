"""Validation of PDP records as read from a source: every problem named with its file, line or row, field, the
value found and what was expected."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable
from typing import Any

from jiancha.datasets.issues import DataIssue
from jiancha.datasets.records import PDPRecord, RawRow
from jiancha.errors import ParseError
from jiancha.law.labels import LEVEL2_LABELS

#: Text fields every record must carry as strings (``meta``, ``relevant_articles`` and ``decision`` apart).
REQUIRED_TEXT_FIELDS = ("id", "person_info", "procedure", "fact")
OPTIONAL_TEXT_FIELDS = ("raw_reasoning_and_decision", "source_url")
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _issue(row: RawRow, message: str, field: str | None = None, value: Any = None,
           expected: str | None = None) -> DataIssue:
    return DataIssue(row.path, message, line=row.line, row=row.row, field=field, value=value, expected=expected)


def check_article(s: Any) -> str | None:
    """Why ``s`` is not a canonical article string (None when it is), with the canonical form when the string
    is a recognisable citation (``cl:第264条`` → ``cl:第二百六十四条``)."""
    from jiancha.law.articles import normalize_article_string, parse_canonical

    if not isinstance(s, str):
        return f"not a string ({type(s).__name__})"
    try:
        parse_canonical(s)
    except ParseError:
        fixed = normalize_article_string(s)
        return f"not in canonical form (canonical: {fixed!r})" if fixed else "not a canonical article string"
    return None


def validate_pdp_row(row: RawRow) -> list[DataIssue]:
    """Every problem of one record: fields and types, label, date, article strings."""
    d = row.data
    if not isinstance(d, dict):
        return [_issue(row, f"expected a record object, got {type(d).__name__}")]
    issues: list[DataIssue] = []
    for name in REQUIRED_TEXT_FIELDS:
        if name not in d:
            issues.append(_issue(row, "missing field", name, expected="a string"))
        elif not isinstance(d[name], str):
            issues.append(_issue(row, f"wrong type {type(d[name]).__name__}", name, d[name], "a string"))
    if isinstance(d.get("id"), str) and not d["id"].strip():
        issues.append(_issue(row, "empty id", "id", d["id"], "a non-empty case number"))
    for name in OPTIONAL_TEXT_FIELDS:
        if d.get(name) is not None and not isinstance(d[name], str):
            issues.append(_issue(row, f"wrong type {type(d[name]).__name__}", name, d[name], "a string"))

    labels = ", ".join(LEVEL2_LABELS)
    if "decision" not in d:
        issues.append(_issue(row, "missing field", "decision", expected=f"one of {labels}"))
    elif d["decision"] not in LEVEL2_LABELS:
        issues.append(_issue(row, "unknown decision label", "decision", d["decision"], f"exactly one of {labels}"))

    meta = d.get("meta")
    if "meta" not in d:
        issues.append(_issue(row, "missing field", "meta", expected="an object {date, province}"))
    elif not isinstance(meta, dict):
        issues.append(_issue(row, f"wrong type {type(meta).__name__}", "meta", meta, "an object {date, province}"))
    else:
        date = meta.get("date")
        if "date" not in meta:
            issues.append(_issue(row, "missing field", "meta.date", expected="a date YYYY-MM-DD"))
        elif not isinstance(date, str) or not ISO_DATE_RE.match(date):
            issues.append(_issue(row, "bad date", "meta.date", date, "a date YYYY-MM-DD"))
        else:
            try:
                _dt.date.fromisoformat(date)
            except ValueError:
                issues.append(_issue(row, "no such calendar date", "meta.date", date, "a real date YYYY-MM-DD"))
        if "province" not in meta:
            issues.append(_issue(row, "missing field", "meta.province", expected="a province name"))
        elif not isinstance(meta["province"], str):
            issues.append(_issue(row, f"wrong type {type(meta['province']).__name__}", "meta.province",
                                 meta["province"], "a province name"))

    arts = d.get("relevant_articles")
    expected_art = "canonical strings such as 'cl:第二百六十四条' or 'cpl:第一百七十七条第二款'"
    if "relevant_articles" not in d:
        issues.append(_issue(row, "missing field", "relevant_articles", expected=f"a list of {expected_art}"))
    elif not isinstance(arts, list | tuple):
        issues.append(_issue(row, f"wrong type {type(arts).__name__}", "relevant_articles", arts,
                             f"a list of {expected_art}"))
    else:
        for i, art in enumerate(arts):
            problem = check_article(art)
            if problem:
                issues.append(_issue(row, problem, f"relevant_articles[{i}]", art, expected_art))
    return issues


def _where(row: RawRow) -> str:
    return f"line {row.line}" if row.line is not None else f"row {row.row}"


def validate_pdp_rows(rows: list[RawRow]) -> list[DataIssue]:
    """All problems of a split, in file order, including duplicate ids (reported at the repeat)."""
    issues: list[DataIssue] = []
    seen: dict[str, RawRow] = {}
    for row in rows:
        issues.extend(validate_pdp_row(row))
        rid = row.data.get("id") if isinstance(row.data, dict) else None
        if isinstance(rid, str) and rid.strip():
            if rid in seen:
                first = seen[rid]
                at = _where(first) if first.path == row.path else f"{first.path} {_where(first)}"
                issues.append(_issue(row, f"duplicate id, first seen at {at}", "id", rid, "unique case ids"))
            else:
                seen[rid] = row
    return issues


def rows_to_records(rows: Iterable[RawRow]) -> list[PDPRecord]:
    return [PDPRecord.from_dict(r.data) for r in rows if isinstance(r.data, dict)]
