"""Widget panels of lecture 10: one-shot kernels, a task explorer, and the feedback-loop race.

Each figure is a chart description (toyhw.charts): the notebook's static figure is the SVG of the panel's starting
state, and the panel sends the description of each state to the page, which draws it. The numbers behind a panel are
computed when it is made (every mode at every round count of the rounds slider); a move only reads them.
"""

from __future__ import annotations

import html
from typing import Mapping, Optional, Sequence

import ipywidgets as widgets
import numpy as np

from toyhw import metrics
from toyhw.charts import figure as cf
from toyhw.charts.widget import Chart
from toyhw.checks import check_rounds
from toyhw.i18n import N_, t
from toyhw.kernels import knobs, labels, race, study
from toyhw.kernels.optimize import ProposerLike
from toyhw.kernels.proposers import PROPOSERS
from toyhw.kernels.race import Competitors
from toyhw.panels.common import ChartPanel, connect
from toyhw.plots import style
from toyhw.plots.fastp import CAUSE_STATUS

OUTCOME_NAMES = {
    "compile_error": N_("outcome.compile_error"),
    "wrong": N_("outcome.wrong"),
    "correct": N_("outcome.correct"),
}
"""A task's outcome (CAUSE_STATUS's values) -> its label's id."""

P_GRID = [round(0.05 * i, 2) for i in range(61)]  # 0 .. 3 in steps of 0.05
P_VALUES = [round(0.1 * i, 1) for i in range(31)]
"""The p slider's values (0 .. 3 in steps of 0.1)."""
ROUND_TICKS = (1, 2, 5, 10, 20, 50, 100)


def _p_slider(value: float) -> widgets.SelectionSlider:
    return widgets.SelectionSlider(
        options=[(f"{p:.1f}", p) for p in P_VALUES],
        value=min(P_VALUES, key=lambda p: abs(p - value)),
        description=t("panel.p"),
        continuous_update=False,
    )


def _mode_item(name: str) -> cf.LegendItem:
    return cf.LegendItem(
        labels.mode_label(name) if name in PROPOSERS else name, style.mode_color(name), dash=_dash(name)
    )


def _dash(name: str) -> str:
    """A student's own proposer is dashed, to tell it apart from the built-in modes."""
    return "" if name in PROPOSERS or name == "one-shot" else "7 4"


def outcomes_plot(report: study.OneShotReport) -> cf.Plot:
    """Return the one-shot outcomes: each failure cause, then correct-but-slower and correct-and-faster."""
    causes = report.cause_counts()
    speedups = report.speedups()
    n = report.n_tasks
    names = [f"{t(OUTCOME_NAMES[CAUSE_STATUS[c]])}:\n{labels.cause_label(c)}" for c in causes]
    shares = [count / n for count in causes.values()]
    colors = [style.OUTCOME_COLORS[CAUSE_STATUS[c]] for c in causes]
    names += [t("chart.ok_slow"), t("chart.ok_fast")]
    shares += [np.count_nonzero((speedups > 0) & (speedups <= 1.0)) / n, np.count_nonzero(speedups > 1.0) / n]
    colors += [style.OUTCOME_COLORS["ok_slow"], style.OUTCOME_COLORS["ok"]]
    top = max(shares) * 1.3
    marks = []
    for k, (share, color) in enumerate(zip(shares, colors)):
        marks.append(cf.rect(0, share, k - 0.35, k + 0.35, fill=color))
        marks.append(cf.text(share, k, f"{share:.1%}", dx=4))
    return cf.Plot(
        t("chart.outcomes_title", n=n),
        cf.axis((0, top), cf.nice_ticks(0, top, 5, "{:.0%}"), t("chart.share_of_tasks")),
        cf.categories(names, t("chart.outcome")),
        marks,
    )


def fastp_p_plot(speedups: Mapping[str, Sequence[float]], mark_p: Optional[float] = None) -> cf.Plot:
    """Return fast_p against the threshold p, one curve per labelled set of speedups, `mark_p` marked."""
    marks = [cf.rule(1.0, style.NEUTRALS["pale"], across="x")]
    kept = {name: metrics.SortedSpeedups(s) for name, s in speedups.items()}
    for name, s in kept.items():
        marks.append(cf.line(P_GRID, [s.fast_p(p) for p in P_GRID], style.mode_color(name), dash=_dash(name)))
    if mark_p is not None:
        marks.append(cf.rule(mark_p, style.REFERENCE, across="x", dash="5 4"))
        for name, s in kept.items():
            value = s.fast_p(mark_p)
            marks.append(cf.dot(mark_p, value, style.mode_color(name)))
            marks.append(cf.text(mark_p, value, f"fast_{mark_p:g} = {value:.3f}", dx=8, dy=-10))
    return cf.Plot(
        t("chart.fastp_title"),
        cf.axis((0, 3), cf.nice_ticks(0, 3, 7), t("chart.p_axis")),
        cf.axis((0, 1.02), cf.nice_ticks(0, 1, 6), t("chart.fastp_axis")),
        marks,
        [
            cf.LegendItem(t("chart.one_shot") if name == "one-shot" else name, style.mode_color(name))
            for name in speedups
        ],
    )


def one_shot_spec(task_seed: int, n_tasks: int, p: float, report: Optional[study.OneShotReport] = None) -> dict:
    """Return the one-shot figure's description: outcomes with causes (left), fast_p against p with p marked (right);
    `report` is study.one_shot(task_seed, n_tasks) when the caller has it."""
    report = report if report is not None else study.one_shot(task_seed, n_tasks)
    plots = [outcomes_plot(report), fastp_p_plot({"one-shot": report.speedups()}, mark_p=p)]
    return cf.figure(plots, width=1000, height=380, ratios=(1, 1.1))


def one_shot_figure(task_seed: int, n_tasks: int, p: float) -> Chart:
    """Return the one-shot figure: outcomes with causes (left) and fast_p against p with fast_p marked (right)."""
    metrics.check_p("p", p)
    return Chart(one_shot_spec(task_seed, n_tasks, p))


def one_shot_panel(
    task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS, p: float = 1.0
) -> widgets.Widget:
    """Return sliders for task seed, number of tasks and p above the one-shot figure."""
    seed = widgets.BoundedIntText(value=task_seed, min=0, max=10**9, description=t("panel.task_seed"))
    count = widgets.IntSlider(
        value=n_tasks, min=10, max=1000, step=10, description=t("panel.tasks"), continuous_update=False
    )
    p_slider = _p_slider(p)
    whole: dict[int, study.OneShotReport] = {}

    def describe(task_seed: int, n: int, p: float) -> dict:
        # Task i and its kernel depend on the seed and i alone, so the benchmark of n tasks is the first n of any
        # larger one. The starting seed's is run at the slider's largest count when the panel is made (10 us a task),
        # so its every count only slices it; another seed runs the count shown, and a larger count of it that count.
        study.check_benchmark(task_seed, n)
        if task_seed not in whole or whole[task_seed].n_tasks < n:
            whole[task_seed] = study.one_shot(task_seed, n)
        report = study.OneShotReport(task_seed, whole[task_seed].kernels[:n])
        return one_shot_spec(task_seed, n, p, report)

    study.check_benchmark(task_seed, count.max)
    whole[task_seed] = study.one_shot(task_seed, count.max)
    panel = ChartPanel(describe)

    def update() -> None:
        panel.show((seed.value, count.value, p_slider.value))

    connect([seed, count, p_slider], update)
    update()
    return widgets.VBox([widgets.HBox([seed, count, p_slider]), *panel.widgets()])


def describe_kernel(kernel: study.OneShotKernel) -> str:
    """Return an HTML card: the task's hidden traits, the one-shot config, what the run said, the speedup."""
    task, fb = kernel.task, kernel.feedback
    said = (
        t("card.ok", time=fb.time, baseline=knobs.baseline_time(task), bottleneck=labels.bottleneck_name(fb.bottleneck))
        if fb.ok
        else t(
            "card.failed",
            status=labels.status_name(fb.status),
            message=labels.failure_message(fb, kernel.config),
            cause=labels.cause_name(fb.cause),
        )
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
    cards = [describe_kernel(study.task_kernel(i, task_seed, n_tasks)) for i in range(n_tasks)]  # computed once

    def update() -> None:
        card.value = cards[index.value]

    connect([index], update)
    update()
    return widgets.VBox([index, card])


def rounds_plot(
    curves: Mapping[str, tuple[Sequence[int], Sequence[float]]], p: float, ceiling: Optional[float] = None
) -> cf.Plot:
    """Return fast_p against the number of rounds, one line per feedback mode (a student's own dashed), and the
    ceiling no search can pass (every task at its best config)."""
    marks, legend = [], []
    for name, (rounds, values) in curves.items():
        marks.append(cf.line(rounds, values, style.mode_color(name), dash=_dash(name), dots=3))
        legend.append(_mode_item(name))
    if ceiling is not None:
        marks.append(cf.rule(ceiling, style.REFERENCE, width=1.5, dash="2 3"))
        legend.append(cf.LegendItem(t("chart.best_possible", ceiling=ceiling), style.REFERENCE, dash="2 3"))
    last = max((max(r) for r, _ in curves.values()), default=1)
    ticks = [(r, str(r)) for r in ROUND_TICKS if r <= last]
    return cf.Plot(
        t("chart.rounds_title", p=f"{p:g}"),
        cf.axis((0.85, max(last, 2) * 1.15), ticks, t("chart.rounds_axis"), scale="log"),
        cf.axis((0, 1.02), cf.nice_ticks(0, 1, 6), t("chart.fastp_p_axis", p=f"{p:g}")),
        marks,
        legend,
        legend_columns=3,
    )


def feedback_spec(curves: Mapping[str, tuple[Sequence[int], Sequence[float]]], p: float, ceiling: float) -> dict:
    """Return the feedback race's description: fast_p against rounds for `curves` at `p`, with the ceiling."""
    return cf.figure([rounds_plot(curves, p, ceiling)], width=860, height=470)


def feedback_figure(
    modes: Competitors,
    max_rounds: int,
    p: float,
    task_seed: int = study.LECTURE_TASK_SEED,
    n_tasks: int = study.LECTURE_N_TASKS,
) -> Chart:
    """Return fast_p against rounds for the chosen modes."""
    if not modes:
        raise ValueError(t("panel.no_modes"))
    curves = study.fastp_curves(modes, p, max_rounds, task_seed, n_tasks)
    ceiling = metrics.fast_p(study.best_possible_speedups(task_seed, n_tasks), p)
    return Chart(feedback_spec(curves, p, ceiling))


class PanelRace:
    """The numbers of one feedback panel: every competitor's speedups at every round count of the slider, computed
    when the panel is made, so a move only takes fast_p of kept arrays.

    Why a student's function is run here once per round count: `study` runs it afresh on every call (it may read
    globals changed since); within one panel it is fixed. Run the panel's cell again to race a changed function.
    """

    def __init__(self, competitors: Mapping[str, ProposerLike], task_seed: int, n_tasks: int) -> None:
        self.task_seed, self.n_tasks = task_seed, n_tasks
        self.kept: dict[tuple[str, int], metrics.SortedSpeedups] = {}
        self.failed: dict[str, Exception] = {}
        """A competitor whose runs raised (a student's proposer): its error, shown whenever it is selected."""
        for name, mode in competitors.items():
            try:
                for r in study.CURVE_ROUNDS:
                    self.kept[name, r] = metrics.SortedSpeedups(study.iterative_speedups(task_seed, n_tasks, mode, r))
            except Exception as err:  # noqa: BLE001 - re-raised when the competitor is drawn, shown in the panel
                self.failed[name] = err
        self.best = metrics.SortedSpeedups(study.best_possible_speedups(task_seed, n_tasks))

    def curves(self, names: Sequence[str], p: float, max_rounds: int) -> dict[str, tuple[list[int], list[float]]]:
        """Return what `study.fastp_curves` returns for the competitors `names` (max_rounds one of CURVE_ROUNDS)."""
        if not names:
            raise ValueError(t("panel.no_modes"))
        for name in names:
            if name in self.failed:
                raise self.failed[name]
        metrics.check_p("p", p)
        check_rounds("max_rounds", max_rounds)
        grid = [r for r in study.CURVE_ROUNDS if r <= max_rounds]
        return {name: (grid, [self.kept[name, r].fast_p(p) for r in grid]) for name in names}

    def ceiling(self, p: float) -> float:
        """Return fast_p of every task at its best config: the line no search can pass."""
        return self.best.fast_p(p)

    def spec(self, names: tuple[str, ...], max_rounds: int, p: float) -> dict:
        """Return the description of the race of `names` up to `max_rounds` at `p`."""
        return feedback_spec(self.curves(names, p, max_rounds), p, self.ceiling(p))


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
    Your proposers run once per round count when the panel is made; run the cell again after changing one.
    """
    if max_rounds not in study.CURVE_ROUNDS:
        raise ValueError(f"max_rounds = {max_rounds!r} is not allowed; the panel's round counts: {study.CURVE_ROUNDS}")
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
    rounds = widgets.SelectionSlider(
        options=list(study.CURVE_ROUNDS), value=max_rounds, description=t("panel.max_rounds"), continuous_update=False
    )
    p_slider = _p_slider(p)
    numbers = PanelRace(proposers, task_seed, n_tasks)
    panel = ChartPanel(numbers.spec)

    def update() -> None:
        panel.show((tuple(select.value), rounds.value, p_slider.value))

    connect([select, rounds, p_slider], update)
    update()
    return widgets.VBox([widgets.HBox([select, widgets.VBox([rounds, p_slider])]), *panel.widgets()])
