"""Widget panels of lecture 10: one-shot kernels, a task explorer, and the feedback-loop race."""
from __future__ import annotations

import html
from typing import Mapping, Optional, Sequence

import ipywidgets as widgets
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from toyhw import metrics
from toyhw.kernels import knobs, race, study
from toyhw.kernels.optimize import ProposerLike
from toyhw.kernels.race import Competitors
from toyhw.panels.common import connect, output_area, redraw
from toyhw.plots import fastp as fastp_plots
from toyhw.kernels.proposers import PROPOSERS

P_GRID = [round(0.05 * i, 2) for i in range(61)]  # 0 .. 3 in steps of 0.05


def _p_slider(value: float) -> widgets.FloatSlider:
    return widgets.FloatSlider(value=value, min=0.0, max=3.0, step=0.1, description="p", continuous_update=False)


def one_shot_figure(task_seed: int, n_tasks: int, p: float) -> Figure:
    """Return the one-shot figure: outcomes with causes (left) and fast_p against p with fast_p marked (right)."""
    report = study.one_shot(task_seed, n_tasks)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
    fastp_plots.outcome_breakdown(report, ax=left)
    fastp_plots.fastp_vs_p({"one-shot": report.speedups()}, P_GRID, ax=right, mark_p=p)
    return fig


def one_shot_panel(task_seed: int = study.SEED_TASK_SEED, n_tasks: int = study.SEED_N_TASKS,
                   p: float = 1.0) -> widgets.Widget:
    """Return sliders for task seed, number of tasks and p above the one-shot figure."""
    seed = widgets.BoundedIntText(value=task_seed, min=0, max=10**9, description="task seed")
    count = widgets.IntSlider(value=n_tasks, min=10, max=1000, step=10, description="tasks", continuous_update=False)
    p_slider = _p_slider(p)
    out = output_area()

    def update() -> None:
        redraw(out, lambda: one_shot_figure(seed.value, count.value, p_slider.value))

    connect([seed, count, p_slider], update)
    update()
    return widgets.VBox([widgets.HBox([seed, count, p_slider]), out])


def describe_kernel(kernel: study.OneShotKernel) -> str:
    """Return an HTML card: the task's hidden traits, the one-shot config, what the run said, the speedup."""
    t, fb = kernel.task, kernel.feedback
    said = (f"ok in {fb.time:.3f} (PyTorch {knobs.baseline_time(t):.3f}); bottleneck: {fb.bottleneck}" if fb.ok
            else f"{fb.status}: {fb.message} [cause: {fb.cause}]")
    rows = [
        ("hidden traits", f"memory-bound share {t.memory_bound:.2f}, best tile {t.best_tile}, n = {t.n}, "
                          f"fusable: {'yes' if t.fusable else 'no'}"),
        ("one-shot config", ", ".join(f"{k} = {v}" for k, v in kernel.config.as_dict().items())),
        ("the run said", said),
        ("speedup over PyTorch", f"{kernel.speedup:.3f}" + (" (failed kernels count as 0)" if not fb.ok else "")),
    ]
    body = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
                   f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in rows)
    return f"<b>Task {kernel.index}</b><table>{body}</table>"


def task_explorer_panel(task_seed: int = study.SEED_TASK_SEED,
                        n_tasks: int = study.SEED_N_TASKS) -> widgets.Widget:
    """Return a task slider above a card showing that task's hidden traits, one-shot config and run feedback."""
    index = widgets.IntSlider(value=0, min=0, max=n_tasks - 1, description="task", continuous_update=False)
    card = widgets.HTML()

    def update() -> None:
        card.value = describe_kernel(study.task_kernel(index.value, task_seed, n_tasks))

    connect([index], update)
    update()
    return widgets.VBox([index, card])


def feedback_figure(modes: Competitors, max_rounds: int, p: float, all_modes: Sequence[str],
                    task_seed: int = study.SEED_TASK_SEED, n_tasks: int = study.SEED_N_TASKS) -> Figure:
    """Return fast_p against rounds for the chosen modes."""
    if not modes:
        raise ValueError("modes is empty; select at least one feedback mode")
    curves = study.fastp_curves(modes, p, max_rounds, task_seed, n_tasks)
    ceiling = metrics.fast_p(study.best_possible_speedups(task_seed, n_tasks), p)
    ax = fastp_plots.fastp_vs_rounds(curves, p, all_modes=all_modes, ceiling=ceiling)
    return ax.figure


def feedback_panel(modes: Sequence[str] = tuple(PROPOSERS.available()), max_rounds: int = 50, p: float = 1.0,
                   extra: Optional[Mapping[str, ProposerLike]] = None,
                   task_seed: int = study.SEED_TASK_SEED,
                   n_tasks: int = study.SEED_N_TASKS) -> widgets.Widget:
    """Return the feedback-loop race: pick modes (and your own proposers in `extra`, {name: proposer}), rounds and p.

    A name in `extra` that is a built-in mode's is shown as "name (yours)" (toyhw.kernels.race): the built-in stays.
    """
    yours = race.competitors(dict(extra), "extra") if extra else {}
    proposers: dict[str, ProposerLike] = {name: name for name in PROPOSERS.available()}
    proposers.update(yours)
    names = list(proposers)
    select = widgets.SelectMultiple(options=names, value=tuple(m for m in modes if m in proposers) + tuple(yours),
                                    description="modes", rows=len(names))
    rounds = widgets.IntSlider(value=max_rounds, min=1, max=200, description="max rounds", continuous_update=False)
    p_slider = _p_slider(p)
    out = output_area()

    def update() -> None:
        chosen = {name: proposers[name] for name in select.value}
        redraw(out, lambda: feedback_figure(chosen, rounds.value, p_slider.value, names, task_seed, n_tasks))

    connect([select, rounds, p_slider], update)
    update()
    return widgets.VBox([widgets.HBox([select, widgets.VBox([rounds, p_slider])]), out])
