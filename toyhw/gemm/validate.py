"""How wrong is the GEMM model? Its times against published measurements of real GEMMs (data/gemm_measurements.csv).

The measurements are of libraries (cuBLAS, mostly), which pick their own tile and schedule, so the model's counterpart
of a measurement is its best time over the whole config space with either schedule (waves or stream-K), on the
measured GPU. The way a benchmark times a kernel matters as much as the kernel for small problems, so each prediction
adds what the row's timing method adds:

- "graph" (inside a CUDA graph): the model's time as it is (its launch is a launch inside a graph);
- "trace" (a profiler's kernel duration): without the launch;
- "per_call" (CUDA events around every call, L2 flushed before it): PER_CALL_OVERHEAD_US instead of the launch;
- "back_to_back" (events around a run of eager calls): at least EAGER_FLOOR_US per call, the host's cost of launching
  one eager PyTorch matmul, which a small kernel cannot hide.

A benchmark that does not flush L2 and whose operands fit in it reads them from L2 (`warm_l2`). Error of one row =
model time / measured time; the summary is the geometric mean of max(r, 1/r) minus 1 and the worst row.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterable, Optional

import numpy as np

from toyhw import data
from toyhw.gemm import config as gemm_config, cost
from toyhw.gemm.gpu import GPU, get_gpu
from toyhw.gemm.report import regime_name
from toyhw.gemm.shapes import Shape, regime
from toyhw.i18n import N_, t
from toyhw.textwidth import column_width, pad

PER_CALL_OVERHEAD_US = 6.05  # fit: what CUDA events around one call add to the kernel (tools/calibrate_gemm.py)
EAGER_FLOOR_US = 12.0  # fit: the host's cost of one eager torch.mm, the floor of back-to-back timing (one row: G033)
TARGET_GEOMEAN_ERROR = 0.10  # the pack's target: 10% off on average ...
TARGET_WORST_RATIO = 1.35  # ... and no measurement off by more than 1.35x
SQUARE_SIZES = (2048, 4096, 6144, 8192, 12288)  # where `best_efficiency` looks for the model's ceiling


@dataclasses.dataclass(frozen=True)
class Measurement:
    """One published measurement the model is held against.

    Attributes:
        id: the row's id in data/gemm_measurements.csv.
        gpu: the pack's GPU key.
        shape: the GEMM (name "measured").
        measured_us: the measured time per GEMM, microseconds.
        timing: how it was timed ("graph", "trace", "per_call", "back_to_back").
        warm_l2: the operands were in L2 (no flush, and they fit).
        library: what was measured (cuBLAS via torch.mm, ...).
        source: where the number comes from.
    """

    id: str
    gpu: str
    shape: Shape
    measured_us: float
    timing: str
    warm_l2: bool
    library: str
    source: str

    @property
    def regime(self) -> str:
        """Return "decode", "mid" or "prefill" by M."""
        return regime(self.shape.M)


@dataclasses.dataclass(frozen=True)
class Check:
    """The model against one measurement.

    Attributes:
        measurement: the published figure.
        model_us: the model's prediction of what that benchmark would report, microseconds.
        kernel_us: the model's kernel time (best config and schedule), microseconds.
        config: the model's best config; schedule: its schedule.
        ratio: model_us / measured_us (> 1: the model is pessimistic).
    """

    measurement: Measurement
    model_us: float
    kernel_us: float
    config: gemm_config.GemmConfig
    schedule: str

    @property
    def ratio(self) -> float:
        """Return model / measured."""
        return self.model_us / self.measurement.measured_us

    @property
    def off_by(self) -> float:
        """Return max(ratio, 1 / ratio): how many times off, whichever way."""
        return max(self.ratio, 1.0 / self.ratio)


def measurements(include_unused: bool = False) -> list[Measurement]:
    """Return the dataset's rows the model is validated against (`use` = yes), or every row on a pack GPU.

    The file's schema (toyhw.data) already refused a used row without a GPU of the pack or a timing the model
    reproduces; a file with no used row is refused here (there would be nothing to validate against).
    """
    out = []
    for row in data.measurement_rows():
        if not row["gpu"] or (row["use"] != "yes" and not include_unused):
            continue
        M, N, K = int(row["m"]), int(row["n"]), int(row["k"])
        us = row["measured_us"] if row["measured_us"] is not None else 2e-6 * M * N * K / float(row["measured_tflops"])
        operands = 2.0 * (M * K + K * N + M * N)
        warm = row["l2_flushed"] == "no" and operands <= get_gpu(str(row["gpu"])).l2_bytes
        out.append(
            Measurement(
                str(row["id"]),
                str(row["gpu"]),
                Shape("measured", M, N, K),
                float(us),
                str(row["timing"]),
                warm,
                str(row["library"]),
                str(row["source"]),
            )
        )
    if not any(row["use"] == "yes" for row in data.measurement_rows()):
        raise data.DataError(
            "gemm_measurements.csv: no row has use = yes; the model needs at least one measurement "
            "to be validated against"
        )
    return out


def best_kernel(
    shape: Shape, gpu: GPU, warm_l2: bool = False, schedules: tuple[str, ...] = cost.SCHEDULES
) -> tuple[float, gemm_config.GemmConfig, str]:
    """Return the model's best kernel time (us) over every config and `schedules` (by default both), with that config
    and schedule."""
    configs = gemm_config.config_space()
    cols = _columns(gpu)
    best: Optional[tuple[float, gemm_config.GemmConfig, str]] = None
    for kind in schedules:
        times = cost.evaluate(cols, shape, gpu, kind, warm_l2)["time"] * 1e6
        i = int(np.argmin(times))
        if best is None or times[i] < best[0]:
            best = (float(times[i]), configs[i], kind)
    assert best is not None
    return best


_COLUMNS: dict[GPU, dict] = {}


def _columns(gpu: GPU) -> dict:
    if gpu not in _COLUMNS:  # keyed by the GPU's value: a calibration that changes a field gets fresh columns
        _COLUMNS[gpu] = cost.config_arrays(gemm_config.config_space(), gpu)
    return _COLUMNS[gpu]


def predict(m: Measurement, gpu: Optional[GPU] = None, schedules: tuple[str, ...] = cost.SCHEDULES) -> Check:
    """Return what the model says the benchmark of `m` would report (see the module docstring for each timing).

    `schedules` limits the library's choice (("waves",): a library without stream-K); by default it has both.
    """
    device = gpu if gpu is not None else get_gpu(m.gpu)
    kernel, config, kind = best_kernel(m.shape, device, m.warm_l2, schedules)
    launch = device.launch_s * 1e6
    if m.timing == "trace":
        model = kernel - launch
    elif m.timing == "per_call":
        model = kernel - launch + PER_CALL_OVERHEAD_US
    elif m.timing == "back_to_back":
        model = max(kernel, EAGER_FLOOR_US)
    elif m.timing == "graph":
        model = kernel
    else:
        raise ValueError(f"measurement {m.id}: timing = {m.timing!r} cannot be modelled")
    return Check(m, model, kernel, config, kind)


def best_efficiency(gpu: GPU) -> float:
    """Return the model's best square-GEMM efficiency on `gpu` (share of the datasheet peak) over SQUARE_SIZES.

    The counterpart of a published shape search (the MAMF rows of the dataset): the calibration sets each GPU's
    tc_sustained_share so that this equals the best published efficiency.
    """
    return max(
        2.0 * n**3 / (best_kernel(Shape("square", n, n, n), gpu)[0] * 1e-6) / gpu.bf16_flops for n in SQUARE_SIZES
    )


def checks(rows: Optional[Iterable[Measurement]] = None) -> list[Check]:
    """Return the model against every validation row, in file order."""
    return [predict(m) for m in (measurements() if rows is None else rows)]


def geomean_error(found: Iterable[Check]) -> float:
    """Return the geometric mean of max(r, 1/r) over the checks, minus 1 (0.10 = "10% off on average")."""
    logs = [abs(math.log(c.ratio)) for c in found]
    if not logs:
        raise ValueError("no measurements to summarize")
    return math.exp(sum(logs) / len(logs)) - 1.0


def summary(found: list[Check]) -> dict:
    """Return the JSON summary: overall and per-regime/per-GPU geometric-mean error, the worst row, the targets."""
    worst = max(found, key=lambda c: c.off_by)
    by = {}
    for key, label in (("regime", lambda c: c.measurement.regime), ("gpu", lambda c: c.measurement.gpu)):
        groups: dict[str, list[Check]] = {}
        for c in found:
            groups.setdefault(label(c), []).append(c)
        by[key] = {k: {"n": len(v), "geomean_error": geomean_error(v)} for k, v in groups.items()}
    return {
        "n": len(found),
        "geomean_error": geomean_error(found),
        "worst": {"id": worst.measurement.id, "ratio": worst.ratio, "off_by": worst.off_by},
        "by_regime": by["regime"],
        "by_gpu": by["gpu"],
        "targets": {"geomean_error": TARGET_GEOMEAN_ERROR, "worst_off_by": TARGET_WORST_RATIO},
        "within_targets": geomean_error(found) <= TARGET_GEOMEAN_ERROR and worst.off_by <= TARGET_WORST_RATIO,
        "misses": [c.measurement.id for c in found if c.off_by > TARGET_WORST_RATIO],
    }


TIMINGS = ("graph", "trace", "per_call", "back_to_back")  # by definition: the methods the docstring models
"""The timing methods the model can reproduce (module docstring), from the least to the most overhead per call."""


def error_table(found: list[Check]) -> list[dict]:
    """Return the error as table rows: all measurements, then per regime, per GPU and per timing method.

    Each row: "by" ("all", "regime", "gpu", "timing"), "group", "n", "geomean_error" (as in `summary`), "worst" (the id
    of the row off by most) and "worst_ratio" (its model / measured). Groups appear in the order `summary` uses.
    """
    if not found:
        raise ValueError("no measurements to summarize")
    keys = (
        ("regime", lambda c: c.measurement.regime),
        ("gpu", lambda c: c.measurement.gpu),
        ("timing", lambda c: c.measurement.timing),
    )
    rows = [_error_row("all", "all", list(found))]
    for by, label in keys:
        groups: dict[str, list[Check]] = {}
        for c in found:
            groups.setdefault(label(c), []).append(c)
        rows += [_error_row(by, name, members) for name, members in groups.items()]
    return rows


def _error_row(by: str, group: str, members: list[Check]) -> dict:
    worst = max(members, key=lambda c: c.off_by)
    return {
        "by": by,
        "group": group,
        "n": len(members),
        "geomean_error": geomean_error(members),
        "worst": worst.measurement.id,
        "worst_ratio": worst.ratio,
    }


def worst_checks(found: list[Check], n: int = 6) -> list[Check]:
    """Return the `n` checks the model is furthest off on (largest max(ratio, 1 / ratio) first)."""
    return sorted(found, key=lambda c: -c.off_by)[:n]


def as_timed(m: Measurement) -> dict[str, float]:
    """Return what the model says each timing method of TIMINGS would report for `m`'s GEMM, microseconds.

    The same kernel, four benchmarks: what a published number means depends on how it was taken.
    """
    return {timing: predict(dataclasses.replace(m, timing=timing)).model_us for timing in TIMINGS}


ERROR_GROUPS = {
    "all": N_("gemmview.errors.all"),
    "regime": N_("gemmview.errors.regime"),
    "gpu": N_("gemmview.errors.gpu"),
    "timing": N_("gemmview.errors.timing"),
}
"""How `error_table` groups the rows ("by", and the group "all") as the table words it."""

TIMING_NAMES = {
    "graph": N_("gemmview.timing.graph"),
    "trace": N_("gemmview.timing.trace"),
    "per_call": N_("gemmview.timing.per_call"),
    "back_to_back": N_("gemmview.timing.back_to_back"),
}
"""Each timing method of TIMINGS as a result shows it: the data's own name in English, the prose's words in Chinese."""

SCHEDULE_NAMES = {"waves": N_("gemmview.schedule.waves"), "stream_k": N_("gemmview.schedule.stream_k")}
"""Each schedule of the cost model as a result shows it (the schedule's name in English)."""


def group_name(by: str, group: str) -> str:
    """Return the group `group` of an `error_table` row grouped by `by` as the table shows it: a regime or a timing
    method in the reader's language, a GPU by its key."""
    if by == group == "all":
        return t(ERROR_GROUPS["all"])
    if by == "regime":
        return regime_name(group)
    if by == "timing":
        return t(TIMING_NAMES[group])
    return group


def format_error_table(rows: list[dict]) -> str:
    """Return `error_table` rows as a fixed-width text table (error in %, the worst row and its model / measured),
    padded by display width (a CJK character takes two columns)."""
    by_h, group_h, n_h, error_h = (
        t("gemmview.errors.head.by"),
        t("gemmview.errors.head.group"),
        t("gemmview.errors.head.n"),
        t("gemmview.errors.head.error"),
    )
    bys = [t(ERROR_GROUPS[r["by"]]) if r["by"] in ERROR_GROUPS else r["by"] for r in rows]
    groups = [group_name(r["by"], r["group"]) for r in rows]
    by_w, group_w = column_width(8, [by_h, *bys]), column_width(14, [group_h, *groups])
    n_w, error_w = column_width(4, [n_h]), column_width(8, [error_h])
    lines = [
        pad(by_h, by_w)
        + pad(group_h, group_w)
        + pad(n_h, n_w, right=True)
        + pad(error_h, error_w, right=True)
        + "  "
        + t("gemmview.errors.head.worst")
    ]
    for r, by, group in zip(rows, bys, groups):
        lines.append(
            pad(by, by_w)
            + pad(group, group_w)
            + pad(r["n"], n_w, right=True)
            + pad(f"{r['geomean_error']:.1%}", error_w, right=True)
            + f"  {r['worst']} ({r['worst_ratio']:.2f}x)"
        )
    return "\n".join(lines)


def schedules_line(m: Measurement) -> str:
    """Return one sentence on measurement `m`: its time, and the model's with waves only and with stream-K too."""
    waves_only, either = predict(m, schedules=("waves",)), predict(m)
    M, N, K = m.shape.M, m.shape.N, m.shape.K
    return t(
        "gemmview.schedules",
        id=m.id,
        size=f"{M}^3" if M == N == K else f"{M}x{N}x{K}",
        measured=m.measured_us,
        waves=waves_only.model_us,
        either=either.model_us,
        schedule=t(SCHEDULE_NAMES[either.schedule]),
    )


def check_lines(c: Check) -> str:
    """Return two lines on one check: the measurement and the model's prediction, then the model's kernel."""
    m = c.measurement
    return "\n".join(
        (
            t(
                "gemmview.check.line",
                id=m.id,
                gpu=m.gpu,
                shape=f"{m.shape.M}x{m.shape.N}x{m.shape.K}",
                timing=pad(t(TIMING_NAMES[m.timing]), 9),
                measured=m.measured_us,
                model=c.model_us,
                ratio=c.ratio,
            ),
            t("gemmview.check.kernel", config=c.config.short(), schedule=t(SCHEDULE_NAMES[c.schedule])),
        )
    )


def calibration(gpu: GPU) -> dict[str, float]:
    """Return the GPU's four calibrated figures, in the units the notebook prints, and the ceiling they give.

    Keys: "sustained share" (of the dense peak), "achievable TB/s" (and "achievable share"), "loaded latency us",
    "launch us" (inside a CUDA graph) and "best square GEMM" (`best_efficiency`: the model's best share of the peak).
    """
    return {
        "sustained share": gpu.tc_sustained_share,
        "achievable share": gpu.hbm_achievable_share,
        "achievable TB/s": gpu.achievable_bytes_per_s / 1e12,
        "loaded latency us": gpu.load_latency_s * 1e6,
        "launch us": gpu.launch_s * 1e6,
        "best square GEMM": best_efficiency(gpu),
    }


CALIBRATION_LABELS = {
    "sustained share": N_("gemmview.calibration.sustained_share"),
    "achievable share": N_("gemmview.calibration.achievable_share"),
    "achievable TB/s": N_("gemmview.calibration.achievable_bandwidth"),
    "loaded latency us": N_("gemmview.calibration.loaded_latency"),
    "launch us": N_("gemmview.calibration.launch"),
    "best square GEMM": N_("gemmview.calibration.best_square"),
}
"""The keys of `calibration` as a table labels them (English: the keys themselves)."""


def calibration_cells(gpu: GPU) -> dict[str, float]:
    """Return `calibration(gpu)` keyed by its labels in the reader's language (the notebook's table rows)."""
    return {t(CALIBRATION_LABELS[key]): value for key, value in calibration(gpu).items()}
