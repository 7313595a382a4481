"""Atomic file writes: a crash never leaves a half-written result file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from jiancha.errors import DataError


class _DataOSError(DataError, OSError):
    """A DataError that is also the OSError it replaces, so that callers catching ``OSError`` still catch it and
    the CLI prints its usual one line for unreadable files (``errno``, ``strerror``, ``filename`` are set);
    ``str()`` is the DataError message (path, what was found, what was expected)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DataFileNotFoundError(_DataOSError, FileNotFoundError):
    """A data file that does not exist."""


class DataIsADirectoryError(_DataOSError, IsADirectoryError):
    """A folder where a data file was expected."""


def open_data_file(path: str | os.PathLike, expected: str) -> Any:
    """``open(path, encoding="utf-8")`` that turns a missing path or a folder into a DataError naming the path and
    what was expected there (``expected``: e.g. "a JSON Lines file, one object per line")."""
    p = Path(path)
    try:
        return p.open(encoding="utf-8")
    except FileNotFoundError as exc:
        err: _DataOSError = DataFileNotFoundError(f"no such file; expected {expected}", path=str(p))
        os_exc: OSError = exc
    except IsADirectoryError as exc:
        err = DataIsADirectoryError(f"this is a folder; expected {expected}, not a folder", path=str(p))
        os_exc = exc
    err.errno, err.strerror, err.filename = os_exc.errno, os_exc.strerror, os_exc.filename
    raise err from None


def _process_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Read once, at import (reading it means setting it, which is not safe while other threads create files).
_UMASK = _process_umask()


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync, rename. The file gets the permissions an
    ordinary ``open(path, "w")`` would give it (those of the file it replaces, else 0o666 less the umask), not
    the 0o600 of ``mkstemp``."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = p.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def write_json(path: str | os.PathLike, obj: Any, *, indent: int = 2) -> None:
    atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=indent, sort_keys=False) + "\n")


def read_json(path: str | os.PathLike) -> Any:
    """The decoded JSON document; DataError on a missing file, a folder or invalid JSON."""
    try:
        with open_data_file(path, "a JSON file") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON ({exc.msg})", path=str(path), line=exc.lineno) from None


#: Encodings tried, in order, for Chinese text files: UTF-8 (with or without a BOM), then GB18030, the superset of
#: GBK and GB2312 in which court and procuratorate documents are often saved.
CHINESE_TEXT_ENCODINGS: tuple[str, ...] = ("utf-8-sig", "gb18030")


def decode_chinese_text(data: bytes, path: str | os.PathLike = "") -> tuple[str, str]:
    """``data`` decoded with the first of :data:`CHINESE_TEXT_ENCODINGS` that fits, and that encoding's name.

    >>> decode_chinese_text("盗窃".encode("gbk"))
    ('盗窃', 'gb18030')
    """
    for enc in CHINESE_TEXT_ENCODINGS:
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            continue
    raise DataError("cannot decode; expected UTF-8 or GB18030 text", path=str(path))
