"""Plots of lecture 10: one-shot outcomes with their causes, fast_p against p, fast_p against rounds."""
from __future__ import annotations

from typing import Mapping, Optional, Sequence

import numpy as np
from matplotlib.axes import Axes

from toyhw import metrics
from toyhw.kernels.study import CAUSE_LABELS, OneShotReport
from toyhw.plots.style import color_for, finish, new_axes

OUTCOME_COLORS = {"compile_error": "#d62728", "wrong": "#ff7f0e", "ok": "#2ca02c"}
CAUSE_STATUS = {"shared_memory_overflow": "compile_error", "vector_width_indivisible": "wrong",
                "illegal_fusion": "wrong"}


def outcome_breakdown(report: OneShotReport, ax: Optional[Axes] = None) -> Axes:
    """Return a bar chart of one-shot outcomes: each failure cause, then correct-but-slower and correct-and-faster."""
    ax = new_axes(ax)
    causes = report.cause_counts()
    speedups = report.speedups()
    n = report.n_tasks
    labels = [f"{'compile error' if CAUSE_STATUS[c] == 'compile_error' else 'wrong'}:\n{CAUSE_LABELS[c]}"
              for c in causes]
    shares = [count / n for count in causes.values()]
    colors = [OUTCOME_COLORS[CAUSE_STATUS[c]] for c in causes]
    slow = int(np.count_nonzero((speedups > 0) & (speedups <= 1.0)))
    fast = int(np.count_nonzero(speedups > 1.0))
    labels += ["correct,\nnot faster than PyTorch", "correct and\nfaster than PyTorch"]
    shares += [slow / n, fast / n]
    colors += ["#98df8a", OUTCOME_COLORS["ok"]]
    y = np.arange(len(labels))[::-1]
    ax.barh(y, shares, color=colors)
    for yi, share in zip(y, shares):
        ax.text(share + 0.005, yi, f"{share:.1%}", va="center", fontsize="small")
    ax.set_yticks(y, labels, fontsize="small")
    ax.set_xlim(0, max(shares) * 1.25)
    return finish(ax, f"One-shot kernels: what happened ({n} tasks)", "share of tasks", "", legend=False)


def fastp_vs_p(
    speedups: Mapping[str, Sequence[float]], ps: Sequence[float], ax: Optional[Axes] = None, mark_p: float | None = None
) -> Axes:
    """Return fast_p against the threshold p, one curve per labelled set of speedups."""
    ax = new_axes(ax)
    names = list(speedups)
    for name, s in speedups.items():
        ax.plot(ps, metrics.fast_p_curve(s, ps), label=name, color=color_for(name, names), lw=2)
    if mark_p is not None:
        ax.axvline(mark_p, color="#555555", ls="--", lw=1)
        for name, s in speedups.items():
            value = metrics.fast_p(s, mark_p)
            ax.plot([mark_p], [value], "o", color=color_for(name, names))
            ax.annotate(f"fast_{mark_p:g} = {value:.3f}", (mark_p, value), textcoords="offset points", xytext=(6, 6),
                        fontsize="small")
    ax.axvline(1.0, color="#bbbbbb", lw=1)
    ax.set_ylim(0, 1.02)
    return finish(ax, "fast_p: correct and more than p times faster than PyTorch", "p (speedup threshold)",
                  "fast_p (share of all tasks)")


def fastp_vs_rounds(
    curves: Mapping[str, tuple[Sequence[int], Sequence[float]]],
    p: float,
    ax: Optional[Axes] = None,
    all_modes: Sequence[str] = (),
    ceiling: float | None = None,
) -> Axes:
    """Return fast_p against the number of rounds, one line per feedback mode (colors fixed by `all_modes`).

    `ceiling`, when given, is drawn as the best fast_p any search could reach (every task at its best config).
    """
    ax = new_axes(ax)
    names = list(all_modes) or list(curves)
    for name, (rounds, values) in curves.items():
        ax.plot(rounds, values, marker="o", ms=3, lw=2, label=name, color=color_for(name, names + [name]))
    if ceiling is not None:
        ax.axhline(ceiling, color="#555555", ls=":", lw=1.5, label=f"best possible ({ceiling:.2f})")
    ax.set_xscale("log")
    ticks = [r for r in (1, 2, 5, 10, 20, 50, 100, 200) if r <= max(max(r for r, _ in curves.values()), default=1)]
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_ylim(0, 1.02)
    return finish(ax, f"Iterative optimization: fast_{p:g} after each number of rounds", "rounds (log scale)",
                  f"fast_{p:g} (share of all tasks)")


