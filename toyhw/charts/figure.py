"""Chart descriptions: plots of marks in data coordinates, laid out into one figure of fixed pixel size.

Why the layout is decided here, in Python, once per state: a description then carries every position the drawing
needs (plot boxes, where titles, axis labels and legend entries go), so the two renderers (toyhw.charts.scene for the
static SVG, chart.js in the page) only map data to pixels and cannot lay a figure out differently. Text widths are
estimated from the characters (a CJK character is a full em, others about 0.58 em); the margins leave room for that.

A description is plain JSON (dicts, lists, strings, numbers): it is what a panel sends to the page on a move.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Optional, Sequence

from toyhw.charts.scene import LINE_HEIGHT

Mark = dict[str, Any]
Axis = dict[str, Any]

TICK_SIZE, LABEL_SIZE, TITLE_SIZE, LEGEND_SIZE, FIGURE_TITLE_SIZE = 11, 12, 13, 11, 14
GAP = 28
"""Pixels between two plots of a row (the right one's tick labels sit in its own left margin)."""
LEGEND_ROW = 17


def text_width(text: str, size: float) -> float:
    """Return the estimated width in pixels of the widest line of `text` at font size `size`."""

    def one(line: str) -> float:
        return sum(size if ord(ch) >= 0x2E80 else 0.58 * size for ch in line)

    return max((one(line) for line in str(text).split("\n")), default=0.0)


def text_height(text: str, size: float) -> float:
    """Return the height in pixels of `text`'s lines at font size `size`."""
    return len(str(text).split("\n")) * size * LINE_HEIGHT


def fnum(value: float) -> float:
    """Return `value` as a float rounded to six significant digits: descriptions stay small and read the same on
    every CPU (the last bits of a computed float never reach the page or the stored SVG)."""
    return float(f"{value:.6g}")


def numbers(values: Sequence[float]) -> list[float]:
    """Return `values` as rounded floats (fnum), for a mark's data."""
    return [fnum(float(v)) for v in values]


def axis(
    domain: Sequence[float],
    ticks: Sequence[tuple[float, str]],
    label: str = "",
    scale: str = "linear",
    reverse: bool = False,
) -> Axis:
    """Return an axis: its data `domain` (low, high), `ticks` as (value, label) pairs, its `label`, `scale` (linear or
    log) and whether it runs `reverse` (top down, for category rows)."""
    if scale not in ("linear", "log"):
        raise ValueError(f"scale = {scale!r} is not allowed; scales: linear, log")
    lo, hi = (fnum(v) for v in domain)
    if not hi > lo or (scale == "log" and lo <= 0):
        raise ValueError(f"domain = {tuple(domain)!r} is not allowed; give low < high (and low > 0 on a log scale)")
    return {
        "scale": scale,
        "domain": [lo, hi],
        "ticks": [[fnum(v), str(text)] for v, text in ticks],
        "label": label,
        "reverse": reverse,
    }


def categories(labels: Sequence[str], label: str = "", reverse: bool = True) -> Axis:
    """Return an axis of categories at 0, 1, ... (the first on top when `reverse`, as a list reads)."""
    return axis((-0.5, len(labels) - 0.5), list(enumerate(labels)), label, reverse=reverse)


def nice_ticks(lo: float, hi: float, count: int = 6, fmt: str = "{:g}") -> list[tuple[float, str]]:
    """Return about `count` round tick values between `lo` and `hi` with their labels."""
    raw = (hi - lo) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    k = 0
    while first + k * step <= hi + 1e-9 * step:
        value = fnum(first + k * step)
        ticks.append((value, fmt.format(value)))
        k += 1
    return ticks


def line(x: Sequence[float], y: Sequence[float], color: str, width: float = 2, dash: str = "", dots: float = 0) -> Mark:
    """Return a polyline through (x, y), `dash` an SVG dash array ("6 4"), `dots` the radius of a dot per point."""
    return {
        "type": "line",
        "x": numbers(x),
        "y": numbers(y),
        "color": color,
        "width": width,
        "dash": dash,
        "dots": dots,
    }


def area(x: Sequence[float], lo: Sequence[float], hi: Sequence[float], color: str, opacity: str = "0.15") -> Mark:
    """Return the band between `lo` and `hi` over `x`."""
    return {"type": "area", "x": numbers(x), "lo": numbers(lo), "hi": numbers(hi), "color": color, "opacity": opacity}


def rule(at: float, color: str, across: str = "y", width: float = 1, dash: str = "") -> Mark:
    """Return a line across the plot at `at`: horizontal at y = at (`across` "y") or vertical at x = at ("x")."""
    return {"type": "rule", "axis": across, "at": fnum(at), "color": color, "width": width, "dash": dash}


def rect(x0: float, x1: float, y0: float, y1: float, fill: str = "none", stroke: str = "", width: float = 1) -> Mark:
    """Return a rectangle from (x0, y0) to (x1, y1) in data coordinates (bars, cells, shaded rows, boxes)."""
    mark = {"type": "rect", "x0": fnum(x0), "x1": fnum(x1), "y0": fnum(y0), "y1": fnum(y1), "fill": fill}
    if stroke:
        mark.update({"stroke": stroke, "width": width})
    return mark


def text(
    x: float,
    y: float,
    words: str,
    anchor: str = "start",
    dx: float = 0,
    dy: float = 0,
    size: float = 11,
    color: str = "",
    bold: bool = False,
    baseline: str = "middle",
) -> Mark:
    """Return text at (x, y) moved by (dx, dy) pixels; `anchor` start, middle or end; lines split at "\\n"."""
    mark = {"type": "text", "x": fnum(x), "y": fnum(y), "text": words, "anchor": anchor, "dx": dx, "dy": dy}
    mark.update({"size": size, "baseline": baseline, "bold": bold})
    if color:
        mark["color"] = color
    return mark


def dot(x: float, y: float, color: str, r: float = 4) -> Mark:
    """Return a filled dot at (x, y)."""
    return {"type": "dot", "x": fnum(x), "y": fnum(y), "color": color, "r": r}


@dataclasses.dataclass
class LegendItem:
    """One legend entry: a line sample (`dash` for a dashed one) or a filled box (`box`)."""

    label: str
    color: str
    box: bool = False
    dash: str = ""


@dataclasses.dataclass
class Plot:
    """One plot of a figure before layout: its title, axes (`y2` a right axis in y's units), marks and legend."""

    title: str
    x: Axis
    y: Axis
    marks: list[Mark]
    legend: list[LegendItem] = dataclasses.field(default_factory=list)
    y2: Optional[Axis] = None
    legend_columns: int = 0
    """Legend entries per row (0: as many as fit)."""


def _legend_rows(plot: Plot, width: float) -> tuple[int, int, float]:
    """Return the legend's (rows, columns, column width) under a plot `width` pixels wide."""
    if not plot.legend:
        return 0, 0, 0.0
    column = max(text_width(item.label, LEGEND_SIZE) for item in plot.legend) + 40
    fits = max(1, int(width // column))
    columns = min(len(plot.legend), plot.legend_columns or fits, fits)
    return math.ceil(len(plot.legend) / columns), columns, column


def _tick_width(ax: Optional[Axis]) -> float:
    return max((text_width(label, TICK_SIZE) for _, label in (ax or {}).get("ticks", [])), default=0.0)


def _tick_height(ax: Axis) -> float:
    return max((text_height(label, TICK_SIZE) for _, label in ax.get("ticks", [])), default=0.0)


def figure(
    plots: Sequence[Plot], width: float = 960, height: float = 420, ratios: Sequence[float] = (), title: str = ""
) -> dict[str, Any]:
    """Return the description of `plots` side by side (widths in `ratios`) in a `width` x `height` pixel figure,
    with an optional figure `title` above them; every plot of the row gets the same top and bottom."""
    ratios = list(ratios) or [1.0] * len(plots)
    if len(ratios) != len(plots):
        raise ValueError(f"ratios = {ratios!r} is not allowed; give one per plot ({len(plots)})")
    lefts = [_tick_width(p.y) + 12 + (LABEL_SIZE * LINE_HEIGHT + 6 if p.y.get("label") else 0) for p in plots]
    rights = [
        12 + (_tick_width(p.y2) + 10 + (LABEL_SIZE * LINE_HEIGHT + 6 if p.y2.get("label") else 0) if p.y2 else 0)
        for p in plots
    ]
    usable = width - 8 - GAP * (len(plots) - 1) - 8
    cells = [usable * r / sum(ratios) for r in ratios]
    top0 = 10 + (text_height(title, FIGURE_TITLE_SIZE) + 6 if title else 0)
    top = top0 + max((text_height(p.title, TITLE_SIZE) + 8 if p.title else 0) for p in plots)
    legends = [_legend_rows(p, cell - left - right) for p, cell, left, right in zip(plots, cells, lefts, rights)]
    bottom = (
        max(
            8
            + _tick_height(p.x)
            + (text_height(p.x["label"], LABEL_SIZE) + 6 if p.x.get("label") else 0)
            + (rows * LEGEND_ROW + 8 if rows else 0)
            for p, (rows, _, _) in zip(plots, legends)
        )
        + 6
    )
    described = []
    x = 8.0
    for plot, cell, left, right, (rows, columns, column) in zip(plots, cells, lefts, rights, legends):
        box = [fnum(x + left), fnum(top), fnum(cell - left - right), fnum(height - top - bottom)]
        bx, by, bw, bh = box
        below = by + bh + 8 + _tick_height(plot.x)
        x_axis = dict(plot.x, label_at=fnum(below))
        if plot.x.get("label"):
            below += text_height(plot.x["label"], LABEL_SIZE) + 6
        legend = []
        for k, item in enumerate(plot.legend):
            row, col = divmod(k, columns)
            entry = {"label": item.label, "color": item.color, "kind": "box" if item.box else "line", "dash": item.dash}
            entry.update(x=fnum(bx + col * column), y=fnum(below + 8 + row * LEGEND_ROW))
            legend.append(entry)
        y_axis = dict(plot.y, label_at=fnum(bx - _tick_width(plot.y) - 12 - LABEL_SIZE * LINE_HEIGHT / 2))
        described_plot: dict[str, Any] = {"box": box, "x": x_axis, "y": y_axis, "marks": plot.marks, "legend": legend}
        if plot.title:
            described_plot.update(title=plot.title, title_at=fnum(top0))
        if plot.y2:
            described_plot["y2"] = dict(plot.y2, label_at=fnum(bx + bw + _tick_width(plot.y2) + 12 + 8))
        described.append(described_plot)
        x += cell + GAP
    spec: dict[str, Any] = {"width": width, "height": height, "plots": described}
    if title:
        spec["title"] = title
    return spec
