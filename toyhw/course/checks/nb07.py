"""Notebook 07's exercise checks (07_checking_all_branches.ipynb): `checks.exercise_K(...)` -> Verdict.

Each check recomputes with the pack what the exercise asks for (a static check and scores, an evaluator's status and
kernel runs, crashes on new shapes, the branches no training shape reaches) and compares the student's answer with
it: first for the exercise's own calls, then for one the notebook does not show (another range, other seeds, another
program or set of shapes), where a copy of the notebook's answer fails. A wrong type, a wrong value or a function
that raises gives a ✗ verdict that says why, never an exception.
"""

from __future__ import annotations

import collections
import collections.abc
import functools
from typing import Any, Callable, Sequence

from toyhw.course import compare, pristine
from toyhw.course.check import Verdict, attempt as _attempt, failed, listed, not_callable, on_one_line, passed
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.experiments import ablations, branch_check
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import Program, Rule, branch_line, expert_program, firing_rule
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import parse, static_check
from toyhw.gemm import shapes as shapes_lib
from toyhw.gemm.config import GemmConfig
from toyhw.i18n import t

SETTINGS = (("no check, cascade", False, True), ("no check, no cascade", False, False), ("check", True, True))
"""Exercise 2's three evaluator settings: (key of the answer, check_all_branches, cascade)."""

EXPERT_SCORE = 1.0
"""The expert's score on any set of shapes: every score is relative to it."""

BAD_CONFIG = GemmConfig(128, 256, 64, 8, 5, 1)
"""Section 1's bad config: the 5-stage 128x256x64 tile needs more shared memory than an H100 block may use."""

EIGHT_KV_LAYERS = ("405B/8 qkv 8kv", "405B/8 down")
"""Exercise 3's second set of new layers: the published 405B/8 qkv layer (eight key-value heads) instead of sixteen."""

SEEDS, BUDGET = tuple(ablations.SEEDS), int(ablations.BUDGET)
"""The lecture's seeds and budget as this module was imported: a cell that rebinds ablations.SEEDS changes no truth."""

OTHER_RANGES = ((100, 300), (5000, 7000))
"""Exercise 2's ranges the notebook does not show: one covers training shapes (M = 128 and 256), one covers none."""

OTHER_CRASHES = {"seeds": (5, 6), "budget": 300}
"""Exercise 3's call the notebook does not show: other seeds, a smaller budget."""

OTHER_PROGRAM = ("full", 2, 300)
"""Exercise 4's other program: the best of this run (variant, seed, budget), which the notebook never prints."""

SECONDS = 120.0
"""The time limit of one call of the student's function (the solutions take up to about 10 s)."""


def attempt(what: str, work: Callable[[], Any]) -> tuple[Any, Verdict | None]:
    """Return `toyhw.course.check.attempt(what, ...)` of `work`'s value as plain data (toyhw/course/compare.py)."""
    return _attempt(what, lambda: compare.plain(work()), SECONDS)


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


def _crash_counts(new_layers: Sequence[str], seeds: Sequence[int] = SEEDS, budget: int = BUDGET) -> dict[str, object]:
    """Return the pack's answer to Exercise 3 for `new_layers` (seeds 0-4, 1000 programs unless given)."""
    names = list(shapes_lib.LAYERS) + list(new_layers)
    shapes = [shapes_lib.layer_shape(name, m) for name in names for m in shapes_lib.NEW_M]
    crashing, only_new, per_layer = 0, 0, collections.Counter()
    for program in _final_databases(tuple(seeds), budget):
        layers = {crash.shape.name for crash in branch_check.crashes(program, shapes)}
        if layers:
            crashing += 1
            only_new += layers <= set(new_layers)
            per_layer.update(layers)
    # sorted: a set's order depends on the hash seed, and the verdict must read the same in every process
    return {"crashing": crashing, "only on the new layers": only_new, "per layer": dict(sorted(per_layer.items()))}


def _untested(program: Program, shapes: Sequence[shapes_lib.Shape]) -> list[int]:
    """Return the pack's source lines of the branches of `program` that no shape of `shapes` reaches."""
    reached = {firing_rule(program, s.M, s.N, s.K) for s in shapes}
    return [branch_line(program, i) for i in range(len(program.rules) + 1) if i not in reached]


@on_one_line
def exercise_1(my_source: object) -> Verdict:
    """Check that `my_source` parses, every branch launches, and it beats the expert on training and test shapes."""
    if compare.text(my_source) is None:
        return failed(t("check.nb07.source_not_a_str", type=compare.type_name(my_source)))
    my_source = compare.text(my_source)
    program, problem = attempt(t("check.nb07.parsing_my_source"), lambda: parse(my_source))
    if problem is not None:
        return problem
    _, problems = static_check(my_source)  # the lines of the student's source, not of render(program)
    if problems:
        first = problems[0]
        reason = first.reason.split(". ")[0].removeprefix("out of resource: ")
        more = t("check.nb07.more_problems", n=len(problems) - 1) if len(problems) > 1 else ""
        return failed(t("check.nb07.cannot_launch", line=first.line, reason=reason, more=more))
    ctx = ablations.context()
    train, test = (geomean_speedup(program, shapes, ctx.table) for shapes in (ctx.train, ctx.test))
    scores = t("check.nb07.scores", train=train, test=test)
    if train > EXPERT_SCORE and test > EXPERT_SCORE:
        return passed(t("check.nb07.source_passed", scores=scores, expert=EXPERT_SCORE))
    return failed(t("check.nb07.source_behind", scores=scores, expert=EXPERT_SCORE))


@on_one_line
def exercise_2(bad_branch_on_a_training_shape: Callable[[int, int], Any]) -> Verdict:
    """Check the function against the evaluator, for a range with training shapes (2000-4000) and one without."""
    name = "bad_branch_on_a_training_shape"
    if (problem := not_callable(name, bad_branch_on_a_training_shape)) is not None:
        return problem
    for m_min, m_max in ((2000, 4000), (3000, 4000)) + OTHER_RANGES:
        call = f"{name}({m_min}, {m_max})"
        answer, problem = attempt(name, lambda: bad_branch_on_a_training_shape(m_min, m_max))
        if problem is not None:
            return problem
        if not isinstance(answer, dict):
            return failed(t("check.nb07.not_a_dict", call=call, type=_type(answer)))
        expected = _evaluations(m_min, m_max)
        for key, value in expected.items():
            if key not in answer:
                return failed(t("check.nb07.no_key", call=call, key=repr(key), keys=listed(map(repr, expected))))
            got = answer[key]
            if not compare.same(got, value):
                return failed(
                    t("check.nb07.evaluation_off", call=call, key=repr(key), got=compare.shown(got), want=repr(value))
                )
    found = _evaluations(2000, 4000)
    return passed(
        t(
            "check.nb07.evaluations_passed",
            status=found["no check, cascade"][0],
            runs=found["no check, cascade"][1],
            runs_without=found["no check, no cascade"][1],
            status_checked=found["check"][0],
            runs_checked=found["check"][1],
        )
    )


@on_one_line
def exercise_3(new_shape_crashes: Callable[..., Any]) -> Verdict:
    """Check the function's counts with the lecture's 405B/8 layers and with the published eight-KV-head layer."""
    name = "new_shape_crashes"
    if (problem := not_callable(name, new_shape_crashes)) is not None:
        return problem
    cases = (
        ({}, (shapes_lib.NEW_LAYERS, SEEDS, BUDGET)),
        ({"new_layers": EIGHT_KV_LAYERS}, (EIGHT_KV_LAYERS, SEEDS, BUDGET)),
        (OTHER_CRASHES, (shapes_lib.NEW_LAYERS, OTHER_CRASHES["seeds"], OTHER_CRASHES["budget"])),
    )
    for kwargs, truth in cases:
        call = f"{name}({', '.join(f'{key}={value!r}' for key, value in kwargs.items())})"
        answer, problem = attempt(call, lambda: new_shape_crashes(**kwargs))
        if problem is not None:
            return problem
        if not isinstance(answer, dict):
            return failed(t("check.nb07.not_a_dict", call=call, type=_type(answer)))
        expected = _crash_counts(*truth)
        for key, value in expected.items():
            got = answer.get(key)
            if key != "per layer" or not isinstance(got, dict):
                if not compare.same(got, value):
                    return failed(
                        t("check.nb07.crashes_off", call=call, key=repr(key), got=compare.shown(got), want=repr(value))
                    )
                continue
            layers = sorted(set(value) | set(got), key=repr)
            wrong = [layer for layer in layers if not compare.same(got.get(layer, 0), value.get(layer, 0))]
            if wrong:
                return failed(
                    t(
                        "check.nb07.per_layer_off",
                        call=call,
                        layer=repr(wrong[0]),
                        got=compare.shown(got.get(wrong[0], 0)),
                        want=repr(value.get(wrong[0], 0)),
                    )
                )
    found, eight = _crash_counts(shapes_lib.NEW_LAYERS), _crash_counts(EIGHT_KV_LAYERS)
    return passed(
        t(
            "check.nb07.crashes_passed",
            crashing=found["crashing"],
            only_new=found["only on the new layers"],
            crashing_eight=eight["crashing"],
            only_new_eight=eight["only on the new layers"],
        )
    )


@on_one_line
def exercise_4(untested_branches: Callable[[Program, Sequence[shapes_lib.Shape]], Any]) -> Verdict:
    """Check the function on Section 3's program, Section 1's program and the expert, with the training shapes."""
    name = "untested_branches"
    if (problem := not_callable(name, untested_branches)) is not None:
        return problem
    ctx = ablations.context()
    section3 = simplify(branch_check.branch_row(SEEDS[0], BUDGET, False).example)
    other = simplify(ablations.run_one(*OTHER_PROGRAM).best)
    cases = (
        (t("check.nb07.section_3_program"), section3, ctx.train, "ctx.train"),
        (t("check.nb07.section_1_program"), _program_with_bad_branch(3000, 4000), ctx.train, "ctx.train"),
        (t("check.nb07.the_expert"), expert_program(), ctx.train, "ctx.train"),
        (t("check.nb07.section_3_program"), section3, ctx.test, "ctx.test"),
        (t("check.nb07.other_program", variant=OTHER_PROGRAM[0], seed=OTHER_PROGRAM[1]), other, ctx.train, "ctx.train"),
    )
    for label, program, shapes, shapes_name in cases:
        given_program, given_shapes = compare.copied(program), list(shapes)
        answer, problem = attempt(name, lambda: untested_branches(given_program, given_shapes))
        if problem is not None:
            return problem
        expected = _untested(program, shapes)
        lines = [compare.whole(line) for line in answer] if isinstance(answer, (list, tuple)) else [None]
        if None in lines:
            return failed(t("check.nb07.not_line_numbers", name=name, answer=compare.shown(answer)))
        missed, reached = sorted(set(expected) - set(lines)), sorted(set(lines) - set(expected))
        if missed:
            return failed(t("check.nb07.lines_missed", name=name, program=label, lines=missed, shapes=shapes_name))
        if reached:
            return failed(t("check.nb07.lines_reached", name=name, program=label, lines=reached, shapes=shapes_name))
    found = _untested(section3, ctx.train)
    return passed(t("check.nb07.untested_passed", lines=listed(found)))


def _type(value: Any) -> str:
    return value.type_name if isinstance(value, compare.Alien) else type(value).__name__


pristine.watch()
