"""Notebook 02's exercise checks (toyhw.course.checks.nb02) and its solution file.

Each check fails on a wrong, raising or ill-typed answer with a one-line verdict (never a traceback) and passes on
the solution file's answer; the solutions' results are the ones the notebook's answers quote.
"""

import numpy as np
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import metrics
from toyhw.course.check import Verdict
from toyhw.course.checks import nb02 as checks
from toyhw.kernels import knobs, optimize, proposers, study

TASKS = list(study.tasks())
SOLUTIONS = load_solution(NOTEBOOKS / "02_feedback_loops.ipynb")


def _stub(feedback, config, rng):
    raise NotImplementedError


def _starting_point(feedback, config, rng):
    """The notebook's stub: start over after a failure, else one random knob."""
    if not feedback.ok:
        return knobs.KernelConfig()
    return knobs.mutate(config, rng)


def _one_line(verdict: Verdict, ok: bool) -> None:
    assert isinstance(verdict, Verdict) and bool(verdict) is ok, verdict
    text = str(verdict)
    assert "\n" not in text and len(text) <= 110 and text.startswith("✓" if ok else "✗"), text


# ----- the checks pass on the solutions


@pytest.mark.parametrize(
    "k, name", [(1, "my_proposer"), (2, "adviser"), (3, "vec_one_proposer"), (4, "hopeless"), (5, "misreading_explain")]
)
def test_every_check_passes_on_the_solution_file(k, name):
    _one_line(getattr(checks, f"exercise_{k}")(getattr(SOLUTIONS, name)), True)


# ----- and fails, in one line, on anything else

BAD = [
    object(),
    None,
    3,
    "explain",
    _stub,
    lambda feedback, config, rng: 1 / 0,
    lambda feedback, config, rng: None,
    lambda feedback, config, rng: config,
    lambda *args: (_ for _ in ()).throw(TypeError("boom")),
]


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("k", [1, 3, 5])
def test_proposer_checks_fail_on_a_wrong_or_raising_proposer(k, bad):
    _one_line(getattr(checks, f"exercise_{k}")(bad), False)


def test_exercise_1_fails_on_the_starting_point_and_on_a_built_in():
    verdict = checks.exercise_1(_starting_point)
    _one_line(verdict, False)
    assert "0.930" in str(verdict) and "suggest's 0.960" in str(verdict) and "explain's 0.390" in str(verdict)
    _one_line(checks.exercise_1(proposers.suggest), False)  # a tie with the best is not a win
    assert "0.980" in str(checks.exercise_1(SOLUTIONS.directed_proposer))


@pytest.mark.parametrize(
    "bad",
    [
        None,
        3,
        _stub,
        lambda q: None,
        lambda q: proposers.explain,
        lambda q: proposers.suggest,
        lambda q: 1 / 0,
        lambda q: _stub,
    ],
)
def test_exercise_2_fails_unless_both_ends_are_the_built_ins(bad):
    _one_line(checks.exercise_2(bad), False)


def test_exercise_2_fails_on_an_adviser_that_draws_at_the_ends():
    def noisy(q):
        def propose(feedback, config, rng):
            if not feedback.ok:
                return proposers.fix_failure(feedback, config, rng)
            return proposers.suggest(feedback, config, rng) if rng.random() < q else knobs.mutate(config, rng)

        return propose

    _one_line(checks.exercise_2(noisy), False)


def test_exercise_3_fails_on_explain_itself():
    verdict = checks.exercise_3(proposers.explain)
    _one_line(verdict, False)
    assert "vec = 1" in str(verdict) and "vec=2 (expected 1)" in str(verdict)


def test_exercise_5_fails_on_explain_and_on_scalar():
    _one_line(checks.exercise_5(proposers.explain), False)  # misreads nothing
    _one_line(checks.exercise_5(lambda f, c, rng: knobs.mutate(c, rng)), False)  # reads nothing


@pytest.mark.parametrize(
    "bad",
    [
        None,
        3,
        "ab",
        {(True, 4)},
        {(False, 1)},
        {(False, 1), (False, 2), (True, 4)},
        {(False, 8)},
        [(1, 2, 3)],
        {("x", "y")},
        set(),
    ],
)
def test_exercise_4_fails_on_a_wrong_set(bad):
    _one_line(checks.exercise_4(bad), False)


def test_exercise_4_accepts_any_iterable_of_the_right_pairs():
    _one_line(checks.exercise_4([(False, 2), (0, 1)]), True)


def _fast(proposer, rounds):
    s = optimize.speedups_after(TASKS, rounds, proposer)
    return metrics.fast_p(s, 1.0), metrics.fast_p(s, 1.5)


def test_the_directed_proposer_wins_at_10_rounds_but_not_at_fast_1_5_after_50():
    assert _fast(SOLUTIONS.directed_proposer, 10) == (0.98, 0.4)
    table = study.feedback_table(rounds=(10, 50))
    assert all(0.98 > table[m][10][1.0] and 0.4 > table[m][10][1.5] for m in table)
    assert _fast(SOLUTIONS.directed_proposer, 50)[1] == 0.465 < table["explain"][50][1.5] == 0.49


def test_the_adviser_sweep_runs_from_explain_to_suggest_and_only_the_command_loses():
    sweep = SOLUTIONS.advice_sweep()
    table = study.feedback_table(rounds=(50,), ps=(1.5,))
    assert sweep[0.0] == table["explain"][50][1.5] == 0.49 and sweep[1.0] == table["suggest"][50][1.5] == 0.395
    assert sweep == {0.0: 0.49, 0.25: 0.49, 0.5: 0.475, 0.75: 0.485, 1.0: 0.395}
    # the ends are the built-ins exactly, task by task (no extra random draw)
    for q, mode in ((0.0, "explain"), (1.0, "suggest")):
        assert optimize.speedups_after(TASKS, 20, SOLUTIONS.adviser(q)) == optimize.speedups_after(TASKS, 20, mode)


def test_repairing_vector_widths_with_1_costs_only_tasks_of_size_1002_and_only_early():
    vec5 = np.array(optimize.speedups_after(TASKS, 5, SOLUTIONS.vec_one_proposer))
    exp5 = np.array(optimize.speedups_after(TASKS, 5, "explain"))
    differ = np.nonzero(vec5 != exp5)[0]
    assert len(differ) == 19 and all(TASKS[i].n == 1002 and vec5[i] < exp5[i] for i in differ)
    assert (metrics.fast_p(exp5, 1.0), metrics.fast_p(vec5, 1.0)) == (0.83, 0.82)
    assert (metrics.fast_p(exp5, 1.5), metrics.fast_p(vec5, 1.5)) == (0.24, 0.23)
    assert optimize.speedups_after(TASKS, 50, SOLUTIONS.vec_one_proposer) == optimize.speedups_after(
        TASKS, 50, "explain"
    )


def test_the_ceiling_is_decided_by_fusability_vector_width_and_memory_boundness():
    frame = SOLUTIONS.ceiling_by_trait()
    assert int(frame["tasks"].sum()) == 200 and int(frame["clear 1.5x"].sum()) == 98  # the ceiling, 0.49
    assert list(frame.loc[[(False, 1), (False, 2)], "clear 1.5x"]) == [0, 0]
    assert frame.loc[(False, 4), "least memory-bound that clears"] == 0.66
    assert frame.loc[(False, 4), "most memory-bound that does not"] == 0.65
    assert frame.loc[(True, 4), "least memory-bound that clears"] == 0.32
    assert frame.loc[(True, 4), "most memory-bound that does not"] == 0.40


def test_misreading_half_the_errors_lands_between_explain_and_scalar():
    table = study.feedback_table(rounds=(10,))
    misread = _fast(SOLUTIONS.misreading_explain, 10)
    assert misread == (0.9, 0.355)
    assert table["scalar"][10][1.0] < table["resample"][10][1.0] < misread[0] < table["explain"][10][1.0]
    assert table["scalar"][10][1.5] < table["resample"][10][1.5] < misread[1] < table["explain"][10][1.5]
