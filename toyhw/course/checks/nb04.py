"""Notebook 04's exercise checks (04_alphaevolve_ablations.ipynb): each returns a one-line Verdict.

Each check recomputes what the exercise asks with the pack (the study's medians, the traced runs, the time table)
and compares the student's numbers with it within a stated tolerance, first for the notebook's call, then for one it
does not show (other seeds, a smaller budget, another study): a frame copied from the notebook's answer holds only
for the first. The student's function gets copies (a function that changes `study.runs` changes nothing the notebook
holds), and the check reads its seeds and budgets from its own constants, not from `ablations.SEEDS`. A wrong type, a
missing column or a function that raises gives a ✗ verdict that says so, never a traceback.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from toyhw.course import compare, pristine, proposal_trace
from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.experiments.ablations import AblationStudy
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import Program, expert_program
from toyhw.evolve.shape_times import ShapeTimes
from toyhw.i18n import t

TOLERANCE = 5e-4  # the frames are rounded to 4 decimals; the focus report's shares to 3 (FOCUS_TOLERANCE)
FOCUS_TOLERANCE = 5e-3
GAP_MARKS = (100, 300, 1000, 2000)
GAP_SEEDS, GAP_BUDGET = tuple(range(10, 15)), 2000
P_ADOPTS = (0.1, 0.5, 0.9)
FOCUS_VARIANTS = ("full", "fb_worst3")
FOCUS_COLUMNS = ("shapes targeted", "faster config known", "child beat its parent")
SEEDS, BUDGET = tuple(ablations.SEEDS), int(ablations.BUDGET)
"""The lecture's seeds and budget as this module was imported: a cell that rebinds ablations.SEEDS changes no truth."""
OTHER_GAP = {"seeds": (20, 21, 22), "budget": 300, "marks": (50, 100, 300)}
OTHER_SWEEP = {"p_adopts": (0.3,), "seeds": (5, 6), "budget": 200}
OTHER_FOCUS = {"variants": ("no_feedback",), "seeds": (5,), "budget": 200}
OTHER_STUDY = (("full", "no_feedback"), (5, 6), 200)
"""The calls the notebook does not show (keyword arguments of the stubs' own signatures), and the small study
Exercise 4 is also given: a right answer holds on them, a copy of the notebook's numbers does not."""
SECONDS = 120.0
"""The time limit of one of the student's functions: the solutions run a study of up to 20 runs (about 10 s)."""


def _first(*verdicts: Callable[[], Verdict | None]) -> Verdict | None:
    """Return the first failed verdict of `verdicts` (each computed only if all before it found nothing), or None."""
    for verdict in verdicts:
        found = verdict()
        if found is not None:
            return found
    return None


def _frame(what: str, value: Any, columns: Sequence[str]) -> Verdict | None:
    """Return a failed verdict unless `value` is a DataFrame with every one of `columns`."""
    if type(value) is not pd.DataFrame:
        kind = value.type_name if isinstance(value, compare.Alien) else type(value).__name__
        return failed(t("check.nb04.not_a_frame", what=what, type=kind))
    missing = [c for c in columns if c not in value.columns]
    return failed(t("check.nb04.no_column", what=what, column=repr(missing[0]))) if missing else None


def _close(what: str, frame: pd.DataFrame, expected: dict, column: str, tolerance: float) -> Verdict | None:
    """Return a failed verdict naming the first row of `frame[column]` off `expected` (row -> value) by > tolerance."""
    for row, want in expected.items():
        try:
            found = row in frame.index
            got = frame.loc[row, column] if found else None
        except Exception as error:  # an index the student built in some other shape: say so, do not raise
            return failed(t("check.nb04.unreadable", what=what, row=repr(row), error=compare.type_name(error)))
        if not found:
            return failed(t("check.nb04.no_row", what=what, row=repr(row)))
        number = compare.number(got)
        if number is None or not abs(number - want) <= tolerance:
            if number is None:
                shown, wanted = compare.shown(got), compare.apart(want, decimals=4)[0]
            else:
                shown, wanted = compare.apart(number, want, decimals=4)
            return failed(t("check.nb04.differs", what=what, column=column, row=repr(row), got=shown, want=wanted))
    return None


def _flag(name: str, value: Any, expected: Any, hint: str) -> Verdict | None:
    """Return a failed verdict unless the student's answer `value` is `expected` (a bool or a variant's name): a bool
    as a bool (numpy's too), a name as a str, nothing coerced."""
    if value is None:
        return failed(t("check.nb04.still_none", name=name, hint=hint))
    if not compare.same(compare.plain(value), expected):
        return failed(t("check.nb04.no_match", name=name, value=compare.shown(value), hint=hint))
    return None


def _call(name: str, kwargs: dict[str, Any]) -> str:
    """The call a verdict names: `name()` or `name(seeds=(20, 21, 22), budget=300)`."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in kwargs.items())})"


@functools.cache
def _gaps(seeds: tuple[int, ...], budget: int, marks: tuple[int, ...]) -> dict[int, float]:
    """The medians' gap between full and small_llm after each mark (seeds, budget): Exercise 1's truth."""
    study = ablations.ablation_study(["full", "small_llm"], seeds, budget)
    return {m: study.median_at("full", m) - study.median_at("small_llm", m) for m in marks}


@on_one_line
def exercise_1(ablation_gap: Callable[..., pd.DataFrame], gap_grows: Any) -> Verdict:
    """The gap between `full` and `small_llm` on seeds 10-14 at 100-2000 programs, and whether it grows; then the gap
    at other seeds, budget and marks."""
    for kwargs, (seeds, budget, marks) in (
        ({}, (GAP_SEEDS, GAP_BUDGET, GAP_MARKS)),
        (OTHER_GAP, (OTHER_GAP["seeds"], OTHER_GAP["budget"], OTHER_GAP["marks"])),
    ):
        what = _call("ablation_gap", kwargs)
        frame, error = attempt(what, lambda: compare.plain(ablation_gap(**kwargs)), SECONDS)
        error = (
            error
            if error is not None
            else _first(
                lambda: _frame(what, frame, ("gap",)),
                lambda: _close(what, frame, _gaps(seeds, budget, marks), "gap", TOLERANCE),
            )
        )
        if error is not None:
            return error
    gaps = _gaps(GAP_SEEDS, GAP_BUDGET, GAP_MARKS)
    grows = all(a < b for a, b in zip(list(gaps.values()), list(gaps.values())[1:]))
    error = _flag("gap_grows", gap_grows, grows, t("check.nb04.exercise_1.hint"))
    if error is not None:
        return error
    return passed(t("check.nb04.exercise_1.passed", first=gaps[100], last=gaps[2000]))


@functools.cache
def _adoption_medians(p_adopts: tuple[float, ...], seeds: tuple[int, ...], budget: int) -> dict[float, float]:
    """The full method's median final training score with MockLLM(p_adopt=p), per p: Exercise 2's truth."""
    ctx = ablations.context()
    return {
        p: float(
            np.median(
                [
                    evolve(Evaluator(ctx.train, ctx.table), budget, seed=s, llm=MockLLM(p_adopt=p)).history[-1]
                    for s in seeds
                ]
            )
        )
        for p in p_adopts
    }


@on_one_line
def exercise_2(adoption_sweep: Callable[..., pd.DataFrame], adopting_helps: Any) -> Verdict:
    """The full method's median final score with MockLLM(p_adopt=p), p = 0.1, 0.5, 0.9, and whether adopting helps;
    then the median for another p, other seeds and a smaller budget."""
    for kwargs, args in (
        ({}, (P_ADOPTS, SEEDS, BUDGET)),
        (OTHER_SWEEP, (OTHER_SWEEP["p_adopts"], OTHER_SWEEP["seeds"], OTHER_SWEEP["budget"])),
    ):
        what = _call("adoption_sweep", kwargs)
        frame, error = attempt(what, lambda: compare.plain(adoption_sweep(**kwargs)), SECONDS)
        error = (
            error
            if error is not None
            else _first(
                lambda: _frame(what, frame, ("median",)),
                lambda: _close(what, frame, _adoption_medians(*args), "median", TOLERANCE),
            )
        )
        if error is not None:
            return error
    medians = _adoption_medians(P_ADOPTS, SEEDS, BUDGET)
    helps = medians[0.1] < medians[0.5] < medians[0.9]
    error = _flag("adopting_helps", adopting_helps, helps, t("check.nb04.exercise_2.hint"))
    if error is not None:
        return error
    shown = t("check.nb04.exercise_2.separator").join(f"{medians[p]:.3f}" for p in P_ADOPTS)
    return passed(t("check.nb04.exercise_2.passed", medians=shown))


@functools.cache
def _focus(variant: str, seed: int, budget: int = BUDGET) -> dict[str, float]:
    """Return the focus report's checked columns for one traced run of `variant`."""
    steps = proposal_trace.trace(variant, seed, budget).steps
    return {
        "shapes targeted": len({s.target for s in steps}),
        "faster config known": float(np.mean([s.best_differs for s in steps])),
        "child beat its parent": float(np.mean([s.score is not None and s.score > s.parent_score for s in steps])),
    }


@on_one_line
def exercise_3(focus_report: Callable[..., pd.DataFrame]) -> Verdict:
    """Per variant and seed: shapes targeted, share with a faster config seen, share of children beating the parent;
    for the notebook's two variants on seeds 0-4, then for another variant, seed and budget."""
    for kwargs, (names, seeds, budget) in (
        ({}, (FOCUS_VARIANTS, SEEDS, BUDGET)),
        (OTHER_FOCUS, (OTHER_FOCUS["variants"], OTHER_FOCUS["seeds"], OTHER_FOCUS["budget"])),
    ):
        what = _call("focus_report", kwargs)
        frame, error = attempt(what, lambda: compare.plain(focus_report(**kwargs)), SECONDS)
        if error is not None:
            return error
        error = _frame(what, frame, FOCUS_COLUMNS)
        if error is not None:
            return error
        for variant in names:
            for seed in seeds:
                for column, want in _focus(variant, seed, budget).items():
                    error = _close(what, frame, {(variant, seed): want}, column, FOCUS_TOLERANCE)
                    if error is not None:
                        return error
    return passed(t("check.nb04.exercise_3.passed"))


def _new_shape_medians(study: AblationStudy) -> dict[str, float]:
    """Each variant's median score of its runs' best programs on the new shapes: Exercise 4's truth."""
    ctx = ablations.context()
    return {
        name: float(np.median([geomean_speedup(r.best, ctx.new, ctx.table) for r in runs]))
        for name, runs in study.runs.items()
    }


@on_one_line
def exercise_4(
    new_shape_scores: Callable[[AblationStudy], pd.DataFrame], study: AblationStudy, best_on_new_shapes: Any
) -> Verdict:
    """Each variant's median score on the 100 new shapes, and the variant with the best median there; for the
    notebook's study, then for a small study of other seeds the notebook does not show.

    The student's function gets a copy of each study and the truth is computed from another: a function that drops
    a variant from `study.runs` changes neither the notebook's study nor the check's.
    """
    if type(study) is not AblationStudy:
        return failed(t("check.nb04.exercise_4.not_a_study", type=compare.type_name(study)))
    column = "new shapes (median)"
    own = compare.copied(study)
    other = ablations.ablation_study(*OTHER_STUDY)
    for given, label in ((own, "new_shape_scores(study)"), (other, "new_shape_scores(another study)")):
        handed = compare.copied(given)
        frame, error = attempt(label, lambda: compare.plain(new_shape_scores(handed)), SECONDS)
        error = (
            error
            if error is not None
            else _first(
                lambda: _frame(label, frame, (column,)),
                lambda: _close(label, frame, _new_shape_medians(given), column, TOLERANCE),
            )
        )
        if error is not None:
            return error
    medians = _new_shape_medians(own)
    best = max(medians, key=medians.get)
    error = _flag("best_on_new_shapes", best_on_new_shapes, best, t("check.nb04.exercise_4.hint"))
    if error is not None:
        return error
    return passed(t("check.nb04.exercise_4.passed", variant=best, median=medians[best]))


def best_m_only_score() -> float:
    """Return the training score of the best M-only rule list: per M, the config best over that M's training shapes.

    The geometric mean over the training shapes factors into one product per M, so each M's config is the argmax of
    its shapes' summed log speedup over the expert (a config that cannot launch on a shape scores -inf there).
    """
    ctx = ablations.context()
    data = ShapeTimes(ctx.train, ctx.table)
    gain = data.program_log_times(expert_program())[:, None] - data.log_times
    best = sum(float(np.max(gain[data.M == m].sum(axis=0))) for m in set(data.M.tolist()))
    return math.exp(best / len(ctx.train))  # math, not numpy: the same bits on every CPU (toyhw/machine/libm.py)


@on_one_line
def exercise_5(best_m_only_program: Callable[[], Program]) -> Verdict:
    """The best rule list that tests M alone: tests only M, and reaches the best M-only training score."""
    program, error = attempt("best_m_only_program()", lambda: compare.plain(best_m_only_program()), SECONDS)
    if error is not None:
        return error
    if type(program) is not Program:
        kind = program.type_name if isinstance(program, compare.Alien) else type(program).__name__
        return failed(t("check.nb04.exercise_5.not_a_program", type=kind))
    if any(b is not None for r in program.rules for b in (r.n_min, r.n_max, r.k_min, r.k_max)):
        return failed(t("check.nb04.exercise_5.tests_n_or_k"))
    ctx = ablations.context()
    score, best = geomean_speedup(program, ctx.train, ctx.table), best_m_only_score()
    if score < best - 1e-9:
        return failed(t("check.nb04.exercise_5.below_best", score=score, best=best))
    share = ablations.headroom_share(score, ctx.oracle_train)
    return passed(t("check.nb04.exercise_5.passed", score=score, share=share))


pristine.watch()
