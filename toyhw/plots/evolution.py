"""Plots of lecture 14: score against proposed programs per variant, the best program's lineage, per-shape feedback."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from toyhw.evolve.experiments.ablations import AblationStudy, headroom_share
from toyhw.evolve.experiments.branch_check import BranchRow
from toyhw.evolve.evaluator import ShapeFeedback
from toyhw.evolve.llm import target_shares
from toyhw.evolve.bridge.prompt import PART_NAMES
from toyhw.evolve.experiments.targeting import STUCK
from toyhw.plots import style
from toyhw.plots.lineage import lineage  # noqa: F401 - notebook 04 calls it from here
from toyhw.plots.style import finish, legend_below, new_axes, variant_color


@style.plot(counts=("x",))
def score_vs_programs(
    study: AblationStudy,
    variants: Sequence[str],
    budget: Optional[int] = None,
    n_seeds: Optional[int] = None,
    ax: Optional[Axes] = None,
) -> Axes:
    """Return best-so-far score against proposed programs: median line and min-max band per variant, oracle line.

    Each variant has its palette colour whichever variants are shown. The right axis reads the same curves as the share of the oracle's headroom captured,
    (score - 1) / (oracle - 1).
    """
    if not variants:
        raise ValueError("variants is empty; select at least one variant")
    ax = new_axes(ax, figsize=(8.0, 5.2))
    budget = budget or study.budget
    n_seeds = n_seeds or len(study.seeds)
    x = np.arange(1, budget + 1)
    for name in variants:
        hist = study.histories(name, budget, n_seeds)
        color = variant_color(name)
        ax.fill_between(x, hist.min(axis=0), hist.max(axis=0), color=color, alpha=0.15, lw=0)
        ax.plot(x, np.median(hist, axis=0), color=color, lw=2, label=name)
    oracle = study.oracle_train
    ax.axhline(oracle, color=style.ORACLE, ls="--", lw=1.2, label=f"oracle {oracle:.3f}")
    ax.axhline(1.0, color=style.BASELINE, lw=1)
    ax.set_xlim(1, budget)
    ax.set_ylim(0.99, oracle + 0.01)
    style.integer_ticks(ax, "x")
    share = ax.secondary_yaxis(
        "right", functions=(lambda s: headroom_share(s, oracle) * 100, lambda p: 1 + p / 100 * (oracle - 1))
    )
    share.set_ylabel("share of the oracle's headroom (%)")
    shown = study.seeds[:n_seeds]
    over = f"seed {shown[0]}" if len(shown) == 1 else f"median and min-max over seeds {', '.join(map(str, shown))}"
    finish(ax, f"Best score so far ({over})", "proposed programs", "geomean speedup over the expert (train)")
    legend_below(ax, ncol=4)
    return ax


def _shape_rows(ax: Axes, rows: Sequence[ShapeFeedback]) -> tuple[list[ShapeFeedback], np.ndarray]:
    """Put the shapes on the y axis, lowest vs_roofline at the top, and shade the stuck ones; return them in order.

    Why horizontal: 44 shape names read left to right at full size; as rotated x labels they had to be 6 pt.
    """
    order = sorted(rows, key=lambda r: r.vs_roofline)
    y = np.arange(len(order))
    for i, r in enumerate(order):
        if r.vs_best > STUCK:
            ax.axhspan(i - 0.5, i + 0.5, color=style.STUCK_SHADE, zorder=0)
    ax.set_yticks(y, [r.shape.label() for r in order])
    ax.set_ylim(len(order) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    return order, y


def _shape_label(ax: Axes) -> str:
    """Return the y label, or none when the y tick labels are hidden (a panel's right plot shares the left's)."""
    return "training shape" if ax.yaxis.get_tick_params().get("labelleft", True) else ""


def _stuck_patch(text: str) -> Patch:
    return Patch(facecolor=style.STUCK_SHADE, edgecolor=style.NEUTRALS["pale"], label=text)


def _shapes_figsize(rows: Sequence[ShapeFeedback]) -> tuple[float, float]:
    return 9.0, 2.2 + 0.2 * len(rows)


@style.plot()
def feedback_bars(rows: Sequence[ShapeFeedback], ax: Optional[Axes] = None) -> Axes:
    """Return vs_roofline and vs_best per training shape (sorted by vs_roofline, top down); stuck shapes shaded."""
    ax = new_axes(ax, figsize=_shapes_figsize(rows))
    order, y = _shape_rows(ax, rows)
    ax.barh(
        y - 0.18,
        [r.vs_roofline for r in order],
        0.36,
        color=style.FEEDBACK_COLORS["vs_roofline"],
        label="vs_roofline = roofline / time",
    )
    ax.barh(
        y + 0.18,
        [r.vs_best for r in order],
        0.36,
        color=style.FEEDBACK_COLORS["vs_best"],
        label="vs_best = best seen / time",
    )
    ax.set_xlim(0, 1.05)
    handles = ax.get_legend_handles_labels()[0] + [_stuck_patch(f"stuck: vs_best > {STUCK}, no known improvement")]
    finish(
        ax,
        "Per-shape feedback on the best program\n(sorted by vs_roofline; grey: stuck)",
        "ratio (1 = at the reference)",
        _shape_label(ax),
        legend=False,
    )
    legend_below(ax, handles=handles, ncol=2)
    return ax


@style.plot()
def target_weights(rows: Sequence[ShapeFeedback], ax: Optional[Axes] = None) -> Axes:
    """Return the share of the target draw each key gives each shape on one program's feedback (`rows`).

    The weights are 1/ratio - 1 + 0.05, normalized: what one draw from this program's feedback would use. They are not
    where a run's proposals went (each proposal draws from its own parent's feedback), so the labels say "target draw".
    """
    ax = new_axes(ax, figsize=_shapes_figsize(rows))
    order, y = _shape_rows(ax, rows)
    for offset, key in ((-0.2, "vs_roofline"), (0.2, "vs_best")):
        ax.barh(
            y + offset,
            target_shares([getattr(r, key) for r in order]),
            0.36,
            color=style.FEEDBACK_COLORS[key],
            label=f"weighted by {key}",
        )
    handles = ax.get_legend_handles_labels()[0] + [_stuck_patch(f"stuck: vs_best > {STUCK}")]
    finish(
        ax,
        "Target-draw weights on one program:\nshare of the draw per shape (grey: stuck)",
        "share of the target draw (this program's weights)",
        _shape_label(ax),
        legend=False,
    )
    legend_below(ax, handles=handles, ncol=2)
    return ax


@style.plot(counts=("y",))
def branch_counts(checked: Sequence[BranchRow], unchecked: Sequence[BranchRow], ax: Optional[Axes] = None) -> Axes:
    """Return per seed: programs with a bad branch added, left in the database, and crashing on new shapes."""
    ax = new_axes(ax)
    seeds = [r.seed for r in unchecked]
    x = np.arange(len(seeds))
    bars = (
        ("added_bad_branch", "added with a bad branch"),
        ("db_bad_branch", "in the final database with one"),
        ("crash_new_shapes", "crash on a new shape"),
    )
    for k, (field, label) in enumerate(bars):
        ax.bar(
            x - 0.2 + 0.2 * k,
            [getattr(r, field) for r in unchecked],
            0.2,
            color=style.BRANCH_COUNT_COLORS[field],
            label=f"no check: {label}",
        )
    total = sum(getattr(r, f) for r in checked for f, _ in bars)
    ax.set_xticks(x, [str(s) for s in seeds])
    style.integer_ticks(ax, "y")
    finish(
        ax,
        f"Latent bad branches without the branch check (with it: {total} in all seeds)",
        "seed",
        "programs",
        legend=False,
    )
    legend_below(ax, ncol=2)
    return ax


@style.plot(counts=("y",))
def branch_compare(unchecked: BranchRow, checked: BranchRow, ax: Optional[Axes] = None) -> Axes:
    """Return one seed's demo-3 counts side by side for the run without and with the branch check."""
    ax = new_axes(ax)
    fields = (
        ("added_bad_branch", "added with\na bad branch"),
        ("db_bad_branch", "in the final\ndatabase with one"),
        ("crash_new_shapes", "crash on a\nnew shape"),
    )
    x = np.arange(len(fields))
    for offset, row, setting in ((-0.2, unchecked, "off"), (0.2, checked, "on")):
        values = [getattr(row, f) for f, _ in fields]
        ax.bar(
            x + offset,
            values,
            0.4,
            color=style.BRANCH_CHECK_COLORS[setting],
            label=f"branch check {setting} ({row.added} programs added)",
        )
        for xi, v in zip(x + offset, values):
            ax.text(xi, v, str(v), ha="center", va="bottom", fontsize="small")
    ax.set_xticks(x, [label for _, label in fields])
    ax.margins(y=0.12)
    style.integer_ticks(ax, "y")
    finish(
        ax,
        f"Seed {unchecked.seed}, branch check off against on:\nprograms with a branch that cannot launch",
        "what is counted",
        "programs",
        legend=False,
    )
    legend_below(ax, ncol=2)
    return ax


# ----- inside the loop (notebook 05)


@style.plot(counts=("x",))
def cascade_stage1(steps: Sequence, ax: Optional[Axes] = None) -> Axes:
    """Return each proposal's stage-1 score against its step, passed or cut by the cascade, with the bar it faced.

    `steps` are toyhw.course.proposal_trace.Proposed records (of `proposal_trace.trace`); proposals the branch check
    rejected before stage 1 have no stage-1 score and are left out.
    """
    ax = new_axes(ax, figsize=(9.0, 4.2))
    scored = [s for s in steps if s.stage1 is not None]
    if not scored:
        raise ValueError("no proposal has a stage-1 score (the run has no cascade, or every proposal was rejected)")
    for label, keep, color in (
        ("passed stage 1 (run on every shape)", lambda s: s.status != "cascade", style.CASCADE_COLORS["passed"]),
        ("cut after stage 1", lambda s: s.status == "cascade", style.CASCADE_COLORS["cut"]),
    ):
        chosen = [s for s in scored if keep(s)]
        ax.plot(
            [s.step for s in chosen],
            [s.stage1 for s in chosen],
            "o",
            ms=3,
            color=color,
            alpha=0.7,
            label=f"{label}: {len(chosen)}",
        )
    ax.step(
        [s.step for s in scored],
        [s.bar for s in scored],
        where="post",
        color=style.NEUTRALS["dark"],
        lw=1.2,
        label="bar: 0.95 x best stage-1 score seen",
    )
    ax.set_ylim(min(s.stage1 for s in scored) - 0.01, max(s.stage1 for s in scored) + 0.01)
    style.integer_ticks(ax, "x")
    finish(
        ax,
        "The cascade: score on every 4th training shape, then all of them only if promising",
        "proposal",
        "stage-1 score\n(geomean speedup over the expert)",
        legend=False,
    )
    legend_below(ax, ncol=2)  # below: the cut proposals scatter over the whole plot
    return ax


@style.plot(counts=("x",))
def prompt_parts(frame, ax: Optional[Axes] = None) -> Axes:
    """Return the characters of each prompt part per variant as stacked bars (`frame`: loop_tables.prompt_frame)."""
    ax = new_axes(ax, figsize=(9.0, 0.5 * len(frame) + 1.8))
    y = np.arange(len(frame))
    left = np.zeros(len(frame))
    for name in PART_NAMES:
        values = frame[name].to_numpy(dtype=float)
        ax.barh(y, values, left=left, color=style.PART_COLORS[name], label=name)
        left += values
    ax.set_yticks(y, list(frame.index))
    ax.invert_yaxis()
    style.integer_ticks(ax, "x")
    finish(ax, "What the prompt holds, part by part", "characters", "variant", legend=False)
    legend_below(ax, ncol=4)
    return ax
