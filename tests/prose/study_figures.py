"""The lecture's ablation study (every variant, seeds 0-4, 1000 programs) reduced to the figures the prose quotes.

Why one module: notebook 04 and the lecturer's guide quote the same medians, spreads and budgets; computing them in
one place means both check their sentences against the same numbers.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from toyhw.course import evolve_tables as tables
from toyhw.evolve import variants
from toyhw.evolve.experiments import ablations
from toyhw.evolve.experiments.ablations import AblationStudy


@dataclasses.dataclass(frozen=True)
class StudyFigures:
    study: AblationStudy
    hist: dict[str, np.ndarray]
    """Per variant: the best training score so far, one row per seed, one column per proposed program."""
    final: dict[str, np.ndarray]
    """Per variant: each seed's final training score."""
    med: dict[str, float]
    """Per variant: the median final training score."""
    test: dict[str, float]
    """Per variant: the median score of the best programs on the held-out shapes."""
    share: dict[str, float]
    """Per variant: the median's share of the oracle's headroom over the expert."""
    kernel_runs: dict[str, int]
    """Per variant: the median number of kernel runs a search spent."""
    pos: dict[str, str]
    """Per variant: where its median lies against full's seed spread (tables.spread_position)."""

    median_curve: dict[str, np.ndarray]
    """Per variant: the median over the seeds of the best training score after each number of programs (computed
    once: the claims ask for it at every budget, a million times)."""

    def at(self, name: str, budget: int) -> float:
        """Return `name`'s median best score after `budget` programs."""
        return float(self.median_curve[name][budget - 1])


@functools.lru_cache(maxsize=None)
def study_figures() -> StudyFigures:
    """Return the figures of the lecture's study (computed once per test session)."""
    ctx = ablations.context()
    study = ablations.ablation_study(variants.available(), ablations.SEEDS, ablations.BUDGET)
    runs = study.runs
    final = {n: np.array([r.final for r in runs[n]]) for n in runs}
    med = {n: float(np.median(final[n])) for n in runs}
    hist = {n: study.histories(n) for n in runs}
    return StudyFigures(
        study=study,
        hist=hist,
        final=final,
        med=med,
        test={n: float(np.median([r.test for r in runs[n]])) for n in runs},
        share={n: ablations.headroom_share(med[n], ctx.oracle_train) for n in runs},
        kernel_runs={n: int(np.median([r.kernel_runs for r in runs[n]])) for n in runs},
        pos={n: tables.spread_position(study, n) for n in runs},
        median_curve={n: np.median(hist[n], axis=0) for n in runs},
    )
