"""Notebook 02's exercise checks (toyhw.course.checks.nb02) and its solution file.

Each check fails on a wrong, raising or ill-typed answer with a one-line verdict (never a traceback) and passes on
the solution file's answer; the solutions' results are the ones the notebook's answers quote.
"""

import random
import time

import numpy as np
import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw import i18n, metrics
from toyhw.course.check import Verdict
from toyhw.course.checks import nb02 as checks
from toyhw.kernels import knobs, optimize, proposers, study
from visible_answers import recording, replayed_proposer

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


def test_exercise_4_accepts_a_list_of_the_right_pairs_with_numpy_values():
    _one_line(checks.exercise_4([(False, 2), [np.False_, np.int64(1)]]), True)


@pytest.mark.parametrize(
    "given, shown",
    [
        ({("False", 1), (False, 2)}, "('False', 1)"),  # bool("False") is True: no string is a bool
        ({("yes", "2")}, "('yes', '2')"),
        ({(False, 2), (0, 1)}, "(0, 1)"),  # 0 is an int, not False
        ({(False, 2.0), (False, 1.5)}, "(False, 1.5)"),
    ],
)
def test_exercise_4_reads_no_pair_it_would_have_to_coerce_and_names_it_as_written(given, shown):
    verdict = checks.exercise_4(given)
    _one_line(verdict, False)
    assert shown in str(verdict) and "not a (fusable, widest vec) pair" in str(verdict), verdict


def test_exercise_4_names_a_group_that_clears_the_bar_as_the_student_wrote_it():
    verdict = checks.exercise_4({(np.True_, np.int64(4))})
    _one_line(verdict, False)
    assert "in the group (True, 4) " in str(verdict), verdict


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


# ----- answers copied from the notebook, misreadings the exercise does not ask for, a patched pack


def _lecture_probes():
    return [(k.feedback, k.config, random.Random(k.index)) for k in study.one_shot().kernels]


def _replayed_race(solution):
    """`solution` written down as a table of the lecture race's steps (explain anywhere else)."""
    seen = []
    optimize.speedups_after(TASKS, 10, recording(solution, seen))
    return replayed_proposer(solution, seen)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_copy_of_the_notebooks_answers_fails_every_check_that_takes_a_function(language):
    race_copy = _replayed_race(SOLUTIONS.my_proposer)
    assert optimize.speedups_after(TASKS, 10, race_copy) == optimize.speedups_after(TASKS, 10, SOLUTIONS.my_proposer)
    copies = {
        1: race_copy,
        2: lambda q: proposers.explain if q < 1 else proposers.suggest,  # explain's 0.490 is within 0.015 of itself
        3: replayed_proposer(SOLUTIONS.vec_one_proposer, _lecture_probes()),
        5: replayed_proposer(SOLUTIONS.misreading_explain, _lecture_probes()),
    }
    with i18n.using(language):
        for k, copied in copies.items():
            _one_line(getattr(checks, f"exercise_{k}")(copied), False)
    assert str(checks.exercise_1(race_copy)).startswith("✗ on another case (task seed 7, 200 tasks): after 10 rounds")
    assert "adviser(0.5) turns a knob the bottleneck names in" in str(checks.exercise_2(copies[2]))
    assert "of task seed 7" in str(checks.exercise_3(copies[3]))
    assert "it misreads" in str(checks.exercise_5(copies[5]))


def test_exercise_2_says_an_adviser_that_ignores_q_ignores_q():
    def always_follows(q):
        return follow

    def follow(feedback, config, rng):
        if not feedback.ok:
            return proposers.fix_failure(feedback, config, rng)
        return proposers.suggest(feedback, config, rng)

    verdict = checks.exercise_2(always_follows)
    _one_line(verdict, False)
    assert "adviser(0) is exactly suggest: it ignores q" in str(verdict) and "random" not in str(verdict), verdict
    verdict = checks.exercise_2(lambda q: proposers.explain)
    assert "adviser(1) is exactly explain: it ignores q" in str(verdict), verdict


def test_exercise_2_says_an_adviser_that_draws_at_q_0_draws():
    def drawing(q):
        def propose(feedback, config, rng):
            if not feedback.ok:
                return proposers.fix_failure(feedback, config, rng)
            return proposers.suggest(feedback, config, rng) if rng.random() < q else knobs.mutate(config, rng)

        return propose

    verdict = checks.exercise_2(drawing)
    _one_line(verdict, False)
    assert "adviser(0) is not explain on one-shot kernel" in str(verdict) or "draws other random numbers" in str(
        verdict
    ), verdict


def test_exercise_5_refuses_a_proposer_that_misreads_only_one_kind_of_error():
    def shared_memory_only(feedback, config, rng):
        if feedback.cause == "shared_memory_overflow":
            return knobs.mutate(config, rng)
        return proposers.explain(feedback, config, rng)

    verdict = checks.exercise_5(shared_memory_only)
    _one_line(verdict, False)
    assert "it misreads 0% of the errors 'illegal fusion'" in str(verdict), verdict


def test_a_check_refuses_to_race_built_ins_a_cell_has_replaced(monkeypatch):
    monkeypatch.setattr(proposers, "fix_failure", lambda feedback, config, rng: knobs.KernelConfig())
    verdict = checks.exercise_1(_starting_point)
    _one_line(verdict, False)
    assert "a cell replaced part of the pack (kernels.proposers.fix_failure)" in str(verdict), verdict
    monkeypatch.undo()
    assert "not above suggest's 0.960" in str(checks.exercise_1(_starting_point))


def test_a_race_that_does_not_end_is_stopped_at_the_stated_limit():
    def endless(feedback, config, rng):
        while True:
            pass

    start = time.monotonic()
    verdict = checks.exercise_1(endless)
    assert str(verdict) == f"✗ my_proposer did not return within {checks.RACE_SECONDS:g} s", verdict
    assert time.monotonic() - start < checks.RACE_SECONDS + 5
