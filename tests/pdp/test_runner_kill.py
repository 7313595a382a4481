"""A ``jiancha pdp eval`` process killed with SIGKILL mid-run resumes without re-sending completed requests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from pdp_runner_cases import write_cases

N_CASES = 30


#: ``python -m jiancha`` with Python's own Ctrl-C handler installed: a shell's background job (`make test &`,
#: nohup) starts with SIGINT ignored and Python would keep it ignored, so the Ctrl-C test would send nothing.
_JIANCHA_WITH_SIGINT = ("import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
                        "runpy.run_module('jiancha', run_name='__main__')")


def _cli(server_url: str, data: Path, out: Path) -> list[str]:
    return [sys.executable, "-c", _JIANCHA_WITH_SIGINT, "pdp", "eval", "--data", str(data), "--model", "fake-model",
            "--base-url", server_url, "--api-key-env", "JIANCHA_TEST_UNSET_KEY", "--concurrency", "2",
            "--timeout", "10", "--backoff", "0.01", "--no-progress", "--no-score", "--out", str(out)]


def _stored(out: Path) -> list[tuple[str, int]]:
    path = out / "records.jsonl"
    if not path.exists():
        return []
    keys = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.endswith("\n"):
            row = json.loads(line)
            keys.append((row["inputs"]["fact"][:8], row["run_id"]))
    return keys


def _start_until_stored(fake_openai, tmp_path: Path, n: int = 6) -> tuple[subprocess.Popen, Path, Path]:
    """Start ``jiancha pdp eval`` against a slow fake server; return once ``n`` records are stored."""
    fake_openai.latency = 0.15
    data = write_cases(tmp_path / "cases.jsonl", N_CASES)
    out = tmp_path / "run"
    proc = subprocess.Popen(_cli(fake_openai.url, data, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 60
    while len(_stored(out)) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run stored nothing within 60 s"
        time.sleep(0.02)
    return proc, data, out


def test_sigkill_mid_run_then_resume(fake_openai, tmp_path):
    proc, data, out = _start_until_stored(fake_openai, tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _stored(out)
    assert 6 <= len(before) < N_CASES, "killed too late to test a resume"
    sent_before = fake_openai.total()

    res = subprocess.run(_cli(fake_openai.url, data, out), check=False, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    assert "(resumed)" in res.stdout

    after = _stored(out)
    counts = Counter(after)
    assert set(counts) == {(f"CASE-{i:03d}", 0) for i in range(N_CASES)}
    assert max(counts.values()) == 1, "a request was stored twice"
    for key, _ in before:
        assert fake_openai.counts[key] == 1, f"{key} was completed before the kill but sent again"
    # only the requests not stored before the kill went out again (at most the 2 in flight were lost)
    resent = fake_openai.total() - sent_before
    assert resent == N_CASES - len(before)
    assert sent_before - len(before) <= 2


def test_ctrl_c_leaves_a_resumable_store_and_says_how_to_resume(fake_openai, tmp_path):
    proc, data, out = _start_until_stored(fake_openai, tmp_path)
    os.kill(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert "Traceback" not in stderr, stderr
    assert "to resume" in stderr and str(out) in " ".join(stderr.split()), stderr
    assert stderr.count("to resume") == 1 and "interrupted: every completed request" not in stderr, stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["invocations"][-1]["interrupted_at"]
    before = _stored(out)
    assert 6 <= len(before) < N_CASES, "interrupted too late to test a resume"
    assert (out / "records.jsonl").read_text(encoding="utf-8").endswith("\n")   # no torn line
    sent_before = fake_openai.total()

    res = subprocess.run(_cli(fake_openai.url, data, out), check=False, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    after = Counter(_stored(out))
    assert set(after) == {(f"CASE-{i:03d}", 0) for i in range(N_CASES)} and max(after.values()) == 1
    for key, _ in before:
        assert fake_openai.counts[key] == 1, f"{key} was stored before Ctrl-C but sent again"
    assert fake_openai.total() - sent_before == N_CASES - len(before)
