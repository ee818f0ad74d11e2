"""KernelBench's fast_p: the share of *all* tasks whose kernel is correct and more than p times faster than PyTorch.

Source: KernelBench (arXiv 2502.10517v1, section 3.3) and its repository ScalingIntelligence/KernelBench,
`src/score.py::fastp` (lines 28-36) at commit 7324dc1600444c96b516acef05d76eab3cc7f4e1. The comparison is strict
(`>`), and a task whose kernel failed or is missing still counts in the denominator, so fast_0 is the correctness
rate.

Plain Python on purpose: a benchmark has hundreds of tasks, and keeping numpy out keeps `python -m toyhw fastp` as
quick to start as the lecture's script. A value that is not a speedup (NaN, negative, None, text) is refused, never
counted as a failure: a failed task's speedup is 0.0, and anything else means the caller mixed something up.
"""

from __future__ import annotations

import bisect
import math
from typing import Optional, Sequence

_INF = float("inf")
KERNELBENCH_PS: tuple[float, ...] = (0.0, 0.5, 0.8, 1.0, 1.5, 2.0)
"""The thresholds KernelBench's analysis script reports (`scripts/benchmark_eval_analysis.py:118`, same commit)."""


def _speedups(speedups: Sequence[float]) -> list[float]:
    """Return `speedups` as floats, or raise ValueError naming the first entry that is not a finite number >= 0."""
    if isinstance(speedups, (str, bytes)) or not hasattr(speedups, "__iter__"):
        raise ValueError(
            f"speedups = {speedups!r} is not allowed; it must be a non-empty sequence with one entry per task"
        )
    values = list(speedups)
    if not values:
        raise ValueError("speedups is empty; it must be a non-empty sequence with one entry per task")
    for i, value in enumerate(values):
        if type(value) is float and value >= 0 and value != _INF:  # the common case, quickly (NaN fails >= 0)
            continue
        if not _real(value) or not math.isfinite(value) or value < 0:
            raise ValueError(
                f"speedups[{i}] = {value!r} is not allowed; speedups must have one entry per task, a "
                "finite number >= 0 (0.0 for a failed task)"
            )
    return [float(v) for v in values]


def _real(value: object) -> bool:
    """Return True for a real number that is not a bool (numpy's numbers included)."""
    import numbers  # here, not at import: its ABCs cost start-up time, and most values are plain floats

    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_p(name: str, p: float) -> float:
    """Return the threshold `p` if it is a finite number >= 0, else raise ValueError naming `name`."""
    if type(p) not in (float, int) and not _real(p) or not math.isfinite(p) or p < 0:
        raise ValueError(f"{name} = {p!r} is not allowed; p must be a finite number >= 0")
    return p


def fast_p(speedups: Sequence[float], p: float, correct: Optional[Sequence[bool]] = None) -> float:
    """Return the share of tasks that are correct and have speedup > p (strict).

    `speedups` has one entry per task of the benchmark, failures included. A failed task's speedup is 0.0 by toyhw's
    convention; pass `correct` when correctness is known separately (a wrong kernel can be fast).
    """
    values = _speedups(speedups)
    bar = check_p("p", p)
    if correct is None:
        hits = sum(1 for s in values if s > 0 and s > bar)
    else:
        if isinstance(correct, (str, bytes)) or not hasattr(correct, "__iter__"):
            raise ValueError(f"correct = {correct!r} is not allowed; give one True/False per task")
        flags = list(correct)
        if len(flags) != len(values):
            raise ValueError(f"correct has {len(flags)} entries but speedups has {len(values)}; give one per task")
        for i, flag in enumerate(flags):
            if flag not in (True, False):  # 1 and 0 (and numpy's booleans) compare equal to them
                raise ValueError(f"correct[{i}] = {flag!r} is not allowed; give one True/False per task")
        hits = sum(1 for s, ok in zip(values, flags) if ok and s > bar)
    return hits / len(values)


class SortedSpeedups:
    """One benchmark's speedups, checked and sorted once: `fast_p(p)` equals `fast_p(speedups, p)` at any p.

    Why: a panel reads fast_p of the same speedups at many thresholds and round counts on every move; counting the
    speedups above p by bisection takes microseconds where checking and scanning every task again took a
    millisecond a curve (the count, and so the share, is the same integer over the same length).
    """

    def __init__(self, speedups: Sequence[float]) -> None:
        self.values = sorted(_speedups(speedups))

    def fast_p(self, p: float) -> float:
        """Return the share of tasks with speedup > p (strict; a failed task's 0.0 never counts)."""
        bar = check_p("p", p)
        return (len(self.values) - bisect.bisect_right(self.values, bar)) / len(self.values)


def fast_p_curve(speedups: Sequence[float], ps: Sequence[float]) -> list[float]:
    """Return fast_p for every p in `ps` (one pass per p; used for the fast_p-against-p plots)."""
    values = _speedups(speedups)
    if isinstance(ps, (str, bytes)) or not hasattr(ps, "__iter__"):
        raise ValueError(f"ps = {ps!r} is not allowed; give a sequence of thresholds, e.g. [0.0, 0.5, 1.0]")
    return [fast_p(values, p) for p in ps]
