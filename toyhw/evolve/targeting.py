"""Lecture 14's demo 2: where "distance to the roofline" and "distance to the best seen" point (notebook 06)."""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from toyhw.checks import check_seed
from toyhw.evolve.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import target_weights
from toyhw.evolve.loop import check_budget, evolve



@dataclass(frozen=True)
class Targeting:
    """Demo 2: which shapes the two feedback keys point at, after `budget` programs of the full method.

    Attributes:
        rows: per-shape feedback on the best program (toyhw.evolve.evaluator.ShapeFeedback).
        n_stuck: shapes with no known improvement (vs_best > STUCK).
        share_on_stuck: key -> the share of the target-shape weights that lands on stuck shapes.
        top_roofline, top_best: the 5 shapes each key ranks as most worth improving.
        overlap_top5: how many shapes the two top-5 lists share.
    """

    seed: int
    budget: int
    rows: tuple
    n_stuck: int
    share_on_stuck: dict[str, float]
    top_roofline: tuple
    top_best: tuple
    overlap_top5: int


STUCK = 0.95
"""A shape is "stuck" when the program is within 5% of the best time ever seen on it (no known improvement)."""


def _share(rows, key: str) -> float:
    w = target_weights([getattr(r, key) for r in rows])
    stuck = np.array([r.vs_best > STUCK for r in rows])
    return float(w[stuck].sum() / w.sum())


def targeting(seed: int = 0, budget: int = 300) -> Targeting:
    """Return demo 2 for one run of the full method (cached in this process)."""
    check_seed("seed", seed)
    check_budget(budget)
    return _targeting(seed, budget)


@functools.lru_cache(maxsize=64)
def _targeting(seed: int, budget: int) -> Targeting:
    ctx = context()
    evaluator = Evaluator(ctx.train, ctx.table)
    out = evolve(evaluator, budget, seed=seed)
    rows = tuple(evaluator.per_shape(out.best[0]))
    by_roof = tuple(sorted(rows, key=lambda r: r.vs_roofline)[:5])
    by_best = tuple(sorted(rows, key=lambda r: r.vs_best)[:5])
    overlap = len({r.shape for r in by_roof} & {r.shape for r in by_best})
    return Targeting(seed, budget, rows, sum(r.vs_best > STUCK for r in rows),
                     {"roofline": _share(rows, "vs_roofline"), "best": _share(rows, "vs_best")}, by_roof, by_best,
                     overlap)





def clear_caches() -> None:
    """Empty this demo's cache."""
    _targeting.cache_clear()
