"""Shared look of every plot: one default size, one palette, one way to get an Axes."""
from __future__ import annotations

from typing import Optional

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

FIGSIZE = (7.0, 4.0)
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf", "#393b79")


def new_axes(ax: Optional[Axes] = None, figsize: tuple[float, float] = FIGSIZE) -> Axes:
    """Return `ax`, or the Axes of a new figure of the pack's default size."""
    if ax is not None:
        return ax
    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def color_for(name: str, names: list[str]) -> str:
    """Return a stable color for `name` given the full list of names a plot can show (so colors never shuffle)."""
    return PALETTE[names.index(name) % len(PALETTE)] if name in names else PALETTE[-1]


def finish(ax: Axes, title: str, xlabel: str, ylabel: str, legend: bool = True) -> Axes:
    """Return `ax` with title, axis labels, a light grid and (optionally) a legend."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(frameon=False, fontsize="small")
    return ax
