"""Solutions of notebook 08's exercises (08_appendix_cost_and_scale.ipynb): try each exercise first, then compare.

One section per exercise; each replaces that exercise's stub cell, defines the same names and imports what it uses,
so it runs on its own. The notebook's check cell (`checks.exercise_K(...)`) then says ✓. Every number these
functions return is a kernel run count: the same on any machine.
"""
# Each section imports what it uses, so that it runs on its own: imports below the top and repeated are intended.
# ruff: noqa: E402, F811

# %% Exercise 1
from typing import Sequence

import pandas as pd

from toyhw.evolve.experiments import ablations


def cascade_savings(budget: int = ablations.BUDGET, seeds: Sequence[int] = ablations.SEEDS) -> pd.DataFrame:
    """Return per seed the kernel runs of the full method and of no_cascade at `budget`, and the share saved.

    A program the cascade's first stage stops saves three quarters of its runs, but most proposals pass the first
    stage and then pay for every training shape, so the saving is well below three quarters.
    """
    rows = []
    for seed in seeds:
        full = ablations.run_one("full", seed, budget).kernel_runs
        every = ablations.run_one("no_cascade", seed, budget).kernel_runs
        rows.append({"seed": seed, "full": full, "no_cascade": every, "saved": 1 - full / every})
    return pd.DataFrame(rows).set_index("seed")


# %% Exercise 2
import concurrent.futures
from typing import Sequence

from toyhw.evolve.experiments import ablations, sweep


def serial_and_parallel_agree(
    names: Sequence[str] = ("full", "small_llm"), seeds: Sequence[int] = (0, 1), budget: int = 100, workers: int = 2
) -> dict[str, object]:
    """Return what a grid gives run serially and on `workers` local processes: kernel runs, and whether all agree.

    Only machine-independent results: the runs' histories, best programs and kernel runs (never seconds). Each
    serial run is a fresh one (`ablations.run_fresh`), not a cached result, so both settings really compute.
    """
    jobs = sweep.grid(names, seeds, [budget])
    serial = [ablations.run_fresh(j.variant, j.seed, j.budget) for j in jobs]
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        parallel = sweep.run_grid(jobs, executor=pool)
    same = all(
        a.history == b.history and a.best == b.best and a.kernel_runs == b.kernel_runs for a, b in zip(serial, parallel)
    )
    return {
        "runs": len(jobs),
        "kernel runs, serial": sum(r.kernel_runs for r in serial),
        "kernel runs, parallel": sum(r.kernel_runs for r in parallel),
        "identical": same,
    }
