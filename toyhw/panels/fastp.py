"""Widget panels of lecture 10: one-shot kernels, a task explorer, and the feedback-loop race.

Each figure is a view (toyhw.panels.live): the notebook's static figure and the live panel draw the same content with
the same code; the panel keeps its figure and re-plots only the Axes a move changed.
"""

from __future__ import annotations

import html
from typing import Mapping, Optional, Sequence

import ipywidgets as widgets
from matplotlib.figure import Figure

from toyhw import metrics
from toyhw.checks import check_rounds
from toyhw.i18n import t
from toyhw.kernels import knobs, labels, race, study
from toyhw.kernels.optimize import ProposerLike
from toyhw.kernels.race import Competitors
from toyhw.panels.common import connect, output_area, redraw
from toyhw.panels.live import LiveFigure, Slot, new_figure, static_figure
from toyhw.plots import fastp as fastp_plots
from toyhw.kernels.proposers import PROPOSERS

P_GRID = [round(0.05 * i, 2) for i in range(61)]  # 0 .. 3 in steps of 0.05


def _p_slider(value: float) -> widgets.FloatSlider:
    return widgets.FloatSlider(
        value=value, min=0.0, max=3.0, step=0.1, description=t("panel.p"), continuous_update=False
    )


class OneShotView:
    """Outcomes with causes (left, depends on the benchmark) and fast_p against p with p marked (right)."""

    FIGSIZE, DPI = (12.0, 3.8), 90

    def __init__(self, live: bool) -> None:
        self.figure = new_figure(self.FIGSIZE, live, self.DPI)
        left, right = self.figure.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.25]})  # room for its title
        self.left, self.right = Slot(left), Slot(right)

    def show(self, task_seed: int, n_tasks: int, p: float) -> None:
        """Draw the benchmark (`task_seed`, `n_tasks`) with fast_p marked at `p`; moving p re-plots the right only."""
        report = study.one_shot(task_seed, n_tasks)
        self.left.plot((task_seed, n_tasks), lambda ax: fastp_plots.outcome_breakdown(report, ax=ax))
        self.right.plot(
            (task_seed, n_tasks, p),
            lambda ax: fastp_plots.fastp_vs_p({"one-shot": report.speedups()}, P_GRID, ax=ax, mark_p=p),
        )


def one_shot_figure(task_seed: int, n_tasks: int, p: float) -> Figure:
    """Return the one-shot figure: outcomes with causes (left) and fast_p against p with fast_p marked (right)."""
    return static_figure(OneShotView(live=False), lambda view: view.show(task_seed, n_tasks, p))


def one_shot_panel(
    task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS, p: float = 1.0
) -> widgets.Widget:
    """Return sliders for task seed, number of tasks and p above the one-shot figure."""
    seed = widgets.BoundedIntText(value=task_seed, min=0, max=10**9, description=t("panel.task_seed"))
    count = widgets.IntSlider(
        value=n_tasks, min=10, max=1000, step=10, description=t("panel.tasks"), continuous_update=False
    )
    p_slider = _p_slider(p)
    out = output_area("380px")
    live = LiveFigure(OneShotView)

    def update() -> None:
        redraw(out, lambda: live.output(lambda view: view.show(seed.value, count.value, p_slider.value)))

    connect([seed, count, p_slider], update)
    update()
    return widgets.VBox([widgets.HBox([seed, count, p_slider]), out])


def describe_kernel(kernel: study.OneShotKernel) -> str:
    """Return an HTML card: the task's hidden traits, the one-shot config, what the run said, the speedup."""
    task, fb = kernel.task, kernel.feedback
    said = (
        t("card.ok", time=fb.time, baseline=knobs.baseline_time(task), bottleneck=fb.bottleneck)
        if fb.ok
        else t("card.failed", status=fb.status, message=labels.failure_message(fb, kernel.config), cause=fb.cause)
    )
    rows = [
        (
            t("card.traits"),
            t(
                "card.traits_value",
                memory_bound=task.memory_bound,
                best_tile=task.best_tile,
                n=task.n,
                fusable=t("card.yes") if task.fusable else t("card.no"),
            ),
        ),
        (t("card.config"), ", ".join(f"{k} = {v}" for k, v in kernel.config.as_dict().items())),
        (t("card.said"), said),
        (t("card.speedup"), f"{kernel.speedup:.3f}" + (t("card.failed_zero") if not fb.ok else "")),
    ]
    body = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
        f"<td style='text-align:left'>{html.escape(v)}</td></tr>"
        for k, v in rows
    )
    return f"<b>{html.escape(t('card.task', index=kernel.index))}</b><table>{body}</table>"


def task_explorer_panel(
    task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS
) -> widgets.Widget:
    """Return a task slider above a card showing that task's hidden traits, one-shot config and run feedback."""
    index = widgets.IntSlider(value=0, min=0, max=n_tasks - 1, description=t("panel.task"), continuous_update=False)
    card = widgets.HTML()

    def update() -> None:
        card.value = describe_kernel(study.task_kernel(index.value, task_seed, n_tasks))

    connect([index], update)
    update()
    return widgets.VBox([index, card])


class FeedbackView:
    """fast_p against rounds for the chosen modes, with the ceiling no search can pass."""

    FIGSIZE, DPI = (7.2, 4.0), 128

    def __init__(self, live: bool) -> None:
        self.figure = new_figure(self.FIGSIZE, live, self.DPI)
        self.slot = Slot(self.figure.subplots())

    def show(
        self, curves: Mapping[str, tuple[Sequence[int], Sequence[float]]], p: float, ceiling: float, key: object = None
    ) -> None:
        """Draw `curves` (study.fastp_curves) at `p`; `key` names them (None: always draw)."""
        self.slot.plot(
            object() if key is None else key, lambda ax: fastp_plots.fastp_vs_rounds(curves, p, ax=ax, ceiling=ceiling)
        )


def feedback_figure(
    modes: Competitors,
    max_rounds: int,
    p: float,
    task_seed: int = study.LECTURE_TASK_SEED,
    n_tasks: int = study.LECTURE_N_TASKS,
) -> Figure:
    """Return fast_p against rounds for the chosen modes."""
    if not modes:
        raise ValueError(t("panel.no_modes"))
    curves = study.fastp_curves(modes, p, max_rounds, task_seed, n_tasks)
    ceiling = metrics.fast_p(study.best_possible_speedups(task_seed, n_tasks), p)
    return static_figure(FeedbackView(live=False), lambda view: view.show(curves, p, ceiling))


class PanelRace:
    """The numbers of one feedback panel: `study.fastp_curves`'s, with each proposer function run once per round
    count for as long as the panel lives.

    Why: `study` runs a student's function afresh on every call (it may read globals changed since), so without this
    every move of p or of the selection would rerun it for each point of its curve. Within one
    panel the function is fixed, so its speedups per round count are kept: at most one array of `n_tasks` floats per
    function and round count (the slider has 200), dropped with the panel. Built-in modes are cached by `study`.
    Run the panel's cell again to race a changed function (or one whose globals changed).
    """

    def __init__(self, task_seed: int, n_tasks: int) -> None:
        self.task_seed, self.n_tasks = task_seed, n_tasks
        self._kept: dict[tuple[str, int], Sequence[float]] = {}

    def speedups(self, name: str, mode: ProposerLike, rounds: int) -> Sequence[float]:
        """Return every task's speedup after `rounds` rounds of `mode`, the competitor named `name` in this panel."""
        if isinstance(mode, str):
            return study.iterative_speedups(self.task_seed, self.n_tasks, mode, rounds)
        if (name, rounds) not in self._kept:
            self._kept[name, rounds] = study.iterative_speedups(self.task_seed, self.n_tasks, mode, rounds)
        return self._kept[name, rounds]

    def curves(
        self, modes: Mapping[str, ProposerLike], p: float, max_rounds: int
    ) -> dict[str, tuple[list[int], list[float]]]:
        """Return what `study.fastp_curves(modes, p, max_rounds, ...)` returns (checked the same way)."""
        named = race.competitors(modes)
        metrics.check_p("p", p)
        check_rounds("max_rounds", max_rounds)
        grid = sorted({r for r in study.CURVE_ROUNDS if r <= max_rounds} | {max_rounds})
        return {
            name: (grid, [metrics.fast_p(self.speedups(name, mode, r), p) for r in grid])
            for name, mode in named.items()
        }

    def ceiling(self, p: float) -> float:
        """Return fast_p of every task at its best config: the line no search can pass."""
        return metrics.fast_p(study.best_possible_speedups(self.task_seed, self.n_tasks), p)


def feedback_panel(
    modes: Sequence[str] = tuple(PROPOSERS.available()),
    max_rounds: int = 50,
    p: float = 1.0,
    extra: Optional[Mapping[str, ProposerLike]] = None,
    task_seed: int = study.LECTURE_TASK_SEED,
    n_tasks: int = study.LECTURE_N_TASKS,
) -> widgets.Widget:
    """Return the feedback-loop race: pick modes (and your own proposers in `extra`, {name: proposer}), rounds and p.

    A name in `extra` that is a built-in mode's is shown as "name (yours)" (toyhw.kernels.race): the built-in stays.
    Your proposers run once per round count while the panel lives (PanelRace); run the cell again after changing one.
    """
    yours = race.competitors(dict(extra), "extra") if extra else {}
    proposers: dict[str, ProposerLike] = {name: name for name in PROPOSERS.available()}
    proposers.update(yours)
    names = list(proposers)
    # (label, name) for every option: the script's row labels in Chinese, the names themselves in English. All pairs,
    # never a mix of pairs and plain names, which ipywidgets would read as plain values.
    options = [(labels.mode_label(name), name) for name in names]
    select = widgets.SelectMultiple(
        options=options,
        value=tuple(m for m in modes if m in proposers) + tuple(yours),
        description=t("panel.modes"),
        rows=len(names),
    )
    rounds = widgets.IntSlider(
        value=max_rounds, min=1, max=200, description=t("panel.max_rounds"), continuous_update=False
    )
    p_slider = _p_slider(p)
    out = output_area("530px")
    numbers = PanelRace(task_seed, n_tasks)
    live = LiveFigure(FeedbackView)

    def show(view: FeedbackView) -> None:
        if not select.value:
            raise ValueError(t("panel.no_modes"))
        chosen = {name: proposers[name] for name in select.value}
        curves = numbers.curves(chosen, p_slider.value, rounds.value)
        view.show(
            curves,
            p_slider.value,
            numbers.ceiling(p_slider.value),
            key=(tuple(select.value), rounds.value, p_slider.value),
        )

    def update() -> None:
        redraw(out, lambda: live.output(show))

    connect([select, rounds, p_slider], update)
    update()
    return widgets.VBox([widgets.HBox([select, widgets.VBox([rounds, p_slider])]), out])
