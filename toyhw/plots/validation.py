"""Plot of the GEMM model's validation (notebook 03, Section 8): the model's time against published measurements."""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from matplotlib.axes import Axes

from toyhw.plots import style
from toyhw.plots.style import finish, new_axes

TIMING_MARKERS = {"graph": "o", "trace": "D", "per_call": "s", "back_to_back": "^"}
"""One marker per timing method of toyhw.gemm.validate (a CUDA graph, a profiler trace, events per call, a run)."""


def _gpu_color(name: str) -> str:
    return style.GPU_COLORS.get(name) or style.extra_color(name)


@style.plot()
def validation_scatter(checks: list, ax: Optional[Axes] = None) -> Axes:
    """Plot the model against published measurements: measured time (x) against the model's (y), log-log.

    `checks` are toyhw.gemm.validate.Check objects. One colour per GPU, one marker per timing method, the line y = x
    (the model exact) and the band from x / 1.25 to 1.25 x.
    """
    ax = new_axes(ax, figsize=(7.0, 5.6))
    gpus = list(dict.fromkeys(c.measurement.gpu for c in checks))
    timings = [t for t in TIMING_MARKERS if any(c.measurement.timing == t for c in checks)]
    for gpu_name in gpus:
        for timing in timings:
            group = [c for c in checks if c.measurement.gpu == gpu_name and c.measurement.timing == timing]
            if group:
                ax.scatter(
                    [c.measurement.measured_us for c in group],
                    [c.model_us for c in group],
                    s=36,
                    marker=TIMING_MARKERS[timing],
                    color=_gpu_color(gpu_name),
                    edgecolors=style.NEUTRALS["black"],
                    linewidths=0.4,
                    zorder=3,
                )
    values = [v for c in checks for v in (c.measurement.measured_us, c.model_us)]
    line = np.logspace(math.log10(min(values) / 1.5), math.log10(max(values) * 1.5), 50)
    ax.plot(line, line, color=style.NEUTRALS["black"], lw=1, label="model = measured")
    ax.fill_between(line, line / 1.25, line * 1.25, color=style.NEUTRALS["grey"], alpha=0.15, label="within 1.25x")
    for gpu_name in gpus:
        ax.scatter([], [], color=_gpu_color(gpu_name), marker="o", label=gpu_name)
    for timing in timings:
        ax.scatter(
            [],
            [],
            color=style.NEUTRALS["white"],
            edgecolors=style.NEUTRALS["black"],
            marker=TIMING_MARKERS[timing],
            label=timing.replace("_", "-"),
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(line[0], line[-1])
    ax.set_ylim(line[0], line[-1])
    ax.set_aspect("equal")
    return finish(
        ax,
        f"The model against {len(checks)} published GEMM timings",
        "measured time (us)",
        "model's time for the same benchmark (us)",
    )
