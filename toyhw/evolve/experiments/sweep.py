"""Sweeps: run a grid of (variant, seed, budget) evolution jobs through any `concurrent.futures.Executor`.

Why its own Ctrl-C handling: ProcessPoolExecutor, interrupted, waits for its running jobs and lets every worker print
a KeyboardInterrupt traceback; here the workers ignore Ctrl-C and the pool is stopped at once (`_stop`).

Why an Executor: the same grid runs serially in this process, on local processes (the default), or on a cluster —
Dask's `Client.get_executor()` and Ray's executors implement the same interface. Each job is a pure function of
(variant, seed, budget), so the results are identical however they are scheduled; they come back in job order.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import signal
import threading
from typing import Callable, Iterable, Iterator, Optional, Sequence

from toyhw import checks
from toyhw.machine import cpus
from toyhw.evolve.experiments import ablations
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.experiments.ablations import AblationStudy, RunSummary

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
    """Return every (variant, seed, budget) combination, validated before anything runs (each list non-empty and
    without repeats, each value allowed)."""
    variants = variants_lib.check_variants("variants", variants)
    seeds = checks.check_seeds("seeds", seeds)
    budgets = checks.check_list("budgets", budgets, checks.check_budget, checks.MAX_SEEDS, "budget")
    return [Job(v, s, b) for v in variants for s in seeds for b in budgets]


def check(job: Job) -> None:
    """Raise UnknownNameError for an unknown variant, or ValueError for a seed or budget not allowed, naming it."""
    if not isinstance(job, Job):
        raise ValueError(f"job = {job!r} is not allowed; give sweep.Job(variant, seed, budget) (see sweep.grid)")
    ablations.check_run(job.variant, job.seed, job.budget)


def run_job(job: Job) -> RunSummary:
    """Return the run of one job (a top-level function, so process pools and Dask can ship it)."""
    return ablations.run_one(job.variant, job.seed, job.budget)


def default_workers() -> int:
    """Return the number of local processes to use: the CPUs this process may use (its affinity and its cgroup's CPU
    quota, so a hub user granted 1 CPU runs serially), or TOYHW_WORKERS where set (toyhw.machine.cpus)."""
    return cpus.available(most=checks.MAX_WORKERS)


def run_grid(
    jobs: Sequence[Job],
    executor: Optional[concurrent.futures.Executor] = None,
    workers: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> list[RunSummary]:
    """Return the results of `jobs`, in job order.

    With `executor` given, jobs are submitted to it (it is not shut down here). Otherwise `workers` local processes
    run them (default: one per CPU this process may use, `default_workers`); `workers=1` runs them serially in this process, where results are cached.
    """
    if isinstance(jobs, (str, bytes)) or not isinstance(jobs, Sequence):
        raise ValueError(f"jobs = {jobs!r} is not allowed; give a list of sweep.Job (see sweep.grid)")
    for job in jobs:
        check(job)
    if workers is not None:
        checks.check_int("workers", workers, 1, checks.MAX_WORKERS, "MAX_WORKERS")
    total, done = len(jobs), 0
    if executor is None and (total <= 1 or (workers or default_workers()) == 1):
        results = []
        for job in jobs:
            results.append(run_job(job))
            done += 1
            progress and progress(done, total)
        return results
    own = executor is None
    pool = executor or concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers or default_workers(), total), initializer=_ignore_interrupts
    )
    try:
        with _ctrl_c_held():  # the first submit forks the workers
            futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        results: list[Optional[RunSummary]] = [None] * total
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()
            done += 1
            progress and progress(done, total)
    except KeyboardInterrupt:
        if own:
            _stop(pool)
        raise
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return results  # type: ignore[return-value]


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while the block runs; if it came, act on it (KeyboardInterrupt) when the block ends.

    Why: the first submit forks the workers. A KeyboardInterrupt raised inside a fork handler (logging's runs in the
    parent) is reported as "Exception ignored" and dropped, so the sweep ran on; one raised between forking a worker
    and the pool recording it leaves that worker running after the sweep has stopped, computing for hours and holding
    the terminal. Blocking SIGINT in this thread is not enough: the kernel then delivers it to another thread (the
    progress bar's monitor), and Python still raises it here. So for the block's duration SIGINT's handler only notes
    that it came; the previous handler is put back and called once everything forked is recorded, inside run_grid's
    handler, which stops the workers. Python's signal handlers belong to the main thread; elsewhere, or when the handler
    was installed outside Python (so it could not be put back), this does nothing.
    """
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
        yield
        return
    came: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if came and callable(previous):
        previous(signal.SIGINT, None)
    elif came and previous == signal.SIG_DFL:
        signal.raise_signal(signal.SIGINT)


def _ignore_interrupts() -> None:
    """Let a worker process ignore Ctrl-C: the parent stops the sweep (and the workers) with one clean message,
    instead of every worker printing its own KeyboardInterrupt traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Cancel the pending jobs and end the running workers at once (they ignore Ctrl-C and would finish their job)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # before 3.14: the pool's own table
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def ablation_study(
    variants: Sequence[str] = variants_lib.LECTURE_VARIANTS,
    seeds: Sequence[int] = ablations.SEEDS,
    budget: int = ablations.BUDGET,
    executor: Optional[concurrent.futures.Executor] = None,
    workers: Optional[int] = 1,
    progress: Optional[Progress] = None,
) -> AblationStudy:
    """Return the ablation study of `variants` x `seeds` at `budget`, its runs spread as `run_grid` spreads them.

    Identical to `ablations.ablation_study` (which runs serially and caches in this process) whatever the executor.
    """

    def runner(jobs: list[tuple[str, int, int]]) -> list[RunSummary]:
        return run_grid([Job(*job) for job in jobs], executor, workers, progress)

    return ablations.ablation_study(variants, seeds, budget, runner)


def terminal_progress(label: str = "runs") -> "TqdmProgress":
    """Return a progress callback drawing a tqdm bar ('evolution runs: 40%|####   | 22/55 [00:01<00:02]'): on stderr
    in a terminal, as a widget in a notebook (tqdm.auto decides). Call its `close()` when the work stops early."""
    return TqdmProgress(label)


class TqdmProgress:
    """A `Progress` callback backed by a tqdm.auto bar, created on the first call (when the total is known)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm.auto import tqdm  # imported only when a bar is drawn: tqdm costs start-up time

            self.bar = tqdm(total=total, desc=self.label, unit="run")
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        """End the bar's line (after an interruption, the next message then starts on its own line)."""
        if self.bar is not None:
            self.bar.close()
