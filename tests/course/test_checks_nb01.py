"""Notebook 01's exercise checks fail on wrong answers, pass on right ones and never raise; and the solution file's
answers hold what the exercises' answers say.

Why: a check that raises shows a student a traceback instead of a sentence, and a check that passes a wrong answer
teaches the wrong thing; the notebook's stored check outputs only show the stubs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import i18n, metrics
from toyhw.course.check import WIDTH, Verdict
from toyhw.course.checks import nb01 as checks
from toyhw.kernels import failures, knobs, study
from toyhw.textwidth import display_width
from visible_answers import copied_answer

SOLUTION = load_solution(NOTEBOOKS / "01_one_shot_kernels.ipynb")


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises(*args, **kwargs):
    raise KeyError("a student's bug,\nlong and on several lines " * 8)


def _assert_fails(verdict: Verdict, *words: str) -> None:
    assert isinstance(verdict, Verdict) and not verdict.ok, verdict
    assert str(verdict).startswith("✗ ") and "\n" not in str(verdict) and display_width(str(verdict)) <= WIDTH, verdict
    assert all(w in verdict.reason for w in words), verdict


def _assert_passes(verdict: Verdict) -> None:
    assert isinstance(verdict, Verdict) and verdict.ok, verdict
    assert str(verdict).startswith("✓ ") and display_width(str(verdict)) <= WIDTH, verdict


# ----- Exercise 1


def test_exercise_1_passes_the_solution_and_a_numpy_answer():
    _assert_passes(checks.exercise_1(SOLUTION.correct_and_faster_share))
    _assert_passes(
        checks.exercise_1(
            lambda s, p=1.0: (
                np.float64(np.mean(np.asarray(s) > p) / np.mean(np.asarray(s) > 0))
                if np.any(np.asarray(s) > 0)
                else 0.0
            )
        )
    )


@pytest.mark.parametrize(
    "answer,words",
    [
        (_stub, ("stub",)),
        (_raises, ("KeyError",)),
        (lambda s, p=1.0: "0.76", ("not a number",)),
        (lambda s, p=1.0: None, ("not a number",)),
        (lambda s, p=1.0: metrics.fast_p(s, p), ("fast_p / fast_0",)),  # fast_p itself, not the share
        (lambda s, p=1.0: metrics.fast_p(s, p) / metrics.fast_p(s, 0.0), ("ZeroDivisionError",)),  # no correct kernel
        (lambda s, p=1.0: metrics.fast_p(s, 1.0) / max(metrics.fast_p(s, 0.0), 1e-9), ("p = 1.5",)),  # ignores p
        (lambda s: 0.5, ("TypeError",)),  # takes no p
    ],
)
def test_exercise_1_fails_wrong_answers_without_raising(answer, words):
    _assert_fails(checks.exercise_1(answer), *words)


def test_exercise_1_sees_an_answer_that_changes_its_input():
    def emptying(speedups, p=1.0):
        share = SOLUTION.correct_and_faster_share(speedups, p)
        if isinstance(speedups, list):
            speedups.clear()
        return share

    _assert_passes(checks.exercise_1(emptying))


# ----- Exercise 2


def test_exercise_2_passes_the_solution_and_says_what_changed():
    verdict = checks.exercise_2(SOLUTION.calm_config)
    _assert_passes(verdict)
    assert "compile errors 0% vs 27%" in verdict.reason and "fast_1 0.495 vs 0.32" in verdict.reason


def _redrawn(rng: random.Random) -> knobs.KernelConfig:
    config = knobs.random_config(rng)
    return knobs.random_config(rng) if config.tile == 64 else config  # a second draw: not the same stream


@pytest.mark.parametrize(
    "answer,words",
    [
        (_stub, ("stub",)),
        (_raises, ("KeyError",)),
        (knobs.random_config, ("task 1: its tile is 64",)),  # the eager writer itself (the notebook's stub)
        (lambda rng: knobs.random_config(rng).replace(tile=32), ("tile is 32", "16")),  # every tile made 32
        (_redrawn, ("task 1",)),
        (lambda rng: knobs.random_config(rng).as_dict(), ("not a knobs.KernelConfig",)),
        (lambda: knobs.DEFAULT, ("TypeError",)),
    ],
)
def test_exercise_2_fails_wrong_answers_without_raising(answer, words):
    _assert_fails(checks.exercise_2(answer), *words)


def test_the_calm_writer_changes_only_the_tile_and_wins_everywhere():
    eager, calm = study.one_shot(), checks.writer_report(SOLUTION.calm_config)
    for a, b in zip(eager.kernels, calm.kernels):
        assert b.config == (a.config.replace(tile=32) if a.config.tile == 64 else a.config)
    assert checks.writer_report(knobs.random_config) == eager  # the same tasks and streams as study.one_shot
    assert calm.status_shares() == {"compile_error": 0.0, "wrong": 0.42, "ok": 0.58}
    assert calm.fast() == {0.0: 0.58, 1.0: 0.495, 1.5: 0.135}
    assert sum(k.feedback.status == "wrong" for k in eager.kernels) == 62
    assert sum(k.feedback.status == "wrong" for k in calm.kernels) == 84
    improved = [(a, b) for a, b in zip(eager.kernels, calm.kernels) if a.config.tile == 64 and a.feedback.ok]
    assert len(improved) == 26 and all(b.speedup > a.speedup for a, b in improved)


# ----- Exercise 3


def test_exercise_3_passes_the_solution():
    verdict = checks.exercise_3(SOLUTION.one_explained_fix)
    _assert_passes(verdict)
    assert "86 of the 116" in verdict.reason


def _fixes_everything(report, seed=0):
    failing = sum(not k.feedback.ok for k in report.kernels)
    return {"failing": failing, "correct after one fix": failing, "still failing": 0}


@pytest.mark.parametrize(
    "answer,words",
    [
        (_stub, ("stub",)),
        (_raises, ("KeyError",)),
        (lambda report, seed=0: [116, 86, 30], ("not a dict",)),
        (lambda report, seed=0: {"failing": 116, "fixed": 86, "still failing": 30}, ("'correct after one fix'",)),
        (lambda report, seed=0: {"failing": 116, "correct after one fix": 86.5, "still failing": 29.5}, ("whole",)),
        (lambda report, seed=0: {"failing": 200, "correct after one fix": 170, "still failing": 30}, ("116",)),
        (lambda report, seed=0: {"failing": 116, "correct after one fix": 86, "still failing": 31}, ("add up",)),
        (_fixes_everything, ("'correct after one fix' is 116",)),
    ],
)
def test_exercise_3_fails_wrong_answers_without_raising(answer, words):
    _assert_fails(checks.exercise_3(answer), *words)


def test_one_explained_fix_repairs_exactly_the_single_rule_failures():
    report = study.one_shot()
    assert SOLUTION.one_explained_fix(report) == {"failing": 116, "correct after one fix": 86, "still failing": 30}
    assert sum(len(failures.broken_rules(k.task, k.config)) > 1 for k in report.kernels) == 30
    assert SOLUTION.one_explained_fix(report, seed=7) == SOLUTION.one_explained_fix(report)  # the coin never matters


# ----- Exercise 1's answer


def test_correct_and_faster_share_ignores_failures_and_so_rewards_handing_in_less():
    s = study.one_shot().speedups()
    assert SOLUTION.correct_and_faster_share(s) == pytest.approx(64 / 84)
    sure = np.zeros(200)
    sure[int(np.argmax(s))] = s.max()  # only the fastest kernel handed in
    assert SOLUTION.correct_and_faster_share(sure) == 1.0 and metrics.fast_p(sure, 1.0) == 0.005
    assert SOLUTION.correct_and_faster_share([0.0, 0.0]) == 0.0


# ----- answers copied from the notebook, answers of the wrong type, answers that change what they are given


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_copy_of_the_notebooks_answers_fails_every_check(language):
    lecture = study.one_shot().speedups()
    shown = [((lecture, p), {}) for p in (1.0, 1.5, 0.5)] + [
        ((speedups, p), {}) for speedups in ([0.0, 1.0, 1.2, 2.5], [0.0, 0.0]) for p in (1.0, 1.5, 0.5)
    ]
    streams = [random.Random(230 + 1 + i) for i in range(200)]
    drawn = {rng.getstate(): SOLUTION.calm_config(random.Random(230 + 1 + i)) for i, rng in enumerate(streams)}

    def calm_table(rng):  # the lecture's 200 kernels, written down; the eager writer anywhere else
        return drawn.get(rng.getstate()) or knobs.random_config(rng)

    with i18n.using(language):
        for verdict in (
            checks.exercise_1(copied_answer(SOLUTION.correct_and_faster_share, *shown)),
            checks.exercise_2(calm_table),
            checks.exercise_3(copied_answer(SOLUTION.one_explained_fix, ((study.one_shot(),), {}))),
        ):
            _assert_fails(verdict)
    assert checks.exercise_2(calm_table).reason.startswith("the stream random.Random(9): its tile is 64")
    copied = copied_answer(SOLUTION.one_explained_fix, ((study.one_shot(),), {}))
    assert checks.exercise_3(copied).reason == (
        "on another case (study.one_shot(7, 60)): 'failing' is 116, but 34 one-shot kernels fail"
    )


def test_exercise_1_takes_a_numpy_scalar_and_refuses_a_string_and_shows_the_digits_that_differ():
    _assert_passes(checks.exercise_1(lambda s, p=1.0: np.float32(SOLUTION.correct_and_faster_share(s, p))))
    _assert_fails(checks.exercise_1(lambda s, p=1.0: str(SOLUTION.correct_and_faster_share(s, p))), "'0.7619")
    verdict = checks.exercise_1(lambda s, p=1.0: 0.762)
    _assert_fails(verdict, "it gives 0.7620, but fast_p / fast_0 is 0.7619")


def test_exercise_2_refuses_a_config_whose_equality_is_always_true():
    class AlwaysEqual(knobs.KernelConfig):
        def __eq__(self, other):
            return True

        __hash__ = knobs.KernelConfig.__hash__

    _assert_fails(checks.exercise_2(lambda rng: AlwaysEqual()), "AlwaysEqual", "not a knobs.KernelConfig")


def test_exercise_3_refuses_counts_that_are_strings_or_fractions_and_takes_numpy_counts():
    def as_numpy(report, seed=0):
        return {k: np.int64(v) for k, v in SOLUTION.one_explained_fix(report, seed).items()}

    _assert_passes(checks.exercise_3(as_numpy))
    for bad in ("116", 13.9, True):
        _assert_fails(
            checks.exercise_3(lambda report, seed=0, bad=bad: dict(SOLUTION.one_explained_fix(report), failing=bad)),
            "whole",
        )


def test_a_function_that_changes_the_report_changes_nothing_the_notebook_holds():
    before = study.one_shot()
    kernels = before.kernels

    def vandal(report, seed=0):
        object.__setattr__(report, "kernels", report.kernels[:3])
        return {"failing": 0, "correct after one fix": 0, "still failing": 0}

    _assert_fails(checks.exercise_3(vandal), "'failing' is 0, but 116")
    assert study.one_shot() is before and before.kernels is kernels and len(kernels) == 200
