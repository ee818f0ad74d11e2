"""The times of every config on a fixed list of shapes, as a matrix, with a fast `program -> config per shape`.

Why a module of its own: the search evaluates tens of thousands of programs that share most rules with their parents,
so a rule's condition is evaluated over all shapes at once with numpy and cached, and a program's times are one
gather from the matrix. The evaluator (toyhw.evolve.evaluator) and the demos read programs' times through it.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from toyhw.gemm import config as gemm_config
from toyhw.evolve.programs import Program, Rule
from toyhw.gemm.shapes import Shape


_INDEX_CACHE: dict[int, tuple[tuple, dict]] = {}


def _column_index(configs: tuple) -> dict:
    """Return {config: column} for a table's configs, built once per configs tuple (ShapeTimes are made per report)."""
    cached = _INDEX_CACHE.get(id(configs))
    if cached is None or cached[0] is not configs:  # holding the tuple keeps its id from being reused
        cached = _INDEX_CACHE[id(configs)] = (configs, {c: i for i, c in enumerate(configs)})
    return cached[1]


class ShapeTimes:
    """Times of every config on a fixed list of shapes, as a matrix, with fast `program -> config per shape`.

    Why: the search evaluates tens of thousands of programs that share most rules with their parents; a rule's
    condition is evaluated over all shapes at once with numpy and cached, and times are one gather from the matrix.
    """

    def __init__(self, shapes: Sequence[Shape], table) -> None:
        self.shapes = tuple(shapes)
        self.table = table
        self.M = np.array([s.M for s in self.shapes], dtype=np.int64)
        self.N = np.array([s.N for s in self.shapes], dtype=np.int64)
        self.K = np.array([s.K for s in self.shapes], dtype=np.int64)
        self.times = (
            np.stack([np.asarray(table.row(s), dtype=float) for s in self.shapes])
            if self.shapes
            else np.zeros((0, len(table.configs)))
        )
        self.log_times = np.stack([table.log_row(s) for s in self.shapes]) if self.shapes else self.times.copy()
        self.rows = np.arange(len(self.shapes))
        self._index = _column_index(table.configs)
        self._masks: dict = {}
        self._axis_masks: dict = {}
        self._rules: dict[int, tuple[Optional[np.ndarray], int, Rule, bool]] = {}
        self._launchable = np.asarray(table.launchable, dtype=bool).tolist()

    def config_index(self, config: gemm_config.GemmConfig) -> int:
        """Return the column of `config` in the time matrix."""
        return self._index[config]

    def _axis_mask(self, axis: int, lo: Optional[int], hi: Optional[int]) -> np.ndarray:
        # cached per axis: new rules mostly reuse M ranges at round thresholds and N, K values of the training shapes
        key = (axis, lo, hi)
        mask = self._axis_masks.get(key)
        if mask is None:
            values = (self.M, self.N, self.K)[axis]
            mask = np.ones(len(self.shapes), dtype=bool)
            if lo is not None:
                mask &= values >= lo
            if hi is not None:
                mask &= values <= hi
            self._axis_masks[key] = mask
        return mask

    def _mask(self, rule: Rule) -> np.ndarray:
        key = rule.bounds()
        mask = self._masks.get(key)
        if mask is None:
            mask = None
            for axis, (lo, hi) in enumerate(key):
                if lo is not None or hi is not None:
                    part = self._axis_mask(axis, lo, hi)
                    mask = part if mask is None else mask & part
            if mask is None:  # no condition at all (a Rule refuses that; kept total for safety)
                mask = np.ones(len(self.shapes), dtype=bool)
            self._masks[key] = mask
        return mask

    def rule_info(self, rule: Rule) -> tuple[Optional[np.ndarray], int, Rule, bool]:
        """Return (the shapes the rule matches as a mask, None when it matches none; its config's column; the rule;
        whether that config can launch)."""
        # children share most rule objects with their parents: keyed by identity, a lookup needs no hashing (the
        # entry holds the rule, so its id cannot be reused while cached)
        hit = self._rules.get(id(rule))
        if hit is None or hit[2] is not rule:
            col = self._index[rule.config]
            mask = self._mask(rule)
            # None: the rule reaches none of these shapes (often so for generalizing edits), nothing to write
            hit = self._rules[id(rule)] = (mask if np.count_nonzero(mask) else None, col, rule, self._launchable[col])
        return hit

    def config_indices(self, program: Program) -> np.ndarray:
        """Return the config column `program` picks for every shape."""
        idx = np.empty(len(self.shapes), dtype=np.int64)
        idx.fill(self._index[program.default])
        get = self._rules.get
        for rule in reversed(program.rules):  # earlier rules overwrite later ones: the first match wins
            hit = get(id(rule))
            if hit is None or hit[2] is not rule:
                hit = self.rule_info(rule)
            if hit[0] is not None:
                idx[hit[0]] = hit[1]
        return idx

    def program_times(self, program: Program) -> np.ndarray:
        """Return the time of `program`'s kernel on every shape (microseconds; inf where its config cannot launch)."""
        return self.times[self.rows, self.config_indices(program)]

    def program_log_times(self, program: Program) -> np.ndarray:
        """Return the natural log of `program_times(program)` (inf where its config cannot launch)."""
        return self.log_times[self.rows, self.config_indices(program)]
