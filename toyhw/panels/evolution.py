"""Widget panels of lecture 14: the ablation curves, where feedback points, latent bad branches.

The ablation panel never recomputes: every variant x seed runs once at the full budget (cached) and a redraw only slices
the stored histories, so moving the budget or the number of seeds redraws at plotting speed.
"""
from __future__ import annotations

import html
from typing import Optional, Sequence

import ipywidgets as widgets
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from toyhw.checks import check_int
from toyhw.evolve import ablations, branch_check, sweep, targeting, variants
from toyhw.panels.common import connect, output_area, redraw
from toyhw.plots import evolution as evolution_plots
from toyhw.evolve.programs import render
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import static_check


_FULL_STUDY: list[ablations.AblationStudy] = []


def full_study(progress: Optional[sweep.Progress] = None, workers: Optional[int] = None) -> ablations.AblationStudy:
    """Return every variant x the five seeds at the full budget, computed once per process and kept.

    The runs are spread over `workers` local processes (default: one per CPU; the results are identical to a serial
    run), with `progress` called after each; later calls, and every redraw of the panels, only read the kept study.
    """
    if not _FULL_STUDY:
        _FULL_STUDY.append(sweep.study(variants.available(), ablations.SEEDS, ablations.BUDGET, workers=workers,
                                       progress=progress))
    return _FULL_STUDY[0]


def ablation_figure(chosen: Sequence[str], budget: int, n_seeds: int) -> Figure:
    """Return score against proposed programs for `chosen` variants, cut to `budget` programs and `n_seeds` seeds."""
    check_int("budget", budget, 1, ablations.BUDGET, "the panel's runs have that many programs")
    check_int("n_seeds", n_seeds, 1, len(ablations.SEEDS), "the panel's runs have that many seeds")
    ax = evolution_plots.score_vs_programs(full_study(), list(chosen), budget, n_seeds,
                                           all_variants=variants.available())
    return ax.figure


def ablation_panel(chosen: Sequence[str] = variants.SEED_VARIANTS, budget: int = ablations.BUDGET,
                   n_seeds: int = len(ablations.SEEDS)) -> widgets.Widget:
    """Return a variant multi-select, a budget slider and a seeds slider above the score-vs-programs plot."""
    names = variants.available()
    select = widgets.SelectMultiple(options=names, value=tuple(chosen), description="variants", rows=len(names))
    budget_slider = widgets.IntSlider(value=budget, min=50, max=ablations.BUDGET, step=50, description="budget",
                                      continuous_update=False)
    seeds_slider = widgets.IntSlider(value=n_seeds, min=1, max=len(ablations.SEEDS), description="seeds",
                                     continuous_update=False)
    out = output_area()

    def update() -> None:
        redraw(out, lambda: ablation_figure(select.value, budget_slider.value, seeds_slider.value))

    connect([select, budget_slider, seeds_slider], update)
    update()
    return widgets.VBox([widgets.HBox([select, widgets.VBox([budget_slider, seeds_slider])]), out])


def feedback_figure(seed: int, budget: int) -> Figure:
    """Return per-shape vs_roofline / vs_best (left) and where each weighting sends proposals (right)."""
    t = targeting.targeting(seed, budget)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 11), layout="constrained", sharey=True)
    evolution_plots.feedback_bars(t.rows, ax=left)
    evolution_plots.target_weights(t.rows, ax=right)
    fig.suptitle(f"Seed {seed}, after {budget} programs")
    return fig


def feedback_panel(seed: int = 0, budget: int = 300) -> widgets.Widget:
    """Return seed and budget controls above the per-shape feedback figure."""
    seed_box = widgets.BoundedIntText(value=seed, min=0, max=10**6, description="seed")
    budget_slider = widgets.IntSlider(value=budget, min=50, max=ablations.BUDGET, step=50, description="budget",
                                      continuous_update=False)
    out = output_area("820px")

    def update() -> None:
        redraw(out, lambda: feedback_figure(seed_box.value, budget_slider.value))

    connect([seed_box, budget_slider], update)
    update()
    return widgets.VBox([widgets.HBox([seed_box, budget_slider]), out])


def branches_figure(seed: int, budget: int) -> Figure:
    """Return demo 3's counts for one seed, the run without the branch check next to the run with it."""
    unchecked, checked = branch_check.branch_row(seed, budget, False), branch_check.branch_row(seed, budget, True)
    return evolution_plots.branch_compare(unchecked, checked).figure


def describe_latent(row: branch_check.BranchRow) -> str:
    """Return an HTML card: a final-database program with a latent bad branch, the check's message, a crash."""
    setting = "on" if row.check else "off"
    best = (f"<br>The best program of this run {'has a bad branch too' if row.best_has_bad_branch else 'has none'}."
            if row.example is not None else "")
    if row.example is None:
        return (f"<b>Branch check {setting}, seed {row.seed}:</b> no program in the final database has a branch that "
                "cannot launch" + (" — the check refused every such program before it ran." if row.check else "."))
    program = simplify(row.example)
    problems = "<br>".join(html.escape(p.message()) for p in static_check(render(program))[1])
    crash = branch_check.crashes(program, ablations.context().new)
    first = (f"It fails on {len(crash)} of the 100 new shapes, e.g. {html.escape(crash[0].shape.label())} "
             f"(line {crash[0].line})." if crash else "No new shape reaches the bad branch either: it stays latent.")
    return (f"<b>Branch check {setting}, seed {row.seed}: a program of the final database with a latent bad "
            f"branch</b><pre>{html.escape(render(program))}</pre><b>Static check:</b><br>{problems}<br>{first}{best}")


def branches_panel(seed: int = 0, budget: int = ablations.BUDGET) -> widgets.Widget:
    """Return seed, budget and branch-check controls above one seed's counts and a latent bad branch as code.

    A new (seed, budget) runs the search twice (without and with the check), about 0.15 s each at 1000 programs;
    switching the check only changes which run's program is shown.
    """
    seed_box = widgets.BoundedIntText(value=seed, min=0, max=10**6, description="seed")
    budget_slider = widgets.IntSlider(value=budget, min=100, max=ablations.BUDGET, step=100, description="budget",
                                      continuous_update=False)
    check = widgets.ToggleButtons(options=[("check off", False), ("check on", True)], value=False,
                                  description="branch check")
    out = output_area("420px")
    card = widgets.HTML()

    def show_card() -> None:
        try:
            card.value = describe_latent(branch_check.branch_row(seed_box.value, budget_slider.value, check.value))
        except Exception as err:  # noqa: BLE001 - shown in the panel, like redraw does
            card.value = f"<pre>Error: {html.escape(type(err).__name__)}: {html.escape(str(err))}</pre>"

    def update() -> None:
        redraw(out, lambda: branches_figure(seed_box.value, budget_slider.value))
        show_card()

    connect([seed_box, budget_slider], update)
    connect([check], show_card)
    update()
    return widgets.VBox([widgets.HBox([seed_box, budget_slider]), check, out, card])
