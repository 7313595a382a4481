"""JSON Lines reading and writing with precise error locations."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from jiancha.errors import DataError


def json_error(exc: json.JSONDecodeError) -> str:
    """``invalid JSON (<reason> at column N)``; some of the decoder's reasons already end in "at".

    >>> json_error(json.JSONDecodeError("Invalid control character at", "x", 3))
    'invalid JSON (Invalid control character at column 4)'
    """
    reason = exc.msg.removesuffix(" at")
    return f"invalid JSON ({reason} at column {exc.colno})"


def iter_jsonl(path: str | os.PathLike) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for every non-blank line; a bad line raises DataError naming it, and so does
    a missing path or a folder (``DataFileNotFoundError`` / ``DataIsADirectoryError``, which are also OSErrors)."""
    from jiancha._util.io import open_data_file

    p = Path(path)
    with open_data_file(p, "a JSON Lines file (one JSON object per line)") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(json_error(exc), path=str(p), line=lineno) from None
            if not isinstance(obj, dict):
                raise DataError(f"expected a JSON object, got {type(obj).__name__}", path=str(p), line=lineno)
            yield lineno, obj


def read_jsonl(path: str | os.PathLike) -> list[dict[str, Any]]:
    return [obj for _, obj in iter_jsonl(path)]


def dumps_line(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_jsonl(path: str | os.PathLike, rows: Iterable[Any]) -> int:
    """Write rows atomically (temp file + rename); return the number written."""
    from jiancha._util.io import atomic_write_text

    lines = [dumps_line(r) for r in rows]
    atomic_write_text(path, "".join(lines))
    return len(lines)


def append_jsonl(path: str | os.PathLike, row: Any, *, fsync: bool = True) -> None:
    """Append one line durably: flushed and fsync'ed before returning."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(dumps_line(row))
        fh.flush()
        if fsync:
            os.fsync(fh.fileno())
