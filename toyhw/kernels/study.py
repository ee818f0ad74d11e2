"""Lecture 10's experiments: one-shot kernels and iterative optimization under four feedback regimes.

Notebooks 01 and 02 and `python -m toyhw fastp` all call these functions, so a number shown anywhere is computed in one
place. Results for the built-in modes are cached per (task seed, task count, mode, rounds): a slider move re-slices
cached speedups instead of re-running the search. A student's proposer is never cached: it may read a global that
changed since (a cached row would then be stale without any sign); races name their rows by `toyhw.kernels.race`.

numpy is imported only where an array is returned: `python -m toyhw fastp` runs on plain lists and starts as quickly as
the lecture's script.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Sequence

from toyhw import metrics
from toyhw.checks import MAX_ROUND_COUNTS, check_list, check_rounds, check_seed, check_tasks, is_int
from toyhw.kernels import knobs, optimize, race
from toyhw.kernels.knobs import KernelConfig, RunFeedback, Task
from toyhw.kernels.optimize import ProposerLike
from toyhw.kernels.proposers import PROPOSERS
from toyhw.kernels.race import Competitors

if TYPE_CHECKING:
    import numpy as np

Table = dict[str, dict[int, dict[float, float]]]
"""`table[mode][rounds][p]` = fast_p: lecture 10's feedback table."""

LECTURE_TASK_SEED = 230
LECTURE_N_TASKS = 200
LECTURE_ROUNDS: tuple[int, ...] = (5, 10, 20, 50)
LECTURE_PS: tuple[float, ...] = (1.0, 1.5)
ONE_SHOT_PS: tuple[float, ...] = (0.0, 1.0, 1.5)
CURVE_ROUNDS: tuple[int, ...] = (1, 2, 3, 5, 7, 10, 15, 20, 30, 40, 50, 70, 100)
"""Round counts at which curves are drawn: dense where they move fast, sparse later (each point is its own run)."""

STATUS_ORDER = ("compile_error", "wrong", "ok")
CAUSE_LABELS = {
    "shared_memory_overflow": "shared memory overflow (tile 64 + shared)",
    "vector_width_indivisible": "vector width does not divide n",
    "illegal_fusion": "illegal fusion",
}


@dataclasses.dataclass(frozen=True)
class OneShotKernel:
    """One task's one-shot attempt.

    Attributes:
      index: task number in the benchmark.
      task: the task with its hidden traits.
      config: the config written in one shot.
      feedback: what running it reported.
      speedup: PyTorch time / kernel time, 0.0 when it failed.
    """

    index: int
    task: Task
    config: KernelConfig
    feedback: RunFeedback
    speedup: float


@dataclasses.dataclass(frozen=True)
class OneShotReport:
    """All tasks' one-shot attempts, with the shares lecture 10 prints.

    Attributes:
      task_seed: seed of the task stream.
      kernels: one OneShotKernel per task.
    """

    task_seed: int
    kernels: tuple[OneShotKernel, ...]

    @property
    def n_tasks(self) -> int:
        """Return the number of tasks."""
        return len(self.kernels)

    def status_shares(self) -> dict[str, float]:
        """Return the share of tasks per status (compile_error, wrong, ok)."""
        counts = Counter(k.feedback.status for k in self.kernels)
        return {status: counts[status] / self.n_tasks for status in STATUS_ORDER}

    def cause_counts(self) -> dict[str, int]:
        """Return how many one-shot kernels failed of each cause, in a fixed order."""
        counts = Counter(k.feedback.cause for k in self.kernels if k.feedback.cause)
        return {cause: counts[cause] for cause in CAUSE_LABELS}

    def speedups(self) -> "np.ndarray":
        """Return every task's speedup (0.0 for failures), in task order."""
        import numpy as np

        return np.array([k.speedup for k in self.kernels])

    def fast(self, ps: Sequence[float] = ONE_SHOT_PS) -> dict[float, float]:
        """Return fast_p for each p."""
        s = [k.speedup for k in self.kernels]
        return {p: metrics.fast_p(s, p) for p in ps}


def check_benchmark(task_seed: int, n_tasks: int) -> None:
    """Raise ValueError unless `task_seed` is a seed (an integer >= 0) and `n_tasks` an integer from 1 to MAX_TASKS."""
    check_seed("task_seed", task_seed)
    check_tasks("n_tasks", n_tasks)


def tasks(task_seed: int = LECTURE_TASK_SEED, n_tasks: int = LECTURE_N_TASKS) -> tuple[Task, ...]:
    """Return the benchmark's tasks (cached; tasks are immutable)."""
    check_benchmark(task_seed, n_tasks)
    return _tasks(task_seed, n_tasks)


@functools.lru_cache(maxsize=32)
def _tasks(task_seed: int, n_tasks: int) -> tuple[Task, ...]:
    return tuple(knobs.make_tasks(task_seed, n_tasks))


def one_shot(task_seed: int = LECTURE_TASK_SEED, n_tasks: int = LECTURE_N_TASKS) -> OneShotReport:
    """Return every task's one-shot kernel, task i written from Random(task_seed + 1 + i)."""
    check_benchmark(task_seed, n_tasks)
    return _one_shot(task_seed, n_tasks)


@functools.lru_cache(maxsize=32)
def _one_shot(task_seed: int, n_tasks: int) -> OneShotReport:
    kernels = []
    for i, task in enumerate(_tasks(task_seed, n_tasks)):
        config = knobs.random_config(optimize.one_shot_rng(task_seed, i))
        feedback = knobs.run_kernel(task, config)
        kernels.append(OneShotKernel(i, task, config, feedback, knobs.speedup(task, feedback)))
    return OneShotReport(task_seed, tuple(kernels))


@functools.lru_cache(maxsize=4096)
def _builtin_speedups(task_seed: int, n_tasks: int, mode: str, rounds: int) -> tuple[float, ...]:
    return tuple(optimize.speedups_after(list(_tasks(task_seed, n_tasks)), rounds, mode))


def _speedups(task_seed: int, n_tasks: int, mode: ProposerLike, rounds: int) -> tuple[float, ...]:
    """Return every task's speedup (arguments already checked): cached for a built-in mode, computed afresh for a
    student's function (it may read globals that changed since the last call)."""
    if isinstance(mode, str):
        return _builtin_speedups(task_seed, n_tasks, mode, rounds)
    return tuple(optimize.speedups_after(list(_tasks(task_seed, n_tasks)), rounds, mode))


def iterative_speedups(task_seed: int, n_tasks: int, mode: ProposerLike, rounds: int) -> "np.ndarray":
    """Return every task's speedup after `rounds` rounds of `mode` (a built-in name or a proposer function), read-only.

    Cached per (task seed, task count, mode, rounds) for the built-in modes; a proposer function runs on every call.
    """
    import numpy as np

    check_benchmark(task_seed, n_tasks)
    check_rounds("rounds", rounds)
    result = np.array(_speedups(task_seed, n_tasks, race.check_mode("mode", mode), rounds))
    result.flags.writeable = False
    return result


def check_ps(ps: Sequence[float], name: str = "ps") -> tuple[float, ...]:
    """Return the thresholds `ps` as a tuple: 1 to 100 distinct finite numbers >= 0."""
    return check_list(name, ps, metrics.check_p, 100, "threshold")


def feedback_table(
    task_seed: int = LECTURE_TASK_SEED,
    n_tasks: int = LECTURE_N_TASKS,
    modes: Competitors = tuple(PROPOSERS.available()),
    rounds: Sequence[int] = LECTURE_ROUNDS,
    ps: Sequence[float] = LECTURE_PS,
) -> Table:
    """Return fast_p per mode, round count and p: lecture 10's table (`table[mode][rounds][p]`).

    `modes` are built-in mode names and proposer functions (or a mapping {row name: either}); rows are named by
    `toyhw.kernels.race.competitors` (a student's `scalar` is the row "scalar (yours)").
    """
    check_benchmark(task_seed, n_tasks)
    named = race.competitors(modes)
    rounds = check_list("rounds", rounds, check_rounds, MAX_ROUND_COUNTS, "round count")
    ps = check_ps(ps)
    table: Table = {}
    for name, mode in named.items():
        table[name] = {}
        for r in rounds:
            s = _speedups(task_seed, n_tasks, mode, r)
            table[name][r] = {p: metrics.fast_p(s, p) for p in ps}
    return table


def fastp_curves(
    modes: Competitors,
    p: float = 1.0,
    max_rounds: int = 100,
    task_seed: int = LECTURE_TASK_SEED,
    n_tasks: int = LECTURE_N_TASKS,
) -> dict[str, tuple[list[int], list[float]]]:
    """Return, per mode, the round counts of CURVE_ROUNDS up to `max_rounds` (and `max_rounds` itself) and fast_p there.

    Modes and row names as in `feedback_table`.
    """
    check_benchmark(task_seed, n_tasks)
    named = race.competitors(modes)
    metrics.check_p("p", p)
    check_rounds("max_rounds", max_rounds)
    grid = sorted({r for r in CURVE_ROUNDS if r <= max_rounds} | {max_rounds})
    return {
        name: (grid, [metrics.fast_p(_speedups(task_seed, n_tasks, mode, r), p) for r in grid])
        for name, mode in named.items()
    }


def check_table(table: Table, ps: Sequence[float] = ()) -> list[int]:
    """Return the table's round counts; raise ValueError unless `table` is a feedback table with a cell for each p.

    Why: the observations and frames read the table by mode, round count and p; a table from another call (or an
    empty one) would otherwise fail with a bare KeyError or StopIteration far from the cause.
    """
    if not isinstance(table, Mapping) or not table:
        raise ValueError(
            f"table = {table!r} is not allowed; give a non-empty feedback table "
            "(table[mode][rounds][p], as feedback_table returns)"
        )
    rounds: list[int] = []
    for mode, row in table.items():
        if not isinstance(row, Mapping) or not row:
            raise ValueError(f"table[{mode!r}] = {row!r} is not allowed; each row maps round counts to fast_p cells")
        if not rounds:
            rounds = list(row)
        elif list(row) != rounds:
            raise ValueError(
                f"table[{mode!r}] has the round counts {list(row)}, the first row {rounds}; every row "
                "needs the same ones"
            )
        for r, cell in row.items():
            missing = [p for p in ps if not isinstance(cell, Mapping) or p not in cell]
            if missing:
                raise ValueError(
                    f"table[{mode!r}][{r!r}] has no fast_p for p = {missing[0]!r}; build the table with ps={tuple(ps)}"
                )
    return rounds


def task_kernel(index: int, task_seed: int = LECTURE_TASK_SEED, n_tasks: int = LECTURE_N_TASKS) -> OneShotKernel:
    """Return task `index`'s one-shot kernel, or raise ValueError naming the allowed range."""
    check_benchmark(task_seed, n_tasks)
    if not is_int(index) or not 0 <= index < n_tasks:
        raise ValueError(f"task = {index!r} is not allowed; tasks are numbered 0 to {n_tasks - 1}")
    return _one_shot(task_seed, n_tasks).kernels[index]


def best_possible_speedups(task_seed: int = LECTURE_TASK_SEED, n_tasks: int = LECTURE_N_TASKS) -> "np.ndarray":
    """Return each task's best speedup over all 144 configs (read-only): the ceiling no proposer can pass."""
    import numpy as np

    check_benchmark(task_seed, n_tasks)
    result = np.array(_best_possible(task_seed, n_tasks))
    result.flags.writeable = False
    return result


@functools.lru_cache(maxsize=32)
def _best_possible(task_seed: int, n_tasks: int) -> tuple[float, ...]:
    configs = [knobs.KernelConfig.of(*values) for values in itertools.product(*knobs.KNOBS.values())]
    return tuple(max(knobs.speedup(t, knobs.run_kernel(t, c)) for c in configs) for t in _tasks(task_seed, n_tasks))


def clear_caches() -> None:
    """Empty every lecture-10 cache (benchmarks start cold with it; results never depend on it)."""
    knobs.clear_runs()
    for cached in (_tasks, _one_shot, _builtin_speedups, _best_possible):
        cached.cache_clear()
