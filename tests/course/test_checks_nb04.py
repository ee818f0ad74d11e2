"""Notebook 04's exercise checks say ✗ to the stubs and to wrong answers, ✓ to the solution file, and never raise."""

from __future__ import annotations

import functools

import pandas as pd
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw.course.check import Verdict
from toyhw.course.checks import nb04 as checks
from toyhw.evolve import ablations, variants
from toyhw.evolve.programs import Program, Rule, expert_program


@functools.lru_cache(maxsize=None)
def solutions():
    return load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb")


@functools.lru_cache(maxsize=None)
def study() -> ablations.AblationStudy:
    return ablations.ablation_study(variants.available(), ablations.SEEDS, ablations.BUDGET)


def _one_line(verdict: Verdict) -> Verdict:
    text = str(verdict)
    assert isinstance(verdict, Verdict) and "\n" not in text and len(text) <= 110, text
    return verdict


def _fails(verdict: Verdict) -> Verdict:
    assert not _one_line(verdict).ok, verdict
    return verdict


def _passes(verdict: Verdict) -> None:
    assert _one_line(verdict).ok, verdict


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises(*args, **kwargs):
    raise KeyError("full")


def _shifted(frame: pd.DataFrame, column: str, by: float = 0.01) -> pd.DataFrame:
    frame = frame.copy()
    frame[column] = frame[column] + by
    return frame


# ----- Exercise 1: the gap at a larger budget


def test_exercise_1_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_1(solutions().ablation_gap, solutions().gap_grows))
    assert "stub" in _fails(checks.exercise_1(_stub, None)).reason


def test_exercise_1_fails_wrong_answers():
    right = solutions().ablation_gap()
    for answer, grows in [
        (lambda: _shifted(right, "gap"), True),
        (lambda: right, False),
        (lambda: right, None),
        (lambda: right, "yes"),
        (lambda: right.drop(columns="gap"), True),
        (lambda: right.drop(index=2000), True),
        (lambda: right["gap"], True),
        (lambda: None, True),
        (lambda: right.assign(gap="big"), True),
        (_raises, True),
    ]:
        _fails(checks.exercise_1(answer, grows))


# ----- Exercise 2: adopting more often


def test_exercise_2_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_2(solutions().adoption_sweep, solutions().adopting_helps))
    assert "stub" in _fails(checks.exercise_2(_stub, None)).reason


def test_exercise_2_fails_wrong_answers():
    right = solutions().adoption_sweep()
    for answer, helps in [
        (lambda: _shifted(right, "median", 0.002), True),
        (lambda: right, False),
        (lambda: right.reset_index(), True),
        (lambda: right.assign(median=float("nan")), True),
        (lambda: 1.123, True),
        (_raises, True),
    ]:
        _fails(checks.exercise_2(answer, helps))


# ----- Exercise 3: why the focus does not stall


def test_exercise_3_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_3(solutions().focus_report))
    assert "stub" in _fails(checks.exercise_3(_stub)).reason


def test_exercise_3_fails_wrong_answers():
    right = solutions().focus_report()
    for answer in [
        lambda: _shifted(right, "child beat its parent"),
        lambda: _shifted(right, "shapes targeted", 1),
        lambda: right.drop(columns="faster config known"),
        lambda: right.reset_index(),
        lambda: right.loc[["full"]],
        lambda: [right],
        _raises,
    ]:
        _fails(checks.exercise_3(answer))


# ----- Exercise 4: the new shapes


def test_exercise_4_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_4(solutions().new_shape_scores, study(), solutions().best_on_new_shapes))
    assert "stub" in _fails(checks.exercise_4(_stub, study(), None)).reason


def test_exercise_4_fails_wrong_answers():
    right = solutions().new_shape_scores(study())
    for answer, best in [
        (lambda s: _shifted(right, "new shapes (median)"), "no_meta_prompt"),
        (lambda s: right, "full"),
        (lambda s: right, None),
        (lambda s: right, ["no_meta_prompt"]),
        (lambda s: right.rename(columns={"new shapes (median)": "median"}), "no_meta_prompt"),
        (lambda s: right.drop(index="full"), "no_meta_prompt"),
        (_raises, "no_meta_prompt"),
    ]:
        _fails(checks.exercise_4(answer, study(), best))


# ----- Exercise 5: the best heuristic on M alone


def test_exercise_5_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_5(solutions().best_m_only_program))
    assert "stub" in _fails(checks.exercise_5(_stub)).reason


def test_exercise_5_fails_wrong_answers():
    right = solutions().best_m_only_program()
    tests_n = Program((Rule(right.default, m_max=16, n_max=1280),) + right.rules, right.default)
    worse = Program(right.rules[1:], right.default)
    for answer in [expert_program, lambda: tests_n, lambda: worse, lambda: "def choose(M, N, K): ...", _raises]:
        _fails(checks.exercise_5(answer))


def test_the_best_m_only_score_is_the_solutions_score():
    from toyhw.evolve.evaluator import geomean_speedup

    ctx = ablations.context()
    assert checks.best_m_only_score() == pytest.approx(
        geomean_speedup(solutions().best_m_only_program(), ctx.train, ctx.table), abs=1e-12
    )
