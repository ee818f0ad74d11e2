"""A per-category bar chart updated in place: new bar heights, tick labels and shaded categories on the same artists.

Why: notebook 06's feedback panel shows some 44 shapes twice (two series each, a grey span per stuck shape, a label
per shape) and every move changes all of them. Clearing and re-plotting made some 200 bar patches and 88 ticks
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


def update_bars(
    ax: Axes, values: Sequence[Sequence[float]], labels: Sequence[str], shaded: Sequence[bool], **tick_kw: object
) -> bool:
    """Set the bar series of `ax` to `values` (one list per series, one value per category), its category tick labels
    to `labels` (with `tick_kw`, as the plot function set them), and shade the categories where `shaded` is true.

    The bars may be vertical (`bar`: categories on x, values are heights, spans from `axvspan`) or horizontal (`barh`:
    categories on y, values are widths, spans from `axhspan`); the direction is read from the bars. `ax` must have
    been drawn by a plot function that made the series in this order over categories 0, 1, ..., spans from i - 0.5 to
    i + 0.5 behind the shaded ones, and set the category ticks at 0, 1, ... with `labels`. Return False, changing
    nothing, when `ax` does not have that many series of that many bars, or when spans are wanted and `ax` has none to
    copy the look of: the caller then re-plots.
    """
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    n = len(labels)
    if len(bars) != len(values) or any(len(c) != n or len(v) != n for c, v in zip(bars, values)):
        return False
    horizontal = bars[0].orientation == "horizontal"
    spans = _spans(ax, bars)
    wanted = [i for i, shade in enumerate(shaded) if shade]
    if wanted and not spans:
        return False
    set_value = Rectangle.set_width if horizontal else Rectangle.set_height
    set_place = Rectangle.set_y if horizontal else Rectangle.set_x
    for container, series in zip(bars, values):
        for patch, value in zip(container, series):
            set_value(patch, value)
    for span in spans[len(wanted) :]:
        span.remove()
    for span, i in zip(spans, wanted):
        set_place(span, i - 0.5)
    look = (
        {
            "facecolor": spans[0].get_facecolor(),
            "edgecolor": spans[0].get_edgecolor(),
            "linewidth": spans[0].get_linewidth(),
            "zorder": spans[0].get_zorder(),
        }
        if spans
        else {}
    )
    add_span = ax.axhspan if horizontal else ax.axvspan
    for i in wanted[len(spans) :]:
        add_span(i - 0.5, i + 0.5, **look)
    set_ticks = ax.set_yticks if horizontal else ax.set_xticks
    set_ticks(range(n), labels, **tick_kw)
    _set_data_limits(ax, bars, _spans(ax, bars), horizontal)
    ax._request_autoscale_view()  # applied at the draw, after every shared Axes has its new limits
    return True


def _set_data_limits(ax: Axes, bars: Sequence[BarContainer], spans: Sequence[Rectangle], horizontal: bool) -> None:
    """Set the data limits of `ax` to those of its bars (x and y) and spans (along the categories only: across, an
    axvspan's or axhspan's extent is in Axes coordinates).

    Why not `ax.relim()`: it walks every patch's path through a composed transform, slow on many bars. For
    rectangles the corners are x, x + width, y, y + height, the very numbers that walk finds.
    """
    xs = [v for c in bars for p in c for v in (p.get_x(), p.get_x() + p.get_width())]
    ys = [v for c in bars for p in c for v in (p.get_y(), p.get_y() + p.get_height())]
    if horizontal:
        ys += [v for p in spans for v in (p.get_y(), p.get_y() + p.get_height())]
    else:
        xs += [v for p in spans for v in (p.get_x(), p.get_x() + p.get_width())]
    ax.dataLim.set_points(np.array([[min(xs), min(ys)], [max(xs), max(ys)]]))
