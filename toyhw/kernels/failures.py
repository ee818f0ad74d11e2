"""Why kernels fail and what fixes them: what the first-cause breakdown hides, why random repairs are slow, and
which tasks a search misses (notebooks 01 and 02).

`run_kernel` reports one failure cause, the first it meets; these functions ask the model itself about every rule a
kernel breaks, the exact chance that one random knob change repairs it, and where a mode leaves tasks behind.
"""

from __future__ import annotations

import dataclasses
import functools

from toyhw.kernels import knobs, optimize
from toyhw.kernels.knobs import KernelConfig, Task
from toyhw.kernels.proposers import PROPOSERS
from toyhw.kernels.study import CAUSE_LABELS, LECTURE_N_TASKS, LECTURE_TASK_SEED, best_possible_speedups, tasks


def without_choice(config: KernelConfig, cause: str) -> KernelConfig:
    """Return `config` without the risky choice behind failure `cause` (everything else unchanged).

    shared_memory_overflow: a 64 tile no longer staged through shared memory (shared = 0);
    vector_width_indivisible: scalar loads and stores (vec = 1); illegal_fusion: no fusion (fuse = 0).
    """
    if cause == "shared_memory_overflow":
        return config.replace(shared=0) if config.tile == 64 else config
    if cause == "vector_width_indivisible":
        return config.replace(vec=1)
    if cause == "illegal_fusion":
        return config.replace(fuse=0)
    raise ValueError(f"cause = {cause!r} is not a failure cause; causes: {', '.join(CAUSE_LABELS)}")


def broken_rules(task: Task, config: KernelConfig) -> tuple[str, ...]:
    """Return every rule `config` breaks on `task`, in the order `run_kernel` checks them (empty when it runs).

    `run_kernel` reports only the first failure; here each rule is tested alone, by running the config with the
    other two risky choices removed, so the answer comes from the model itself.
    """
    broken = []
    for cause in CAUSE_LABELS:
        alone = config
        for other in CAUSE_LABELS:
            if other != cause:
                alone = without_choice(alone, other)
        if knobs.run_kernel(task, alone).cause == cause:
            broken.append(cause)
    return tuple(broken)


def one_knob_repair_chance(task: Task, config: KernelConfig) -> float:
    """Return the chance that `knobs.mutate` (a random knob set to a random other value) gives a correct kernel.

    Exact: every knob is equally likely, then every other value of that knob; this is what `scalar` does to a
    failed kernel in one round.
    """
    chance = 0.0
    for knob, values in knobs.KNOBS.items():
        others = [v for v in values if v != getattr(config, knob)]
        ok = sum(knobs.run_kernel(task, config.replace(**{knob: v})).ok for v in others)
        chance += ok / len(others) / len(knobs.KNOBS)
    return chance


@functools.lru_cache(maxsize=256)
def failed_round_share(
    mode: str, rounds: int, task_seed: int = LECTURE_TASK_SEED, n_tasks: int = LECTURE_N_TASKS
) -> float:
    """Return the share of all rounds (over every task) whose kernel failed, for a built-in mode on the table's streams."""
    optimize.check_rounds(rounds)
    PROPOSERS.get(mode)
    failed = sum(
        optimize.optimize(t, rounds, mode, optimize.optimization_rng(i, rounds)).n_failed
        for i, t in enumerate(tasks(task_seed, n_tasks))
    )
    return failed / (rounds * n_tasks)


@dataclasses.dataclass(frozen=True)
class Miss:
    """A task whose best possible kernel clears the bar but whose search did not.

    Attributes:
      index: task number; best_config: the fastest correct config the search found (None if none);
      bottleneck: what the profiler says about that config ("memory", "compute", or None);
      speedup: its speedup; best_possible: the task's best speedup over all 144 configs.
    """

    index: int
    best_config: KernelConfig | None
    bottleneck: str | None
    speedup: float
    best_possible: float


def misses(
    mode: str, rounds: int, p: float, task_seed: int = LECTURE_TASK_SEED, n_tasks: int = LECTURE_N_TASKS
) -> tuple[Miss, ...]:
    """Return the tasks that some config speeds up by more than `p` but `mode` does not after `rounds` rounds."""
    optimize.check_rounds(rounds)
    ceiling = best_possible_speedups(task_seed, n_tasks)
    found = []
    for i, task in enumerate(tasks(task_seed, n_tasks)):
        if ceiling[i] <= p:
            continue
        result = optimize.optimize(task, rounds, mode, optimize.optimization_rng(i, rounds))
        if result.speedup > p:
            continue
        config = result.best_config
        bottleneck = knobs.run_kernel(task, config).bottleneck if config is not None else None
        found.append(Miss(i, config, bottleneck, result.speedup, float(ceiling[i])))
    return tuple(found)
