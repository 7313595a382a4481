"""CAIL2018 (charge prediction) loader: ``{fact, meta{...}}`` JSON lines and the accu.txt / law.txt label lists.

A line of the official files::

    {"fact": "...", "meta": {"accusation": ["盗窃"], "relevant_articles": [264], "criminals": ["某甲"],
     "punish_of_money": 1000, "term_of_imprisonment": {"death_penalty": false, "imprisonment": 4,
     "life_imprisonment": false}}}

Charges are the CAIL forms without the trailing 罪 (bracketed alternatives such as ``[走私、贩卖、运输、制造]毒品``
as published); ``imprisonment`` is in months.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jiancha._util.jsonl import json_error
from jiancha.datasets.issues import DataIssue, raise_first
from jiancha.errors import DataError

ACCUSATION_LABELS_FILE = "accu.txt"
ARTICLE_LABELS_FILE = "law.txt"


@dataclass(frozen=True)
class CAILTerm:
    """``meta.term_of_imprisonment``; ``imprisonment`` in months."""

    death_penalty: bool
    imprisonment: int
    life_imprisonment: bool


@dataclass(frozen=True)
class CAILRecord:
    """One CAIL2018 case. ``index`` is the 1-based line number in its file."""

    fact: str
    accusations: tuple[str, ...]
    relevant_articles: tuple[int, ...]
    term: CAILTerm
    punish_of_money: float
    criminals: tuple[str, ...]
    index: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The original layout (inverse of the loader)."""
        money = int(self.punish_of_money) if float(self.punish_of_money).is_integer() else self.punish_of_money
        return {
            "fact": self.fact,
            "meta": {
                "accusation": list(self.accusations),
                "relevant_articles": list(self.relevant_articles),
                "criminals": list(self.criminals),
                "punish_of_money": money,
                "term_of_imprisonment": {
                    "death_penalty": self.term.death_penalty,
                    "imprisonment": self.term.imprisonment,
                    "life_imprisonment": self.term.life_imprisonment,
                },
            },
        }


@dataclass(frozen=True)
class CAILLabels:
    """The label lists: charge names (accu.txt) and Criminal Law article numbers (law.txt), in file order."""

    accusations: tuple[str, ...]
    articles: tuple[int, ...]

    def accusation_index(self) -> dict[str, int]:
        return {a: i for i, a in enumerate(self.accusations)}

    def article_index(self) -> dict[int, int]:
        return {a: i for i, a in enumerate(self.articles)}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_cail_object(obj: Any, *, path: str, line: int) -> tuple[CAILRecord | None, list[DataIssue]]:
    """Validate and convert one decoded line; returns (record or None, issues)."""

    def issue(message: str, field: str | None = None, value: Any = None, expected: str | None = None) -> DataIssue:
        return DataIssue(path, message, line=line, field=field, value=value, expected=expected)

    if not isinstance(obj, dict):
        return None, [issue(f"expected an object, got {type(obj).__name__}", expected="{fact, meta}")]
    issues: list[DataIssue] = []
    fact = obj.get("fact")
    if "fact" not in obj:
        issues.append(issue("missing field", "fact", expected="a string"))
    elif not isinstance(fact, str):
        issues.append(issue(f"wrong type {type(fact).__name__}", "fact", fact, "a string"))
    meta = obj.get("meta")
    if not isinstance(meta, dict):
        issues.append(issue("missing field" if "meta" not in obj else f"wrong type {type(meta).__name__}", "meta",
                            meta, "an object {accusation, relevant_articles, term_of_imprisonment, "
                                  "punish_of_money, criminals}"))
        return None, issues

    def str_list(name: str) -> tuple[str, ...]:
        v = meta.get(name)
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            issues.append(issue("missing field" if name not in meta else "wrong type", f"meta.{name}", v,
                                "a list of strings"))
            return ()
        return tuple(v)

    accusations = str_list("accusation")
    criminals = str_list("criminals")
    arts = meta.get("relevant_articles")
    articles: tuple[int, ...] = ()
    if not isinstance(arts, list) or not all(_is_int(x) or (isinstance(x, str) and x.isdigit()) for x in arts):
        issues.append(issue("missing field" if "relevant_articles" not in meta else "wrong type",
                            "meta.relevant_articles", arts, "a list of article numbers (integers)"))
    else:
        articles = tuple(int(x) for x in arts)
    money = meta.get("punish_of_money")
    if not (_is_int(money) or isinstance(money, float)):
        issues.append(issue("missing field" if "punish_of_money" not in meta else "wrong type",
                            "meta.punish_of_money", money, "a number (yuan)"))
        money = 0
    term_obj = meta.get("term_of_imprisonment")
    term = CAILTerm(False, 0, False)
    if not isinstance(term_obj, dict):
        issues.append(issue("missing field" if "term_of_imprisonment" not in meta else "wrong type",
                            "meta.term_of_imprisonment", term_obj,
                            "an object {death_penalty, imprisonment, life_imprisonment}"))
    else:
        bad = [k for k in ("death_penalty", "life_imprisonment") if not isinstance(term_obj.get(k), bool)]
        bad += [] if _is_int(term_obj.get("imprisonment")) else ["imprisonment"]
        for k in bad:
            issues.append(issue("missing field" if k not in term_obj else "wrong type",
                                f"meta.term_of_imprisonment.{k}", term_obj.get(k),
                                "an integer (months)" if k == "imprisonment" else "true or false"))
        if not bad:
            term = CAILTerm(term_obj["death_penalty"], term_obj["imprisonment"], term_obj["life_imprisonment"])
    if issues:
        return None, issues
    return CAILRecord(fact=fact, accusations=accusations, relevant_articles=articles, term=term,
                      punish_of_money=money, criminals=criminals, index=line), []


def _iter_lines(path: Path) -> Iterator[tuple[int, Any, DataIssue | None]]:
    import json

    try:
        fh = path.open(encoding="utf-8")
    except FileNotFoundError:
        raise DataError("no such file; expected CAIL2018 JSON lines ({fact, meta} per line)", path=str(path)) from None
    with fh:
        try:
            for lineno, text in enumerate(fh, start=1):
                if not text.strip():
                    continue
                try:
                    yield lineno, json.loads(text), None
                except json.JSONDecodeError as exc:
                    yield lineno, None, DataIssue(str(path), json_error(exc),
                                                  line=lineno)
        except UnicodeDecodeError as exc:
            raise DataError(f"not UTF-8 text ({exc.reason} at byte {exc.start}); re-encode the file as UTF-8",
                            path=str(path)) from None


def check_cail(path: str | os.PathLike, *, limit: int | None = None) -> tuple[list[CAILRecord], list[DataIssue]]:
    """Report mode: every valid record and every problem (bad JSON lines included)."""
    p = Path(path)
    records: list[CAILRecord] = []
    issues: list[DataIssue] = []
    for lineno, obj, problem in _iter_lines(p):
        if limit is not None and len(records) + len(issues) >= limit:
            break
        if problem is not None:
            issues.append(problem)
            continue
        rec, found = parse_cail_object(obj, path=str(p), line=lineno)
        issues.extend(found)
        if rec is not None:
            records.append(rec)
    return records, issues


def load_cail(path: str | os.PathLike, *, limit: int | None = None) -> list[CAILRecord]:
    """All records of a CAIL2018 JSON-lines file; DataError naming file, line and field on the first problem."""
    records, issues = check_cail(path, limit=limit)
    raise_first(issues)
    return records


def iter_cail(path: str | os.PathLike) -> Iterator[CAILRecord]:
    """Stream records (validating each) without holding the file in memory."""
    p = Path(path)
    for lineno, obj, problem in _iter_lines(p):
        if problem is not None:
            raise problem.to_error()
        rec, found = parse_cail_object(obj, path=str(p), line=lineno)
        raise_first(found)
        assert rec is not None
        yield rec


def load_label_list(path: str | os.PathLike) -> tuple[str, ...]:
    """One label a line (accu.txt / law.txt format): stripped, blank lines skipped, duplicates rejected."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError("no such label file; expected one label per line (accu.txt / law.txt)",
                        path=str(p)) from None
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        label = line.strip()
        if not label:
            continue
        if label in seen:
            raise DataError(f"duplicate label {label!r} (first on line {seen[label]}); expected each label once",
                            path=str(p), line=lineno)
        seen[label] = lineno
    return tuple(seen)


def load_article_labels(path: str | os.PathLike) -> tuple[int, ...]:
    labels = load_label_list(path)
    out = []
    for label in labels:
        if not label.isdigit():
            lineno = next(i for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1)
                          if line.strip() == label)
            raise DataError(f"not an article number: {label!r}; expected an integer such as 264",
                            path=str(path), line=lineno)
        out.append(int(label))
    return tuple(out)


def load_cail_labels(directory: str | os.PathLike) -> CAILLabels:
    """accu.txt and law.txt from one folder (the official ``meta`` layout)."""
    d = Path(directory)
    return CAILLabels(accusations=load_label_list(d / ACCUSATION_LABELS_FILE),
                      articles=load_article_labels(d / ARTICLE_LABELS_FILE))


def count_accusations(records: list[CAILRecord]) -> Counter[str]:
    return Counter(a for r in records for a in r.accusations)


def count_articles(records: list[CAILRecord]) -> Counter[int]:
    return Counter(a for r in records for a in r.relevant_articles)


def looks_like_cail(obj: Any) -> bool:
    """Whether a decoded line has the CAIL2018 shape (used to tell CAIL files from PDP files)."""
    return isinstance(obj, dict) and isinstance(obj.get("meta"), dict) and "accusation" in obj["meta"] \
        and "fact" in obj
