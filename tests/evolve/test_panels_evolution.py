"""Lecture 14's widget panels build, redraw when a control moves, and show errors instead of half-drawing."""

import ipywidgets as widgets

from toyhw.panels import evolution as panels


def _find(widget, kind):
    found = [widget] if isinstance(widget, kind) else []
    for child in getattr(widget, "children", ()):
        found += _find(child, kind)
    return found


def _redrawn(out, before):
    """Return True when `out` shows a new drawing without an error (not merely the one it showed before)."""
    return bool(out.outputs) and out.outputs != before and "Error" not in str(out.outputs)


def test_ablation_panel_redraws_when_budget_moves_and_reports_an_empty_selection():
    panel = panels.ablation_panel(["full", "small_llm"], budget=300, n_seeds=3)
    (out,) = _find(panel, widgets.Output)
    budget = next(s for s in _find(panel, widgets.IntSlider) if s.description == "budget")
    before = out.outputs
    budget.value = 500
    assert _redrawn(out, before)
    (select,) = _find(panel, widgets.SelectMultiple)
    select.value = ()
    assert "variants is empty" in str(out.outputs)


def test_feedback_panel_redraws_when_budget_moves():
    panel = panels.feedback_panel(seed=0, budget=100)
    (out,) = _find(panel, widgets.Output)
    before = out.outputs
    next(s for s in _find(panel, widgets.IntSlider) if s.description == "budget").value = 150
    assert _redrawn(out, before)


def test_branches_panel_redraws_when_the_seed_moves_and_shows_a_latent_branch_per_check_setting():
    panel = panels.branches_panel(seed=1, budget=1000)
    (out,) = _find(panel, widgets.Output)
    (seed,) = _find(panel, widgets.BoundedIntText)
    before = out.outputs
    seed.value = 0
    assert _redrawn(out, before)
    (card,) = _find(panel, widgets.HTML)
    (check,) = _find(panel, widgets.ToggleButtons)
    assert "latent bad branch" in card.value and "cannot launch" in card.value  # seed 0 without the check has one
    check.value = True
    assert "no program in the final database has a branch that cannot launch" in card.value
