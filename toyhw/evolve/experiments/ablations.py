"""Lecture 14's problem and its demo 1, the ablation: every variant x seed, as pure functions the notebooks and the CLI
share.

Every result is a function of (variants, seeds, budget) only, cached in-process so that widgets slice one full-budget
run instead of recomputing. `run_one(variant, seed, budget)` is a top-level pure function so that runs can be farmed out
to a process pool. Demo 2 is toyhw.evolve.experiments.targeting, demo 3 toyhw.evolve.experiments.branch_check, and notebook 05's record of every
proposal of a run toyhw.course.proposal_trace.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Optional, Sequence

import numpy as np

from toyhw.checks import check_seed, check_seeds
from toyhw.gemm import shapes as shapes_lib
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.evaluator import Evaluator, geomean_speedup, oracle_speedup
from toyhw.evolve.loop import LineageStep, ProposalStep, check_budget, evolve
from toyhw.evolve.programs import Program
from toyhw.evolve.simplify import simplify
from toyhw.gemm.time_table import TimeTable, shared_table

MARKS = (50, 100, 300, 1000)
"""Where the seed's table reads the curves (number of proposed programs)."""
SEEDS = (0, 1, 2, 3, 4)
BUDGET = 1000


@dataclass(frozen=True)
class Context:
    """The fixed problem of lecture 14.

    Attributes:
        table: modelled times on the H100.
        train, test: the lecture's 88 shapes split half and half.
        new: demo 3's 100 new shapes.
        oracle_train, oracle_test: the oracle's geometric-mean speedup over the expert.
    """

    table: TimeTable
    train: tuple[shapes_lib.Shape, ...]
    test: tuple[shapes_lib.Shape, ...]
    new: tuple[shapes_lib.Shape, ...]
    oracle_train: float
    oracle_test: float


@functools.lru_cache(maxsize=None)
def context() -> Context:
    """Return the (cached) problem: time table, train/test split, new shapes, oracle scores."""
    table = shared_table("H100")
    train, test = shapes_lib.split_shapes(shapes_lib.all_shapes())
    return Context(
        table,
        tuple(train),
        tuple(test),
        tuple(shapes_lib.new_shapes()),
        oracle_speedup(train, table),
        oracle_speedup(test, table),
    )


def headroom_share(score: float, oracle: float) -> float:
    """Return the share of the oracle's headroom a score captures: (score - 1) / (oracle - 1)."""
    return (score - 1.0) / (oracle - 1.0)


@dataclass(frozen=True)
class RunSummary:
    """One evolution run of one variant.

    Attributes:
        variant, seed, budget: what was run.
        history: best-so-far training score after every proposed program.
        final: the training score at the end; test: the best program's score on the held-out shapes.
        kernel_runs: kernel runs spent; rules: branches of the best program after simplifying.
        best: the best program (simplified); lineage: its ancestors.
        n_added, n_added_bad_branch: programs added to the database, and those with a bad branch.
        statuses: how many proposals ended "ok", "bad branch", "crash", "cascade" or "invalid".
    """

    variant: str
    seed: int
    budget: int
    history: tuple[float, ...]
    final: float
    test: float
    kernel_runs: int
    rules: int
    best: Program
    lineage: tuple[LineageStep, ...]
    n_added: int
    n_added_bad_branch: int
    statuses: Mapping[str, int] = field(default_factory=dict)


def check_run(variant: str, seed: int, budget: int) -> None:
    """Raise naming the input unless `variant` is a known variant (UnknownNameError), `seed` a seed (an integer >= 0)
    and `budget` an integer from 1 to MAX_BUDGET (ValueError)."""
    variants_lib.get(variant)
    check_seed("seed", seed)
    check_budget(budget)


def run_one(variant: str, seed: int, budget: int) -> RunSummary:
    """Return one run of `variant` (a name of toyhw.evolve.variants) with `seed` and `budget` proposed programs
    (cached in this process)."""
    check_run(variant, seed, budget)
    return _run_one(variant, seed, budget)


def run_fresh(variant: str, seed: int, budget: int) -> RunSummary:
    """Return `run_one(variant, seed, budget)` computed afresh, bypassing the cache (for measuring its cost)."""
    return run_variant(variant, seed, budget)


@functools.lru_cache(maxsize=256)
def _run_one(variant: str, seed: int, budget: int) -> RunSummary:
    return run_variant(variant, seed, budget)


def run_variant(variant: str, seed: int, budget: int, llm: Optional[ProposalStep] = None) -> RunSummary:
    """Return one run of `variant`, its LLM replaced by `llm` when given (a real model, a replay); not cached."""
    check_run(variant, seed, budget)
    spec = variants_lib.get(variant)
    ctx = context()
    evaluator = Evaluator(ctx.train, ctx.table)
    out = evolve(evaluator, budget, seed=seed, llm=spec.llm if llm is None else llm, config=spec.config)
    program, score = out.best
    simple = simplify(program)
    return RunSummary(
        variant,
        seed,
        budget,
        out.history,
        score,
        geomean_speedup(program, ctx.test, ctx.table),
        out.kernel_runs,
        simple.n_rules(),
        simple,
        out.lineage,
        out.n_added,
        out.n_added_bad_branch,
        dict(out.statuses),
    )


@dataclass(frozen=True)
class AblationStudy:
    """Every variant x seed at one budget.

    Attributes:
        budget: proposed programs per run; seeds: the seeds.
        runs: variant -> its runs, one per seed.
        oracle_train, oracle_test: the ceiling.
    """

    budget: int
    seeds: tuple[int, ...]
    runs: dict[str, tuple[RunSummary, ...]]
    oracle_train: float
    oracle_test: float

    def histories(self, variant: str, budget: int | None = None, n_seeds: int | None = None) -> np.ndarray:
        """Return (seeds x programs) best-so-far scores, cut to the first `budget` programs and `n_seeds` seeds."""
        runs = self.runs[variant][: n_seeds or len(self.seeds)]
        return np.array([r.history[: budget or self.budget] for r in runs])

    def median_at(self, variant: str, mark: int) -> float:
        """Return the median over seeds of the best score after `mark` programs."""
        return float(np.median(self.histories(variant)[:, mark - 1]))


Runner = Callable[[list[tuple[str, int, int]]], Iterable[RunSummary]]
"""Runs a list of (variant, seed, budget) jobs and returns their runs in the same order (toyhw.evolve.experiments.sweep's pools)."""


def ablation_study(
    variants: Sequence[str] = variants_lib.LECTURE_VARIANTS,
    seeds: Sequence[int] = SEEDS,
    budget: int = BUDGET,
    runner: Optional[Runner] = None,
) -> AblationStudy:
    """Return every variant x seed run at `budget` (unknown variant -> UnknownNameError).

    The runs are made one after the other in this process and cached, or by `runner` when given (a pool of processes;
    the runs are the same). The variants and the seeds must each be distinct (a median over duplicated runs is wrong
    without looking wrong).
    """
    variants = variants_lib.check_variants("variants", variants)
    seeds = check_seeds("seeds", seeds)
    check_budget(budget)
    jobs = [(name, seed, budget) for name in variants for seed in seeds]
    results = iter(runner(jobs) if runner is not None else [_run_one(*job) for job in jobs])
    runs = {name: tuple(next(results) for _ in seeds) for name in variants}
    ctx = context()
    return AblationStudy(budget, tuple(seeds), runs, ctx.oracle_train, ctx.oracle_test)


def lecture_table(study: AblationStudy, marks: Sequence[int] = MARKS) -> list[dict]:
    """Return the seed's table, one row per variant: medians at the marks, min-max at the end, test, runs, rules."""
    rows = []
    for name, runs in study.runs.items():
        hist = study.histories(name)
        final = hist[:, -1]
        row = {"variant": name}
        for m in marks:
            if m <= study.budget:
                row[f"{m} programs"] = float(np.median(hist[:, m - 1]))
        row["end min"] = float(final.min())
        row["end max"] = float(final.max())
        row["headroom captured"] = headroom_share(float(np.median(final)), study.oracle_train)
        row["test"] = float(np.median([r.test for r in runs]))
        row["kernel runs"] = int(np.median([r.kernel_runs for r in runs]))
        row["rules"] = float(np.median([r.rules for r in runs]))
        rows.append(row)
    return rows


def clear_caches() -> None:
    """Empty the runs' cache (not the problem's context: benchmarks start cold with it)."""
    for cached in (_run_one,):
        cached.cache_clear()
