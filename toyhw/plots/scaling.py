"""Plots of how the cost of the evolution grows: wall time and kernel runs against what is varied."""
from __future__ import annotations

from typing import Optional, Sequence

from matplotlib.axes import Axes

from toyhw.plots.style import PALETTE, finish, new_axes
from toyhw.evolve.scaling import CostPoint


def cost_plot(points: Sequence[CostPoint], xlabel: str, title: str, ax: Optional[Axes] = None) -> Axes:
    """Return wall time (left axis, s) and kernel runs (right axis) against the varied quantity."""
    ax = new_axes(ax)
    xs = [p.x for p in points]
    ax.plot(xs, [p.seconds for p in points], "o-", color=PALETTE[0], lw=2, label="wall time (s)")
    ax.set_ylim(bottom=0)
    runs_ax = ax.twinx()
    runs_ax.plot(xs, [p.kernel_runs / 1000 for p in points], "s--", color=PALETTE[1], lw=1.5,
                 label="kernel runs (thousands)")
    runs_ax.set_ylabel("kernel runs (thousands)", color=PALETTE[1])
    runs_ax.set_ylim(bottom=0)
    handles = ax.get_legend_handles_labels()[0] + runs_ax.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], frameon=False, fontsize="small", loc="upper left")
    return finish(ax, title, xlabel, "wall time (s)", legend=False)
