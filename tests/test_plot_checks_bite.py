"""The checks of tests/plot_checks.py fail on figures broken on purpose: each error a plot can make, drawn that way,
is caught. A check that passes every real plot proves nothing unless it can fail.

Each test draws a small figure through a function marked with `style.plot` (as the real plot functions are), first
correct (the check passes: it does not fail on everything) and then with one error.
"""

from __future__ import annotations

from typing import Optional, Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

import plot_checks as checks  # noqa: E402
from toyhw.plots import style  # noqa: E402
from toyhw.plots.labels import place_labels  # noqa: E402

OLD_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")
"""matplotlib's default cycle, which a plot picking colours by list position would use."""


@style.plot(counts=("x",))
def curves(
    names: Sequence[str],
    by_order: bool = False,
    colour: Optional[str] = None,
    title: str = "Curves",
    xlabel: str = "proposed programs",
    integer: bool = True,
    ax: Optional[Axes] = None,
) -> Axes:
    """Draw one line per variant over 0-2.5 programs, coloured as asked, with a legend: a miniature plot function."""
    ax = style.new_axes(ax)
    for k, name in enumerate(names):
        chosen = colour or (OLD_PALETTE[k] if by_order else style.variant_color(name))
        ax.plot([0, 1, 2.5], [k, k + 1, k + 2], color=chosen, label=name)
    if integer:
        style.integer_ticks(ax, "x")
    return style.finish(ax, title, xlabel, "score")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_a_missing_title_or_axis_label_is_caught():
    assert checks.unlabelled(curves(["full"]).figure) == []
    assert checks.unlabelled(curves(["full"], xlabel="").figure) == ["Curves: the x axis has tick labels but no label"]
    assert checks.unlabelled(curves(["full"], title="").figure) == ["an untitled Axes: no title"]


def test_an_axes_no_plot_function_drew_is_caught():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], color=style.BLUE)
    ax.set(title="Drawn by hand", xlabel="x", ylabel="y")
    assert checks.untracked(fig) == ["Drawn by hand: not drawn by a toyhw.plots plot function"]


def test_fractional_ticks_on_an_axis_that_counts_are_caught():
    assert checks.fractional_ticks(curves(["full"]).figure) == []
    (problem,) = checks.fractional_ticks(curves(["full"], integer=False).figure)
    assert problem.startswith("Curves: the x axis counts but has ticks at [0.5, 1.5")


def test_a_colour_off_the_palette_is_caught():
    assert checks.foreign_colours(curves(["full", "no_feedback"]).figure) == []
    assert checks.foreign_colours(curves(["full"], colour="#123456").figure) == [
        "'Curves': Line2D 'full' is #123456, not a toyhw.plots.style colour"
    ]
    assert len(checks.foreign_colours(curves(["full"], by_order=True).figure)) == 1  # the old default cycle


def test_no_colour_of_matplotlibs_default_cycle_is_in_the_palette():
    """Else a plot that forgot its colour (matplotlib then takes the next of its cycle) could pass the palette check:
    the red box of the GEMM panel was once tab:red, and the brown tab:brown."""
    cycle = {to_hex(c) for c in plt.rcParamsDefault["axes.prop_cycle"].by_key()["color"]}
    assert len(cycle) == 10 and cycle & style.palette() == set()
    ax = style.new_axes()
    ax.plot([0, 1], [0, 1])  # no colour given
    assert len(checks.foreign_colours(ax.figure)) == 1


def test_colour_by_list_order_is_caught_across_plots():
    """Notebook 04 showed no_feedback third and drew it red; notebook 06 showed fb_worst3 fourth and drew it red.

    Here the order-based colours are taken from the palette itself, so only the comparison across plots can tell.
    """

    def by_position(names: Sequence[str]) -> Axes:
        ax = curves(names)
        for k, line in enumerate(ax.lines):
            line.set_color(style.PALETTE[k])
        ax.legend()
        return ax

    right = {
        "04": curves(["full", "fb_roofline", "no_feedback"]).figure,
        "06": curves(["full", "fb_roofline", "no_feedback", "fb_worst3"][::-1]).figure,
    }
    assert checks.colour_disagreements(right) == []
    wrong = {
        "04": by_position(["full", "fb_roofline", "no_feedback"]).figure,
        "06": by_position(["fb_worst3", "full", "fb_roofline", "no_feedback"]).figure,
    }
    problems = checks.colour_disagreements(wrong)
    assert any(p.startswith("'no_feedback' is drawn in") for p in problems)
    assert any(p.startswith("'fb_worst3' is #0072b2 in 06, its palette colour is") for p in problems)


def test_text_cut_short_small_ticks_and_a_covering_legend_are_caught():
    ax = curves(["full"], title="The lineage: new rule `if M <= 48 and K >= 8192`: use the fastest con...")
    assert checks.cut_texts(ax.figure) == [ax.get_title()]
    ax = curves(["full"])
    ax.tick_params(axis="x", labelsize=6)
    assert checks.layout_problems(ax.figure) == ["Curves: x tick labels of [6.0] pt (at least 9.0)"]
    ax = curves(["full"])
    ax.legend(loc="center", fontsize=40)  # over the line's middle vertex
    assert "Curves: the legend covers data points" in checks.layout_problems(ax.figure)


def test_crossing_leader_lines_are_caught_and_the_placer_avoids_them():
    ax = curves(["full"])
    ax.annotate("a", (0, 0), xytext=(2, 2), arrowprops={"arrowstyle": "-"})
    ax.annotate("b", (0, 2), xytext=(2, 0), arrowprops={"arrowstyle": "-"})
    assert "Curves: the leader lines of 'a' and 'b' cross" in checks.layout_problems(ax.figure)
    ax = curves(["full"], title="Crowded")
    xs = [0.1 * k for k in range(20)]
    place_labels(
        ax, xs, [1.0 + 0.02 * k for k in range(20)], [str(k) for k in range(20)], fontsize=8.5
    )  # as the lineage
    assert [p for p in checks.layout_problems(ax.figure) if "leader" in p or "overlap" in p] == []


def test_a_colorbar_label_cut_at_the_figure_edge_is_caught():
    """The tile map's colorbar label ran past the top of the explorer's figure (a panel saves it as it is)."""
    fig, ax = plt.subplots(figsize=(4, 2))
    fig.colorbar(ax.imshow([[0, 1]]), ax=ax, label="a colorbar label far longer than the figure is high")
    assert (
        "a colorbar: 'a colorbar label far longer than the fig' is cut off at the figure's edge"
        in checks.layout_problems(fig)
    )
