"""Validation problems found in a dataset file, located by file, line or row, and field.

Loaders collect ``DataIssue`` values (so ``jiancha data info`` can list every problem at once) and raise the
first one as a ``DataError`` when asked to validate strictly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jiancha.errors import DataError

_MAX_VALUE_CHARS = 60


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 1] + "…"


@dataclass(frozen=True)
class DataIssue:
    """One problem in one record. ``line`` is the 1-based line of a JSON-lines file; ``row`` the 1-based
    position of a record in a JSON list, Parquet file or Arrow dataset (only one of them is set)."""

    path: str
    message: str
    line: int | None = None
    row: int | None = None
    field: str | None = None
    value: Any = None
    expected: str | None = None

    def location(self) -> str:
        parts = [self.path]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.field is not None:
            parts.append(f"field '{self.field}'")
        return ", ".join(parts)

    def detail(self) -> str:
        """The message with the offending value and what was expected (without the location)."""
        text = self.message
        if self.value is not None:
            text += f" (got {_short(self.value)})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text

    def render(self) -> str:
        return f"{self.location()}: {self.detail()}"

    def to_error(self, *, more: int = 0) -> DataError:
        detail = self.detail()
        if more:
            source = re.sub(r"\[[^\]]*\]$", "", self.path)  # "folder[test]" -> "folder"
            detail += f" [and {more} more problem{'s' if more > 1 else ''}; list them all with " \
                      f"`jiancha data info {source}`]"
        if self.row is not None:
            err = DataError(detail, path=f"{self.path}, row {self.row}", field=self.field)
            err.path = self.path
        else:
            err = DataError(detail, path=self.path, line=self.line, field=self.field)
        err.row = self.row  # type: ignore[attr-defined]
        err.issue = self  # type: ignore[attr-defined]
        return err


def raise_first(issues: list[DataIssue]) -> None:
    """Raise the first issue as a DataError (mentioning how many more there are); do nothing if none."""
    if issues:
        raise issues[0].to_error(more=len(issues) - 1)
