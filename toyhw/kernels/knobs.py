"""The lecture-10 toy kernel: five knobs, hidden task traits, and a run that explains itself.

A "task" is one kernel to write. The agent sees only what `run_kernel` reports; the task's traits (how memory-bound it
is, its best tile, its problem size, whether its ops may be fused) stay hidden, as a real GPU's behaviour is hidden
behind measurements. The numbers follow lecture 10's script (seed 000) exactly, including the order in which random
numbers are drawn, so that toyhw reproduces its table digit for digit.

Where the toy differs from a real GPU: the cost is a two-term blend (compute and memory weighted by the task's
memory-boundness) instead of a roofline, and each failure has exactly one cause.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from typing import Literal, Optional

from toyhw.checks import check_seed, check_tasks

Status = Literal["ok", "compile_error", "wrong"]
Cause = Literal["shared_memory_overflow", "vector_width_indivisible", "illegal_fusion"]
Bottleneck = Literal["memory", "compute"]

KNOBS: dict[str, tuple[int, ...]] = {
    "tile": (8, 16, 32, 64),
    "fuse": (0, 1),
    "vec": (1, 2, 4),
    "shared": (0, 1),
    "unroll": (1, 2, 4),
}
"""Each knob and its allowed values, in the order the mutation draws them (part of the seed's random stream)."""

PROBLEM_SIZES: tuple[int, ...] = (1024, 1000, 1002, 1003, 4096)
"""Hidden problem sizes n; a vector width that does not divide n reads past the end and gives wrong results."""

BASELINE_FACTOR = 0.9
"""PyTorch's time is the default config's time x 0.9: the library kernel is already well tuned."""


@dataclasses.dataclass(frozen=True)
class KernelConfig:
    """One setting of the five knobs.

    Attributes:
      tile: block tile size (elements per side), one of 8, 16, 32, 64.
      fuse: 1 fuses the neighbouring ops into one kernel (one fewer round trip to DRAM).
      vec: vector width of loads and stores (elements), 1, 2 or 4.
      shared: 1 stages tiles through shared memory.
      unroll: inner-loop unroll factor, 1, 2 or 4.
    """

    tile: int = 32
    fuse: int = 0
    vec: int = 1
    shared: int = 0
    unroll: int = 1

    def __post_init__(self) -> None:
        index = 0
        for knob, allowed in KNOBS.items():
            value = getattr(self, knob)
            if type(value) is not int or value not in allowed:  # bool is not a knob value
                raise ValueError(f"knob {knob!r} = {value!r} is not allowed; allowed values: {allowed}")
            index = index * len(allowed) + allowed.index(value)
        object.__setattr__(self, "_index", index)  # 0..143, in itertools.product order: the config's number

    def __hash__(self) -> int:
        return self._index  # type: ignore[attr-defined]  # equal configs have equal numbers; hashed per round

    @classmethod
    def of(cls, tile: int, fuse: int, vec: int, shared: int, unroll: int) -> "KernelConfig":
        """Return the config with these knob values; the 144 valid configs are built once and shared (fast path)."""
        config = _INTERNED.get((tile, fuse, vec, shared, unroll))
        if (
            config is None
            or type(tile) is not int
            or type(fuse) is not int
            or type(vec) is not int
            or type(shared) is not int
            or type(unroll) is not int
        ):  # True == 1 as a key; refuse it like init
            return cls(tile, fuse, vec, shared, unroll)
        return config

    def replace(self, **changes: int) -> "KernelConfig":
        """Return a copy with some knobs changed (validated like any config)."""
        values = {"tile": self.tile, "fuse": self.fuse, "vec": self.vec, "shared": self.shared, "unroll": self.unroll}
        for knob, value in changes.items():
            if knob not in values:
                raise ValueError(f"knob = {knob!r} is not a knob; knobs: {', '.join(KNOBS)}")
            values[knob] = value
        return KernelConfig.of(**values)

    def as_dict(self) -> dict[str, int]:
        """Return the knobs as a plain dict (for tables and JSON)."""
        return dataclasses.asdict(self)


# The optimization loop builds configs hundreds of thousands of times; validating each of the 144 once is enough.
_INTERNED: dict[tuple[int, ...], KernelConfig] = {v: KernelConfig(*v) for v in itertools.product(*KNOBS.values())}

_KNOB_NAMES = list(KNOBS)
_MOVES: list[dict[str, tuple[KernelConfig, ...]]] = [
    {
        knob: tuple(_INTERNED[key[:i] + (v,) + key[i + 1 :]] for v in allowed if v != key[i])
        for i, (knob, allowed) in enumerate(KNOBS.items())
    }
    for key in _INTERNED
]
"""For config number i and a knob: the configs with that knob set to each of its other values, in KNOBS order (so a
mutation is one draw from it, the same draw as from [v for v in KNOBS[knob] if v != current])."""

DEFAULT = KernelConfig()
"""What PyTorch's library kernel corresponds to: tile 32, nothing else switched on."""


@dataclasses.dataclass(frozen=True)
class Task:
    """A kernel to optimize, with traits the agent cannot see.

    Attributes:
      memory_bound: share of the time that is memory traffic at the reference config (0..1); high values reward
        fusion, vectorization and shared memory, low values reward tile and unroll.
      best_tile: the tile size with the least compute overhead, 16 or 32.
      n: problem size; a vector width must divide it.
      fusable: whether fusing the neighbouring ops is legal (else an intermediate result must be stored).
    """

    memory_bound: float
    best_tile: int
    n: int
    fusable: bool

    def __post_init__(self) -> None:
        # the value the dataclass's own __hash__ would give, computed once: the loop looks each task's runs up by it
        object.__setattr__(self, "_hash", hash((self.memory_bound, self.best_tile, self.n, self.fusable)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]


@dataclasses.dataclass(frozen=True, init=False, slots=True)
class RunFeedback:
    """What one run of a kernel reports: the feedback record every proposer reads.

    Attributes:
      status: "ok", "compile_error" (does not build or launch) or "wrong" (runs, wrong results).
      time: run time in units of the reference kernel's time, None unless status is "ok".
      message: a human explanation of a failure (what an execution log or compiler says), None when ok.
      cause: the machine-readable failure cause that informed proposers act on, None when ok.
      failing_n: for "vector_width_indivisible", the problem size the wrong result showed on.
      bottleneck: "memory" or "compute" for a successful run (what a profiler would say), else None.
    """

    status: Status
    time: Optional[float] = None
    message: Optional[str] = None
    cause: Optional[Cause] = None
    failing_n: Optional[int] = None
    bottleneck: Optional[Bottleneck] = None

    def __init__(
        self,
        status: Status,
        time: Optional[float] = None,
        message: Optional[str] = None,
        cause: Optional[Cause] = None,
        failing_n: Optional[int] = None,
        bottleneck: Optional[Bottleneck] = None,
    ) -> None:
        # written out with the slots' own setters (the dataclass's __init__ goes through object.__setattr__ for each
        # field, twice as slow): one record per kernel run, tens of thousands per table; slots make them small
        set_status, set_time, set_message, set_cause, set_failing_n, set_bottleneck = _FEEDBACK_SETTERS
        set_status(self, status)
        set_time(self, time)
        set_message(self, message)
        set_cause(self, cause)
        set_failing_n(self, failing_n)
        set_bottleneck(self, bottleneck)

    @property
    def ok(self) -> bool:
        """Return True when the kernel built, ran and gave correct results."""
        return self.status == "ok"


_FEEDBACK_SETTERS = tuple(getattr(RunFeedback, f.name).__set__ for f in dataclasses.fields(RunFeedback))


def make_task(rng: random.Random) -> Task:
    """Return a task drawn from `rng` (four draws, in the seed's order)."""
    memory_bound = rng.random()
    best_tile = rng.choice((16, 32))
    n = rng.choice(PROBLEM_SIZES)
    fusable = rng.random() < 0.7
    return Task(memory_bound, best_tile, n, fusable)


def make_tasks(seed: int, n_tasks: int) -> list[Task]:
    """Return the benchmark: `n_tasks` tasks drawn in turn from `random.Random(seed)` (seed: an integer >= 0)."""
    check_seed("seed", seed)
    check_tasks("n_tasks", n_tasks)
    rng = random.Random(seed)
    return [make_task(rng) for _ in range(n_tasks)]


@functools.lru_cache(maxsize=1 << 18)
def run_kernel(task: Task, config: KernelConfig) -> RunFeedback:
    """Return the feedback of running `config` on `task`: a failure with its cause, or a time and bottleneck.

    Cached: a run is a pure function of (task, config) and the loops ask for the same pairs again and again.

    Failures are checked in the order a developer meets them: the build (shared memory), then the tests (a
    size the vector width does not divide, an illegal fusion).
    """
    if config.tile == 64 and config.shared:
        return RunFeedback(
            "compile_error",
            message="shared memory exceeded: a tile of 64 needs more shared memory per block than the SM has",
            cause="shared_memory_overflow",
        )
    if task.n % config.vec:
        return RunFeedback(
            "wrong",
            message=f"wrong result on the input of size n = {task.n} ({task.n} is not divisible by the "
            f"vector width {config.vec})",
            cause="vector_width_indivisible",
            failing_n=task.n,
        )
    if config.fuse and not task.fusable:
        return RunFeedback(
            "wrong",
            message="wrong result after fusion (an intermediate result must be stored separately)",
            cause="illegal_fusion",
        )
    compute = 1 + 0.15 * abs(math.log2(config.tile / task.best_tile))
    compute *= 1 - 0.08 * math.log2(config.unroll)
    if config.tile == 64 and config.unroll == 4:
        compute *= 1.25  # register pressure: a big tile fully unrolled spills
    memory = 1.0
    if config.fuse:
        memory *= 0.55
    if config.shared and config.tile >= 16:
        memory *= 0.7
    memory *= 1 - 0.15 * math.log2(config.vec)
    m = task.memory_bound
    time = (1 - m) * compute + m * memory
    bottleneck: Bottleneck = "memory" if m * memory > (1 - m) * compute else "compute"
    return RunFeedback("ok", time=time, bottleneck=bottleneck)


KEPT_TASKS = 1024
"""Tasks whose runs `task_runs` keeps (the oldest task's are dropped first): a benchmark of that size revisits every
task from the cache; the memory stays below a few tens of MB whatever the number of tasks."""
_TASK_RUNS: dict[Task, list[Optional[RunFeedback]]] = {}


def task_runs(task: Task) -> list[Optional[RunFeedback]]:
    """Return the runs of `task` so far, by config number (`config._index`; None: not run yet), for the loop to fill.

    Why beside run_kernel's own cache: the optimization loop asks for a run every round, and looking a config's number
    up in its task's list is cheaper than hashing (task, config) each time; the runs are the same.
    """
    runs = _TASK_RUNS.get(task)
    if runs is None:
        if len(_TASK_RUNS) >= KEPT_TASKS:
            del _TASK_RUNS[next(iter(_TASK_RUNS))]
        runs = _TASK_RUNS[task] = [None] * len(_INTERNED)
    return runs


def clear_runs() -> None:
    """Forget every run: run_kernel's cache and the runs `task_runs` keeps (measurements start cold with it)."""
    run_kernel.cache_clear()
    _TASK_RUNS.clear()


def baseline_time(task: Task) -> float:
    """Return PyTorch's time for `task`: the default config's time x BASELINE_FACTOR."""
    time = run_kernel(task, DEFAULT).time
    assert time is not None  # the default config is legal on every task
    return BASELINE_FACTOR * time


def random_config(rng: random.Random) -> KernelConfig:
    """Return a one-shot config: what an eager model writes, biased to aggressive choices (tile 64, vec 4, fusion)."""
    tile = rng.choice((16, 32, 64, 64))
    fuse = int(rng.random() < 0.6)
    vec = rng.choice((1, 2, 4, 4))
    shared = int(rng.random() < 0.5)
    unroll = rng.choice((1, 2, 4))
    return _INTERNED[(tile, fuse, vec, shared, unroll)]  # drawn from KNOBS: always valid


def mutate(config: KernelConfig, rng: random.Random, knob: Optional[str] = None) -> KernelConfig:
    """Return `config` with one knob (random unless given) set to a different allowed value."""
    if type(config) is not KernelConfig:
        raise ValueError(f"config = {config!r} is not allowed; give a KernelConfig (e.g. KernelConfig(tile=16))")
    if knob is None:
        knob = rng.choice(_KNOB_NAMES)
    elif knob not in KNOBS:
        raise ValueError(f"knob = {knob!r} is not a knob; knobs: {', '.join(KNOBS)}")
    return rng.choice(_MOVES[config._index][knob])  # type: ignore[attr-defined]


def speedup(task: Task, feedback: RunFeedback) -> float:
    """Return PyTorch's time over the kernel's, or 0.0 for a failed run (KernelBench counts it as not faster)."""
    return baseline_time(task) / feedback.time if feedback.ok and feedback.time else 0.0
