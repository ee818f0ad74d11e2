"""Solutions of notebook 03's exercises (students: try first, then compare).

Each `# %% Exercise K` section replaces the stub cell of Exercise K and defines the same names; it imports what it
uses, so it runs on its own (which is why imports follow code: ruff's E402 is off for this file).
tests/gemm/test_solutions.py and tests/claims/nb03.py check what the notebook says about each result.
"""
# ruff: noqa: E402

# %% Exercise 1
from typing import Callable

from toyhw.gemm import expert, report
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import TimeTable


def choose(M: int, N: int, K: int) -> GemmConfig:
    """Return a config from four rules on M, each splitting K in 4 when the layer is narrow (N <= 2048).

    Split-K on the narrow layer fixes Think! 7's first group (70B/8 qkv has too few blocks for the SMs); a 128x128
    tile with 8 warps at M = 256 and 512 fixes most of the second (M just past the expert's 128 threshold, where its
    128x256 tile makes too few blocks). In lecture 14's rule language that is seven rules: three ranges with the
    narrow-layer test take two each, and the default one.
    """
    split = 4 if N <= 2048 else 1
    if M <= 16:
        return GemmConfig(16, 64, 256, num_warps=4, num_stages=5, split_k=split)
    if M <= 128:
        return GemmConfig(64, 64, 128, num_warps=4, num_stages=5, split_k=split)
    if M <= 512:
        return GemmConfig(128, 128, 64, num_warps=8, num_stages=4, split_k=split)
    return GemmConfig(256, 128, 32, num_warps=8, num_stages=4, split_k=1)


def speedup_over_expert(
    heuristic: Callable[[int, int, int], GemmConfig], shape_list: list[Shape], table: TimeTable
) -> float:
    """Return the geometric-mean speedup of `heuristic` over the expert on `shape_list` (lecture 14's score)."""
    return report.geomean(
        [table.time(expert.expert_config(s), s) / table.time(heuristic(s.M, s.N, s.K), s) for s in shape_list]
    )


# %% Exercise 2
import numpy as np

from toyhw.gemm import shapes
from toyhw.gemm.time_table import shared_table


def oracle_block_m(gpu_name: str, layer: str = "8B gate_up", ms: tuple[int, ...] = (16, 24, 48, 64)) -> dict[int, int]:
    """Return the oracle's BLOCK_M for `layer` at each M of `ms` on the GPU `gpu_name`.

    On H100 the oracle jumps from 16 rows to 64 at M = 24 (it pads rather than use a 32-row tile); on A100 it follows
    M. The missing effect is wgmma: under 64 rows Hopper's tensor cores fall back to a slower MMA, the A100 has none.
    """
    table = shared_table(gpu_name)
    return {m: table.oracle(shapes.layer_shape(layer, m))[0].block_m for m in ms}


def small_tile_penalty(gpu_name: str, layer: str = "8B gate_up", M: int = 48) -> float:
    """Return the best time with BLOCK_M < 64 over the oracle's time (1.0 when a small tile is the oracle)."""
    table = shared_table(gpu_name)
    shape = shapes.layer_shape(layer, M)
    small = np.array([c.block_m < 64 for c in table.configs])
    return float(table.row(shape)[small].min()) / table.oracle(shape)[1]


# %% Exercise 3
import dataclasses

from toyhw.gemm import gpu, vllm
from toyhw.gemm.time_table import TimeTable


def vllm_ranks_at(load_latency_s: float) -> list[vllm.VllmRank]:
    """Return vLLM's configs ranked by the model on an H100 whose loaded memory latency is `load_latency_s`.

    A fresh TimeTable, not `shared_table`: the shared one caches its rows for the fitted latency.
    """
    h100 = dataclasses.replace(gpu.get_gpu("H100"), load_latency_s=load_latency_s)
    return vllm.vllm_ranks(TimeTable(h100))


# %% Exercise 4
import math
from typing import Callable

from toyhw.gemm import validate


def error_without_timing(found: list[validate.Check]) -> dict[str, tuple[float, float]]:
    """Return, per timing method and for "all": (geomean error as the model predicts, error of the kernel time alone).

    The kernel time alone is what the model would say if it ignored how each benchmark was taken (`Check.kernel_us`).
    The error is Section 8's: the geometric mean of max(model / measured, measured / model), minus one.
    """
    groups: dict[str, list[validate.Check]] = {"all": list(found)}
    for c in found:
        groups.setdefault(c.measurement.timing, []).append(c)

    def error(members: list[validate.Check], us: Callable[[validate.Check], float]) -> float:
        logs = [abs(math.log(us(c) / c.measurement.measured_us)) for c in members]
        return math.exp(sum(logs) / len(logs)) - 1.0

    return {
        name: (error(members, lambda c: c.model_us), error(members, lambda c: c.kernel_us))
        for name, members in groups.items()
    }
