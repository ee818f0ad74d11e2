"""A submission scored: parsed (never executed), every branch checked, then its geometric-mean speedup over the
expert on the held-out shapes and on the notebooks' training shapes; and the board's fixed rows.

The score is the pack's own (`toyhw.evolve.evaluator.geomean_speedup`, the function the notebooks call), on the H100
time table every notebook uses, so a student's number on the board is the number `geomean_speedup(parse(source),
shapes, table)` gives in their own notebook. Every branch must launch (`toyhw.evolve.source.static_check`): a branch
no shape reaches is still deployed (notebook 07), so the board refuses it like the search's branch check does.

The fixed rows are computed by the package, once per process: the expert (1 by definition), the oracle (the best
launchable config on every shape: the ceiling) and the full method's best program on seed 0 after 1000 proposed
programs, the one notebook 04 shows as code (`ablations.run_one("full", 0, 1000)`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from toyhw.course.board.shapes import held_out_shapes, train_shapes
from toyhw.evolve.evaluator import geomean_speedup, oracle_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import Program, expert_program
from toyhw.evolve.source import BranchProblem, SourceError, parse, static_check

EVOLVED_RUN = ("full", 0, 1000)
"""(variant, seed, budget) of the evolved program's fixed row: notebook 04's Section 5."""
FIXED_KINDS = ("oracle", "evolved", "expert")
"""The fixed rows, by kind."""


@dataclass(frozen=True)
class Scores:
    """A program's geometric-mean speedup over the expert: `held_out` (the board's shapes) and `train` (the
    notebooks' training shapes)."""

    held_out: float
    train: float


class BadBranch(ValueError):
    """A submission with a branch that cannot launch; `problem` is the first such branch (its line, config, reason)."""

    def __init__(self, problem: BranchProblem) -> None:
        super().__init__(problem.message())
        self.problem = problem


@functools.lru_cache(maxsize=None)
def _table():
    return ablations.context().table


def train_score(program: Program) -> float:
    """Return `program`'s score on the notebooks' training shapes only (what a student may check before submitting)."""
    return geomean_speedup(program, train_shapes(), _table())


def program_scores(program: Program) -> Scores:
    """Return `program`'s scores on the held-out and the training shapes (the pack's geomean_speedup)."""
    table = _table()
    return Scores(geomean_speedup(program, held_out_shapes(), table), geomean_speedup(program, train_shapes(), table))


def check_source(source: str) -> Program:
    """Return the Program written in `source`, every branch launchable on the H100.

    Raises SourceError (the parser's own one-line message: outside the rule language, malformed, beyond the size
    and nesting limits) or BadBranch (the first branch that cannot launch, with its line).
    """
    program = parse(source)
    ok, problems = static_check(program)
    if not ok:
        raise BadBranch(_with_lines(source, problems[0]))
    return program


def _with_lines(source: str, problem: BranchProblem) -> BranchProblem:
    """Return the problem as static_check(source) reports it: with the line of the student's own source."""
    for found in static_check(source)[1]:
        if found.config == problem.config and found.branch == problem.branch:
            return found
    return problem


def score_source(source: str) -> tuple[Program, Scores]:
    """Return the program written in `source` and its scores; SourceError or BadBranch as check_source raises."""
    program = check_source(source)
    return program, program_scores(program)


@functools.lru_cache(maxsize=None)
def fixed_rows() -> tuple[tuple[str, Scores], ...]:
    """Return (kind, scores) of the fixed rows: the oracle, the evolved best program, the expert (cached)."""
    table = _table()
    held, train = held_out_shapes(), train_shapes()
    evolved = ablations.run_one(*EVOLVED_RUN).best
    return (
        ("oracle", Scores(oracle_speedup(held, table), oracle_speedup(train, table))),
        ("evolved", program_scores(evolved)),
        ("expert", program_scores(expert_program())),
    )


__all__ = [
    "BadBranch",
    "Scores",
    "SourceError",
    "check_source",
    "fixed_rows",
    "geomean_speedup",
    "held_out_shapes",
    "program_scores",
    "score_source",
    "train_shapes",
]
