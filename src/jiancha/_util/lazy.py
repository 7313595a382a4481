"""Import optional dependencies lazily; a missing one names the extra that provides it."""

from __future__ import annotations

import importlib
from types import ModuleType

from jiancha.errors import MissingExtraError


def require(module: str, extra: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"'{module}' is needed for this feature but is not installed ({exc}); "
            f"install it with: pip install 'jiancha[{extra}]'"
        ) from None
