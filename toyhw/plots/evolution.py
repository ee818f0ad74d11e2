"""Plots of lecture 14: score against proposed programs per variant, the best program's lineage, per-shape feedback."""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
from matplotlib.axes import Axes

from toyhw.evolve.ablations import AblationStudy
from toyhw.evolve.branch_check import BranchRow
from toyhw.evolve.targeting import STUCK
from toyhw.evolve.evaluator import ShapeRow
from toyhw.evolve.loop import LineageStep
from toyhw.plots.style import color_for, finish, new_axes


def score_vs_programs(study: AblationStudy, variants: Sequence[str], budget: Optional[int] = None,
                      n_seeds: Optional[int] = None, ax: Optional[Axes] = None,
                      all_variants: Optional[Sequence[str]] = None) -> Axes:
    """Return best-so-far score against proposed programs: median line and min-max band per variant, oracle line.

    The right axis reads the same curves as the share of the oracle's headroom captured, (score - 1) / (oracle - 1).
    """
    if not variants:
        raise ValueError("variants is empty; select at least one variant")
    ax = new_axes(ax, figsize=(8.0, 5.2))
    budget = budget or study.budget
    n_seeds = n_seeds or len(study.seeds)
    names = list(all_variants or study.runs)
    x = np.arange(1, budget + 1)
    for name in variants:
        hist = study.histories(name, budget, n_seeds)
        color = color_for(name, names)
        ax.fill_between(x, hist.min(axis=0), hist.max(axis=0), color=color, alpha=0.15, lw=0)
        ax.plot(x, np.median(hist, axis=0), color=color, lw=2, label=name)
    oracle = study.oracle_train
    ax.axhline(oracle, color="#333333", ls="--", lw=1.2, label=f"oracle {oracle:.3f}")
    ax.axhline(1.0, color="#999999", lw=1)
    ax.set_xlim(1, budget)
    ax.set_ylim(0.99, oracle + 0.01)
    share = ax.secondary_yaxis("right", functions=(lambda s: (s - 1) / (oracle - 1) * 100,
                                                   lambda p: 1 + p / 100 * (oracle - 1)))
    share.set_ylabel("share of the oracle's headroom (%)")
    shown = study.seeds[:n_seeds]
    over = f"seed {shown[0]}" if len(shown) == 1 else f"median and min-max over seeds {', '.join(map(str, shown))}"
    finish(ax, f"Best score so far ({over})", "proposed programs",
           "geomean speedup over the expert (train)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4, frameon=False, fontsize="small")
    return ax


def lineage(steps: Sequence[LineageStep], budget: int, ax: Optional[Axes] = None, label_last: int = 4) -> Axes:
    """Return the best program's ancestry: each ancestor's score at the proposal that created it.

    The last `label_last` improvements are labelled with the LLM's description of the change.
    """
    ax = new_axes(ax, figsize=(9.0, 4.2))
    x = [s.step for s in steps] + [budget]
    y = [s.score for s in steps] + [steps[-1].score]
    ax.step(x, y, where="post", color="#1f77b4", lw=1.5)
    ax.plot(x[:-1], y[:-1], "o", color="#1f77b4", ms=4)
    last = steps[-label_last:]
    for i, s in enumerate(last):
        text = s.description if len(s.description) <= 80 else s.description[:77] + "..."
        ax.annotate(f"#{s.step}: {text}", (s.step, s.score), xytext=(0.98, 0.05 + 0.08 * (len(last) - 1 - i)),
                    textcoords="axes fraction", fontsize="x-small", ha="right",
                    arrowprops={"arrowstyle": "-", "color": "#aaaaaa", "lw": 0.6})
    ax.set_xlim(0, budget)
    return finish(ax, f"Lineage of the best program: {len(steps) - 1} edits from the initial program",
                  "proposal that created it",
                  "training score", legend=False)


def feedback_bars(rows: Sequence[ShapeRow], ax: Optional[Axes] = None) -> Axes:
    """Return vs_roofline and vs_best per training shape (sorted by vs_roofline); stuck shapes shaded."""
    ax = new_axes(ax, figsize=(11.0, 4.2))
    order = sorted(rows, key=lambda r: r.vs_roofline)
    x = np.arange(len(order))
    ax.bar(x - 0.2, [r.vs_roofline for r in order], 0.4, color="#ff7f0e", label="vs_roofline = roofline / time")
    ax.bar(x + 0.2, [r.vs_best for r in order], 0.4, color="#1f77b4", label="vs_best = best seen / time")
    for i, r in enumerate(order):
        if r.vs_best > STUCK:
            ax.axvspan(i - 0.5, i + 0.5, color="#eeeeee", zorder=0)
    ax.set_xticks(x, [r.shape.label() for r in order], rotation=90, fontsize="x-small")
    ax.set_ylim(0, 1.3)
    return finish(ax, f"Per-shape feedback on the best program (grey: no known improvement, vs_best > {STUCK})",
                  "training shape", "ratio (1 = at the reference)")


def target_weights(rows: Sequence[ShapeRow], ax: Optional[Axes] = None) -> Axes:
    """Return the share of proposals each key would send to each shape (weights 1/ratio - 1 + 0.05)."""
    ax = new_axes(ax, figsize=(11.0, 4.2))
    order = sorted(rows, key=lambda r: r.vs_roofline)
    x = np.arange(len(order))
    for offset, key, color in ((-0.2, "vs_roofline", "#ff7f0e"), (0.2, "vs_best", "#1f77b4")):
        w = np.array([1.0 / getattr(r, key) - 1.0 + 0.05 for r in order])
        ax.bar(x + offset, w / w.sum(), 0.4, color=color, label=f"weighted by {key}")
    for i, r in enumerate(order):
        if r.vs_best > STUCK:
            ax.axvspan(i - 0.5, i + 0.5, color="#eeeeee", zorder=0)
    ax.set_xticks(x, [r.shape.label() for r in order], rotation=90, fontsize="x-small")
    return finish(ax, "Where proposals land: share of the target draw per shape (grey: stuck)", "training shape",
                  "share of proposals")


def branch_counts(checked: Sequence[BranchRow], unchecked: Sequence[BranchRow], ax: Optional[Axes] = None) -> Axes:
    """Return per seed: programs with a bad branch added, left in the database, and crashing on new shapes."""
    ax = new_axes(ax)
    seeds = [r.seed for r in unchecked]
    x = np.arange(len(seeds))
    bars = (("added_bad_branch", "added with a bad branch", "#ff7f0e"),
            ("db_bad_branch", "in the final database with one", "#d62728"),
            ("crash_new_shapes", "crash on a new shape", "#7f0000"))
    for k, (field, label, color) in enumerate(bars):
        ax.bar(x - 0.3 + 0.2 * k, [getattr(r, field) for r in unchecked], 0.2, color=color, label=f"no check: {label}")
    total = sum(getattr(r, f) for r in checked for f, _, _ in bars)
    ax.set_xticks(x, [f"seed {s}" for s in seeds])
    return finish(ax, f"Latent bad branches without the branch check (with it: {total} in all seeds)", "",
                  "programs")


def branch_compare(unchecked: BranchRow, checked: BranchRow, ax: Optional[Axes] = None) -> Axes:
    """Return one seed's demo-3 counts side by side for the run without and with the branch check."""
    ax = new_axes(ax)
    fields = (("added_bad_branch", "added with\na bad branch"), ("db_bad_branch", "in the final\ndatabase with one"),
              ("crash_new_shapes", "crash on a\nnew shape"))
    x = np.arange(len(fields))
    for offset, row, label, color in ((-0.2, unchecked, "branch check off", "#d62728"),
                                      (0.2, checked, "branch check on", "#2ca02c")):
        values = [getattr(row, f) for f, _ in fields]
        ax.bar(x + offset, values, 0.4, color=color, label=label)
        for xi, v in zip(x + offset, values):
            ax.text(xi, v, str(v), ha="center", va="bottom", fontsize="small")
    ax.set_xticks(x, [label for _, label in fields])
    return finish(ax, f"Seed {unchecked.seed}: programs with a branch that cannot launch "
                      f"({unchecked.added} / {checked.added} programs added)", "", "programs")


# ----- inside the loop (notebook 05)


def cascade_stage1(steps: Sequence, ax: Optional[Axes] = None) -> Axes:
    """Return each proposal's stage-1 score against its step, passed or cut by the cascade, with the bar it faced.

    `steps` are toyhw.evolve.proposal_trace.Proposed records (of `proposal_trace.trace`); proposals the branch check rejected
    before stage 1 have no stage-1 score and are left out.
    """
    ax = new_axes(ax, figsize=(9.0, 4.2))
    scored = [s for s in steps if s.stage1 is not None]
    if not scored:
        raise ValueError("no proposal has a stage-1 score (the run has no cascade, or every proposal was rejected)")
    for label, keep, color in (("passed stage 1 (run on every shape)", lambda s: s.status != "cascade", "#2ca02c"),
                               ("cut after stage 1", lambda s: s.status == "cascade", "#d62728")):
        chosen = [s for s in scored if keep(s)]
        ax.plot([s.step for s in chosen], [s.stage1 for s in chosen], "o", ms=3, color=color, alpha=0.7,
                label=f"{label}: {len(chosen)}")
    ax.step([s.step for s in scored], [s.bar for s in scored], where="post", color="#333333", lw=1.2,
            label="bar: 0.95 x best stage-1 score seen")
    ax.set_ylim(min(s.stage1 for s in scored) - 0.01, max(s.stage1 for s in scored) + 0.01)
    return finish(ax, "The cascade: score on every 4th training shape, then all of them only if promising",
                  "proposal", "stage-1 score (geomean speedup over the expert)")


def prompt_parts(frame, ax: Optional[Axes] = None) -> Axes:
    """Return the characters of each prompt part per variant as stacked bars (`frame`: loop_tables.prompt_frame)."""
    from toyhw.evolve.prompt import PART_NAMES
    from toyhw.plots.style import PALETTE

    ax = new_axes(ax, figsize=(9.0, 0.5 * len(frame) + 1.8))
    y = np.arange(len(frame))
    left = np.zeros(len(frame))
    for k, name in enumerate(PART_NAMES):
        values = frame[name].to_numpy(dtype=float)
        ax.barh(y, values, left=left, color=PALETTE[k % len(PALETTE)], label=name)
        left += values
    ax.set_yticks(y, list(frame.index))
    ax.invert_yaxis()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=4, frameon=False, fontsize="small")
    return finish(ax, "What the prompt holds, part by part", "characters", "", legend=False)
