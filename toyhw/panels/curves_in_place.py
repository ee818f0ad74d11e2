"""Notebook 04's score curves updated in place when only the budget or the number of seeds moved.

Why: every move of the ablation panel changes its one Axes, so keeping the figure saved nothing there: each move
cleared it and plotted the curves, their bands, the oracle line, a secondary axis and a legend afresh. When the chosen
variants are the ones shown, only the curves' data, the x range and the title change; setting those on the artists
`toyhw.plots.evolution.score_vs_programs` made leaves their look to it (tests/test_panels_live.py compares the pixels
with a new figure).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import FillBetweenPolyCollection

from toyhw.evolve.experiments.ablations import AblationStudy


def update_score_curves(ax: Axes, study: AblationStudy, chosen: Sequence[str], budget: int, n_seeds: int) -> bool:
    """Show `chosen` at `budget` programs and `n_seeds` seeds on the Axes score_vs_programs drew; return False,
    changing nothing, unless it shows exactly `chosen` in that order (a band and a median line each, then the oracle
    and the 1.0 lines), so that the caller re-plots."""
    bands, lines = ax.collections, ax.lines
    if (
        len(bands) != len(chosen)
        or len(lines) != len(chosen) + 2
        or not all(isinstance(b, FillBetweenPolyCollection) for b in bands)
        or [line.get_label() for line in lines[: len(chosen)]] != list(chosen)
    ):
        return False
    x = np.arange(1, budget + 1)
    for name, band, line in zip(chosen, bands, lines):
        hist = study.histories(name, budget, n_seeds)
        band.set_data(x, hist.min(axis=0), hist.max(axis=0))
        line.set_data(x, np.median(hist, axis=0))
    ax.set_xlim(1, budget)
    shown = study.seeds[:n_seeds]  # the title as score_vs_programs words it
    over = f"seed {shown[0]}" if len(shown) == 1 else f"median and min-max over seeds {', '.join(map(str, shown))}"
    ax.set_title(f"Best score so far ({over})")
    return True
