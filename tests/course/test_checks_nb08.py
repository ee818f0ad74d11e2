"""Notebook 08's exercise checks fail on the stubs and on wrong answers, pass on the solution file, never raise; and
the solutions do what the exercises' answers say.
"""

from __future__ import annotations

import pandas as pd
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import i18n
from toyhw.course.check import WIDTH
from toyhw.course.checks import nb08 as checks
from toyhw.textwidth import display_width
from visible_answers import copied_answer

S = load_solution(NOTEBOOKS / "08_appendix_cost_and_scale.ipynb")


def _stub(*args, **kwargs):
    raise NotImplementedError


def _raises(*args, **kwargs):
    raise KeyError("full")


def _verdict(verdict, ok: bool) -> None:
    assert bool(verdict) is ok, verdict
    assert display_width(str(verdict)) <= WIDTH and "\n" not in str(verdict), verdict
    assert str(verdict).startswith("✓ " if ok else "✗ ")


def test_exercise_1_fails_on_the_stub_and_on_wrong_frames_and_passes_on_the_solution():
    right = S.cascade_savings()
    _verdict(checks.exercise_1(_stub), False)
    assert "still the stub" in str(checks.exercise_1(_stub))
    _verdict(checks.exercise_1(_raises), False)
    _verdict(checks.exercise_1(None), False)
    _verdict(checks.exercise_1(lambda: {"full": 1}), False)
    _verdict(checks.exercise_1(lambda: pd.DataFrame()), False)
    _verdict(checks.exercise_1(lambda: right.drop(columns="saved")), False)
    _verdict(checks.exercise_1(lambda: right.assign(saved=right["saved"] + 0.01)), False)
    _verdict(checks.exercise_1(lambda: right.assign(saved="a lot")), False)
    _verdict(checks.exercise_1(lambda: right.assign(full=right["full"] + 1)), False)
    rounded = lambda **kwargs: S.cascade_savings(**kwargs).round({"saved": 2})  # noqa: E731
    _verdict(checks.exercise_1(rounded), True)  # within half a point
    _verdict(checks.exercise_1(S.cascade_savings), True)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() in a process with threads, on some Pythons
def test_exercise_2_fails_on_the_stub_and_on_wrong_counts_and_passes_on_the_solution():
    right = S.serial_and_parallel_agree()
    _verdict(checks.exercise_2(_stub), False)
    _verdict(checks.exercise_2(_raises), False)
    _verdict(checks.exercise_2([]), False)
    _verdict(checks.exercise_2(lambda: 8800), False)
    _verdict(checks.exercise_2(lambda: dict(right, identical=False)), False)
    _verdict(checks.exercise_2(lambda: {k: v for k, v in right.items() if k != "runs"}), False)
    _verdict(checks.exercise_2(lambda: dict(right, **{"kernel runs, parallel": 8801})), False)
    _verdict(checks.exercise_2(S.serial_and_parallel_agree), True)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() in a process with threads, on some Pythons
def test_a_copy_of_the_notebooks_answers_fails(language):
    copies = {1: copied_answer(S.cascade_savings), 2: copied_answer(S.serial_and_parallel_agree)}
    with i18n.using(language):
        for k, copied in copies.items():
            _verdict(getattr(checks, f"exercise_{k}")(copied), False)
    assert str(checks.exercise_1(copies[1])).startswith(
        "✗ on another case (cascade_savings(budget=200, seeds=(5, 6))): "
    )
    assert str(checks.exercise_2(copies[2])).startswith(
        "✗ on another case (serial_and_parallel_agree(names=('no_cascade',), seeds=(3,), budget=60)): "
    )


def test_a_verdict_too_wide_for_a_projector_is_cut_to_fit():
    def long_error(text: str):
        def raises():
            raise ValueError(text * 300)

        return raises

    wide = checks.exercise_1(long_error("é"))
    assert display_width(str(wide)) == WIDTH and str(wide).endswith("…")
    with i18n.using("zh"):  # a CJK character takes two columns: the line may end one column short
        wide = checks.exercise_1(long_error("中"))
    assert WIDTH - 1 <= display_width(str(wide)) <= WIDTH and str(wide).endswith("…")


# ----- the solutions do what the exercises' answers say


def test_the_cascade_saves_kernel_runs_on_every_seed():
    frame = S.cascade_savings()
    assert (frame["full"] < frame["no_cascade"]).all() and (frame["saved"] > 0.2).all()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() in a process with threads, on some Pythons
def test_a_grid_gives_the_same_results_serially_and_on_two_processes():
    out = S.serial_and_parallel_agree()
    assert out["identical"] and out["kernel runs, serial"] == out["kernel runs, parallel"] and out["runs"] == 4
    assert checks.exercise_2(S.serial_and_parallel_agree)
