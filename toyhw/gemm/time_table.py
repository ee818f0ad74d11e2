"""The time of every config of the space on any shape, computed with numpy one shape at a time and cached.

The evolution loop asks for millions of (config, shape) times, so `time` is a dict lookup of the config's column plus
an index into a cached row; a row (all ~4,800 configs on one shape) costs one vectorized pass of the model
(`cost.evaluate`), the same formula `cost.gemm_time` uses, so table and scalar model agree bit for bit.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from toyhw.machine import libm
from toyhw.gemm import config as gemm_config, cost
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import GPU, get_gpu
from toyhw.gemm.shapes import Shape


class TimeTable:
    """Modelled times (microseconds) of the whole config space on one GPU, per shape, lazily computed and cached."""

    def __init__(self, gpu: str | GPU = "H100") -> None:
        self.gpu: GPU = gpu if isinstance(gpu, GPU) else get_gpu(gpu)  # a name; anything else: UnknownNameError
        self.configs: tuple[GemmConfig, ...] = gemm_config.config_space()
        self._index: dict[GemmConfig, int] = {c: i for i, c in enumerate(self.configs)}
        self._cols = cost.config_arrays(self.configs, self.gpu)
        self.launchable: np.ndarray = self._cols["launchable"].copy()
        self.launchable.setflags(write=False)
        self._rows: dict[Shape, np.ndarray] = {}
        self._log_rows: dict[Shape, np.ndarray] = {}
        self._lists: dict[Shape, list[float]] = {}
        self._oracles: dict[Shape, tuple[GemmConfig, float]] = {}

    def config_index(self, config: GemmConfig) -> int:
        """Return the column of `config` in `configs` (KeyError for a config outside the space)."""
        return self._index[config]

    def row(self, shape: Shape) -> np.ndarray:
        """Return the times (us, math.inf where unlaunchable) of all configs on `shape`, read-only, `configs` order."""
        row = self._rows.get(shape)
        if row is None:
            row = cost.evaluate(self._cols, shape, self.gpu)["time"] * 1e6
            row.setflags(write=False)
            self._rows[shape] = row
            self._lists[shape] = row.tolist()
        return row

    def log_row(self, shape: Shape) -> np.ndarray:
        """Return the natural log of `row(shape)` (inf where unlaunchable), read-only: geometric means add these."""
        logs = self._log_rows.get(shape)
        if logs is None:
            logs = libm.log(self.row(shape))
            logs.setflags(write=False)
            self._log_rows[shape] = logs
        return logs

    def details(self, shape: Shape) -> dict[str, np.ndarray]:
        """Return every breakdown array of the model on `shape` (seconds, counts), in `configs` order (not cached)."""
        return cost.evaluate(self._cols, shape, self.gpu)

    def time(self, config: GemmConfig, shape: Shape) -> float:
        """Return the time of `config` on `shape` in microseconds (math.inf when it cannot launch)."""
        values = self._lists.get(shape)
        if values is None:
            self.row(shape)
            values = self._lists[shape]
        try:
            return values[self._index[config]]
        except (KeyError, TypeError):  # not a config of the space: say so, not `KeyError: None`
            raise TypeError(
                f"config = {_cut(config)} for shape {shape.label()} is not a config of the space; a "
                "heuristic `choose(M, N, K)` must return a GemmConfig (toyhw.gemm.config."
                "config_space())"
            ) from None

    def oracle(self, shape: Shape) -> tuple[GemmConfig, float]:
        """Return the fastest launchable config on `shape` and its time (us); ties go to the first in `configs`."""
        best = self._oracles.get(shape)
        if best is None:
            row = self.row(shape)
            i = int(np.argmin(row))
            best = (self.configs[i], float(row[i]))
            self._oracles[shape] = best
        return best

    def roofline(self, shape: Shape) -> float:
        """Return the shape's roofline lower bound (us)."""
        return cost.roofline_us(shape, self.gpu)

    def rank(self, config: GemmConfig, shape: Shape) -> int:
        """Return 1 + how many configs are strictly faster than `config` on `shape` (1 = as fast as the oracle)."""
        t = self.time(config, shape)
        return int(np.count_nonzero(self.row(shape) < t)) + 1 if math.isfinite(t) else int(self.launchable.sum()) + 1

    def table(self, shapes: list[Shape]) -> np.ndarray:
        """Return a (len(shapes), len(configs)) array of times (us), building the missing rows."""
        return np.stack([self.row(s) for s in shapes])


@functools.lru_cache(maxsize=None)
def shared_table(gpu: str = "H100") -> TimeTable:
    """Return one TimeTable per GPU name for the whole process (notebooks and panels share its cached rows)."""
    return TimeTable(gpu)


def _cut(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
