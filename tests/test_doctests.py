"""Every docstring example (``>>>``) in ``src/jiancha`` runs, one test per module that has examples."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import jiancha
from jiancha.errors import MissingExtraError

PACKAGE_DIR = Path(jiancha.__file__).parent


def modules_with_examples() -> list[str]:
    """Dotted names of the package's modules whose source holds ``>>>``, in path order."""
    names = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if path.name == "__main__.py" or ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules_with_examples()


def test_examples_are_found():
    assert "jiancha.law.articles" in MODULES and "jiancha.train.rewards" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str):
    try:
        module = importlib.import_module(name)
    except MissingExtraError as exc:
        pytest.skip(f"{name}: {exc}")
    except ImportError as exc:
        if exc.name and not exc.name.startswith("jiancha"):
            pytest.skip(f"{name} needs '{exc.name}', from an optional extra that is not installed")
        raise
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    assert tests, f"{name} holds '>>>' but no example that doctest finds in a docstring"
    runner = doctest.DocTestRunner(verbose=False)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
