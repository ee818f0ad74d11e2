"""A per-category bar chart updated in place: new bar heights, tick labels and shaded categories on the same artists.

Why: notebook 06's feedback panel shows some 44 shapes twice (two series each, a grey span per stuck shape, a rotated
label per shape) and every move changes all of them. Clearing and re-plotting made some 200 bar patches and 88 ticks
afresh per move, each patch's data limits walked in Python: about as long as drawing the figure. Here the bars and
ticks stay and only their values change; the spans move (more are made in the look of the first when wanted). The
result is the figure the plot function would draw for the new values (tests/test_panels_live.py compares the pixels),
and the plot functions stay the one place where the figure's look is decided: this module takes the look from the
artists they made.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.container import BarContainer
from matplotlib.patches import Rectangle


def _spans(ax: Axes, bars: Sequence[BarContainer]) -> list[Rectangle]:
    """Return the patches of `ax` that are no bar: the shaded spans the plot function drew."""
    in_bars = {id(patch) for container in bars for patch in container}
    return [patch for patch in ax.patches if id(patch) not in in_bars]


def update_bars(ax: Axes, heights: Sequence[Sequence[float]], labels: Sequence[str], shaded: Sequence[bool],
                **tick_kw: object) -> bool:
    """Set the bar series of `ax` to `heights` (one list per series, one height per category), its x tick labels to
    `labels` (with `tick_kw`, as the plot function set them), and shade the categories where `shaded` is true.

    `ax` must have been drawn by a plot function that made the series in this order over x = 0, 1, ..., spans from
    x - 0.5 to x + 0.5 behind the shaded ones, and set_xticks(x, labels, **tick_kw). Return False, changing nothing,
    when `ax` does not have that many series of that many bars, or when spans are wanted and `ax` has none to copy
    the look of: the caller then re-plots.
    """
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    n = len(labels)
    if len(bars) != len(heights) or any(len(c) != n or len(h) != n for c, h in zip(bars, heights)):
        return False
    spans = _spans(ax, bars)
    wanted = [i for i, shade in enumerate(shaded) if shade]
    if wanted and not spans:
        return False
    for container, series in zip(bars, heights):
        for patch, height in zip(container, series):
            patch.set_height(height)
    for span in spans[len(wanted):]:
        span.remove()
    for span, i in zip(spans, wanted):
        span.set_x(i - 0.5)
    look = {"facecolor": spans[0].get_facecolor(), "edgecolor": spans[0].get_edgecolor(),
            "linewidth": spans[0].get_linewidth(), "zorder": spans[0].get_zorder()} if spans else {}
    for i in wanted[len(spans):]:
        ax.axvspan(i - 0.5, i + 0.5, **look)
    ax.set_xticks(range(n), labels, **tick_kw)
    _set_data_limits(ax, bars, _spans(ax, bars))
    ax._request_autoscale_view()  # applied at the draw, after every shared Axes has its new limits
    return True


def _set_data_limits(ax: Axes, bars: Sequence[BarContainer], spans: Sequence[Rectangle]) -> None:
    """Set the data limits of `ax` to those of its bars (x and y) and spans (x: their y is in Axes coordinates).

    Why not `ax.relim()`: it walks every patch's path through a composed transform, some 0.3 ms a patch. For
    rectangles the corners are x, x + width, y, y + height, the very numbers that walk finds.
    """
    xs = [v for c in bars for p in c for v in (p.get_x(), p.get_x() + p.get_width())]
    xs += [v for p in spans for v in (p.get_x(), p.get_x() + p.get_width())]
    ys = [v for c in bars for p in c for v in (p.get_y(), p.get_y() + p.get_height())]
    ax.dataLim.set_points(np.array([[min(xs), min(ys)], [max(xs), max(ys)]]))
