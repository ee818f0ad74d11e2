"""Lecture 14's demo 2: where "distance to the roofline" and "distance to the best seen" point (notebook 06)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from toyhw.checks import check_seed
from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import target_weights
from toyhw.evolve.loop import Checkpoint, check_budget, checkpoint_budgets, evolve


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
"""The one threshold of "known improvement": a shape is "stuck" when the program is within 5% of the best time ever
seen on it (vs_best > STUCK), and has a known improvement otherwise (see `known_improvement`)."""


def known_improvement(vs_best: float) -> bool:
    """Return whether a shape has a known improvement for a program: the best time seen on it beats the program's by
    more than the 5% of STUCK (vs_best <= STUCK).

    The pack's one meaning of the term (notebooks 04, 05 and 06): a faster config seen by a smaller margin is not
    counted, since a 1% gain is within what a re-tune or a noisy timing would move.
    """
    return vs_best <= STUCK


def _share(rows, key: str) -> float:
    w = target_weights([getattr(r, key) for r in rows])
    stuck = np.array([not known_improvement(r.vs_best) for r in rows])
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
    return _summary(seed, budget, tuple(evaluator.per_shape(out.best[0])))


def _summary(seed: int, budget: int, rows: tuple) -> Targeting:
    """Return demo 2 read off the per-shape feedback `rows` on the best program of (seed, budget)."""
    by_roof = tuple(sorted(rows, key=lambda r: r.vs_roofline)[:5])
    by_best = tuple(sorted(rows, key=lambda r: r.vs_best)[:5])
    overlap = len({r.shape for r in by_roof} & {r.shape for r in by_best})
    return Targeting(
        seed,
        budget,
        rows,
        sum(not known_improvement(r.vs_best) for r in rows),
        {"roofline": _share(rows, "vs_roofline"), "best": _share(rows, "vs_best")},
        by_roof,
        by_best,
        overlap,
    )


def targeting_budgets(seed: int, budgets: Sequence[int]) -> dict[int, Targeting]:
    """Return {budget: targeting(seed, budget)} for every budget in `budgets`, from one run to the largest.

    Why: a panel that shows many budgets of one seed would otherwise run the search once per budget; the run with
    budget b is the first b steps of the longer run (toyhw.evolve.loop.Checkpoint), so the results are the same.
    """
    check_seed("seed", seed)
    wanted = checkpoint_budgets(budgets)
    ctx = context()
    evaluator = Evaluator(ctx.train, ctx.table)
    found: dict[int, Targeting] = {}

    def keep(point: Checkpoint) -> None:
        found[point.budget] = _summary(seed, point.budget, tuple(evaluator.per_shape(point.best[0])))

    evolve(evaluator, wanted[-1], seed=seed, checkpoints=wanted, on_checkpoint=keep)
    return found


def clear_caches() -> None:
    """Empty this demo's cache."""
    _targeting.cache_clear()
