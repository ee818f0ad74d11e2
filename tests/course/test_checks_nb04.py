"""Notebook 04's exercise checks say ✗ to the stubs and to wrong answers, ✓ to the solution file, and never raise."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import i18n
from toyhw.course.check import Verdict
from toyhw.course.checks import nb04 as checks
from toyhw.evolve import variants
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import Program, Rule, expert_program
from visible_answers import copied_answer


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


def _then(solution, change):
    """The solution's function with `change` applied to what it returns (for every call the check makes)."""
    return lambda *args, **kwargs: change(solution(*args, **kwargs))


def test_exercise_1_fails_wrong_answers():
    gap = solutions().ablation_gap
    for answer, grows, words in [
        (_then(gap, lambda f: _shifted(f, "gap")), True, "gap at 100"),
        (gap, False, "gap_grows = False"),
        (gap, None, "gap_grows is still None"),
        (gap, "yes", "gap_grows = 'yes'"),
        (gap, "True", "gap_grows = 'True'"),
        (_then(gap, lambda f: f.drop(columns="gap")), True, "no column 'gap'"),
        (_then(gap, lambda f: f.drop(index=f.index[-1])), True, "no row 2000"),
        (_then(gap, lambda f: f["gap"]), True, "not a pandas DataFrame"),
        (lambda **kwargs: None, True, "NoneType"),
        (_then(gap, lambda f: f.assign(gap="big")), True, "is 'big'"),
        (_raises, True, "KeyError"),
    ]:
        assert words in _fails(checks.exercise_1(answer, grows)).reason
    _passes(checks.exercise_1(gap, np.True_))


# ----- Exercise 2: adopting more often


def test_exercise_2_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_2(solutions().adoption_sweep, solutions().adopting_helps))
    assert "stub" in _fails(checks.exercise_2(_stub, None)).reason


def test_exercise_2_fails_wrong_answers():
    sweep = solutions().adoption_sweep
    for answer, helps in [
        (_then(sweep, lambda f: _shifted(f, "median", 0.002)), True),
        (sweep, False),
        (_then(sweep, lambda f: f.reset_index()), True),
        (_then(sweep, lambda f: f.assign(median=float("nan"))), True),
        (lambda **kwargs: 1.123, True),
        (_raises, True),
    ]:
        _fails(checks.exercise_2(answer, helps))


# ----- Exercise 3: why the focus does not stall


def test_exercise_3_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_3(solutions().focus_report))
    assert "stub" in _fails(checks.exercise_3(_stub)).reason


def test_exercise_3_fails_wrong_answers():
    focus = solutions().focus_report
    for answer in [
        _then(focus, lambda f: _shifted(f, "child beat its parent")),
        _then(focus, lambda f: _shifted(f, "shapes targeted", 1)),
        _then(focus, lambda f: f.drop(columns="faster config known")),
        _then(focus, lambda f: f.reset_index()),
        _then(focus, lambda f: f.iloc[:1]),
        _then(focus, lambda f: [f]),
        _raises,
    ]:
        _fails(checks.exercise_3(answer))


# ----- Exercise 4: the new shapes


def test_exercise_4_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_4(solutions().new_shape_scores, study(), solutions().best_on_new_shapes))
    assert "stub" in _fails(checks.exercise_4(_stub, study(), None)).reason


def test_exercise_4_fails_wrong_answers():
    scores = solutions().new_shape_scores
    for answer, best in [
        (_then(scores, lambda f: _shifted(f, "new shapes (median)")), "no_meta_prompt"),
        (scores, "full"),
        (scores, None),
        (scores, ["no_meta_prompt"]),
        (_then(scores, lambda f: f.rename(columns={"new shapes (median)": "median"})), "no_meta_prompt"),
        (_then(scores, lambda f: f.drop(index="full")), "no_meta_prompt"),
        (_raises, "no_meta_prompt"),
    ]:
        _fails(checks.exercise_4(answer, study(), best))
    _fails(checks.exercise_4(scores, "study", "no_meta_prompt"))


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


# ----- answers copied from the notebook; the notebook's study and the pack's seeds stay as they were


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_copy_of_the_notebooks_answers_fails_every_check_that_takes_arguments(language):
    s = solutions()
    copies = {
        1: (copied_answer(s.ablation_gap), s.gap_grows),
        2: (copied_answer(s.adoption_sweep), s.adopting_helps),
        3: (copied_answer(s.focus_report),),
        4: (copied_answer(s.new_shape_scores, ((study(),), {})), study(), s.best_on_new_shapes),
    }
    with i18n.using(language):
        for k, args in copies.items():
            _fails(getattr(checks, f"exercise_{k}")(*args))
    assert "ablation_gap(seeds=(20, 21, 22), budget=300, marks=(50, 100, 300))" in str(checks.exercise_1(*copies[1]))
    assert "new_shape_scores(another study)" in str(checks.exercise_4(*copies[4]))


def test_a_function_that_drops_a_variant_from_the_study_changes_neither_the_notebooks_study_nor_the_verdict():
    given = study()
    variants_before = list(given.runs)

    def dropping(st):
        st.runs.pop("full")
        return solutions().new_shape_scores(st)

    verdict = _fails(checks.exercise_4(dropping, given, solutions().best_on_new_shapes))
    assert "no row 'full'" in verdict.reason
    assert list(given.runs) == variants_before and len(given.runs["full"]) == 5


def test_the_truth_does_not_follow_a_cell_that_shrinks_ablations_seeds(monkeypatch):
    monkeypatch.setattr(ablations, "SEEDS", (0,))
    verdict = _fails(checks.exercise_2(solutions().adoption_sweep, solutions().adopting_helps))
    assert "a cell replaced part of the pack (evolve.experiments.ablations.SEEDS)" in verdict.reason
    monkeypatch.undo()
    assert checks.SEEDS == (0, 1, 2, 3, 4)
