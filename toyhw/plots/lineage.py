"""Plot of the best program's lineage (notebook 04): every ancestor numbered, every description listed whole."""

from __future__ import annotations

import textwrap
from typing import Optional, Sequence

from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from toyhw.evolve.loop import LineageStep
from toyhw.plots import style
from toyhw.plots.labels import place_labels
from toyhw.plots.style import finish, new_axes

WRAP = 110
"""Characters per line of a description in the list below the plot (wrapped, never cut)."""


def _entry(number: int, step: LineageStep) -> str:
    """Return one line of the list: the marker's number, the proposal and the LLM's whole description, wrapped."""
    head = f"{number}   proposal {step.step}: " if step.step else f"{number}   "
    return textwrap.fill(head + step.description, WRAP, subsequent_indent="       ")


@style.plot(counts=("x",))
def lineage(steps: Sequence[LineageStep], budget: int, ax: Optional[Axes] = None) -> Axes:
    """Return the best program's ancestry: each ancestor's score at the proposal that created it.

    Every ancestor is a numbered marker (0 = the initial program, numbered like the rows of
    toyhw.course.evolve_tables.lineage_frame), and the list below the plot gives each number's proposal and the LLM's whole
    description of the change. Why numbers and a list: twenty descriptions of up to 170 characters cannot sit next to
    their points without covering each other.
    """
    entries = [_entry(i, s) for i, s in enumerate(steps)]
    n_lines = sum(e.count("\n") + 1 for e in entries)
    ax = new_axes(ax, figsize=(9.0, 4.6 + 0.19 * n_lines))
    x = [s.step for s in steps] + [budget]
    y = [s.score for s in steps] + [steps[-1].score]
    color = style.SINGLE
    ax.step(x, y, where="post", color=color, lw=1.5)
    ax.plot(x[:-1], y[:-1], "o", color=color, ms=4)
    ax.set_xlim(0, budget)
    low, high = min(y), max(y)
    ax.set_ylim(low - 0.08 * (high - low or 1), high + 0.15 * (high - low or 1))
    style.integer_ticks(ax, "x")
    handles = [Line2D([], [], ls="none", color=style.NEUTRALS["white"]) for _ in entries]  # text only
    ax.legend(
        handles,
        entries,
        loc="upper left",
        bbox_to_anchor=(0.0, -0.16),
        frameon=False,
        fontsize=9,
        handlelength=0,
        handletextpad=0,
        borderaxespad=0,
        title="the steps (numbers as on the markers)",
        title_fontsize=9,
        alignment="left",
    )
    finish(
        ax,
        f"Lineage of the best program: {len(steps) - 1} edits from the initial program",
        "proposal that created it",
        "training score",
        legend=False,
    )
    xs, ys = x[:-1], y[:-1]
    steps_xy = ([xi for xi in x for _ in (0, 1)][1:], [yi for yi in y for _ in (0, 1)][:-1])  # the drawn staircase
    place_labels(
        ax, xs, ys, [str(i) for i in range(len(steps))], lines=[steps_xy], fontsize=8.5, color=style.NEUTRALS["black"]
    )
    return ax
