"""One exception family for the whole package.

Every error says what failed, the offending value, what was expected and, where possible, how to fix it.
"""

from __future__ import annotations


class JianchaError(Exception):
    """Base class of every error this package raises on purpose."""


class ConfigError(JianchaError):
    """A setting, option or combination of options is invalid."""


class DataError(JianchaError):
    """A data file or record is malformed. Names the file, line/row and field when known."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 field: str | None = None):
        self.path, self.line, self.field, self.message = path, line, field, message
        where = []
        if path is not None:
            where.append(str(path))
        if line is not None:
            where.append(f"line {line}")
        if field is not None:
            where.append(f"field '{field}'")
        super().__init__(f"{': '.join([', '.join(where), message]) if where else message}")


class ParseError(JianchaError):
    """Text could not be parsed (a citation, a date, a model answer)."""


class BackendError(JianchaError):
    """A model backend failed after its retries."""


class ResumeMismatchError(JianchaError):
    """An existing run directory was produced under different settings; refuse to mix results."""


class MissingExtraError(JianchaError):
    """An optional dependency is missing; the message names the extra to install."""
