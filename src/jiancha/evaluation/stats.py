"""Statistics every task reports over its repeats."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error: SE = sample standard deviation (ddof 1) / √n; SE 0 for a single value.

    Sums are correctly rounded (``math.fsum``), so the figures do not depend on the order of the runs.

    >>> mean_se([0.5, 0.7])
    (0.6, 0.09999999999999998)
    """
    x = [float(v) for v in values]
    n = len(x)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(x) / n
    if n == 1:
        return mean, 0.0
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in x) / (n - 1))
    return mean, sd / math.sqrt(n)
