"""Place short labels next to data points so that none overlaps another label, a point or the drawn lines.

Why not matplotlib's own: annotate puts a label where it is told, and a fixed offset makes close points' labels
collide (in notebook 04's lineage several steps are a few proposals apart). This greedy placer tries, for each point
in turn, the spots around it from near to far and keeps the first that is free; a label moved away from its point gets
a thin leader line, and a leader never crosses another leader or label. Positions are computed on the figure's final
layout and stored as offsets in points, so they stay next to their points if the figure is redrawn.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.transforms import Bbox

from toyhw.plots import style

NEAR = [(0, 9), (0, -9), (-10, 7), (10, -7), (10, 7), (-10, -7), (-13, 0), (13, 0)]
"""Offsets (points) tried first: touching the marker, no leader line needed."""
FAR = [(dx, dy) for r in (20, 30, 42) for dx, dy in ((0, r), (0, -r), (-r, r), (r, -r), (r, r), (-r, -r))]
"""Offsets tried next, with a leader line from the point."""


def _segments_cross(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray) -> bool:
    """Return True if segment p1-p2 properly crosses segment q1-q2."""

    def side(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
        return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


def _segment_hits(box: Bbox, a: np.ndarray, b: np.ndarray) -> bool:
    """Return True if the segment a-b passes through `box` (sampled finely: labels are a few pixels large)."""
    n = max(2, int(np.hypot(*(b - a)) // 2) + 2)
    points = a + np.linspace(0.0, 1.0, n)[:, None] * (b - a)
    return bool(box.count_contains(points))


def place_labels(
    ax: Axes,
    xs: Sequence[float],
    ys: Sequence[float],
    texts: Sequence[str],
    lines: Sequence[tuple[Sequence[float], Sequence[float]]] = (),
    **text_kwargs,
) -> None:
    """Annotate each point (xs[i], ys[i]) of `ax` with texts[i], avoiding the other labels, the points and `lines`.

    `lines` are polylines (x values, y values) in data coordinates that labels must not sit on (the plotted curves).
    A label that fits nowhere is put at the last spot tried, with a leader line.
    """
    fig = ax.figure
    fig.draw_without_rendering()  # the final layout: data -> pixel transforms as they will be drawn
    renderer = fig.canvas.get_renderer()
    scale = fig.dpi / 72.0
    points = ax.transData.transform(np.column_stack([xs, ys]))
    polylines = [ax.transData.transform(np.column_stack([lx, ly])) for lx, ly in lines]
    inside = ax.get_window_extent(renderer)
    marker_boxes = [Bbox.from_extents(x - 3 * scale, y - 3 * scale, x + 3 * scale, y + 3 * scale) for x, y in points]
    placed: list[Bbox] = []
    leaders: list[tuple[np.ndarray, np.ndarray]] = []
    for k, ((px, py), text) in enumerate(zip(points, texts)):
        probe = ax.text(0, 0, text, transform=None, **text_kwargs)
        extent = probe.get_window_extent(renderer)
        probe.remove()
        w, h = extent.width + 2 * scale, extent.height
        choice = None
        for dx, dy in NEAR + FAR:
            cx, cy = px + dx * scale, py + dy * scale
            box = Bbox.from_bounds(cx - w / 2, cy - h / 2, w, h)
            leader = (np.array([px, py]), np.array([cx, cy])) if (dx, dy) in FAR else None
            choice = (dx, dy, leader)
            if not (inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1):
                continue
            if any(box.overlaps(other) for other in placed + [b for i, b in enumerate(marker_boxes) if i != k]):
                continue
            if any(_segment_hits(box, line[i], line[i + 1]) for line in polylines for i in range(len(line) - 1)):
                continue
            if leader is not None and (
                any(_segments_cross(*leader, *other) for other in leaders)
                or any(_segment_hits(b.shrunk(0.9, 0.9), *leader) for b in placed)
            ):
                continue
            break
        dx, dy, leader = choice
        placed.append(Bbox.from_bounds(px + dx * scale - w / 2, py + dy * scale - h / 2, w, h))
        arrow = (
            {"arrowstyle": "-", "color": style.NEUTRALS["light"], "lw": 0.6, "shrinkA": 0, "shrinkB": 3}
            if leader is not None
            else None
        )
        ax.annotate(
            text,
            (xs[k], ys[k]),
            xytext=(dx, dy),
            textcoords="offset points",
            ha="center",
            va="center",
            arrowprops=arrow,
            **text_kwargs,
        )
        if leader is not None:
            leaders.append(leader)
