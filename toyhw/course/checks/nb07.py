"""Notebook 07's exercise checks (07_checking_all_branches.ipynb): `checks.exercise_K(...)` -> Verdict.

Each check recomputes with the pack what the exercise asks for (a static check and scores, an evaluator's status and
kernel runs, crashes on new shapes, the branches no training shape reaches) and compares the student's answer with
it. A wrong type, a wrong value or a function that raises gives a ✗ verdict that says why, never an exception.
"""

from __future__ import annotations

import collections
import collections.abc
import functools
from typing import Any, Callable, Sequence

from toyhw.course.check import Verdict, attempt as _attempt, failed, passed
from toyhw.evolve import ablations, branch_check
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import Program, Rule, branch_line, expert_program, firing_rule
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import parse, static_check
from toyhw.gemm import shapes as shapes_lib
from toyhw.gemm.config import GemmConfig
from toyhw.textwidth import display_width

WIDTH = 110
"""The widest verdict line, in columns: a check cell's one line must not wrap on a projector."""

SETTINGS = (("no check, cascade", False, True), ("no check, no cascade", False, False), ("check", True, True))
"""Exercise 2's three evaluator settings: (key of the answer, check_all_branches, cascade)."""

EXPERT_SCORE = 1.0
"""The expert's score on any set of shapes: every score is relative to it."""

BAD_CONFIG = GemmConfig(128, 256, 64, 8, 5, 1)
"""Section 1's bad config: the 5-stage 128x256x64 tile needs more shared memory than an H100 block may use."""

EIGHT_KV_LAYERS = ("405B/8 qkv 8kv", "405B/8 down")
"""Exercise 3's second set of new layers: the published 405B/8 qkv layer (eight key-value heads) instead of sixteen."""


def attempt(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, work)`, its "still the stub" verdict said in fewer columns."""
    return _attempt(what, work, stub="short")


def _fit(verdict: Verdict) -> Verdict:
    """Return `verdict` with its reason cut (ending in "…") so that its line fits WIDTH columns."""
    if display_width(str(verdict)) <= WIDTH:
        return verdict
    reason = verdict.reason
    while display_width(str(Verdict(verdict.ok, reason + "…"))) > WIDTH:
        reason = reason[:-1]
    return Verdict(verdict.ok, reason.rstrip() + "…")


def _program_with_bad_branch(m_min: int, m_max: int) -> Program:
    """Return the expert with Section 1's bad config in front, for m_min <= M <= m_max."""
    expert = expert_program()
    return Program((Rule(BAD_CONFIG, m_min=m_min, m_max=m_max),) + expert.rules, expert.default)


def _evaluations(m_min: int, m_max: int) -> dict[str, tuple[str, int]]:
    """Return the pack's (status, kernel runs) of that program for each of Exercise 2's evaluator settings."""
    ctx = ablations.context()
    program = _program_with_bad_branch(m_min, m_max)
    return {
        key: (result.status, result.runs)
        for key, check, cascade in SETTINGS
        for result in [Evaluator(ctx.train, ctx.table, check_all_branches=check, cascade=cascade).evaluate(program)]
    }


@functools.lru_cache(maxsize=4)
def _final_databases(seeds: tuple[int, ...], budget: int) -> tuple[Program, ...]:
    """Return the programs of the final databases of the full method without the branch check, seeds in order."""
    ctx = ablations.context()
    return tuple(
        program
        for seed in seeds
        for program in evolve(
            Evaluator(ctx.train, ctx.table, check_all_branches=False), budget, seed=seed
        ).db.programs()
    )


def _crash_counts(new_layers: Sequence[str]) -> dict[str, object]:
    """Return the pack's answer to Exercise 3 for `new_layers` (seeds 0-4, 1000 programs)."""
    names = list(shapes_lib.LAYERS) + list(new_layers)
    shapes = [shapes_lib.layer_shape(name, m) for name in names for m in shapes_lib.NEW_M]
    crashing, only_new, per_layer = 0, 0, collections.Counter()
    for program in _final_databases(tuple(ablations.SEEDS), ablations.BUDGET):
        layers = {crash.shape.name for crash in branch_check.crashes(program, shapes)}
        if layers:
            crashing += 1
            only_new += layers <= set(new_layers)
            per_layer.update(layers)
    return {"crashing": crashing, "only on the new layers": only_new, "per layer": dict(per_layer)}


def _untested(program: Program, shapes: Sequence[shapes_lib.Shape]) -> list[int]:
    """Return the pack's source lines of the branches of `program` that no shape of `shapes` reaches."""
    reached = {firing_rule(program, s.M, s.N, s.K) for s in shapes}
    return [branch_line(program, i) for i in range(len(program.rules) + 1) if i not in reached]


def _not_callable(name: str, value: Any) -> Verdict | None:
    if callable(value):
        return None
    return _fit(failed(f"{name} must be a function (def {name}(...)), got {type(value).__name__}"))


def exercise_1(my_source: object) -> Verdict:
    """Check that `my_source` parses, every branch launches, and it beats the expert on training and test shapes."""
    if not isinstance(my_source, str):
        return failed(f"my_source must be the heuristic's source as a str, got {type(my_source).__name__}")
    program, problem = attempt("parsing my_source", lambda: parse(my_source))
    if problem is not None:
        return _fit(problem)
    _, problems = static_check(my_source)  # the lines of the student's source, not of render(program)
    if problems:
        first = problems[0]
        reason = first.reason.split(". ")[0].removeprefix("out of resource: ")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return _fit(failed(f"line {first.line} cannot launch: {reason}{more}"))
    ctx = ablations.context()
    train, test = (geomean_speedup(program, shapes, ctx.table) for shapes in (ctx.train, ctx.test))
    scores = f"{train:.3f} on the training shapes, {test:.3f} on the test shapes"
    if train > EXPERT_SCORE and test > EXPERT_SCORE:
        return _fit(passed(f"every branch launches; {scores} (the expert: {EXPERT_SCORE:.3f})"))
    return _fit(failed(f"every branch launches, but {scores}: beat {EXPERT_SCORE:.3f} on both"))


def exercise_2(bad_branch_on_a_training_shape: Callable[[int, int], Any]) -> Verdict:
    """Check the function against the evaluator, for a range with training shapes (2000-4000) and one without."""
    name = "bad_branch_on_a_training_shape"
    if (problem := _not_callable(name, bad_branch_on_a_training_shape)) is not None:
        return problem
    for m_min, m_max in ((2000, 4000), (3000, 4000)):
        call = f"{name}({m_min}, {m_max})"
        answer, problem = attempt(name, lambda: bad_branch_on_a_training_shape(m_min, m_max))
        if problem is not None:
            return _fit(problem)
        if not isinstance(answer, dict):
            return _fit(failed(f"{call} must return a dict, got {type(answer).__name__}"))
        expected = _evaluations(m_min, m_max)
        for key, value in expected.items():
            if key not in answer:
                return _fit(failed(f"{call} has no key {key!r} (keys: {', '.join(map(repr, expected))})"))
            got = answer[key]
            if not isinstance(got, (tuple, list)) or tuple(got) != value:
                return _fit(failed(f"{call}[{key!r}] is {got!r}; the evaluator gives {value!r}"))
    found = _evaluations(2000, 4000)
    return _fit(
        passed(
            f"2000-4000 without the check: {found['no check, cascade'][0]} in "
            f"{found['no check, cascade'][1]} runs with the cascade, {found['no check, no cascade'][1]} "
            f"without; with it: {found['check'][0]} in {found['check'][1]}"
        )
    )


def exercise_3(new_shape_crashes: Callable[..., Any]) -> Verdict:
    """Check the function's counts with the lecture's 405B/8 layers and with the published eight-KV-head layer."""
    name = "new_shape_crashes"
    if (problem := _not_callable(name, new_shape_crashes)) is not None:
        return problem
    for call, layers in (
        (f"{name}()", shapes_lib.NEW_LAYERS),
        (f"{name}(new_layers={EIGHT_KV_LAYERS})", EIGHT_KV_LAYERS),
    ):
        kwargs = {} if layers is shapes_lib.NEW_LAYERS else {"new_layers": layers}
        answer, problem = attempt(call, lambda: new_shape_crashes(**kwargs))
        if problem is not None:
            return _fit(problem)
        if not isinstance(answer, dict):
            return _fit(failed(f"{call} must return a dict, got {type(answer).__name__}"))
        expected = _crash_counts(layers)
        for key, value in expected.items():
            got = answer.get(key)
            if key == "per layer" and isinstance(got, collections.abc.Mapping):
                wrong = sorted(layer for layer in set(value) | set(got) if got.get(layer, 0) != value.get(layer, 0))
                if wrong:
                    return _fit(
                        failed(
                            f"{call}['per layer'][{wrong[0]!r}] is {got.get(wrong[0], 0)!r}; the final "
                            f"databases give {value.get(wrong[0], 0)!r}"
                        )
                    )
            elif got != value:
                return _fit(failed(f"{call}[{key!r}] is {got!r}; the final databases give {value!r}"))
    found, eight = _crash_counts(shapes_lib.NEW_LAYERS), _crash_counts(EIGHT_KV_LAYERS)
    return _fit(
        passed(
            f"{found['crashing']} crashing programs, {found['only on the new layers']} only on the "
            f"405B/8 layers; with eight KV heads {eight['crashing']} and {eight['only on the new layers']}"
        )
    )


def exercise_4(untested_branches: Callable[[Program, Sequence[shapes_lib.Shape]], Any]) -> Verdict:
    """Check the function on Section 3's program, Section 1's program and the expert, with the training shapes."""
    name = "untested_branches"
    if (problem := _not_callable(name, untested_branches)) is not None:
        return problem
    ctx = ablations.context()
    section3 = simplify(branch_check.branch_row(ablations.SEEDS[0], ablations.BUDGET, False).example)
    programs = (
        ("Section 3's program", section3),
        ("Section 1's program", _program_with_bad_branch(3000, 4000)),
        ("the expert", expert_program()),
    )
    for label, program in programs:
        answer, problem = attempt(name, lambda: untested_branches(program, ctx.train))
        if problem is not None:
            return _fit(problem)
        expected = _untested(program, ctx.train)
        try:
            lines = sorted(int(line) for line in answer)
        except (TypeError, ValueError):
            return _fit(failed(f"{name} must return a list of line numbers, got {answer!r}"))
        missed, reached = sorted(set(expected) - set(lines)), sorted(set(lines) - set(expected))
        if missed:
            return _fit(failed(f"{name} on {label} misses line(s) {missed}: no training shape reaches them"))
        if reached:
            return _fit(failed(f"{name} on {label} lists line(s) {reached}, which training shapes reach"))
    found = _untested(section3, ctx.train)
    return _fit(passed(f"Section 3's program: lines {', '.join(map(str, found))} untested; the expert: none"))
