"""Plots of the GEMM cost model (notebook 03 and its panel): roofline, tile map, waves, padding, best configs."""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, Optional

import matplotlib.colors as mcolors
import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch, Rectangle

from toyhw.gemm import config as gemm_config, cost as gemm_cost, expert
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import GPU
from toyhw.plots import style
from toyhw.plots.style import finish, new_axes
from toyhw.plots.validation import TIMING_MARKERS, validation_scatter  # noqa: F401 - notebook 03 calls them here
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import TimeTable

REASON_HATCH = {
    kind: (kind[0].upper(), style.LAUNCH_COLORS[kind]) for kind in ("shared memory", "registers", "warp tiling")
}
"""Why a config cannot launch -> (the letter on its tile-map cell, its grey)."""


def _intensity(shape: Shape) -> float:
    return shape.flops() / (2.0 * (shape.M * shape.K + shape.K * shape.N + shape.M * shape.N))


@style.plot()
def roofline_chart(table: TimeTable, shape_list: list[Shape], ax: Optional[Axes] = None) -> Axes:
    """Plot every shape's achieved TFLOP/s against its arithmetic intensity, oracle (dot) and expert (ring)."""
    ax = new_axes(ax)
    gpu = table.gpu
    x = np.logspace(-0.2, 4, 200)
    ax.plot(
        x,
        np.minimum(gpu.bf16_flops, x * gpu.hbm_bytes_per_s) / 1e12,
        color=style.ROOFLINE,
        lw=1.5,
        label=f"roofline {gpu.name}",
    )
    names = list(dict.fromkeys(s.name for s in shape_list))
    for name in names:
        group = [s for s in shape_list if s.name == name]
        xs = [_intensity(s) for s in group]
        color = style.LAYER_COLORS.get(name) or style.extra_color(name)
        ax.scatter(xs, [s.flops() / table.oracle(s)[1] / 1e6 for s in group], color=color, s=22, label=name, zorder=3)
        t_exp = [table.time(expert.expert_config(s), s) for s in group]
        ax.scatter(
            [xi for xi, t in zip(xs, t_exp) if math.isfinite(t)],
            [s.flops() / t / 1e6 for s, t in zip(group, t_exp) if math.isfinite(t)],
            facecolors="none",
            edgecolors=color,
            s=50,
            lw=1,
            zorder=2,
        )
    ax.scatter([], [], facecolors="none", edgecolors=style.NEUTRALS["grey"], s=50, label="expert (ring)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    return finish(
        ax,
        f"All shapes on {gpu.name}: oracle (dot) and expert (ring)",
        "arithmetic intensity 2MNK / bytes (FLOP/byte)",
        "achieved (TFLOP/s)",
    )


@dataclasses.dataclass(frozen=True)
class TileCell:
    """One cell of the tile map: its time (or the letter of why it cannot launch), the text's look, and the shade
    behind an unlaunchable cell (None for a launchable one)."""

    i: int
    j: int
    text: str
    color: str
    fontsize: float
    weight: str
    shade: Optional[str]


def tile_cells(
    table: TimeTable, shape: Shape, block_k: int, num_warps: int, num_stages: int, split_k: int
) -> tuple[np.ndarray, list[TileCell]]:
    """Return the tile map's speeds (oracle time / time, NaN where no config launches; rows BLOCK_M, columns BLOCK_N)
    and its cells in drawing order. One function for this plot and for the panel's chart (toyhw.panels.gemm), so
    both always show the same cells."""
    bms, bns = gemm_config.FIELDS["block_m"], gemm_config.FIELDS["block_n"]
    best = table.oracle(shape)[1]
    speed = np.full((len(bms), len(bns)), np.nan)
    cells = []
    for i, bm in enumerate(bms):
        for j, bn in enumerate(bns):
            config = GemmConfig(bm, bn, block_k, num_warps, num_stages, split_k)
            t = table.time(config, shape)
            if math.isfinite(t):
                speed[i, j] = best / t
                cells.append(
                    TileCell(
                        i,
                        j,
                        f"{t:.0f}" if t >= 100 else f"{t:.3g}",
                        "white" if best / t < 0.5 else "black",
                        8,
                        "normal",
                        None,
                    )
                )
            else:
                kind = gemm_config.problem_kind(gemm_config.launch_problem(config, table.gpu))
                letter, shade = REASON_HATCH[kind]
                cells.append(TileCell(i, j, letter, "white", 10, "bold", shade))
    return speed, cells


def tile_map_title(shape: Shape, block_k: int, num_warps: int, num_stages: int, split_k: int) -> str:
    return (
        f"{shape.label()}: time (us) per tile\nBLOCK_K={block_k}, warps={num_warps}, stages={num_stages}, "
        f"split_k={split_k}"
    )


@style.plot()
def tile_map(
    table: TimeTable,
    shape: Shape,
    block_k: int,
    num_warps: int,
    num_stages: int,
    split_k: int,
    ax: Optional[Axes] = None,
) -> Axes:
    """Plot time over (BLOCK_M, BLOCK_N) for the other fields fixed; unlaunchable cells lettered by reason."""
    ax = new_axes(ax)
    speed, cells = tile_cells(table, shape, block_k, num_warps, num_stages, split_k)
    for cell in cells:
        if cell.shade is not None:
            ax.add_patch(tile_cell_shade(cell.i, cell.j, cell.shade))
        ax.text(
            cell.j,
            cell.i,
            cell.text,
            ha="center",
            va="center",
            fontsize=cell.fontsize,
            color=cell.color,
            weight=cell.weight,
        )
    image = ax.imshow(speed, cmap="viridis", norm=mcolors.Normalize(0, 1), origin="lower", aspect="auto")
    ax.figure.colorbar(image, ax=ax, label="oracle time / time\n(1 = as fast as the best config)")
    bms, bns = gemm_config.FIELDS["block_m"], gemm_config.FIELDS["block_n"]
    ax.set_xticks(range(len(bns)), [str(b) for b in bns])
    ax.set_yticks(range(len(bms)), [str(b) for b in bms])
    handles = [Patch(color=shade, label=f"{letter} = {kind}") for kind, (letter, shade) in REASON_HATCH.items()]
    ax.set_title(tile_map_title(shape, block_k, num_warps, num_stages, split_k), fontsize="medium")
    ax.set_xlabel("BLOCK_N (columns of C per block)")
    ax.set_ylabel("BLOCK_M (rows of C per block)")
    style.legend_below(ax, handles=handles, fontsize="small", ncol=3, title="cannot launch:", title_fontsize="small")
    return ax


def tile_cell_shade(i: int, j: int, color: str) -> Rectangle:
    """Return the shade of an unlaunchable cell (row i, column j) of the tile map."""
    return Rectangle((j - 0.5, i - 0.5), 1, 1, color=color, zorder=2)


def _wave_lines(ax: Axes, sms: int, max_blocks: int) -> None:
    """Mark every whole wave (a multiple of the SMs) with a dotted line, labelled on a top axis.

    Why on a top axis: a label inside the plot would sit where the legend or the curves may be; the top axis is
    always free, and "132 SMs" then reads as what the dotted lines are.
    """
    waves = [w * sms for w in range(1, max_blocks // sms + 1)]
    for x in waves:
        ax.axvline(x, color=style.SM_LINE, ls=":", lw=1)
    top = ax.secondary_xaxis("top")
    top.set_xticks(
        waves,
        [f"{sms} SMs" if w == sms else f"{w // sms} x {sms}" for w in waves],
        fontsize="small",
        color=style.SM_LINE,
    )
    top.tick_params(length=0)


@style.plot(counts=("x",))
def wave_plot(
    table: TimeTable, config: GemmConfig, M: int, K: int, max_blocks: int = 420, ax: Optional[Axes] = None
) -> Axes:
    """Plot time against the number of blocks (N grows one block column at a time): a step at each multiple of SMs."""
    ax = new_axes(ax)
    tiles_m = math.ceil(M / config.block_m)
    blocks, times = [], []
    for tiles_n in range(1, max_blocks // (tiles_m * config.split_k) + 1):
        shape = Shape("sweep", M, tiles_n * config.block_n, K)
        cost = gemm_cost.gemm_time(config, shape, table.gpu)
        blocks.append(cost.blocks)
        times.append(cost.time_us)
    ax.plot(blocks, times, drawstyle="steps-post", color=style.SCHEDULE_COLORS["waves"], label=f"{config.short()}")
    _wave_lines(ax, table.gpu.sms, max(blocks))
    style.integer_ticks(ax, "x")
    return finish(
        ax,
        f"Wave quantization on {table.gpu.name}: M={M}, K={K}, N = blocks / {tiles_m} x {config.block_n}",
        "blocks launched (tiles x split_k)",
        "time (us)",
    )


@style.plot(counts=("x",))
def padding_plot(ms: list[int], ax: Optional[Axes] = None) -> Axes:
    """Plot the share of tensor-core work spent on padding against M, one line per BLOCK_M."""
    ax = new_axes(ax)
    for bm in gemm_config.FIELDS["block_m"]:
        waste = [1 - m / (math.ceil(m / bm) * bm) for m in ms]
        ax.plot(ms, waste, marker=".", color=style.BLOCK_M_COLORS[str(bm)], label=f"BLOCK_M = {bm}")
    ax.set_xscale("log", base=2)
    return finish(ax, "Padding: M is rounded up to a whole block", "M (tokens)", "share of the math wasted on padding")


@style.plot()
def best_config_map(
    table: TimeTable,
    layers: list[str],
    ms: tuple[int, ...],
    lookup: Callable[[str, int], Shape],
    ax: Optional[Axes] = None,
) -> Axes:
    """Plot the oracle's config for each layer (rows) and M (columns), shaded by tile area and labelled."""
    ax = new_axes(ax, figsize=(11.0, 4.6))
    area = np.zeros((len(layers), len(ms)))
    for i, name in enumerate(layers):
        for j, m in enumerate(ms):
            c = table.oracle(lookup(name, m))[0]
            area[i, j] = math.log2(c.block_m * c.block_n)
            ax.text(
                j,
                i,
                f"{c.block_m}x{c.block_n}x{c.block_k}\nw{c.num_warps} s{c.num_stages}"
                f"{' k' + str(c.split_k) if c.split_k > 1 else ''}",
                ha="center",
                va="center",
                fontsize=6.5,
                color="white" if area[i, j] < 12 else "black",
            )
    image = ax.imshow(area, cmap="viridis", aspect="auto")
    ax.figure.colorbar(image, ax=ax, label="log2(BLOCK_M x BLOCK_N)")
    ax.set_xticks(range(len(ms)), [str(m) for m in ms])
    ax.set_yticks(range(len(layers)), layers)
    ax.set_title(f"Best config per M on {table.gpu.name} (k = split-K)")
    ax.set_xlabel("M (tokens)")
    ax.set_ylabel("layer")
    return ax


@style.plot()
def breakdown_bars(table: TimeTable, shape: Shape, configs: dict[str, GemmConfig], ax: Optional[Axes] = None) -> Axes:
    """Plot the time terms of a few configs side by side (fixed costs, the main term, reduction) and the roofline."""
    ax = new_axes(ax)
    labels = list(configs)
    longest = 0.0
    for y, label in enumerate(labels):
        cost = gemm_cost.gemm_time(configs[label], shape, table.gpu)
        if not math.isfinite(cost.time_us):
            ax.text(0, y, f"  cannot launch ({gemm_config.problem_kind(cost.reason)})", va="center", fontsize="small")
            continue
        main = cost.time_us - cost.fixed_us
        left = 0.0
        for part, value in (
            ("launch", cost.launch_us),
            ("fill+drain", cost.fill_us),
            ("main", main),
            ("split-K reduce", cost.reduction_us),
        ):
            ax.barh(y, value, left=left, color=style.TIME_PART_COLORS[part], edgecolor=style.NEUTRALS["white"])
            left += value
        longest = max(longest, left)
        ax.text(left, y, f" {cost.time_us:.1f} us\n {cost.blocks} blocks, {cost.bound}", va="center", fontsize="small")
    ax.axvline(table.roofline(shape), color=style.ROOFLINE, ls="--", lw=1, label="roofline")
    ax.set_yticks(range(len(labels)), [f"{k}\n{configs[k].short()}" for k in labels], fontsize=9)
    handles = [Patch(color=c, label=part) for part, c in style.TIME_PART_COLORS.items()]
    ax.set_title(f"{shape.label()} on {table.gpu.name}: where the time goes", fontsize="medium")
    ax.set_xlabel("time (us)")
    ax.set_ylabel("config")
    ax.set_xlim(0, 1.7 * max([longest, table.roofline(shape)]))
    style.legend_below(ax, handles=handles + ax.get_legend_handles_labels()[0], fontsize="small", ncol=5)
    return ax


@style.plot(counts=("y",))
def launchability_bars(gpu_list: list[GPU], ax: Optional[Axes] = None) -> Axes:
    """Plot, per GPU, how many configs launch and why the others cannot (stacked bars)."""
    ax = new_axes(ax)
    space = gemm_config.config_space()
    kinds = ["launchable", "shared memory", "registers", "warp tiling"]
    bottoms = np.zeros(len(gpu_list))
    counts = {k: np.zeros(len(gpu_list)) for k in kinds}
    for i, gpu in enumerate(gpu_list):
        for config in space:
            kind = gemm_config.problem_kind(gemm_config.launch_problem(config, gpu)) or "launchable"
            counts[kind][i] += 1
    for kind in kinds:
        ax.bar([g.name for g in gpu_list], counts[kind], bottom=bottoms, color=style.LAUNCH_COLORS[kind], label=kind)
        bottoms += counts[kind]
    style.integer_ticks(ax, "y")
    finish(ax, f"Which of the {len(space)} configs can launch (first failing check)", "GPU", "configs", legend=False)
    style.legend_below(ax, ncol=4)
    return ax


@style.plot(counts=("x",))
def bandwidth_plot(table: TimeTable, shape: Shape, ax: Optional[Axes] = None) -> Axes:
    """Plot each launchable config's achieved bandwidth (A + B + C bytes over its main time) against its block count.

    Few blocks cannot pull full bandwidth (each SM gets a few fair shares), and shallow pipelines cannot keep enough
    bytes in flight (Little's law), so the cloud rises with blocks and with stages up to the achievable ceiling.
    """
    ax = new_axes(ax)
    details = table.details(shape)
    ok = table.launchable
    useful = 2.0 * (shape.M * shape.K + shape.K * shape.N + shape.M * shape.N)
    stages = np.array([c.num_stages for c in table.configs])
    for st in gemm_config.FIELDS["num_stages"]:
        pick = ok & (stages == st)
        ax.scatter(
            details["blocks"][pick],
            useful / details["main"][pick] / 1e12,
            s=6,
            alpha=0.5,
            color=style.STAGES_COLORS[str(st)],
            label=f"{st} stages",
        )
    peak = table.gpu.hbm_bytes_per_s / 1e12
    ax.axhline(peak, color=style.ROOFLINE, lw=1, label=f"peak {peak:.2f} TB/s")
    ax.axhline(
        table.gpu.hbm_achievable_share * peak,
        color=style.ROOFLINE,
        ls="--",
        lw=1,
        label=f"achievable ({table.gpu.hbm_achievable_share:.0%})",
    )
    ax.axvline(table.gpu.sms, color=style.SM_LINE, ls=":", lw=1, label=f"{table.gpu.sms} SMs")
    ax.set_xscale("log", base=2)
    return finish(
        ax,
        f"{shape.label()}: achieved bandwidth of every config",
        "blocks launched (tiles x split_k)",
        "bytes / main time (TB/s)",
    )


@style.plot(counts=("x",))
def wave_schedules_plot(
    table: TimeTable, config: GemmConfig, M: int, K: int, max_blocks: int = 420, ax: Optional[Axes] = None
) -> Axes:
    """Plot time against blocks for the data-parallel waves and the stream-K schedule of the same config.

    N grows one block column at a time, as in `wave_plot`; waves step up at each multiple of the SMs, stream-K splits
    the last partial wave's k-steps over every SM (and pays a fix-up), so its curve rises smoothly.
    """
    ax = new_axes(ax)
    tiles_m = math.ceil(M / config.block_m)
    labels = {"waves": "data-parallel waves (Triton's grid)", "stream_k": "stream-K (persistent, tail split)"}
    for kind in gemm_cost.SCHEDULES:
        blocks, times = [], []
        for tiles_n in range(1, max_blocks // (tiles_m * config.split_k) + 1):
            cost = gemm_cost.gemm_time(config, Shape("sweep", M, tiles_n * config.block_n, K), table.gpu, kind=kind)
            blocks.append(cost.blocks)
            times.append(cost.time_us)
        ax.plot(
            blocks,
            times,
            drawstyle="steps-post" if kind == "waves" else "default",
            color=style.SCHEDULE_COLORS[kind],
            label=labels[kind],
        )
    _wave_lines(ax, table.gpu.sms, max_blocks)
    style.integer_ticks(ax, "x")
    return finish(
        ax,
        f"Waves and stream-K on {table.gpu.name}: {config.short()}, M={M}, K={K}",
        "blocks launched (tiles x split_k)",
        "time (us)",
    )
