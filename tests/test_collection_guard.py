"""A test file that pytest never collects never runs, and nothing says so: this guard says so.

It checks a full run (``pytest`` with the default testpaths) and skips when a subset is asked for
(``pytest tests/law``, ``--ignore``, ``--lf``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from collection import check_every_test_file_collected, collected_files, files_on_disk

TESTS_DIR = Path(__file__).resolve().parent


def test_every_test_file_on_disk_is_collected(request: pytest.FixtureRequest):
    check_every_test_file_collected(request.config, TESTS_DIR)


def test_the_hooks_record_this_file(request: pytest.FixtureRequest):
    this = Path(__file__).resolve()
    assert this in collected_files(request.config) and this in files_on_disk(TESTS_DIR)


GUARD_TEST = '''
from pathlib import Path
from collection import check_every_test_file_collected

def test_guard(request):
    check_every_test_file_collected(request.config, Path(__file__).parent)
'''


def _project(tmp_path: Path) -> Path:
    """A project whose tests/build/ folder pytest skips by default, with the same hooks and guard as this one."""
    root = tmp_path / "project"
    tests = root / "tests"
    for sub in ("law", "build", "skipped"):
        (tests / sub).mkdir(parents=True)
    shutil.copy(TESTS_DIR / "collection.py", tests / "collection.py")
    (tests / "conftest.py").write_text("from collection import pytest_itemcollected, pytest_make_collect_report  "
                                       "# noqa: F401\n", encoding="utf-8")
    (tests / "test_guard.py").write_text(GUARD_TEST, encoding="utf-8")
    (tests / "law" / "test_law.py").write_text("def test_a():\n    pass\n", encoding="utf-8")
    (tests / "build" / "test_hidden.py").write_text("def test_b():\n    pass\n", encoding="utf-8")
    # skipped as a whole, visibly: counts as collected
    (tests / "skipped" / "test_extra.py").write_text("import pytest\npytest.importorskip('no_such_module_x')\n",
                                                     encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n', encoding="utf-8")
    return root


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *args], cwd=root,
                          capture_output=True, text=True, check=False, timeout=120)


def test_the_guard_fails_a_full_run_that_misses_a_folder(tmp_path):
    root = _project(tmp_path)
    full = _pytest(root)
    assert full.returncode == 1, full.stdout
    out = full.stdout.replace("\n", " ")
    assert "1 test file(s) on disk were not collected, so they never run: tests/build/test_hidden.py." in out
    assert "test_extra" not in out.split("were not collected")[1].split(".")[0]
    # `pytest tests` is the full run too
    assert _pytest(root, "tests").returncode == 1
    # a subset is not a full run: the guard skips
    for subset in (["tests/law", "tests/test_guard.py"], ["--ignore", "tests/build"]):
        part = _pytest(root, *subset)
        assert part.returncode == 0, part.stdout
        assert "checks a full run only" in part.stdout
    # and once the folder is renamed, the full run passes
    (root / "tests" / "build").rename(root / "tests" / "corpus")
    fixed = _pytest(root)
    assert fixed.returncode == 0, fixed.stdout
