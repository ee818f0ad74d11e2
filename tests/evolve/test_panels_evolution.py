"""Lecture 14's widget panels build, redraw when a control moves, and show errors instead of half-drawing."""

import ipywidgets as widgets

from toyhw.evolve.experiments import branch_check, targeting
from toyhw.panels import evolution as panels

from panel_widgets import chart, control, error, redrawn, walk


def test_ablation_panel_redraws_when_budget_moves_and_reports_an_empty_selection():
    panel = panels.ablation_panel(["full", "small_llm"], budget=300, n_seeds=3)
    before = chart(panel).spec
    control(panel, "budget").value = 500
    assert redrawn(panel, before)
    assert chart(panel).spec == panels.ablation_figure(["full", "small_llm"], 500, 3).spec
    control(panel, "variants").value = ()
    assert "variants is empty" in error(panel)


def test_a_best_so_far_curve_keeps_every_step():
    study = panels.full_study()
    hist = study.histories("full", 1000, 5)
    spec = panels.ablation_figure(["full"], 1000, 5).spec
    band, line = [m for m in spec["plots"][0]["marks"] if m["type"] in ("area", "line")]
    for x, y in zip(line["x"], line["y"]):  # every kept point is on the median curve, and the curve's ends are kept
        assert abs(y - float(sorted(hist[:, int(x) - 1])[2])) < 1e-5
    assert line["x"][0] == 1 and line["x"][-1] == 1000 and len(line["x"]) < 1000


def test_feedback_panel_redraws_when_budget_moves_and_shows_what_the_run_of_that_budget_shows():
    panel = panels.feedback_panel(seed=0, budget=100)
    before = chart(panel).spec
    control(panel, "budget").value = 150
    assert redrawn(panel, before)
    assert chart(panel).spec == panels.targeting_spec(targeting.targeting(0, 150))


def test_branches_panel_redraws_when_the_seed_moves_and_shows_a_latent_branch_per_check_setting():
    panel = panels.branches_panel(seed=1, budget=1000)
    before = chart(panel).spec
    control(panel, "seed").value = 0
    assert redrawn(panel, before)
    expected = panels.branches_spec(branch_check.branch_row(0, 1000, False), branch_check.branch_row(0, 1000, True))
    assert chart(panel).spec == expected
    card = [w for w in walk(panel) if isinstance(w, widgets.HTML)][-1]
    check = control(panel, "branch check")
    assert "latent bad branch" in card.value and "cannot launch" in card.value  # seed 0 without the check has one
    check.value = True
    assert "no program in the final database has a branch that cannot launch" in card.value


def test_a_seed_the_panel_has_not_run_is_run_on_its_first_visit():
    panel = panels.branches_panel(seed=0, budget=300)
    control(panel, "seed").value = 12
    expected = panels.branches_spec(branch_check.branch_row(12, 300, False), branch_check.branch_row(12, 300, True))
    assert chart(panel).spec == expected and not error(panel)


def test_the_seeds_above_the_one_shown_run_ahead_in_a_thread_and_a_visit_then_is_a_lookup():
    asked: list[int] = []

    def compute(seed: int, budgets: list[int]) -> dict:
        asked.append(seed)
        return {budget: (seed, budget) for budget in budgets}

    runs = panels.SeedRuns(compute, [100, 200])
    runs.of(0)
    runs.ahead(0)
    assert runs.settled()
    assert sorted(asked) == [0, 1, 2, 3] and sorted(runs.kept) == [0, 1, 2, 3]
    assert runs.of(2) == {100: (2, 100), 200: (2, 200)} and asked.count(2) == 1  # a lookup, run once
    runs.ahead(2)  # 3 is kept: the next three not kept are 4, 5, 6
    assert runs.settled() and sorted(runs.kept) == list(range(7))


def test_a_seed_whose_run_ahead_raised_is_run_again_on_its_visit_and_shows_the_error():
    def compute(seed: int, budgets: list[int]) -> dict:
        if seed == 1:
            raise ValueError("seed 1 cannot run")
        return {budget: seed for budget in budgets}

    runs = panels.SeedRuns(compute, [100])
    runs.ahead(0)
    assert runs.settled() and sorted(runs.kept) == [2, 3]
    try:
        runs.of(1)
    except ValueError as error:
        assert str(error) == "seed 1 cannot run"
    else:
        raise AssertionError("the visit of seed 1 did not raise its error")


def test_a_visit_of_a_seed_the_thread_is_running_waits_for_that_run_instead_of_running_it_twice():
    import threading

    started, release, asked = threading.Event(), threading.Event(), []

    def compute(seed: int, budgets: list[int]) -> dict:
        asked.append(seed)
        if seed == 1:
            started.set()
            release.wait(10)
        return {budget: seed for budget in budgets}

    runs = panels.SeedRuns(compute, [100])
    runs.ahead(0)
    assert started.wait(10)
    threading.Timer(0.2, release.set).start()
    assert runs.of(1) == {100: 1} and asked.count(1) == 1
    assert runs.settled()


def test_a_run_ahead_hands_the_gil_over_often_and_puts_the_interval_back_when_it_is_done():
    """A move's lookup waits for the GIL at every socket call; behind a run at the default 5 ms it waited 129 ms."""
    import sys

    intervals: list[float] = []

    def compute(seed: int, budgets: list[int]) -> dict:
        intervals.append(sys.getswitchinterval())
        return {budget: seed for budget in budgets}

    _wait_for_no_run_ahead()  # panels of earlier tests may still be running seeds ahead
    before = sys.getswitchinterval()
    runs = panels.SeedRuns(compute, [100])
    runs.ahead(0)
    assert runs.settled()
    assert intervals == [panels.SeedRuns.SWITCH_INTERVAL_S] * 3 and panels.SeedRuns.SWITCH_INTERVAL_S < before
    assert sys.getswitchinterval() == before


def _wait_for_no_run_ahead(timeout: float = 120.0) -> None:
    import time

    end = time.monotonic() + timeout
    while panels._switch_users and time.monotonic() < end:
        time.sleep(0.05)
    assert not panels._switch_users, "a run ahead did not end"


def test_two_runs_ahead_at_once_put_the_interpreters_interval_back_only_when_both_have_ended():
    import sys

    _wait_for_no_run_ahead()
    before = sys.getswitchinterval()
    with panels._short_switch_interval(0.001):
        with panels._short_switch_interval(0.0005):
            assert sys.getswitchinterval() == 0.001  # the first one's: never raised, never lowered twice
        assert sys.getswitchinterval() == 0.001
    assert sys.getswitchinterval() == before
