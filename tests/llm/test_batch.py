import asyncio
import io

from rich.console import Console

from jiancha.llm.batch import run_batch
from jiancha.llm.progress import BatchProgress
from jiancha.llm.types import ChatRequest, ChatResult


def test_run_batch_bounds_concurrency_and_sends_each_request_once():
    in_flight, peak, seen, results = 0, 0, [], []

    async def complete(req):
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        seen.append(req.key)
        await asyncio.sleep(0.005)
        in_flight -= 1
        return ChatResult(ok=True, text="x")

    reqs = (ChatRequest(key=(f"c{i}", 0), messages=[]) for i in range(40))   # consumed lazily
    n = asyncio.run(run_batch(reqs, complete, concurrency=5, on_result=lambda q, r: results.append(q.key)))
    assert n == 40 and peak == 5
    assert sorted(seen) == sorted(results) == sorted((f"c{i}", 0) for i in range(40))


def test_progress_counts_failures_tokens_and_cost():
    buf = io.StringIO()
    with BatchProgress(3, console=Console(file=buf, width=120)) as p:
        p.advance(ChatResult(ok=True, prompt_tokens=10, completion_tokens=5, reasoning_tokens=2, cost=0.01))
        p.advance(ChatResult(ok=False, error="HTTP 500"))
        p.advance(ChatResult(ok=True, prompt_tokens=1, completion_tokens=1, cost=0.02))
    s = p.stats
    assert (s.done, s.failed, s.prompt_tokens, s.completion_tokens, s.reasoning_tokens) == (3, 1, 11, 6, 2)
    assert abs(s.cost - 0.03) < 1e-12
    out = buf.getvalue()
    assert "3/3" in out and "fail 1" in out and "tok 17" in out and "$0.0300" in out


def test_group_commit_writes_rows_of_cancelled_workers_before_returning():
    """Ctrl-C cancels the workers while their rows wait for the disk: ``drain`` still writes every one."""
    import threading
    import time

    from jiancha.llm.batch import GroupCommitter

    written: list[list[dict]] = []
    lock = threading.Lock()

    def slow_append(rows: list[dict]) -> None:
        time.sleep(0.05)
        with lock:
            written.append(rows)

    async def go() -> None:
        committer = GroupCommitter(slow_append)
        tasks = [asyncio.create_task(committer.commit({"i": i})) for i in range(10)]
        await asyncio.sleep(0.01)                 # the first row is being written, the others wait
        tasks.append(asyncio.create_task(committer.commit({"i": 10})))
        await asyncio.sleep(0)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await committer.drain()

    asyncio.run(go())
    rows = [r["i"] for batch in written for r in batch]
    assert sorted(rows) == list(range(11)) and len(rows) == 11
    assert len(written) >= 2                      # group commit: fewer writes than rows


def test_group_commit_failure_reaches_the_waiting_worker():
    from jiancha.llm.batch import GroupCommitter

    def broken(rows: list[dict]) -> None:
        raise RuntimeError("store closed")

    async def go() -> None:
        committer = GroupCommitter(broken)
        await asyncio.wait_for(committer.commit({"i": 0}), timeout=5)

    import pytest

    with pytest.raises(RuntimeError, match="store closed"):
        asyncio.run(go())
