import asyncio
import random

from jiancha.llm.ratelimit import TokenBucket
from jiancha.llm.replicas import ReplicaPool
from jiancha.llm.retry import backoff_delay, is_retryable_status, parse_retry_after


def test_parse_retry_after():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(" 0.5 ") == 0.5
    assert parse_retry_after(None) is None
    assert parse_retry_after("later") is None
    # HTTP-date 10 s after "now"
    assert parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now=784111777.0) == 10.0
    # a negative delta or a date already past means "retry now", never a negative sleep
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now=784111797.0) == 0.0


def test_backoff_is_bounded_full_jitter():
    rng = random.Random(0)
    for attempt, upper in [(1, 1.0), (2, 2.0), (3, 4.0), (10, 30.0)]:
        vals = [backoff_delay(attempt, base=1.0, cap=30.0, rng=rng) for _ in range(200)]
        assert 0 <= min(vals) and max(vals) <= upper
        assert max(vals) > upper * 0.8  # spread over the whole interval


def test_retryable_statuses():
    assert all(is_retryable_status(s) for s in (429, 500, 502, 503, 504, 529))
    assert not any(is_retryable_status(s) for s in (400, 401, 403, 404, 422))
    # request timeout / conflict / too early, and every other 5xx (e.g. 507, 599) are transient too
    assert all(is_retryable_status(s) for s in (408, 409, 425, 507, 599))
    assert not is_retryable_status(600)


def test_token_bucket_spaces_requests(monkeypatch):
    # a simulated clock that only the bucket's sleeps advance: the spacing is exact, whatever the machine's load
    # (8 per second, so that every delay is exact in binary floating point)
    now = [0.0]
    slept: list[float] = []

    async def fake_sleep(delay: float) -> None:
        slept.append(delay)
        now[0] += delay

    monkeypatch.setattr(asyncio, "sleep", fake_sleep)

    async def go():
        bucket = TokenBucket(rpm=480, clock=lambda: now[0])  # burst 1
        for _ in range(6):
            await bucket.acquire()
    asyncio.run(go())
    assert slept == [0.125] * 5                   # the first request is free, then one every 1/8 s
    assert now[0] == 0.625


def test_replica_pool_least_in_flight_round_robin():
    pool = ReplicaPool(["a", "b", "c"])
    first = [pool.acquire() for _ in range(3)]
    assert first == [0, 1, 2]
    pool.release(1)
    assert pool.acquire() == 1          # the only one with a free slot
    for i in range(3):
        pool.release(i)
    assert pool.in_flight == [0, 0, 0]
    assert [pool.acquire() for _ in range(3)] == [2, 0, 1]   # round robin continues after the last pick
