"""log, exp and power over arrays with the same bits on every CPU: the C library's, one element at a time.

Why not numpy's: numpy picks a kernel for `np.log`, `np.exp` and `np.power` by CPU at import time, and its AVX-512
kernels round the last bit differently from the C library that its other paths (AVX2, Arm) call. Those last bits
reach the cost model's times and the search's geometric means, so a study would give other floats on another CPU.
Everything that feeds a result goes through here instead; numpy's +, -, *, /, sqrt, min and sums are exact IEEE
operations in a fixed order and stay numpy's.
"""

from __future__ import annotations

import itertools
import math

import numpy as np


def log(values: np.ndarray) -> np.ndarray:
    """Return the natural log of every element (inf for inf; values must be positive)."""
    return _each(math.log, values)


def exp(values: np.ndarray) -> np.ndarray:
    """Return e to the power of every element."""
    return _each(math.exp, values)


def power(values: np.ndarray, exponent: float) -> np.ndarray:
    """Return every element to the power `exponent` (elements >= 0)."""
    return _each(math.pow, values, exponent)


def _each(function, values: np.ndarray, *constants: float) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    items = array.ravel().tolist()
    results = map(function, items, *(itertools.repeat(c) for c in constants))
    return np.fromiter(results, dtype=np.float64, count=array.size).reshape(array.shape)
