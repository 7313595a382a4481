"""Progress as plain lines where standard error is not a terminal (jiancha._util.progress)."""

from __future__ import annotations

from jiancha._util.progress import logged


class Clock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_line_at_the_start_every_interval_and_at_the_end():
    lines: list[str] = []
    got = list(logged(range(8), "index", 8, lines.append, every_s=10.0, clock=Clock(4.0)))
    assert got == list(range(8))
    # read at 4 (start), after each item at 8, 12, …, 36, and at 40 (end): 12 s after the start is the first
    # line's, 12 s after that the next; none once all are done
    assert lines == ["index: 8 …", "index: 3/8 (12 s)", "index: 6/8 (24 s)", "index: 8/8 in 36.0 s"]


def test_one_step_and_an_early_end_say_so():
    lines: list[str] = []
    list(logged(["x"], "fit", 1, lines.append, clock=Clock(0.5)))
    assert lines == ["fit …", "fit: done in 1.0 s"]
    lines.clear()
    list(logged(range(3), "read", 10, lines.append, clock=Clock(1.0)))
    assert lines == ["read: 10 …", "read: 3/10 in 4.0 s"]
