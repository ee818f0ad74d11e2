"""The seed-003 demos as pure functions shared by the notebooks and the CLI: ablations, targeting, branches.

Every result is a function of (variants, seeds, budget) only, cached in-process so that widgets slice one full-budget
run instead of recomputing. `run_one(variant, seed, budget)` is a top-level pure function so that runs can be farmed out
to a process pool.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence

import numpy as np

from toyhw.checks import check_seed, check_seeds
from toyhw.gemm import shapes as shapes_lib
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.evaluator import Evaluator, ShapeTimes, geomean_speedup, oracle_speedup
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
    return Context(table, tuple(train), tuple(test), tuple(shapes_lib.new_shapes()),
                   oracle_speedup(train, table), oracle_speedup(test, table))


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
        bench_runs: kernel runs spent; rules: branches of the best program after simplifying.
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
    bench_runs: int
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
    kwargs = dict(spec.evolve_kwargs) if llm is None else {**spec.evolve_kwargs, "llm": llm}
    out = evolve(evaluator, budget, seed=seed, **kwargs)
    program, score = out.best
    simple = simplify(program)
    return RunSummary(variant, seed, budget, out.history, score, geomean_speedup(program, ctx.test, ctx.table),
                      out.bench_runs, simple.n_rules(), simple, out.lineage, out.n_added, out.n_added_bad_branch,
                      dict(out.statuses))


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


def ablation_study(variants: Sequence[str] = variants_lib.SEED_VARIANTS, seeds: Sequence[int] = SEEDS,
                   budget: int = BUDGET) -> AblationStudy:
    """Return every variant x seed run at `budget` (each run cached; unknown variant -> UnknownNameError).

    The variants and the seeds must each be distinct (a median over duplicated runs is wrong without looking wrong).
    """
    variants = variants_lib.check_variants("variants", variants)
    seeds = check_seeds("seeds", seeds)
    check_budget(budget)
    ctx = context()
    runs = {name: tuple(_run_one(name, seed, budget) for seed in seeds) for name in variants}
    return AblationStudy(budget, tuple(seeds), runs, ctx.oracle_train, ctx.oracle_test)


def seed_table(study: AblationStudy, marks: Sequence[int] = MARKS) -> list[dict]:
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
        row["kernel runs"] = int(np.median([r.bench_runs for r in runs]))
        row["rules"] = float(np.median([r.rules for r in runs]))
        rows.append(row)
    return rows


# ----- demo 2: where feedback points


@dataclass(frozen=True)
class Targeting:
    """Demo 2: which shapes the two feedback keys point at, after `budget` programs of the full method.

    Attributes:
        rows: per-shape feedback on the best program (toyhw.evolve.evaluator.ShapeRow).
        n_stuck: shapes with no known improvement (vs_best > STUCK).
        share_on_stuck: key -> the share of the target-shape weights that lands on stuck shapes.
        top_roofline, top_best: the 5 shapes each key ranks as most worth improving.
        overlap_top5: how many shapes the two top-5 lists share.
    """

    seed: int
    budget: int
    rows: tuple
    n_stuck: int
    share_on_stuck: dict[str, float]
    top_roofline: tuple
    top_best: tuple
    overlap_top5: int


STUCK = 0.95
"""A shape is "stuck" when the program is within 5% of the best time ever seen on it (no known improvement)."""


def _share(rows, key: str) -> float:
    w = np.array([1.0 / getattr(r, key) - 1.0 + 0.05 for r in rows])
    stuck = np.array([r.vs_best > STUCK for r in rows])
    return float(w[stuck].sum() / w.sum())


def targeting(seed: int = 0, budget: int = 300) -> Targeting:
    """Return demo 2 for one run of the full method (cached in this process)."""
    check_seed("seed", seed)
    check_budget(budget)
    return _targeting(seed, budget)


@functools.lru_cache(maxsize=64)
def _targeting(seed: int, budget: int) -> Targeting:
    ctx = context()
    evaluator = Evaluator(ctx.train, ctx.table)
    out = evolve(evaluator, budget, seed=seed)
    rows = tuple(evaluator.per_shape(out.best[0]))
    by_roof = tuple(sorted(rows, key=lambda r: r.vs_roofline)[:5])
    by_best = tuple(sorted(rows, key=lambda r: r.vs_best)[:5])
    overlap = len({r.shape for r in by_roof} & {r.shape for r in by_best})
    return Targeting(seed, budget, rows, sum(r.vs_best > STUCK for r in rows),
                     {"roofline": _share(rows, "vs_roofline"), "best": _share(rows, "vs_best")}, by_roof, by_best,
                     overlap)


# ----- demo 3: latent bad branches


@dataclass(frozen=True)
class BranchRow:
    """Demo 3, one run of the full method with or without the branch check.

    Attributes:
        seed: the run's seed; check: whether every branch was checked before running.
        added / added_bad_branch: programs that entered the database / of them with a branch that cannot launch.
        db_size / db_bad_branch: distinct programs in the final database / of them with a bad branch.
        crash_new_shapes: programs of the final database that fail to launch on some of the 100 new shapes.
        best_has_bad_branch: whether the best program has a bad branch.
        example: a final-database program with a bad branch, one that crashes on a new shape when there is one
            (None when no program of the final database has a bad branch).
    """

    seed: int
    check: bool
    added: int
    added_bad_branch: int
    db_size: int
    db_bad_branch: int
    crash_new_shapes: int
    best_has_bad_branch: bool
    example: Program | None

    def as_dict(self) -> dict:
        """Return the CLI's JSON row."""
        return {"seed": self.seed, "added": self.added, "added_bad_branch": self.added_bad_branch,
                "db_size": self.db_size, "db_bad_branch": self.db_bad_branch,
                "crash_new_shapes": self.crash_new_shapes, "best_has_bad_branch": self.best_has_bad_branch}


def branch_row(seed: int, budget: int, check: bool) -> BranchRow:
    """Return demo 3's row for one run of the full method, with or without the branch check (cached in this
    process)."""
    check_seed("seed", seed)
    check_budget(budget)
    if not isinstance(check, bool):
        raise ValueError(f"check = {check!r} is not allowed; it must be True or False")
    return _branch_row(seed, budget, check)


@functools.lru_cache(maxsize=64)
def _branch_row(seed: int, budget: int, check: bool) -> BranchRow:
    ctx = context()
    evaluator = Evaluator(ctx.train, ctx.table, check_all_branches=check)
    out = evolve(evaluator, budget, seed=seed)
    programs = out.db.programs()
    new = ShapeTimes(ctx.new, ctx.table)
    bad = [p for p in programs if evaluator.has_bad_branch(p)]
    crashing = [p for p in programs if not np.all(np.isfinite(new.program_times(p)))]
    # show a bad branch that bites if there is one, else one that is still latent on the new shapes too
    example = next((p for p in crashing if evaluator.has_bad_branch(p)), bad[0] if bad else None)
    return BranchRow(seed, check, out.n_added, out.n_added_bad_branch, len(programs), len(bad), len(crashing),
                     evaluator.has_bad_branch(out.best[0]), example)


def branches(seeds: Sequence[int] = SEEDS, budget: int = BUDGET) -> dict[str, list[BranchRow]]:
    """Return demo 3: {"checked": rows, "unchecked": rows}, one row per seed (seeds distinct)."""
    seeds = check_seeds("seeds", seeds)
    check_budget(budget)
    return {"checked": [_branch_row(s, budget, True) for s in seeds],
            "unchecked": [_branch_row(s, budget, False) for s in seeds]}


def clear_caches() -> None:
    """Empty every cache of this module except the problem's context (benchmarks start cold with it)."""
    for cached in (_run_one, _targeting, _branch_row):
        cached.cache_clear()


@dataclass(frozen=True)
class Crash:
    """A shape on which a program's chosen config cannot launch.

    Attributes:
        shape: the shape; line: the source line of the branch that decides it (in `render(program)`);
        config: the config that branch returns; reason: why it cannot launch.
    """

    shape: shapes_lib.Shape
    line: int
    config: str
    reason: str


def crashes(program: Program, shapes: Sequence[shapes_lib.Shape]) -> list[Crash]:
    """Return every shape of `shapes` on which `program` picks a config that cannot launch, with the branch's line."""
    from toyhw.gemm import config as gemm_config
    from toyhw.evolve.programs import branch_line, config_source, firing_rule

    table = context().table
    found = []
    for shape in shapes:
        index = firing_rule(program, shape.M, shape.N, shape.K)
        config = program.rules[index].config if index < len(program.rules) else program.default
        reason = gemm_config.launch_problem(config, table.gpu)
        if reason is not None:
            found.append(Crash(shape, branch_line(program, index), config_source(config), reason))
    return found


# ----- inside one run: every proposal and what the loop did with it (notebook 05)


@dataclass(frozen=True)
class Proposed:
    """One proposal of a run, as the loop saw it.

    Attributes:
        step: the proposal number (1 = the first); island: the island it was made for.
        parent_id, parent_score: the parent's entry id and training score.
        target: the index (in `context().train`) of the training shape the LLM worked on.
        best_differs: whether the best config seen for the target differed from the parent's config there (only
            then can the LLM adopt it).
        operator: the edit kind; description: the LLM's one line; program: the child.
        status: the evaluator's verdict ("ok", "bad branch", "crash", "cascade", "invalid"); score: the child's
            training score (None unless "ok"); runs: the kernel runs its evaluation cost.
        stage1: its score on the cascade's stage-1 shapes (None when the branch check rejected it first or the run
            has no cascade); bar: the stage-1 score it had to reach (CASCADE_RATIO x the best stage-1 score seen).
    """

    step: int
    island: int
    parent_id: int
    parent_score: float
    target: int
    best_differs: bool
    operator: Optional[str]
    description: str
    program: Optional[Program]
    status: str
    score: Optional[float]
    runs: int
    stage1: Optional[float]
    bar: Optional[float]


@dataclass(frozen=True)
class Trace:
    """Every proposal of one run, with the run's result.

    Attributes:
        variant, seed, budget: what was run; steps: one Proposed per proposal, in order.
        result: the run's EvolveResult (history, final database, lineage, statuses) - the run of `run_one`.
    """

    variant: str
    seed: int
    budget: int
    steps: tuple[Proposed, ...]
    result: object


class _TracingEvaluator(Evaluator):
    """The evaluator, unchanged, noting for every evaluation its stage-1 score and the bar it had to reach."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple] = []

    def evaluate(self, program):
        from toyhw.evolve import evaluator as evaluator_lib

        stage1 = bar = None
        if program is not None and self.cascade and not (self.check_all_branches and self.has_bad_branch(program)):
            times = self.data.program_times(program)[self._stage1]  # a read of the table: no run is counted
            with np.errstate(divide="ignore"):
                stage1 = float(np.exp(np.mean(self._log_expert1 - np.log(times))))
            bar = evaluator_lib.CASCADE_RATIO * self._best_stage1
        result = super().evaluate(program)
        self.log.append((result, stage1, bar))
        return result


class _TracingLLM:
    """The variant's proposal step, unchanged, noting the parent, the target shape and the proposal of every call.

    The target is read with the mock's own `target` on a copy of the random state, then the state is put back, so
    the call that follows draws exactly what it would have drawn (the target is the mock's first draw).
    """

    def __init__(self, llm) -> None:
        self.llm = llm
        self.log: list[tuple] = []

    def __call__(self, parent, inspirations, feedback, rng):
        from toyhw.evolve.programs import choose

        state = rng.getstate()
        target = self.llm.target(feedback, rng)
        rng.setstate(state)
        proposal = self.llm(parent, inspirations, feedback, rng)
        differs = feedback.best_configs[target] != choose(parent.program, feedback.shapes[target])
        self.log.append((parent.id, parent.score, target, bool(differs), proposal))
        return proposal


@functools.lru_cache(maxsize=32)
def trace(variant: str = "full", seed: int = 0, budget: int = 200) -> Trace:
    """Return every proposal of the run of `variant` with `seed` and `budget` (the run of `run_one`, step by step).

    Only the variants' mock LLM can be traced (it has a `target`); unknown variant -> KeyError.
    """
    from toyhw.evolve.llm import MockLLM

    spec = variants_lib.get(variant)
    check_budget(budget)
    ctx = context()
    evaluator = _TracingEvaluator(ctx.train, ctx.table)
    llm = _TracingLLM(spec.evolve_kwargs.get("llm", MockLLM()))
    out = evolve(evaluator, budget, seed=seed, **{**spec.evolve_kwargs, "llm": llm})
    n_islands = spec.evolve_kwargs.get("n_islands", 4)
    steps = []
    for step, ((parent_id, parent_score, target, differs, proposal), (result, stage1, bar)) in enumerate(
            zip(llm.log, evaluator.log[1:]), 1):  # evaluation 0 is the initial program's
        steps.append(Proposed(step, (step - 1) % n_islands, parent_id, parent_score, target, differs,
                              proposal.operator, proposal.description, proposal.program, result.status, result.score,
                              result.runs, stage1, bar))
    return Trace(variant, seed, budget, tuple(steps), out)
