"""The checks of tests/test_plot_contract.py: each takes a drawn Figure and returns what is wrong with it, as sentences.

Kept apart from the test module so that the tests can also run each check on a figure broken on purpose (a check
that never fails proves nothing).
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from toyhw.plots import style

MIN_TICK_PT = 9.0
"""Tick labels at least this large (points, at the figure's own size): readable on a projector."""


def drawn(fig: Figure) -> Figure:
    """Return `fig` after a full draw, so that every extent and tick below is the one a reader sees."""
    fig.canvas.draw()
    return fig


def is_colorbar(ax: Axes) -> bool:
    """Colorbar axes are exempt from titles and labels checks: the colorbar's label says what it shows."""
    return hasattr(ax, "_colorbar")


def is_twin(ax: Axes, fig: Figure) -> bool:
    """A twinx/twiny Axes (same place as another, sharing an axis) is exempt from the title: it has its host's."""
    return any(
        other is not ax
        and other.get_position().bounds == ax.get_position().bounds
        and (other in ax.get_shared_x_axes().get_siblings(ax) or other in ax.get_shared_y_axes().get_siblings(ax))
        for other in fig.axes
    )


def plot_axes(fig: Figure) -> Iterator[Axes]:
    """Yield the Axes that show data (not colorbars)."""
    return (ax for ax in fig.axes if not is_colorbar(ax))


def _shown_ticklabels(axis) -> list[Text]:
    """Return the tick labels a reader sees: visible, not empty, on a tick inside the axis' view."""
    if not axis.get_visible():
        return []
    low, high = sorted(axis.get_view_interval())
    slack = 1e-9 * max(abs(low), abs(high), 1.0)
    return [
        label
        for tick in axis.get_major_ticks()
        if low - slack <= tick.get_loc() <= high + slack
        for label in (tick.label1, tick.label2)
        if label.get_visible() and label.get_text()
    ]


def unlabelled(fig: Figure) -> list[str]:
    """Return the Axes without a title (twins exempt) and the axes whose tick labels show but which have no label."""
    problems = []
    for ax in plot_axes(drawn(fig)):
        name = ax.get_title() or ax.get_title("left") or ax.get_title("right") or "an untitled Axes"
        if not is_twin(ax, fig) and not (ax.get_title() or ax.get_title("left") or ax.get_title("right")):
            problems.append(f"{name}: no title")
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if _shown_ticklabels(axis) and not axis.get_label_text():
                problems.append(f"{name}: the {which} axis has tick labels but no label")
    return problems


def untracked(fig: Figure) -> list[str]:
    """Return the data Axes not drawn by a plot function marked with toyhw.plots.style.plot (twins excepted)."""
    return [
        f"{ax.get_title() or 'an Axes'}: not drawn by a toyhw.plots plot function"
        for ax in plot_axes(fig)
        if ax not in style.COUNT_AXES and not is_twin(ax, fig)
    ]


def fractional_ticks(fig: Figure) -> list[str]:
    """Return the counting axes (declared by their plot function) that show a tick between whole numbers."""
    problems = []
    for ax in plot_axes(drawn(fig)):
        for which in style.COUNT_AXES.get(ax, ()):
            axis = ax.xaxis if which == "x" else ax.yaxis
            shown = {label.get_position()[0 if which == "x" else 1] for label in _shown_ticklabels(axis)}
            bad = sorted(float(v) for v in shown if v != round(v))
            if bad:
                problems.append(f"{ax.get_title()}: the {which} axis counts but has ticks at {bad[:4]}")
    return problems


def _colours(artist) -> Iterator[tuple]:
    """Yield the RGBA colours an artist paints with (edges only when they are drawn)."""
    if isinstance(artist, Line2D):
        yield from (
            to_rgba(artist.get_color()),
            to_rgba(artist.get_markerfacecolor()),
            to_rgba(artist.get_markeredgecolor()),
        )
    elif isinstance(artist, Patch):
        yield to_rgba(artist.get_facecolor())
        if artist.get_linewidth() > 0:
            yield to_rgba(artist.get_edgecolor())
    elif isinstance(artist, Text):
        yield to_rgba(artist.get_color())
    elif hasattr(artist, "get_facecolor"):  # collections: scatter points, bands
        yield from (tuple(c) for c in artist.get_facecolor())
        if np.any(artist.get_linewidth()):
            yield from (tuple(c) for c in artist.get_edgecolor())


def artists(ax: Axes) -> list:
    """Return what `ax` draws for data and its own words: lines, patches, collections, texts, legend, labels."""
    found = [*ax.lines, *ax.patches, *ax.collections, *ax.texts, ax.title, ax.xaxis.label, ax.yaxis.label]
    legend = ax.get_legend()
    if legend is not None:
        found += [*legend.legend_handles, *legend.get_texts()]
    return found


def foreign_colours(fig: Figure) -> list[str]:
    """Return the colours drawn in `fig` that are not in the shared palette (transparent paint is no colour)."""
    allowed = style.palette()
    problems = set()
    for ax in plot_axes(fig):
        for artist in artists(ax):
            for rgba in _colours(artist):
                if rgba[3] > 0 and to_hex(rgba) not in allowed:
                    problems.add(
                        f"{ax.get_title()!r}: {type(artist).__name__} {artist.get_label()!r} is "
                        f"{to_hex(rgba)}, not a toyhw.plots.style colour"
                    )
    return sorted(problems)


def legend_colours(fig: Figure) -> dict[str, str]:
    """Return {legend label: the colour of its handle} over every legend of `fig`."""
    found = {}
    for ax in plot_axes(fig):
        legend = ax.get_legend()
        for handle, text in zip(legend.legend_handles, legend.get_texts()) if legend else ():
            painted = [c for c in _colours(handle) if c[3] > 0]  # a ring's face is empty: its edge is its colour
            found[text.get_text()] = to_hex(painted[0]) if painted else "none"
    return found


def _extent(artist, renderer) -> Bbox:
    return artist.get_window_extent(renderer)


def _texts(ax: Axes) -> list[Text]:
    return [t for t in ax.texts if t.get_visible() and t.get_text()]


def _words(ax: Axes) -> list[Text]:
    """Return every visible piece of text of `ax`: title, axis labels, tick labels, its texts."""
    texts = [
        ax.title,
        ax._left_title,
        ax._right_title,
        ax.xaxis.label,
        ax.yaxis.label,
        *_texts(ax),
        *_shown_ticklabels(ax.xaxis),
        *_shown_ticklabels(ax.yaxis),
    ]
    return [t for t in texts if t.get_visible() and t.get_text()]


def _data_points(ax: Axes) -> np.ndarray:
    """Return the pixel positions of the data (line vertices, scatter points), for the legend-covers-data check."""
    points = [line.get_transform().transform(line.get_xydata()) for line in ax.lines if len(line.get_xydata())]
    points += [
        c.get_offset_transform().transform(c.get_offsets())
        for c in ax.collections
        if isinstance(c, PathCollection) and len(c.get_offsets())
    ]
    return np.vstack(points) if points else np.empty((0, 2))


def _bars(ax: Axes, renderer) -> list[Bbox]:
    """Return the extents of the bars (rectangles in a palette colour that is not a neutral shade)."""
    neutral = set(style.NEUTRALS.values())
    return [
        _extent(p, renderer)
        for p in ax.patches
        if isinstance(p, Rectangle) and p.get_fill() and to_hex(p.get_facecolor()) not in neutral
    ]


def layout_problems(fig: Figure) -> list[str]:
    """Return overlaps and cut-offs a reader would see.

    Texts of an Axes overlapping each other; a legend over text or data (line vertices, scatter points, bars); any
    text outside the figure (cut off in a panel, which saves the figure as it is); tick labels of one axis
    overlapping each other or smaller than MIN_TICK_PT; leader lines of annotations that cross.
    """
    renderer = drawn(fig).canvas.get_renderer()
    canvas = fig.bbox
    problems = []
    legends = [(ax, ax.get_legend()) for ax in plot_axes(fig) if ax.get_legend() is not None]
    for ax in plot_axes(fig):
        title = ax.get_title().replace("\n", " ")[:50] or "an Axes"
        texts = _texts(ax)
        for i, a in enumerate(texts):
            for b in texts[i + 1 :]:
                if _extent(a, renderer).overlaps(_extent(b, renderer)):
                    problems.append(f"{title}: texts {a.get_text()!r} and {b.get_text()!r} overlap")
        for text in _words(ax):
            box = _extent(text, renderer)
            if box.x0 < canvas.x0 - 1 or box.x1 > canvas.x1 + 1 or box.y0 < canvas.y0 - 1 or box.y1 > canvas.y1 + 1:
                problems.append(f"{title}: {text.get_text()[:40]!r} is cut off at the figure's edge")
            for _, legend in legends:
                if box.overlaps(_extent(legend, renderer)):
                    problems.append(f"{title}: the legend covers {text.get_text()[:40]!r}")
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            labels = _shown_ticklabels(axis)
            small = sorted({t.get_fontsize() for t in labels if t.get_fontsize() < MIN_TICK_PT})
            if small:
                problems.append(f"{title}: {which} tick labels of {small} pt (at least {MIN_TICK_PT})")
            boxes = [_extent(t, renderer) for t in labels]
            if any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
                problems.append(f"{title}: {which} tick labels overlap each other")
        legend = ax.get_legend()
        if legend is not None:
            box = _extent(legend, renderer).padded(-2)
            if box.count_contains(_data_points(ax)):
                problems.append(f"{title}: the legend covers data points")
            if any(box.overlaps(bar) for bar in _bars(ax, renderer)):
                problems.append(f"{title}: the legend covers bars")
        problems += _crossing_leaders(ax, title)
    for bar in (ax for ax in fig.axes if is_colorbar(ax)):  # a colorbar's label is cut off like any text
        for text in (bar.xaxis.label, bar.yaxis.label):
            box = _extent(text, renderer)
            if text.get_text() and (box.y0 < canvas.y0 - 1 or box.y1 > canvas.y1 + 1 or box.x1 > canvas.x1 + 1):
                problems.append(f"a colorbar: {text.get_text()[:40]!r} is cut off at the figure's edge")
    return problems


def _crossing_leaders(ax: Axes, title: str) -> list[str]:
    """Return a problem for each pair of annotation leader lines that cross (they make labels hard to match)."""
    segments = []
    for text in ax.texts:
        arrow = getattr(text, "arrow_patch", None)
        if arrow is not None and text.get_visible():
            path = arrow.get_path().vertices
            segments.append((text.get_text(), path[0], path[-1]))
    problems = []
    for i, (na, a0, a1) in enumerate(segments):
        for nb, b0, b1 in segments[i + 1 :]:
            if _cross(a0, a1, b0, b1):
                problems.append(f"{title}: the leader lines of {na!r} and {nb!r} cross")
    return problems


def _cross(p1, p2, q1, q2) -> bool:
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


def cut_texts(fig: Figure) -> list[str]:
    """Return the texts of `fig` that end in an ellipsis: a description cut short instead of wrapped."""
    found = []
    for ax in plot_axes(fig):
        legend = ax.get_legend()
        texts = _words(ax) + (list(legend.get_texts()) if legend else [])
        found += [t.get_text() for t in texts if t.get_text().rstrip().endswith(("...", "\u2026"))]
    return found


def colour_disagreements(figures: dict[str, Figure]) -> list[str]:
    """Return the legend labels drawn in different colours by different figures, and the variants and feedback modes
    not drawn in their own palette colour (style.VARIANT_COLORS, style.MODE_COLORS).

    Why across figures: a colour picked by a name's position in the list a plot was given is stable inside one plot
    and still wrong, since another plot shows another subset or order; only comparing plots exposes it.
    """
    seen: dict[str, dict[str, str]] = {}
    for name, fig in figures.items():
        for label, colour in legend_colours(fig).items():
            seen.setdefault(label, {})[name] = colour
    problems = [
        f"{label!r} is drawn in {sorted(set(where.values()))} ({', '.join(sorted(where))})"
        for label, where in seen.items()
        if len(set(where.values())) > 1
    ]
    for table in (style.VARIANT_COLORS, style.MODE_COLORS):
        problems += [
            f"{label!r} is {colour} in {name}, its palette colour is {table[label]}"
            for label, where in seen.items()
            if label in table
            for name, colour in where.items()
            if colour != table[label]
        ]
    return problems


def legend_labels(figures: dict[str, Figure]) -> set[str]:
    """Return every legend label of `figures` (which variants and modes the colour checks saw)."""
    return {label for fig in figures.values() for label in legend_colours(fig)}
