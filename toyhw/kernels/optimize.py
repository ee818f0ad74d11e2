"""The iterative optimization loop of lecture 10: run, read feedback, propose, repeat for a fixed number of rounds.

The loop keeps the fastest correct config. After a successful run it builds on the best config so far; after a
failure it builds on the failed config, so that an informed proposer can repair it. The random stream is consumed
exactly as in the seed script (the first config, then whatever the proposer draws), which makes the table reproducible.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping
from typing import Optional, Union

from toyhw import checks
from toyhw.kernels import knobs
from toyhw.kernels.knobs import KernelConfig, RunFeedback, Task
from toyhw.kernels.proposers import PROPOSERS, Proposer

ProposerLike = Union[str, Proposer]


class ProposerError(RuntimeError):
    """A proposer raised or returned something that is not a valid config.

    Attributes:
      proposer: the proposer's display name; round_index: the round (from 1) it failed in;
      kind: "raised" (its code raised: the error is `__cause__`), "invalid" (it returned a mapping that is not a
      config: the config's error is `__cause__`) or "returned" (it returned something else);
      returned: what it returned (None when it raised).
    """

    def __init__(
        self, message: str, *, proposer: str = "", round_index: int = 0, kind: str = "raised", returned: object = None
    ) -> None:
        super().__init__(message)
        self.proposer, self.round_index, self.kind, self.returned = proposer, round_index, kind, returned

    def __reduce__(self):  # a worker process's error keeps its fields when it is sent back
        return (type(self), (str(self),), self.__dict__)


@dataclasses.dataclass(frozen=True)
class OptimizeResult:
    """The outcome of optimizing one task.

    Attributes:
      speedup: PyTorch time / best correct kernel time, 0.0 if no round produced a correct kernel.
      best_config: the fastest correct config found, None if none.
      n_failed: how many of the rounds ran a config that failed (compile error or wrong result).
    """

    speedup: float
    best_config: Optional[KernelConfig]
    n_failed: int


def resolve_proposer(proposer: ProposerLike) -> tuple[str, Proposer]:
    """Return (display name, function) for a built-in mode name or a student's proposer function."""
    if isinstance(proposer, str):
        return proposer, PROPOSERS.get(proposer)
    if not callable(proposer):
        raise ValueError(f"proposer = {proposer!r} is neither a mode name ({', '.join(PROPOSERS)}) nor a function")
    return getattr(proposer, "__name__", repr(proposer)), proposer


def check_rounds(rounds: int) -> int:
    """Return `rounds` if it is an integer from 1 to MAX_ROUNDS, else raise ValueError naming it."""
    return checks.check_rounds("rounds", rounds)


def _as_config(value: object, name: str, round_index: int) -> KernelConfig:
    """Return `value` as a KernelConfig, or raise ProposerError saying what the proposer returned instead."""
    if isinstance(value, KernelConfig):
        return value
    if isinstance(value, Mapping):
        try:
            return KernelConfig(**value)
        except (TypeError, ValueError) as err:
            raise ProposerError(
                f"proposer {name!r} returned an invalid config in round {round_index}: {err}",
                proposer=name,
                round_index=round_index,
                kind="invalid",
                returned=value,
            ) from err
    raise ProposerError(
        f"proposer {name!r} returned {value!r} in round {round_index}; it must return a KernelConfig "
        f"(for example config.replace(tile=16)) with knobs {dict(knobs.KNOBS)}",
        proposer=name,
        round_index=round_index,
        kind="returned",
        returned=value,
    )


def optimize(task: Task, rounds: int, proposer: ProposerLike, rng: random.Random) -> OptimizeResult:
    """Return the best kernel found for `task` in `rounds` runs, each next config chosen by `proposer`."""
    check_rounds(rounds)
    if not isinstance(task, Task):
        raise ValueError(f"task = {task!r} is not allowed; give a Task (e.g. study.tasks()[0])")
    if not isinstance(rng, random.Random):
        raise ValueError(f"rng = {rng!r} is not allowed; give a random.Random (e.g. random.Random(0))")
    return OptimizeResult(*_optimize(task, rounds, *resolve_proposer(proposer), rng))


def _optimize(
    task: Task, rounds: int, name: str, propose: Proposer, rng: random.Random
) -> tuple[float, Optional[KernelConfig], int]:
    """Return `optimize`'s (speedup, best config, failed rounds), its arguments already checked (a benchmark checks
    them once, not once per task)."""
    run = _run_uncached
    runs = knobs.task_runs(task)  # by config number: a config tried again is not run again
    best_config: Optional[KernelConfig] = None
    best_feedback: Optional[RunFeedback] = None
    best_time = math.inf
    n_failed = 0
    config = knobs.random_config(rng)
    for round_index in range(1, rounds + 1):
        feedback = runs[config._index]  # type: ignore[attr-defined]
        if feedback is None:
            feedback = runs[config._index] = run(task, config)  # type: ignore[attr-defined]
        if feedback.status == "ok":
            if feedback.time < best_time:  # type: ignore[operator]  # an ok run has a time
                best_config, best_feedback, best_time = config, feedback, feedback.time  # type: ignore[assignment]
            base, base_feedback = best_config, best_feedback  # after a success, build on the best so far
        else:
            n_failed += 1
            base, base_feedback = config, feedback  # after a failure, on the failed config (to repair it)
        try:
            proposed = propose(base_feedback, base, rng)
        except Exception as err:  # a student's proposer: say whose code failed, and where
            raise ProposerError(
                f"proposer {name!r} raised {type(err).__name__}: {err} (round {round_index}, config {base})",
                proposer=name,
                round_index=round_index,
                kind="raised",
            ) from err
        config = proposed if type(proposed) is KernelConfig else _as_config(proposed, name, round_index)
    speedup = knobs.baseline_time(task) / best_time if best_config is not None else 0.0
    return speedup, best_config, n_failed


_run_uncached = knobs.run_kernel.__wrapped__
"""`run_kernel` without its cache: `optimize` keeps each task's runs in `knobs.task_runs` (the same numbers)."""


def optimization_rng(task_index: int, rounds: int) -> random.Random:
    """Return the seed script's stream for task `task_index` optimized for `rounds` rounds: Random(1000 r + i).

    Note: the scheme repeats streams once a benchmark has 1000 tasks or more (r=5, i=1000 is r=6, i=0); it is kept
    because the lecture's numbers depend on it.
    """
    return random.Random(1000 * rounds + task_index)


def one_shot_rng(task_seed: int, task_index: int) -> random.Random:
    """Return the seed script's stream for task `task_index`'s one-shot kernel: Random(task_seed + 1 + i)."""
    return random.Random(task_seed + 1 + task_index)


def speedups_after(tasks: list[Task], rounds: int, proposer: ProposerLike) -> list[float]:
    """Return every task's speedup after `rounds` rounds of `proposer`, each task on its own seeded stream."""
    check_rounds(rounds)
    name, propose = resolve_proposer(proposer)
    return [_optimize(t, rounds, name, propose, optimization_rng(i, rounds))[0] for i, t in enumerate(tasks)]
