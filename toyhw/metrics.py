"""KernelBench's fast_p: the share of *all* tasks whose kernel is correct and more than p times faster than PyTorch.

Source: KernelBench (arXiv 2502.10517v1, section 3.3) and its repository ScalingIntelligence/KernelBench,
`src/score.py::fastp` at commit 7ed4e989b8b044e3bbc442ab5a41382c345396b4. The comparison is strict (`>`), and a
task whose kernel failed or is missing still counts in the denominator, so fast_0 is the correctness rate.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

KERNELBENCH_PS: tuple[float, ...] = (0.0, 0.5, 0.8, 1.0, 1.5, 2.0)
"""The thresholds KernelBench's analysis script reports."""


def fast_p(speedups: Sequence[float], p: float, correct: Optional[Sequence[bool]] = None) -> float:
    """Return the share of tasks that are correct and have speedup > p (strict).

    `speedups` has one entry per task of the benchmark, failures included. A failed task's speedup is 0.0 by toyhw's
    convention; pass `correct` when correctness is known separately (a wrong kernel can be fast).
    """
    s = np.asarray(speedups, dtype=float)
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"speedups must be a non-empty 1-D sequence (one entry per task); got shape {s.shape}")
    if not np.isfinite(p) or p < 0:
        raise ValueError(f"p = {p!r} is not allowed; p must be a finite number >= 0")
    ok = s > 0 if correct is None else np.asarray(correct, dtype=bool)
    if ok.shape != s.shape:
        raise ValueError(f"correct has {ok.size} entries but speedups has {s.size}; give one per task")
    return float(np.count_nonzero(ok & (s > p))) / s.size


def fast_p_curve(speedups: Sequence[float], ps: Sequence[float]) -> np.ndarray:
    """Return fast_p for every p in `ps` (one pass per p; used for the fast_p-against-p plots)."""
    return np.array([fast_p(speedups, p) for p in ps])
