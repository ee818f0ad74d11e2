"""The exercise solutions of notebook 02 run, and what each Solution block says about its result holds."""
import numpy as np

from toyhw import metrics
from toyhw.kernels import optimize, solutions, study

TASKS = list(study.tasks())


# ----- notebook 02

def _fast(proposer, rounds):
    s = optimize.speedups_after(TASKS, rounds, proposer)
    return metrics.fast_p(s, 1.0), metrics.fast_p(s, 1.5)


def test_the_directed_proposer_wins_at_10_rounds_but_not_at_fast_1_5_after_50():
    assert _fast(solutions.directed_proposer, 10) == (0.98, 0.4)
    table = study.feedback_table(rounds=(10, 50))
    assert all(0.98 > table[m][10][1.0] and 0.4 > table[m][10][1.5] for m in table)
    assert _fast(solutions.directed_proposer, 50)[1] == 0.465 < table["explain"][50][1.5] == 0.49


def test_the_adviser_sweep_runs_from_explain_to_suggest_and_only_the_command_loses():
    sweep = solutions.advice_sweep()
    table = study.feedback_table(rounds=(50,), ps=(1.5,))
    assert sweep[0.0] == table["explain"][50][1.5] == 0.49 and sweep[1.0] == table["suggest"][50][1.5] == 0.395
    assert sweep == {0.0: 0.49, 0.25: 0.49, 0.5: 0.475, 0.75: 0.485, 1.0: 0.395}
    # the ends are the built-ins exactly, task by task (no extra random draw)
    for q, mode in ((0.0, "explain"), (1.0, "suggest")):
        assert optimize.speedups_after(TASKS, 20, solutions.adviser(q)) == optimize.speedups_after(TASKS, 20, mode)


def test_repairing_vector_widths_with_1_costs_only_tasks_of_size_1002_and_only_early():
    vec5 = np.array(optimize.speedups_after(TASKS, 5, solutions.vec_one_proposer))
    exp5 = np.array(optimize.speedups_after(TASKS, 5, "explain"))
    differ = np.nonzero(vec5 != exp5)[0]
    assert len(differ) == 19 and all(TASKS[i].n == 1002 and vec5[i] < exp5[i] for i in differ)
    assert (metrics.fast_p(exp5, 1.0), metrics.fast_p(vec5, 1.0)) == (0.83, 0.82)
    assert (metrics.fast_p(exp5, 1.5), metrics.fast_p(vec5, 1.5)) == (0.24, 0.23)
    assert optimize.speedups_after(TASKS, 50, solutions.vec_one_proposer) == optimize.speedups_after(TASKS, 50, "explain")


def test_the_ceiling_is_decided_by_fusability_vector_width_and_memory_boundness():
    frame = solutions.ceiling_by_trait()
    assert int(frame["tasks"].sum()) == 200 and int(frame["clear 1.5x"].sum()) == 98  # the ceiling, 0.49
    assert list(frame.loc[[(False, 1), (False, 2)], "clear 1.5x"]) == [0, 0]
    assert frame.loc[(False, 4), "least memory-bound that clears"] == 0.66
    assert frame.loc[(False, 4), "most memory-bound that does not"] == 0.65
    assert frame.loc[(True, 4), "least memory-bound that clears"] == 0.32
    assert frame.loc[(True, 4), "most memory-bound that does not"] == 0.40


def test_misreading_half_the_errors_lands_between_explain_and_scalar():
    table = study.feedback_table(rounds=(10,))
    misread = _fast(solutions.misreading_explain, 10)
    assert misread == (0.9, 0.355)
    assert table["scalar"][10][1.0] < table["resample"][10][1.0] < misread[0] < table["explain"][10][1.0]
    assert table["scalar"][10][1.5] < table["resample"][10][1.5] < misread[1] < table["explain"][10][1.5]
