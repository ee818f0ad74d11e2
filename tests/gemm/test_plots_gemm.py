"""The plots notebook 03 adds: labelled axes, one entry per GPU and timing method, the schedules side by side."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402

from toyhw.gemm import validate  # noqa: E402
from toyhw.gemm.config import GemmConfig  # noqa: E402
from toyhw.gemm.time_table import shared_table  # noqa: E402
from toyhw.plots import gemm as gemm_plots  # noqa: E402


def test_validation_scatter_has_a_point_per_measurement_the_diagonal_and_the_band():
    found = validate.checks()
    ax = gemm_plots.validation_scatter(found)
    points = sum(len(c.get_offsets()) for c in ax.collections if isinstance(c, PathCollection))
    assert points == len(found)
    labels = ax.get_legend_handles_labels()[1]
    assert {"model = measured", "within 1.25x"} <= set(labels)
    assert {c.measurement.gpu for c in found} <= set(labels)
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    plt.close(ax.figure)


def test_wave_schedules_plot_draws_both_schedules_and_they_meet_at_full_waves():
    table = shared_table("H100")
    ax = gemm_plots.wave_schedules_plot(table, GemmConfig(128, 128, 64, 8, 4), M=512, K=8192)
    lines = [line for line in ax.get_lines() if line.get_label().startswith(("data-parallel", "stream-K"))]
    assert len(lines) == 2
    waves, stream = (dict(zip(*line.get_data())) for line in lines)
    assert waves[table.gpu.sms] == stream[table.gpu.sms]  # one full wave: no tail to split
    assert stream[table.gpu.sms + 4] < waves[table.gpu.sms + 4]  # a second wave of 4 blocks: stream-K spreads it
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    plt.close(ax.figure)
