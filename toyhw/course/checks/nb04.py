"""Notebook 04's exercise checks (04_alphaevolve_ablations.ipynb): each returns a one-line Verdict.

Each check recomputes what the exercise asks with the pack (the study's medians, the traced runs, the time table)
and compares the student's numbers with it within a stated tolerance; a wrong type, a missing column or a function
that raises gives a ✗ verdict that says so, never a traceback.
"""

from __future__ import annotations

import math

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.evolve import ablations, proposal_trace
from toyhw.evolve.ablations import AblationStudy
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
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


def _first(*verdicts: Callable[[], Verdict | None]) -> Verdict | None:
    """Return the first failed verdict of `verdicts` (each computed only if all before it found nothing), or None."""
    for verdict in verdicts:
        found = verdict()
        if found is not None:
            return found
    return None


def _frame(what: str, value: Any, columns: Sequence[str]) -> Verdict | None:
    """Return a failed verdict unless `value` is a DataFrame with every one of `columns`."""
    if not isinstance(value, pd.DataFrame):
        return failed(t("check.nb04.not_a_frame", what=what, type=type(value).__name__))
    missing = [c for c in columns if c not in value.columns]
    return failed(t("check.nb04.no_column", what=what, column=repr(missing[0]))) if missing else None


def _close(what: str, frame: pd.DataFrame, expected: dict, column: str, tolerance: float) -> Verdict | None:
    """Return a failed verdict naming the first row of `frame[column]` off `expected` (row -> value) by > tolerance."""
    for row, want in expected.items():
        try:
            got = frame.loc[row, column] if row in frame.index else None
        except Exception as error:  # an index the student built in some other shape: say so, do not raise
            return failed(t("check.nb04.unreadable", what=what, row=repr(row), error=type(error).__name__))
        if got is None:
            return failed(t("check.nb04.no_row", what=what, row=repr(row)))
        if (
            isinstance(got, (bool, np.bool_))
            or not isinstance(got, (int, float, np.number))
            or not abs(float(got) - want) <= tolerance
        ):
            return failed(t("check.nb04.differs", what=what, column=column, row=repr(row), got=repr(got), want=want))
    return None


def _flag(name: str, value: Any, expected: Any, hint: str) -> Verdict | None:
    """Return a failed verdict unless the student's answer `value` is `expected` (a bool or a variant's name)."""
    if value is None:
        return failed(t("check.nb04.still_none", name=name, hint=hint))
    if isinstance(value, (np.bool_, np.str_)):  # numpy's own True or string counts as the plain one
        value = value.item()
    if type(value) is not type(expected) or value != expected:
        return failed(t("check.nb04.no_match", name=name, value=repr(value), hint=hint))
    return None


@on_one_line
def exercise_1(ablation_gap: Callable[[], pd.DataFrame], gap_grows: Any) -> Verdict:
    """The gap between `full` and `small_llm` on seeds 10-14 at 100-2000 programs, and whether it grows."""
    frame, error = attempt("ablation_gap", ablation_gap)
    if error is not None:
        return error
    study = ablations.ablation_study(["full", "small_llm"], GAP_SEEDS, GAP_BUDGET)
    gaps = {m: study.median_at("full", m) - study.median_at("small_llm", m) for m in GAP_MARKS}
    grows = all(a < b for a, b in zip(list(gaps.values()), list(gaps.values())[1:]))
    error = _first(
        lambda: _frame("ablation_gap()", frame, ("gap",)),
        lambda: _close("ablation_gap()", frame, gaps, "gap", TOLERANCE),
        lambda: _flag("gap_grows", gap_grows, grows, t("check.nb04.exercise_1.hint")),
    )
    if error is not None:
        return error
    return passed(t("check.nb04.exercise_1.passed", first=gaps[100], last=gaps[2000]))


@on_one_line
def exercise_2(adoption_sweep: Callable[[], pd.DataFrame], adopting_helps: Any) -> Verdict:
    """The full method's median final score with MockLLM(p_adopt=p), p = 0.1, 0.5, 0.9, and whether adopting helps."""
    frame, error = attempt("adoption_sweep", adoption_sweep)
    if error is not None:
        return error
    ctx = ablations.context()
    medians = {
        p: float(
            np.median(
                [
                    evolve(Evaluator(ctx.train, ctx.table), ablations.BUDGET, seed=s, llm=MockLLM(p_adopt=p)).history[
                        -1
                    ]
                    for s in ablations.SEEDS
                ]
            )
        )
        for p in P_ADOPTS
    }
    helps = medians[0.1] < medians[0.5] < medians[0.9]
    error = _first(
        lambda: _frame("adoption_sweep()", frame, ("median",)),
        lambda: _close("adoption_sweep()", frame, medians, "median", TOLERANCE),
        lambda: _flag("adopting_helps", adopting_helps, helps, t("check.nb04.exercise_2.hint")),
    )
    shown = t("check.nb04.exercise_2.separator").join(f"{medians[p]:.3f}" for p in P_ADOPTS)
    if error is not None:
        return error
    return passed(t("check.nb04.exercise_2.passed", medians=shown))


def _focus(variant: str, seed: int) -> dict[str, float]:
    """Return the focus report's checked columns for one traced run of `variant`."""
    steps = proposal_trace.trace(variant, seed, ablations.BUDGET).steps
    return {
        "shapes targeted": len({s.target for s in steps}),
        "faster config known": float(np.mean([s.best_differs for s in steps])),
        "child beat its parent": float(np.mean([s.score is not None and s.score > s.parent_score for s in steps])),
    }


@on_one_line
def exercise_3(focus_report: Callable[[], pd.DataFrame]) -> Verdict:
    """Per variant and seed: shapes targeted, share with a faster config seen, share of children beating the parent."""
    frame, error = attempt("focus_report", focus_report)
    if error is not None:
        return error
    error = _frame("focus_report()", frame, FOCUS_COLUMNS)
    if error is not None:
        return error
    for variant in FOCUS_VARIANTS:
        for seed in ablations.SEEDS:
            for column, want in _focus(variant, seed).items():
                error = _close("focus_report()", frame, {(variant, seed): want}, column, FOCUS_TOLERANCE)
                if error is not None:
                    return error
    return passed(t("check.nb04.exercise_3.passed"))


@on_one_line
def exercise_4(
    new_shape_scores: Callable[[AblationStudy], pd.DataFrame], study: AblationStudy, best_on_new_shapes: Any
) -> Verdict:
    """Each variant's median score on the 100 new shapes, and the variant with the best median there."""
    frame, error = attempt("new_shape_scores", lambda: new_shape_scores(study))
    if error is not None:
        return error
    column = "new shapes (median)"
    ctx = ablations.context()
    medians = {
        name: float(np.median([geomean_speedup(r.best, ctx.new, ctx.table) for r in runs]))
        for name, runs in study.runs.items()
    }
    best = max(medians, key=medians.get)
    error = _first(
        lambda: _frame("new_shape_scores(study)", frame, (column,)),
        lambda: _close("new_shape_scores(study)", frame, medians, column, TOLERANCE),
        lambda: _flag("best_on_new_shapes", best_on_new_shapes, best, t("check.nb04.exercise_4.hint")),
    )
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
    return math.exp(best / len(ctx.train))  # math, not numpy: the same bits on every CPU (toyhw/libm.py)


@on_one_line
def exercise_5(best_m_only_program: Callable[[], Program]) -> Verdict:
    """The best rule list that tests M alone: tests only M, and reaches the best M-only training score."""
    program, error = attempt("best_m_only_program", best_m_only_program)
    if error is not None:
        return error
    if not isinstance(program, Program):
        return failed(t("check.nb04.exercise_5.not_a_program", type=type(program).__name__))
    if any(b is not None for r in program.rules for b in (r.n_min, r.n_max, r.k_min, r.k_max)):
        return failed(t("check.nb04.exercise_5.tests_n_or_k"))
    ctx = ablations.context()
    score, best = geomean_speedup(program, ctx.train, ctx.table), best_m_only_score()
    if score < best - 1e-9:
        return failed(t("check.nb04.exercise_5.below_best", score=score, best=best))
    share = ablations.headroom_share(score, ctx.oracle_train)
    return passed(t("check.nb04.exercise_5.passed", score=score, share=share))
