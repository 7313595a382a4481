"""Import optional dependencies lazily; a missing one names the install command of the extra that provides it.

jiancha is installed from its checkout (it is not on PyPI), so the command is an editable install of the
checkout with the extra, run from the checkout's folder.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from jiancha.errors import MissingExtraError

#: Pseudo-extra of the packages every install has (``[project] dependencies``).
CORE = "core"


def install_command(extra: str) -> str:
    """The command, run in the jiancha checkout, that installs ``extra`` into the project's virtual environment.

    >>> install_command("web")
    ".venv/bin/pip install -e '.[web]'"
    >>> install_command("core")
    '.venv/bin/pip install -e .'
    """
    return ".venv/bin/pip install -e ." if extra == CORE else f".venv/bin/pip install -e '.[{extra}]'"


def require(module: str, extra: str) -> ModuleType:
    """``import module``; MissingExtraError with the install command of ``extra`` when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        fix = "it is a core dependency: reinstall jiancha" if extra == CORE else f"it comes with the extra '{extra}'"
        raise MissingExtraError(f"'{module}' is needed for this feature but is not installed ({exc}); {fix} with "
                                f"`{install_command(extra)}` in the jiancha checkout") from None
