"""The one timing helper the benchmark scripts share: the median wall time of a call over repeats."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_seconds(run: Callable[[], object], repeats: int = 5, setup: Callable[[], object] = lambda: None) -> float:
    """Return the median wall time of `run` over `repeats` calls, `setup` (not timed) before each."""
    times = []
    for _ in range(repeats):
        setup()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
