"""Shared look of every plot: one default size, one palette, one way to get an Axes and to finish it.

Why one palette keyed by name: a reader who learned "full is blue" in notebook 04 must find it blue in notebook 06 and
in the panels, whatever subset of variants a plot happens to show and in whatever order. So every colour a plot uses
for data is looked up here by what it stands for (a variant, a feedback mode, a GPU, a role such as "oracle"), never
picked from the position of a name in the list a plot was given. The base colours are Okabe and Ito's colour-blind
safe set, then Paul Tol's muted set; pairs that are shown together (ok / failed, check off / on) never differ by red
against green alone. tests/test_plot_contract.py checks that every plot draws its data in these colours only.
"""

from __future__ import annotations

import functools
import zlib
from typing import Callable, Mapping, Optional, TypeVar
from weakref import WeakKeyDictionary

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.legend import Legend
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import ScaledTranslation

from toyhw.evolve.bridge.prompt import PART_NAMES
from toyhw.gemm import config as gemm_config
from toyhw.gemm.cost import SCHEDULES
from toyhw.gemm.gpu import gpu_names
from toyhw.gemm.shapes import LAYERS, NEW_LAYERS

FIGSIZE = (7.0, 4.0)

# Okabe & Ito (2008), "Color Universal Design", without its yellow (too faint as a line on white) and black.
BLUE, ORANGE, SKY, GREEN, VERMILLION, PURPLE = "#0072b2", "#e69f00", "#56b4e9", "#009e73", "#d55e00", "#cc79a7"
# Paul Tol's muted scheme (SRON/EPS/TN/09-002), for names beyond the first six, plus a brown.
INDIGO, TEAL, OLIVE, WINE = "#332288", "#44aa99", "#999933", "#882255"
SAND, ROSE, BROWN = "#ddcc77", "#cc6677", "#a6611a"
PALETTE = (BLUE, ORANGE, SKY, GREEN, VERMILLION, PURPLE, INDIGO, TEAL, OLIVE, WINE, SAND, ROSE, BROWN)
"""The base colours, in the order the named tables below draw from them."""

NEUTRALS: dict[str, str] = {
    "black": "#000000",
    "dark": "#333333",
    "mid": "#555555",
    "deep grey": "#5a5a5a",
    "grey": "#808080",
    "medium grey": "#8c8c8c",
    "light": "#999999",
    "pale": "#bbbbbb",
    "shade": "#e2e2e2",
    "white": "#ffffff",
}
"""Greys for reference lines (oracle, roofline, thresholds), shading, text on dark or light cells and outlines."""

ORACLE, BASELINE, REFERENCE, ROOFLINE = NEUTRALS["dark"], NEUTRALS["light"], NEUTRALS["mid"], NEUTRALS["black"]
SM_LINE, STUCK_SHADE = NEUTRALS["grey"], NEUTRALS["shade"]
YOURS = "#e31a1c"
"""The red box around the student's config in the GEMM panel (the notebook's prose says "boxed in red")."""
SINGLE = BLUE
"""A plot's only data series (a lineage, one schedule's time)."""

VARIANT_COLORS: dict[str, str] = {
    "full": BLUE,
    "fb_roofline": ORANGE,
    "fb_worst3": PURPLE,
    "no_feedback": VERMILLION,
    "small_llm": SKY,
    "no_evolution": GREEN,
    "no_borrow": WINE,
    "one_island": OLIVE,
    "no_cascade": BROWN,
    "no_full_file": INDIGO,
    "no_meta_prompt": TEAL,
}
"""One colour per ablation variant (toyhw.evolve.variants), the same in notebooks 04-08 and the panels."""

MODE_COLORS: dict[str, str] = {"resample": VERMILLION, "scalar": ORANGE, "explain": GREEN, "suggest": BLUE}
"""One colour per feedback mode of toyhw.kernels.proposers.PROPOSERS, the same in notebooks 01-02 and the panels."""
ONE_SHOT = INDIGO
"""The one-shot kernels' fast_p curve (notebook 01)."""

EXTRA_COLORS = (PURPLE, WINE, TEAL, OLIVE, INDIGO, ROSE, BROWN, SAND)
"""Colours for names no table knows (a student's own proposer or variant): picked by a hash of the name."""

FEEDBACK_COLORS: dict[str, str] = {"vs_roofline": VARIANT_COLORS["fb_roofline"], "vs_best": VARIANT_COLORS["full"]}
"""The two per-shape ratios, in the colour of the variant that targets by each (fb_roofline, full)."""

OUTCOME_COLORS: dict[str, str] = {"compile_error": VERMILLION, "wrong": ORANGE, "ok": GREEN, "ok_slow": "#8fd1bd"}
"""Kernel outcomes; "ok_slow" (correct, not faster than PyTorch) is a light tint of "ok" (the light-green bar)."""

BRANCH_CHECK_COLORS: dict[str, str] = {"off": VERMILLION, "on": GREEN}
BRANCH_COUNT_COLORS: dict[str, str] = {
    "added_bad_branch": ORANGE,
    "db_bad_branch": VERMILLION,
    "crash_new_shapes": WINE,
}
CASCADE_COLORS: dict[str, str] = {"passed": GREEN, "cut": VERMILLION}
PART_COLORS: dict[str, str] = dict(zip(PART_NAMES, (BLUE, ORANGE, SKY, GREEN, VERMILLION, PURPLE, OLIVE, INDIGO)))
"""One colour per prompt part (toyhw.evolve.bridge.prompt.PART_NAMES)."""

TIME_PART_COLORS: dict[str, str] = {
    "launch": NEUTRALS["grey"],
    "fill+drain": SAND,
    "main": BLUE,
    "split-K reduce": VERMILLION,
}
LAUNCH_COLORS: dict[str, str] = {
    "launchable": GREEN,
    "shared memory": NEUTRALS["pale"],
    "registers": NEUTRALS["medium grey"],
    "warp tiling": NEUTRALS["deep grey"],
}
"""Whether a config launches, else the first check that fails (greys: the tile map letters them too)."""
GPU_COLORS: dict[str, str] = dict(zip(gpu_names(), (BLUE, ORANGE, SKY, GREEN, VERMILLION)))
LAYER_COLORS: dict[str, str] = dict(zip(list(LAYERS) + list(NEW_LAYERS), PALETTE))
BLOCK_M_COLORS: dict[str, str] = dict(
    zip(map(str, gemm_config.FIELDS["block_m"]), (VERMILLION, ORANGE, GREEN, SKY, BLUE))
)
STAGES_COLORS: dict[str, str] = dict(zip(map(str, gemm_config.FIELDS["num_stages"]), (VERMILLION, ORANGE, SKY, BLUE)))
SCHEDULE_COLORS: dict[str, str] = dict(zip(SCHEDULES, (BLUE, ORANGE)))
COST_COLORS: dict[str, str] = {"wall time": BLUE, "kernel runs": ORANGE}

TABLES: dict[str, Mapping[str, str]] = {
    "variant": VARIANT_COLORS,
    "mode": MODE_COLORS,
    "feedback": FEEDBACK_COLORS,
    "outcome": OUTCOME_COLORS,
    "branch check": BRANCH_CHECK_COLORS,
    "branch count": BRANCH_COUNT_COLORS,
    "cascade": CASCADE_COLORS,
    "prompt part": PART_COLORS,
    "time part": TIME_PART_COLORS,
    "launch": LAUNCH_COLORS,
    "gpu": GPU_COLORS,
    "layer": LAYER_COLORS,
    "block_m": BLOCK_M_COLORS,
    "stages": STAGES_COLORS,
    "schedule": SCHEDULE_COLORS,
    "cost": COST_COLORS,
    "neutral": NEUTRALS,
}
"""Every named colour table, for tests and for readers looking for "which colour means what"."""


def palette() -> frozenset[str]:
    """Return every colour a plot may draw with (lower-case #rrggbb): the tables, the roles and the extras."""
    named = {c for table in TABLES.values() for c in table.values()}
    return frozenset(named | set(PALETTE) | set(EXTRA_COLORS) | {YOURS, ONE_SHOT, SINGLE})


def extra_color(name: str) -> str:
    """Return the colour of a name no table knows, from a hash of the name: the same in every plot and every run."""
    return EXTRA_COLORS[zlib.crc32(name.encode("utf-8")) % len(EXTRA_COLORS)]


def variant_color(name: str) -> str:
    """Return the colour of an ablation variant (a fixed colour from its name for variants added later)."""
    return VARIANT_COLORS.get(name) or extra_color(name)


def mode_color(name: str) -> str:
    """Return the colour of a feedback mode, of "one-shot", or (from its name) of a student's own proposer."""
    if name == "one-shot":
        return ONE_SHOT
    return MODE_COLORS.get(name) or extra_color(name)


def new_axes(ax: Optional[Axes] = None, figsize: tuple[float, float] = FIGSIZE) -> Axes:
    """Return `ax`, or the Axes of a new figure of the pack's default size."""
    if ax is not None:
        return ax
    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def finish(ax: Axes, title: str, xlabel: str, ylabel: str, legend: bool = True) -> Axes:
    """Return `ax` with title, axis labels, a light grid and (optionally) a legend."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(frameon=False, fontsize="small")
    return ax


def legend_below(ax: Axes, **kwargs) -> Legend:
    """Put `ax`'s legend under its x label, centred: it then never covers a bar or a curve, whatever the data.

    Why measured: the x tick labels may take one line or three; the legend is hung that far (in inches) under the
    axes, so it stays clear of them when the layout later resizes the axes.
    """
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    drop = (ax.get_window_extent(renderer).y0 - ax.get_tightbbox(renderer).y0) / fig.dpi + 0.08
    options = {"loc": "upper center", "frameon": False, "fontsize": "small", **kwargs}
    return ax.legend(
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=ax.transAxes + ScaledTranslation(0, -drop, fig.dpi_scale_trans),
        **options,
    )


def integer_ticks(ax: Axes, *axes: str) -> None:
    """Put ticks only on whole numbers on the given axes ("x", "y") of `ax`: they count things (programs, seeds)."""
    for name in axes:
        axis = ax.xaxis if name == "x" else ax.yaxis
        if axis.get_scale() == "linear":
            axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))  # 0, 200, 400: no 150s


COUNT_AXES: "WeakKeyDictionary[Axes, tuple[str, ...]]" = WeakKeyDictionary()
"""Axes drawn by a plot function -> which of its axes count things (filled by `plot`, read by the tests)."""

F = TypeVar("F", bound=Callable[..., Axes])


def plot(counts: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Mark a public plot function and declare which of its axes count things ("x", "y"): those need whole-number
    ticks. Every Axes the function returns is recorded in COUNT_AXES, so a test can check any figure built from plot
    functions (the panels' too) without knowing which function drew which Axes."""

    def mark(fn: F) -> F:
        @functools.wraps(fn)
        def draw(*args, **kwargs) -> Axes:
            ax = fn(*args, **kwargs)
            COUNT_AXES[ax] = counts
            return ax

        draw.count_axes = counts  # type: ignore[attr-defined]
        return draw  # type: ignore[return-value]

    return mark
