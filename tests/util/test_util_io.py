"""Atomic writes (ordinary file permissions, not mkstemp's 0o600) and run provenance (git state)."""

from __future__ import annotations

import os
import stat

import pytest

from jiancha._util import io
from jiancha._util.io import atomic_write_text, write_json


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_atomic_writes_get_the_umask_permissions_and_keep_an_existing_files(tmp_path, monkeypatch):
    monkeypatch.setattr(io, "_UMASK", 0o027)
    atomic_write_text(tmp_path / "report.md", "x")
    assert stat.S_IMODE((tmp_path / "report.md").stat().st_mode) == 0o640
    write_json(tmp_path / "metrics.json", {"a": 1})
    assert stat.S_IMODE((tmp_path / "metrics.json").stat().st_mode) == 0o640
    os.chmod(tmp_path / "metrics.json", 0o604)
    write_json(tmp_path / "metrics.json", {"a": 2})       # a file written over keeps its permissions
    assert stat.S_IMODE((tmp_path / "metrics.json").stat().st_mode) == 0o604
    assert (tmp_path / "metrics.json").read_text(encoding="utf-8") == '{\n  "a": 2\n}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["metrics.json", "report.md"]   # no temporary left


def test_the_umask_is_read_from_the_process():
    mask = os.umask(0o022)
    os.umask(mask)
    assert io._process_umask() == mask and os.umask(mask) == mask


def test_environment_says_whether_the_checkout_has_uncommitted_edits(tmp_path):
    import shutil
    import subprocess

    from jiancha._util.provenance import environment_info, git_dirty, git_revision

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True,
                       capture_output=True)

    git("init", "-q")
    (repo / "a.txt").write_text("1", encoding="utf-8")
    git("add", "a.txt")
    git("commit", "-q", "-m", "one")
    assert git_dirty(repo) is False and len(git_revision(repo)) == 40
    (repo / "b.txt").write_text("untracked files do not count", encoding="utf-8")
    assert git_dirty(repo) is False
    (repo / "a.txt").write_text("2", encoding="utf-8")
    assert git_dirty(repo) is True
    assert git_dirty(tmp_path / "nowhere") is None and git_revision(tmp_path / "nowhere") is None
    assert "git_dirty" in environment_info()
