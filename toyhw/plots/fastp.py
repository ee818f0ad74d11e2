"""Plots of lecture 10: one-shot outcomes with their causes, fast_p against p, fast_p against rounds."""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import NullLocator

from toyhw import metrics
from toyhw.kernels.proposers import PROPOSERS
from toyhw.kernels.study import CAUSE_LABELS, OneShotReport
from toyhw.plots import style
from toyhw.plots.style import finish, mode_color, new_axes

OUTCOME_COLORS = style.OUTCOME_COLORS
CAUSE_STATUS = {
    "shared_memory_overflow": "compile_error",
    "vector_width_indivisible": "wrong",
    "illegal_fusion": "wrong",
}


def _mode_style(name: str) -> dict:
    """Return the line style of a mode: its palette colour; a student's own proposer dashed, to tell it apart."""
    builtin = name in PROPOSERS or name == "one-shot"
    return {"color": mode_color(name), "ls": "-" if builtin else "--"}


@style.plot()
def outcome_breakdown(report: OneShotReport, ax: Optional[Axes] = None) -> Axes:
    """Return a bar chart of one-shot outcomes: each failure cause, then correct-but-slower and correct-and-faster."""
    ax = new_axes(ax)
    causes = report.cause_counts()
    speedups = report.speedups()
    n = report.n_tasks
    labels = [
        f"{'compile error' if CAUSE_STATUS[c] == 'compile_error' else 'wrong'}:\n{CAUSE_LABELS[c]}" for c in causes
    ]
    shares = [count / n for count in causes.values()]
    colors = [OUTCOME_COLORS[CAUSE_STATUS[c]] for c in causes]
    slow = int(np.count_nonzero((speedups > 0) & (speedups <= 1.0)))
    fast = int(np.count_nonzero(speedups > 1.0))
    labels += ["correct,\nnot faster than PyTorch", "correct and\nfaster than PyTorch"]
    shares += [slow / n, fast / n]
    colors += [OUTCOME_COLORS["ok_slow"], OUTCOME_COLORS["ok"]]
    y = np.arange(len(labels))[::-1]
    ax.barh(y, shares, color=colors)
    for yi, share in zip(y, shares):
        ax.text(share + 0.005, yi, f"{share:.1%}", va="center", fontsize="small")
    ax.set_yticks(y, labels, fontsize=9)
    ax.set_xlim(0, max(shares) * 1.25)
    return finish(ax, f"One-shot kernels: what happened ({n} tasks)", "share of tasks", "outcome", legend=False)


@style.plot()
def fastp_vs_p(
    speedups: Mapping[str, Sequence[float]], ps: Sequence[float], ax: Optional[Axes] = None, mark_p: float | None = None
) -> Axes:
    """Return fast_p against the threshold p, one curve per labelled set of speedups (coloured by name)."""
    ax = new_axes(ax)
    for name, s in speedups.items():
        ax.plot(ps, metrics.fast_p_curve(s, ps), label=name, lw=2, **_mode_style(name))
    if mark_p is not None:
        ax.axvline(mark_p, color=style.REFERENCE, ls="--", lw=1)
        for name, s in speedups.items():
            value = metrics.fast_p(s, mark_p)
            ax.plot([mark_p], [value], "o", color=mode_color(name))
            ax.annotate(
                f"fast_{mark_p:g} = {value:.3f}",
                (mark_p, value),
                textcoords="offset points",
                xytext=(6, 6),
                fontsize="small",
            )
    ax.axvline(1.0, color=style.NEUTRALS["pale"], lw=1)
    ax.set_ylim(0, 1.02)
    return finish(
        ax,
        "fast_p: the share of tasks correct and\nmore than p times faster than PyTorch",
        "p (speedup threshold)",
        "fast_p (share of all tasks)",
    )


@style.plot(counts=("x",))
def fastp_vs_rounds(
    curves: Mapping[str, tuple[Sequence[int], Sequence[float]]],
    p: float,
    ax: Optional[Axes] = None,
    ceiling: float | None = None,
) -> Axes:
    """Return fast_p against the number of rounds, one line per feedback mode.

    Each mode has its palette colour whichever modes are shown; a student's own proposer gets a colour from its
    name and a dashed line. `ceiling`, when given, is drawn
    as the best fast_p any search could reach (every task at its best config).
    """
    ax = new_axes(ax)
    for name, (rounds, values) in curves.items():
        ax.plot(rounds, values, marker="o", ms=3, lw=2, label=name, **_mode_style(name))
    if ceiling is not None:
        ax.axhline(ceiling, color=style.REFERENCE, ls=":", lw=1.5, label=f"best possible ({ceiling:.2f})")
    ax.set_xscale("log")
    ticks = [r for r in (1, 2, 5, 10, 20, 50, 100, 200) if r <= max(max(r for r, _ in curves.values()), default=1)]
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.xaxis.set_minor_locator(NullLocator())  # no unlabelled in-between ticks on the log axis
    ax.set_ylim(0, 1.02)
    return finish(
        ax,
        f"Iterative optimization: fast_{p:g} after each number of rounds",
        "rounds (log scale)",
        f"fast_{p:g} (share of all tasks)",
    )
