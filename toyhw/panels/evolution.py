"""Widget panels of lecture 14: the ablation curves, where feedback points, latent bad branches.

The ablation panel never recomputes: every variant x seed runs once at the full budget (cached) and a redraw only slices
the stored histories, so moving the budget or the number of seeds redraws at plotting speed. Each figure is a view
(toyhw.panels.live): the notebook's static figure and the live panel share its code; the panel keeps its figure.
"""

from __future__ import annotations

import html
from typing import Optional, Sequence

import ipywidgets as widgets
from matplotlib.figure import Figure

from toyhw.i18n import t
from toyhw.checks import check_int
from toyhw.evolve.experiments import ablations, branch_check, sweep, targeting
from toyhw.evolve import variants
from toyhw.panels.common import connect, output_area, redraw
from toyhw.panels.curves_in_place import update_score_curves
from toyhw.panels.bars_in_place import update_bars
from toyhw.panels.live import LiveFigure, Slot, new_figure, static_figure
from toyhw.plots import evolution as evolution_plots
from toyhw.evolve.programs import render
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import static_check
from toyhw.evolve.llm import target_shares
from toyhw.evolve.experiments.targeting import STUCK


_FULL_STUDY: list[ablations.AblationStudy] = []


def full_study(progress: Optional[sweep.Progress] = None, workers: Optional[int] = None) -> ablations.AblationStudy:
    """Return every variant x the five seeds at the full budget, computed once per process and kept.

    The runs are spread over `workers` local processes (default: one per CPU; the results are identical to a serial
    run), with `progress` called after each; later calls, and every redraw of the panels, only read the kept study.
    """
    if not _FULL_STUDY:
        _FULL_STUDY.append(
            sweep.ablation_study(
                variants.available(), ablations.SEEDS, ablations.BUDGET, workers=workers, progress=progress
            )
        )
    return _FULL_STUDY[0]


class AblationView:
    """Score against proposed programs, one median line and min-max band per chosen variant.

    Moving the budget or the seeds updates the curves in place (toyhw.panels.curves_in_place); a new selection
    re-plots.
    """

    FIGSIZE, DPI = (8.0, 4.6), 120

    def __init__(self, live: bool) -> None:
        self.figure = new_figure(self.FIGSIZE, live, self.DPI)
        self.slot = Slot(self.figure.subplots())

    def show(self, chosen: Sequence[str], budget: int, n_seeds: int) -> None:
        """Draw the `chosen` variants cut to `budget` programs and `n_seeds` seeds (checked first)."""
        check_int("budget", budget, 1, ablations.BUDGET, "the panel's runs have that many programs")
        check_int("n_seeds", n_seeds, 1, len(ablations.SEEDS), "the panel's runs have that many seeds")
        study = full_study()
        self.slot.plot(
            (tuple(chosen), budget, n_seeds),
            lambda ax: evolution_plots.score_vs_programs(study, list(chosen), budget, n_seeds, ax=ax),
            lambda ax: update_score_curves(ax, study, list(chosen), budget, n_seeds),
        )


def ablation_figure(chosen: Sequence[str], budget: int, n_seeds: int) -> Figure:
    """Return score against proposed programs for `chosen` variants, cut to `budget` programs and `n_seeds` seeds."""
    return static_figure(AblationView(live=False), lambda view: view.show(chosen, budget, n_seeds))


def ablation_panel(
    chosen: Sequence[str] = variants.LECTURE_VARIANTS,
    budget: int = ablations.BUDGET,
    n_seeds: int = len(ablations.SEEDS),
) -> widgets.Widget:
    """Return a variant multi-select, a budget slider and a seeds slider above the score-vs-programs plot."""
    names = variants.available()
    select = widgets.SelectMultiple(
        options=names, value=tuple(chosen), description=t("panel.variants"), rows=len(names)
    )
    budget_slider = widgets.IntSlider(
        value=budget, min=50, max=ablations.BUDGET, step=50, description=t("panel.budget"), continuous_update=False
    )
    seeds_slider = widgets.IntSlider(
        value=n_seeds, min=1, max=len(ablations.SEEDS), description=t("panel.seeds"), continuous_update=False
    )
    out = output_area("570px")
    live = LiveFigure(AblationView)

    def update() -> None:
        redraw(out, lambda: live.output(lambda view: view.show(select.value, budget_slider.value, seeds_slider.value)))

    connect([select, budget_slider, seeds_slider], update)
    update()
    return widgets.VBox([widgets.HBox([select, widgets.VBox([budget_slider, seeds_slider])]), out])


class TargetingView:
    """Per-shape vs_roofline / vs_best (left) and where each weighting sends proposals (right), one row per training
    shape (the two plots share it), stuck shapes grey.

    A move changes every bar, label and grey span: after the first draw they are updated in place
    (toyhw.panels.bars_in_place) rather than re-plotted, which drew some 200 patches and 88 tick labels afresh.
    """

    FIGSIZE, DPI = (10.5, 11.0), 96

    def __init__(self, live: bool) -> None:
        self.figure = new_figure(self.FIGSIZE, live, self.DPI)
        left, right = self.figure.subplots(1, 2, sharey=True)
        self.left, self.right = Slot(left), Slot(right)

    def show(self, seed: int, budget: int) -> None:
        """Draw demo 2 for one run of the full method: `seed`, after `budget` programs."""
        t = targeting.targeting(seed, budget)
        order = sorted(t.rows, key=lambda r: r.vs_roofline)  # as the plot functions order the shapes
        labels = [r.shape.label() for r in order]
        stuck = [r.vs_best > STUCK for r in order]
        ratios = [[r.vs_roofline for r in order], [r.vs_best for r in order]]
        shares = [target_shares([getattr(r, key) for r in order]) for key in ("vs_roofline", "vs_best")]
        self.left.plot(
            (seed, budget),
            lambda ax: evolution_plots.feedback_bars(t.rows, ax=ax),
            lambda ax: update_bars(ax, ratios, labels, stuck),
        )
        self.right.plot(
            (seed, budget),
            lambda ax: evolution_plots.target_weights(t.rows, ax=ax),
            lambda ax: update_bars(ax, shares, labels, stuck),
        )
        self.figure.suptitle(f"Seed {seed}, after {budget} programs")


def feedback_figure(seed: int, budget: int) -> Figure:
    """Return per-shape vs_roofline / vs_best (left) and where each weighting sends proposals (right)."""
    return static_figure(TargetingView(live=False), lambda view: view.show(seed, budget))


def feedback_panel(seed: int = 0, budget: int = 300) -> widgets.Widget:
    """Return seed and budget controls above the per-shape feedback figure."""
    seed_box = widgets.BoundedIntText(value=seed, min=0, max=10**6, description=t("panel.seed"))
    budget_slider = widgets.IntSlider(
        value=budget, min=50, max=ablations.BUDGET, step=50, description=t("panel.budget"), continuous_update=False
    )
    out = output_area("1060px")
    live = LiveFigure(TargetingView)

    def update() -> None:
        redraw(out, lambda: live.output(lambda view: view.show(seed_box.value, budget_slider.value)))

    connect([seed_box, budget_slider], update)
    update()
    return widgets.VBox([widgets.HBox([seed_box, budget_slider]), out])


class BranchesView:
    """Demo 3's counts for one seed: the run without the branch check next to the run with it."""

    FIGSIZE, DPI = (7.6, 3.6), 128

    def __init__(self, live: bool) -> None:
        self.figure = new_figure(self.FIGSIZE, live, self.DPI)
        self.slot = Slot(self.figure.subplots())

    def show(self, seed: int, budget: int) -> None:
        """Draw the two runs of `seed` at `budget` programs."""
        unchecked, checked = branch_check.branch_row(seed, budget, False), branch_check.branch_row(seed, budget, True)
        self.slot.plot((seed, budget), lambda ax: evolution_plots.branch_compare(unchecked, checked, ax=ax))


def branches_figure(seed: int, budget: int) -> Figure:
    """Return demo 3's counts for one seed, the run without the branch check next to the run with it."""
    return static_figure(BranchesView(live=False), lambda view: view.show(seed, budget))


def describe_latent(row: branch_check.BranchRow) -> str:
    """Return an HTML card: a final-database program with a latent bad branch, the check's message, a crash."""
    setting = t("latent.on") if row.check else t("latent.off")
    best = (
        "<br>" + (t("latent.best_bad") if row.best_has_bad_branch else t("latent.best_clean"))
        if row.example is not None
        else ""
    )
    if row.example is None:
        return t("latent.none", setting=setting, seed=row.seed) + (
            t("latent.none_refused") if row.check else t("latent.none_end")
        )
    program = simplify(row.example)
    problems = "<br>".join(html.escape(p.message()) for p in static_check(render(program))[1])
    crash = branch_check.crashes(program, ablations.context().new)
    first = (
        t("latent.crash", crashes=len(crash), shape=html.escape(crash[0].shape.label()), line=crash[0].line)
        if crash
        else t("latent.no_crash")
    )
    return (
        t("latent.head", setting=setting, seed=row.seed)
        + f"<pre>{html.escape(render(program))}</pre>"
        + t("latent.static")
        + f"<br>{problems}<br>{first}{best}"
    )


def branches_panel(seed: int = 0, budget: int = ablations.BUDGET) -> widgets.Widget:
    """Return seed, budget and branch-check controls above one seed's counts and a latent bad branch as code.

    A new (seed, budget) runs the search twice (without and with the check), about 0.15 s each at 1000 programs;
    switching the check only changes which run's program is shown.
    """
    seed_box = widgets.BoundedIntText(value=seed, min=0, max=10**6, description=t("panel.seed"))
    budget_slider = widgets.IntSlider(
        value=budget, min=100, max=ablations.BUDGET, step=100, description=t("panel.budget"), continuous_update=False
    )
    check = widgets.ToggleButtons(
        options=[(t("panel.check_off"), False), (t("panel.check_on"), True)],
        value=False,
        description=t("panel.branch_check"),
    )
    out = output_area("480px")
    live = LiveFigure(BranchesView)
    card = widgets.HTML()

    def show_card() -> None:
        try:
            card.value = describe_latent(branch_check.branch_row(seed_box.value, budget_slider.value, check.value))
        except Exception as err:  # noqa: BLE001 - shown in the panel, like redraw does
            card.value = f"<pre>Error: {html.escape(type(err).__name__)}: {html.escape(str(err))}</pre>"

    def update() -> None:
        redraw(out, lambda: live.output(lambda view: view.show(seed_box.value, budget_slider.value)))
        show_card()

    connect([seed_box, budget_slider], update)
    connect([check], show_card)
    update()
    return widgets.VBox([widgets.HBox([seed_box, budget_slider]), check, out, card])
