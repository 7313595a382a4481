"""What every run records next to its results: versions, git revision, platform, time."""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import platform
import subprocess
import sys
from pathlib import Path

#: Packages whose version can change a result (those not installed are left out of the record).
_TRACKED = ("jiancha", "numpy", "datasets", "pyarrow", "bm25s", "rjieba", "httpx", "scikit-learn", "torch",
            "transformers", "trl", "sentence-transformers", "faiss-cpu", "cn2an")


def package_versions(names: tuple[str, ...] = _TRACKED) -> dict[str, str]:
    out: dict[str, str] = {}
    for n in names:
        try:
            out[n] = importlib.metadata.version(n)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def git_revision(cwd: str | Path | None = None) -> str | None:
    try:
        res = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd or Path(__file__).parent, capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() or None if res.returncode == 0 else None


def git_dirty(cwd: str | Path | None = None) -> bool | None:
    """Whether tracked files differ from the recorded revision (uncommitted edits): the revision alone then does
    not say which code ran. None outside a git checkout."""
    try:
        res = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                             cwd=cwd or Path(__file__).parent, capture_output=True, text=True, timeout=10,
                             check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(res.stdout.strip()) if res.returncode == 0 else None


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def environment_info() -> dict:
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": package_versions(),
        "git_revision": git_revision(),
        "git_dirty": git_dirty(),
        "recorded_at": now_iso(),
    }
