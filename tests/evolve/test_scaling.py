"""The cost measurements: kernel runs are exact and additive; the parallel note claims only what was measured."""

from toyhw.evolve.experiments import ablations
from toyhw.course import scaling
from toyhw.course.scaling import CostPoint


def test_kernel_runs_are_deterministic_and_match_the_cached_runs():
    (point,) = scaling.budget_costs([150], "small_llm", seed=2)
    assert point.kernel_runs == ablations.run_one("small_llm", 2, 150).kernel_runs
    assert scaling.budget_costs([150], "small_llm", seed=2)[0].kernel_runs == point.kernel_runs


def test_a_studys_cost_is_the_sum_of_its_runs():
    points = scaling.seed_costs([1, 2], ["full", "no_cascade"], budget=60)
    runs = [ablations.run_one(v, s, 60).kernel_runs for v in ("full", "no_cascade") for s in (0, 1)]
    assert points[-1].kernel_runs == sum(runs) and points[-1].runs == 4
    assert scaling.increments(points) == [points[0].kernel_runs, points[1].kernel_runs - points[0].kernel_runs]


def test_parallel_note_says_what_the_timings_show():
    assert "did not pay off" in scaling.parallel_note([CostPoint(1, 2.0, 10, 4), CostPoint(2, 2.5, 10, 4)])
    note = scaling.parallel_note([CostPoint(1, 2.0, 10, 4), CostPoint(2, 1.1, 10, 4)])
    assert "2 processes: 1.82x the speed of 1" in note and "2 processes paid off" in note
