"""Lecture 10's widget panels build, redraw on a control change, and show errors instead of half-drawing."""

import ipywidgets as widgets

from toyhw.kernels import knobs
from toyhw.panels import fastp as fastp_panels


def _controls(widget):
    found = []
    for child in getattr(widget, "children", ()):
        found += [child] if isinstance(child, (widgets.ValueWidget,)) and not isinstance(child, widgets.Output) else []
        found += _controls(child)
    return found


def _outputs(widget):
    found = [widget] if isinstance(widget, widgets.Output) else []
    for child in getattr(widget, "children", ()):
        found += _outputs(child)
    return found


def test_one_shot_panel_redraws_when_p_moves():
    panel = fastp_panels.one_shot_panel(230, 50)
    p_slider = next(c for c in _controls(panel) if c.description == "p")
    (out,) = _outputs(panel)
    before = out.outputs
    assert before and p_slider.value != 1.5
    p_slider.value = 1.5
    assert out.outputs != before and "Error" not in str(out.outputs)


def test_task_explorer_shows_the_hidden_traits_and_the_runs_message():
    panel = fastp_panels.task_explorer_panel(230, 200)
    slider, card = panel.children
    slider.value = 5
    assert "Task 5" in card.value and "hidden traits" in card.value and "the run said" in card.value


def test_feedback_panel_races_a_student_proposer():
    def mine(feedback, config, rng):
        return knobs.KernelConfig() if not feedback.ok else knobs.mutate(config, rng)

    panel = fastp_panels.feedback_panel(["explain"], max_rounds=10, extra={"mine": mine}, n_tasks=30)
    select = next(c for c in _controls(panel) if isinstance(c, widgets.SelectMultiple))
    assert select.value == ("explain", "mine")
    (out,) = _outputs(panel)
    before = out.outputs
    select.value = ("mine",)
    assert out.outputs and out.outputs != before and "Error" not in str(out.outputs)


def test_an_empty_selection_shows_a_clear_error_in_the_panel():
    panel = fastp_panels.feedback_panel(["explain"], max_rounds=5, n_tasks=20)
    select = next(c for c in _controls(panel) if isinstance(c, widgets.SelectMultiple))
    select.value = ()
    (out,) = _outputs(panel)
    assert "select at least one feedback mode" in str(out.outputs)


def test_a_proposer_that_raises_is_reported_in_the_panel():
    def broken(feedback, config, rng):
        raise RuntimeError("student bug")

    panel = fastp_panels.feedback_panel([], max_rounds=3, extra={"broken": broken}, n_tasks=10)
    (out,) = _outputs(panel)
    assert "proposer 'broken' raised RuntimeError: student bug" in str(out.outputs)
