"""What a pytest session collected, per test file, and the guard that compares it with the files on disk.

pytest silently skips folders matched by ``norecursedirs`` (by default ``build``, ``dist``, ``*.egg``, ``venv``,
dot folders, ...) and files not matched by ``python_files``: a test file there never runs and nothing says so.
``tests/conftest.py`` imports the two hooks below, which record every file that yields a test item or is
skipped as a whole (``pytest.importorskip`` at module level, reported with its reason);
:func:`check_every_test_file_collected` compares them with the ``test_*.py`` files on disk when the session runs
the default ``testpaths`` in full.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TEST_FILE_GLOB = "test_*.py"
COLLECTED = pytest.StashKey[set[Path]]()


def _files(config: pytest.Config) -> set[Path]:
    return config.stash.setdefault(COLLECTED, set())


def pytest_itemcollected(item: pytest.Item) -> None:
    _files(item.config).add(Path(item.path).resolve())


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    report = yield
    # a module skipped as a whole counts as collected: its skip and reason are in the summary
    if report.skipped and isinstance(collector, pytest.Module):
        _files(collector.config).add(Path(collector.path).resolve())
    return report


def collected_files(config: pytest.Config) -> set[Path]:
    return set(_files(config))


def files_on_disk(tests_dir: Path) -> set[Path]:
    return {p.resolve() for p in tests_dir.rglob(TEST_FILE_GLOB) if "__pycache__" not in p.parts}


def runs_every_testpath(config: pytest.Config) -> bool:
    """Whether the session collects the default ``testpaths`` in full: ``pytest`` with no path arguments (or with
    exactly the testpaths), no ``--ignore`` / ``--ignore-glob`` / ``--lf``."""
    for option in ("ignore", "ignore_glob", "lf"):
        if config.getoption(option, None):
            return False
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        return True
    if any("::" in a for a in config.args):
        return False
    testpaths = {(config.rootpath / p).resolve() for p in config.getini("testpaths")}
    return {(config.invocation_params.dir / a).resolve() for a in config.args} == testpaths


def check_every_test_file_collected(config: pytest.Config, tests_dir: Path) -> None:
    """Fail naming every ``test_*.py`` under ``tests_dir`` that the session did not collect; skip when the
    session runs a subset."""
    if not runs_every_testpath(config):
        pytest.skip("checks a full run only (pytest with the default testpaths); this session runs a subset")
    missing = sorted(str(p.relative_to(config.rootpath)) for p in files_on_disk(tests_dir) - collected_files(config))
    if missing:
        pytest.fail(
            f"{len(missing)} test file(s) on disk were not collected, so they never run: {', '.join(missing)}. A "
            "folder named in pytest's norecursedirs (by default build, dist, *.egg, venv, dot folders) is skipped: "
            "rename the folder, or set norecursedirs in [tool.pytest.ini_options]; a test file must match "
            f"{TEST_FILE_GLOB} and hold at least one test", pytrace=False)
