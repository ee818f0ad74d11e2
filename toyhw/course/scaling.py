"""How the cost of the mini AlphaEvolve grows with budget, seeds, variants and worker processes (measured).

Two costs are reported: wall time, which depends on the machine and its load, and kernel runs (how many times the
evaluator timed a config on a shape), which is the simulation's own deterministic cost measure — the analogue of the
GPU hours a real AlphaEvolve spends. Runs here bypass the in-process caches, so every point is really computed.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import time
from typing import Sequence

from toyhw.evolve.experiments import ablations, sweep
from toyhw.i18n import t

_run_uncached = ablations.run_fresh  # the cache would turn a repeated measurement into a lookup


@dataclasses.dataclass(frozen=True)
class CostPoint:
    """The cost of one measured setting.

    Attributes:
      x: the value varied (budget, seeds, variants or workers).
      seconds: wall time of the whole setting, s.
      kernel_runs: kernel runs spent in all its runs (the same on any machine).
      runs: evolution runs in the setting.
      label: what the point stands for when x alone does not say it (the variant `variant_costs` added); plots
        name the point by it instead of by x.
    """

    x: int
    seconds: float
    kernel_runs: int
    runs: int
    label: str = ""


def _serial(jobs: Sequence[sweep.Job], x: int, label: str = "") -> CostPoint:
    start = time.perf_counter()
    results = [_run_uncached(j.variant, j.seed, j.budget) for j in jobs]
    return CostPoint(x, time.perf_counter() - start, sum(r.kernel_runs for r in results), len(jobs), label)


def budget_costs(budgets: Sequence[int], variant: str = "full", seed: int = 0) -> list[CostPoint]:
    """Return the cost of one run of `variant` at each budget (proposed programs)."""
    ablations.context()  # build the time table first: it is a one-off cost, not the run's
    return [_serial(sweep.grid([variant], [seed], [b]), b) for b in budgets]


def seed_costs(n_seeds: Sequence[int], variants: Sequence[str], budget: int) -> list[CostPoint]:
    """Return the cost of `variants` x the first n seeds at `budget`, for each n."""
    ablations.context()
    return [_serial(sweep.grid(variants, range(n), [budget]), n) for n in n_seeds]


def variant_costs(variants: Sequence[str], seeds: Sequence[int], budget: int) -> list[CostPoint]:
    """Return the cost of the first k variants x `seeds` at `budget`, for k = 1 .. len(variants), each point labelled
    with the variant it adds."""
    ablations.context()
    return [_serial(sweep.grid(variants[:k], seeds, [budget]), k, variants[k - 1]) for k in range(1, len(variants) + 1)]


def worker_costs(workers: Sequence[int], variants: Sequence[str], seeds: Sequence[int], budget: int) -> list[CostPoint]:
    """Return the cost of one grid on fresh local processes (spawned: no cache, start-up included), per worker count."""
    jobs = sweep.grid(variants, seeds, [budget])
    points = []
    for n in workers:
        start = time.perf_counter()
        with concurrent.futures.ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn")) as pool:
            results = sweep.run_grid(jobs, executor=pool)
        points.append(CostPoint(n, time.perf_counter() - start, sum(r.kernel_runs for r in results), len(jobs)))
    return points


def increments(points: Sequence[CostPoint]) -> list[int]:
    """Return the kernel runs each step added (the first point's own, then the differences)."""
    runs = [p.kernel_runs for p in points]
    return [b - a for a, b in zip([0] + runs, runs)]


def parallel_note(points: Sequence[CostPoint]) -> str:
    """Return one sentence on what the measured worker counts gained, as measured (first point = the baseline)."""
    base = points[0]
    parts = [t("scaling.speed", n=p.x, speed=f"{base.seconds / p.seconds:.2f}", base=base.x) for p in points[1:]]
    best = max(points, key=lambda p: base.seconds / p.seconds)
    if best is base or base.seconds / best.seconds < 1.2:
        verdict = t("scaling.no_gain")
    else:
        verdict = t("scaling.paid_off", n=best.x)
    return t("scaling.note", parts=t("scaling.separator").join(parts), verdict=verdict)


def budget_line(point: CostPoint) -> str:
    """Return one point of `budget_costs` as a line: the budget, its kernel runs and the runs per proposed program."""
    return t("nb08.budget", budget=point.x, runs=point.kernel_runs, per=point.kernel_runs / point.x)


def worker_line(point: CostPoint) -> str:
    """Return one point of `worker_costs` as a line: the worker processes, the wall time, the runs and kernel runs."""
    return t("nb08.workers", workers=point.x, seconds=point.seconds, runs=point.runs, kernel_runs=point.kernel_runs)
