"""Lecture 14's demo 3: latent unlaunchable branches with and without checking every branch (notebook 07)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from toyhw.checks import check_seed, check_seeds
from toyhw.gemm import shapes as shapes_lib
from toyhw.evolve.experiments.ablations import BUDGET, SEEDS, context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.shape_times import ShapeTimes
from toyhw.evolve.loop import Checkpoint, check_budget, checkpoint_budgets, evolve
from toyhw.evolve.programs import Program


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
        return {
            "seed": self.seed,
            "added": self.added,
            "added_bad_branch": self.added_bad_branch,
            "db_size": self.db_size,
            "db_bad_branch": self.db_bad_branch,
            "crash_new_shapes": self.crash_new_shapes,
            "best_has_bad_branch": self.best_has_bad_branch,
        }


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
    return _row(seed, check, evaluator, out.db.programs(), out.n_added, out.n_added_bad_branch, out.best[0])


def _row(
    seed: int, check: bool, evaluator: Evaluator, programs: Sequence[Program], added: int, bad_added: int, best: Program
) -> BranchRow:
    """Return demo 3's row for a run's final database `programs` (and its counts and best program)."""
    new = ShapeTimes(context().new, context().table)
    bad = [p for p in programs if evaluator.has_bad_branch(p)]
    crashing = [p for p in programs if not np.all(np.isfinite(new.program_times(p)))]
    # show a bad branch that bites if there is one, else one that is still latent on the new shapes too
    example = next((p for p in crashing if evaluator.has_bad_branch(p)), bad[0] if bad else None)
    return BranchRow(
        seed, check, added, bad_added, len(programs), len(bad), len(crashing), evaluator.has_bad_branch(best), example
    )


def branch_rows(seed: int, budgets: Sequence[int]) -> dict[tuple[int, bool], BranchRow]:
    """Return {(budget, check): branch_row(seed, budget, check)} for every budget in `budgets`, both settings of the
    check, from two runs (one per setting) to the largest budget.

    Why: the run with budget b is the first b steps of the longer run (toyhw.evolve.loop.Checkpoint), so a panel
    that shows many budgets of one seed gets the same rows for two runs instead of two per budget.
    """
    check_seed("seed", seed)
    wanted = checkpoint_budgets(budgets)
    ctx = context()
    rows: dict[tuple[int, bool], BranchRow] = {}
    for check in (False, True):
        evaluator = Evaluator(ctx.train, ctx.table, check_all_branches=check)

        def keep(point: Checkpoint, check: bool = check, evaluator: Evaluator = evaluator) -> None:
            rows[point.budget, check] = _row(
                seed, check, evaluator, point.programs, point.n_added, point.n_added_bad_branch, point.best[0]
            )

        evolve(evaluator, wanted[-1], seed=seed, checkpoints=wanted, on_checkpoint=keep)
    return rows


def branches(seeds: Sequence[int] = SEEDS, budget: int = BUDGET) -> dict[str, list[BranchRow]]:
    """Return demo 3: {"checked": rows, "unchecked": rows}, one row per seed (seeds distinct)."""
    seeds = check_seeds("seeds", seeds)
    check_budget(budget)
    return {
        "checked": [_branch_row(s, budget, True) for s in seeds],
        "unchecked": [_branch_row(s, budget, False) for s in seeds],
    }


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


def clear_caches() -> None:
    """Empty this demo's cache."""
    _branch_row.cache_clear()
