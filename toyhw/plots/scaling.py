"""Plots of how the cost of the evolution grows: wall time and kernel runs against what is varied."""

from __future__ import annotations

from typing import Optional, Sequence

from matplotlib.axes import Axes

from toyhw.course.scaling import CostPoint
from toyhw.plots import style
from toyhw.plots.style import COST_COLORS, finish, new_axes


@style.plot(counts=("x",))
def cost_plot(points: Sequence[CostPoint], xlabel: str, title: str, ax: Optional[Axes] = None) -> Axes:
    """Return wall time (left axis, s) and kernel runs (right axis) against the varied quantity.

    The x axis counts (budget, seeds, workers), so it has whole-number ticks; points that carry a label (the variant
    each point of `variant_costs` adds) are named by it instead: the first as itself, the others as "+ name".
    """
    ax = new_axes(ax)
    xs = [p.x for p in points]
    ax.plot(xs, [p.seconds for p in points], "o-", color=COST_COLORS["wall time"], lw=2, label="wall time (s)")
    ax.set_ylim(bottom=0)
    runs_ax = ax.twinx()
    runs_ax.plot(
        xs,
        [p.kernel_runs / 1000 for p in points],
        "s--",
        color=COST_COLORS["kernel runs"],
        lw=1.5,
        label="kernel runs (thousands)",
    )
    runs_ax.set_ylabel("kernel runs (thousands)", color=COST_COLORS["kernel runs"])
    runs_ax.set_ylim(bottom=0)
    handles = ax.get_legend_handles_labels()[0] + runs_ax.get_legend_handles_labels()[0]
    if points and all(p.label for p in points):
        names = [p.label if i == 0 else f"+ {p.label}" for i, p in enumerate(points)]
        ax.set_xticks(xs, names, rotation=35, ha="right", rotation_mode="anchor")
    else:
        style.integer_ticks(ax, "x")
    finish(ax, title, xlabel, "wall time (s)", legend=False)
    style.legend_below(ax, handles=handles, ncol=2)  # below: the curves may start in any corner
    return ax
