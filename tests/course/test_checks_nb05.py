"""Notebook 05's exercise checks say ✗ to the stubs and to wrong answers, ✓ to the solution file, and never raise;
the solution file's answers hold what the exercises' Answer blocks say about them."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from exercise_cells import load_solution
from toyhw import i18n
from toyhw.course import proposal_trace
from toyhw.course.check import Verdict
from toyhw.course.checks import nb05 as checks

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_inside_the_loop.ipynb"


@functools.lru_cache(maxsize=None)
def solutions():
    return load_solution(NOTEBOOK)


def _one_line(verdict: Verdict) -> Verdict:
    text = str(verdict)
    assert isinstance(verdict, Verdict) and "\n" not in text and len(text) <= 110, text
    return verdict


def _fails(verdict: Verdict) -> None:
    assert not _one_line(verdict).ok, verdict


def _passes(verdict: Verdict) -> None:
    assert _one_line(verdict).ok, verdict


# ----- Exercise 1: the tournament's share of the best


def test_exercise_1_passes_the_solution_and_fails_the_stub():
    _passes(checks.exercise_1(solutions().best_share))

    def stub(k: int, island: int = 25, draws: int = 20000, seed: int = 0) -> float:
        raise NotImplementedError

    verdict = checks.exercise_1(stub)
    _fails(verdict)
    assert "stub" in verdict.reason


@pytest.mark.parametrize(
    "answer",
    [
        lambda k: 0.5,  # a constant share
        lambda k: k / 25,  # the union bound, too high for k > 1
        lambda k: 1 - (1 - 1 / 25) ** k + 0.02,  # off by two points
        lambda k: "11.5%",  # a string
        lambda k: None,
        lambda k: pd.DataFrame({"measured": [0.1] * 4}),  # a table instead of a share
        lambda k: float("nan"),
        lambda k: 11.5,  # a percentage, not a share
        lambda k: True,
        lambda k: 1 / 0,  # raises ZeroDivisionError
        lambda: 0.04,  # takes no k: TypeError
    ],
    ids=[
        "constant",
        "union-bound",
        "two-points-off",
        "string",
        "none",
        "frame",
        "nan",
        "percent",
        "bool",
        "raises",
        "no-argument",
    ],
)
def test_exercise_1_fails_wrong_answers_without_raising(answer):
    _fails(checks.exercise_1(answer))


@pytest.mark.parametrize("answer", [None, 0.115, "best_share", [0.04, 0.078]])
def test_exercise_1_fails_what_is_not_a_function(answer):
    _fails(checks.exercise_1(answer))


def test_exercise_1_accepts_the_formula_within_one_point():
    _passes(checks.exercise_1(lambda k, island=25, **rest: checks.best_share_formula(k, island) + 0.009))
    _passes(checks.exercise_1(lambda k, island=25, **rest: np.float64(checks.best_share_formula(k, island))))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_copy_of_the_notebooks_shares_fails(language):
    shares = {k: solutions().best_share(k) for k in checks.TOURNAMENTS}

    def copied(k, island=25, draws=20000, seed=0):
        return shares.get(k, shares[1])

    with i18n.using(language):
        _fails(checks.exercise_1(copied))
    assert str(checks.exercise_1(copied)).startswith("✗ best_share(4, island=10) = 0.040, but")


def test_exercise_1_names_the_call_that_gave_no_share():
    verdict = checks.exercise_1(lambda k, island=25, **rest: "11.5%" if island != 25 else checks.best_share_formula(k))
    assert str(verdict) == "✗ best_share(4, island=10) returned '11.5%': a share is a number between 0 and 1."


def test_the_measured_tournament_shares_agree_with_the_formula():
    sol = solutions()
    measured = [sol.best_share(k) for k in checks.TOURNAMENTS]
    formula = [checks.best_share_formula(k) for k in checks.TOURNAMENTS]
    assert formula == sorted(formula) and np.allclose(measured, formula, atol=0.01)
    assert checks.best_share_formula(3) == pytest.approx(1 - (24 / 25) ** 3)


# ----- Exercise 2: what the cascade cut


def test_exercise_2_passes_the_solution_and_fails_the_stub():
    sol = solutions()
    _passes(checks.exercise_2(sol.beat_parent, sol.beat_best))
    _passes(checks.exercise_2(float(sol.beat_parent), np.int64(sol.beat_best)))
    _fails(checks.exercise_2(None, None))
    _fails(checks.exercise_2(sol.beat_parent, None))


@pytest.mark.parametrize(
    "answer",
    [
        lambda sol: (sol.beat_parent + 1, sol.beat_best),
        lambda sol: (sol.beat_parent, sol.beat_best + 1),
        lambda sol: (sol.beat_parent, len(sol.cut_programs)),
        lambda sol: (-1, 0),
        lambda sol: (2.5, 0),
        lambda sol: ("5", "0"),
        lambda sol: (math.nan, 0),
        lambda sol: (math.inf, 0),
        lambda sol: (True, False),
        lambda sol: ([5], [0]),
    ],
    ids=["parent-off", "best-off", "best-is-cut", "negative", "fraction", "strings", "nan", "inf", "bools", "lists"],
)
def test_exercise_2_fails_wrong_answers_without_raising(answer):
    _fails(checks.exercise_2(*answer(solutions())))


def test_the_cascade_cut_a_quarter_of_the_proposals_and_never_the_next_best_program():
    sol = solutions()
    run = proposal_trace.trace("full", 0, 1000)
    cut = sol.cut_programs
    assert len(cut) == run.result.statuses["cascade"] == checks.cascade_misses()["cut"]
    assert sum(44 - s.runs for s in cut) == len(cut) * (44 - 11)
    assert sol.beat_best == 0 < sol.beat_parent < len(cut) / 20
    assert max(sol.full_scores) < run.result.history[-1]


# ----- Exercise 3: how the prompt grows


def test_exercise_3_passes_the_solution_and_fails_the_stub():
    sol = solutions()
    _passes(checks.exercise_3(sol.tokens, sol.grows_most))
    _passes(checks.exercise_3(sol.tokens, " Inspirations "))
    _fails(checks.exercise_3({1: None, 10: None, 100: None, 1000: None}, None))
    _fails(checks.exercise_3(sol.tokens, None))


@pytest.mark.parametrize(
    "tokens, grows_most",
    [
        ("off-by-one", "inspirations"),
        ("missing", "inspirations"),
        ([2849, 2945, 3768, 6655], "inspirations"),
        (None, "inspirations"),
        ("strings", "inspirations"),
        ("right", "feedback"),
        ("right", "the code"),
        ("right", 7014),
        ("right", ["inspirations"]),
    ],
    ids=["off-by-one", "missing-step", "list", "none", "strings", "wrong-part", "unknown-part", "number", "list-part"],
)
def test_exercise_3_fails_wrong_answers_without_raising(tokens, grows_most):
    right = dict(solutions().tokens)
    made = {
        "right": right,
        "off-by-one": {k: v + 1 for k, v in right.items()},
        "missing": {k: v for k, v in right.items() if k != 1000},
        "strings": {k: str(v) for k, v in right.items()},
    }
    _fails(checks.exercise_3(made.get(tokens, tokens) if isinstance(tokens, str) else tokens, grows_most))


def test_the_prompt_grows_with_the_parent_and_the_inspirations():
    frame = solutions().growth
    assert list(frame.index) == list(checks.PROMPT_STEPS)
    assert list(frame["characters"]) == sorted(frame["characters"])
    assert list(frame["tokens (est.)"]) == sorted(frame["tokens (est.)"])
    growth = frame.iloc[-1] - frame.iloc[0]
    assert growth["inspirations"] > growth["parent"] > growth["feedback"] >= 0
    assert all(growth[part] == 0 for part in ("task", "language", "knowledge", "answer"))
