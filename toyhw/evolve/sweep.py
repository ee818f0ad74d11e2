"""Sweeps: run a grid of (variant, seed, budget) evolution jobs through any `concurrent.futures.Executor`.

Why an Executor: the same grid runs serially in this process, on local processes (the default), or on a cluster —
Dask's `Client.get_executor()` and Ray's executors implement the same interface. Each job is a pure function of
(variant, seed, budget), so the results are identical however they are scheduled; they come back in job order.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import sys
import time
from typing import Callable, Iterable, Optional, Sequence

from toyhw.evolve import ablations
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.ablations import AblationStudy, RunSummary
from toyhw.evolve.loop import check_budget

Progress = Callable[[int, int], None]
"""Called as progress(done, total) after each finished job."""


@dataclasses.dataclass(frozen=True, order=True)
class Job:
    """One evolution run.

    Attributes:
      variant: a name of toyhw.evolve.variants.
      seed: the run's seed.
      budget: proposed programs.
    """

    variant: str
    seed: int
    budget: int


def grid(variants: Iterable[str], seeds: Iterable[int], budgets: Iterable[int]) -> list[Job]:
    """Return every (variant, seed, budget) combination, validated before anything runs."""
    jobs = [Job(v, s, b) for v in variants for s in seeds for b in budgets]
    for job in jobs:
        check(job)
    return jobs


def check(job: Job) -> None:
    """Raise KeyError for an unknown variant or ValueError for a budget below 1, naming the value."""
    variants_lib.get(job.variant)
    check_budget(job.budget)


def run_job(job: Job) -> RunSummary:
    """Return the run of one job (a top-level function, so process pools and Dask can ship it)."""
    return ablations.run_one(job.variant, job.seed, job.budget)


def default_workers() -> int:
    """Return the number of local processes to use: the CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_grid(jobs: Sequence[Job], executor: Optional[concurrent.futures.Executor] = None,
             workers: Optional[int] = None, progress: Optional[Progress] = None) -> list[RunSummary]:
    """Return the results of `jobs`, in job order.

    With `executor` given, jobs are submitted to it (it is not shut down here). Otherwise `workers` local processes
    run them (default: one per CPU); `workers=1` runs them serially in this process, where results are cached.
    """
    for job in jobs:
        check(job)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers = {workers!r} is not allowed; it must be an integer >= 1")
    total, done = len(jobs), 0
    if executor is None and (total <= 1 or (workers or default_workers()) == 1):
        results = []
        for job in jobs:
            results.append(run_job(job))
            done += 1
            progress and progress(done, total)
        return results
    own = executor is None
    pool = executor or concurrent.futures.ProcessPoolExecutor(max_workers=min(workers or default_workers(), total))
    try:
        futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        results: list[Optional[RunSummary]] = [None] * total
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()
            done += 1
            progress and progress(done, total)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return results  # type: ignore[return-value]


def study(variants: Sequence[str] = variants_lib.SEED_VARIANTS, seeds: Sequence[int] = ablations.SEEDS,
          budget: int = ablations.BUDGET, executor: Optional[concurrent.futures.Executor] = None,
          workers: Optional[int] = 1, progress: Optional[Progress] = None) -> AblationStudy:
    """Return the ablation study of `variants` x `seeds` at `budget`, its runs spread as `run_grid` spreads them.

    Identical to `ablations.ablation_study` (which runs serially and caches in this process) whatever the executor.
    """
    jobs = grid(variants, seeds, [budget])
    results = iter(run_grid(jobs, executor, workers, progress))
    ctx = ablations.context()
    runs = {name: tuple(next(results) for _ in seeds) for name in variants}
    return AblationStudy(budget, tuple(seeds), runs, ctx.oracle_train, ctx.oracle_test)


def terminal_progress(label: str = "runs") -> Progress:
    """Return a progress callback that redraws one line on stderr: '[####....] 12/45 runs, 3.1 s'."""
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        filled = round(30 * done / total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {label}, "
                         f"{time.perf_counter() - start:.1f} s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show
