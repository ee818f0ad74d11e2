"""Lecture 10's widget panels build, redraw on a control change, and show errors instead of half-drawing."""

from toyhw.kernels import knobs, study
from toyhw.panels import fastp as fastp_panels

from panel_widgets import chart, control, error, redrawn, texts


def test_one_shot_panel_redraws_when_p_moves():
    panel = fastp_panels.one_shot_panel(230, 50)
    before = chart(panel).spec
    assert before and control(panel, "p").value == 1.0
    control(panel, "p").value = 1.5
    assert redrawn(panel, before)
    assert "fast_1.5 = " + f"{study.one_shot(230, 50).speedups().__gt__(1.5).mean():.3f}" in texts(chart(panel).spec)


def test_one_shot_panel_slices_the_largest_benchmark_it_ran():
    panel = fastp_panels.one_shot_panel(230, 200)
    control(panel, "tasks").value = 1000
    control(panel, "tasks").value = 50  # a slice of the 1000 tasks: the same as a benchmark of 50
    assert chart(panel).spec == fastp_panels.one_shot_figure(230, 50, 1.0).spec


def test_task_explorer_shows_the_hidden_traits_and_the_runs_message():
    panel = fastp_panels.task_explorer_panel(230, 200)
    slider, card = panel.children
    slider.value = 5
    assert "Task 5" in card.value and "hidden traits" in card.value and "the run said" in card.value


def test_feedback_panel_races_a_student_proposer():
    def mine(feedback, config, rng):
        return knobs.KernelConfig() if not feedback.ok else knobs.mutate(config, rng)

    panel = fastp_panels.feedback_panel(["explain"], max_rounds=10, extra={"mine": mine}, n_tasks=30)
    select = control(panel, "modes")
    assert select.value == ("explain", "mine")
    before = chart(panel).spec
    select.value = ("mine",)
    assert redrawn(panel, before) and [item["label"] for item in chart(panel).spec["plots"][0]["legend"]][0] == "mine"


def test_a_move_shows_what_a_new_figure_of_that_state_shows():
    panel = fastp_panels.feedback_panel(max_rounds=20, p=1.0, n_tasks=40)
    control(panel, "p").value = 1.5
    control(panel, "max rounds").value = 50
    expected = fastp_panels.feedback_figure(list(fastp_panels.PROPOSERS.available()), 50, 1.5, n_tasks=40)
    assert chart(panel).spec == expected.spec


def test_the_rounds_slider_offers_the_curve_round_counts():
    panel = fastp_panels.feedback_panel(max_rounds=5, n_tasks=20)
    assert list(control(panel, "max rounds").options) == list(study.CURVE_ROUNDS)


def test_an_empty_selection_shows_a_clear_error_in_the_panel():
    panel = fastp_panels.feedback_panel(["explain"], max_rounds=5, n_tasks=20)
    shown = chart(panel).spec
    control(panel, "modes").value = ()
    assert "select at least one feedback mode" in error(panel)
    assert chart(panel).spec == shown  # the chart keeps the last state it drew


def test_a_proposer_that_raises_is_reported_in_the_panel():
    def broken(feedback, config, rng):
        raise RuntimeError("student bug")

    panel = fastp_panels.feedback_panel([], max_rounds=3, extra={"broken": broken}, n_tasks=10)
    assert "proposer 'broken' raised RuntimeError: student bug" in error(panel)
