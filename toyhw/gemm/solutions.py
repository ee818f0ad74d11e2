"""Reference solutions of notebook 03's exercises (students: try first, then compare).

The notebook shows each function's exact source in its Solution block (a content test compares them), and
tests/gemm/test_solutions.py runs each one and checks what the notebook says about its result.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

from toyhw.gemm import expert, report, shapes, validate, vllm
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import get_gpu
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import TimeTable, shared_table


# ----- Exercise 1: a heuristic that looks at N too

def four_rules(M: int, N: int, K: int) -> GemmConfig:
    """Return a config from four rules on M, each splitting K in 4 when the layer is narrow (N <= 2048)."""
    split = 4 if N <= 2048 else 1
    if M <= 16:
        return GemmConfig(16, 64, 256, num_warps=4, num_stages=5, split_k=split)
    if M <= 128:
        return GemmConfig(64, 64, 128, num_warps=4, num_stages=5, split_k=split)
    if M <= 512:
        return GemmConfig(128, 128, 64, num_warps=8, num_stages=4, split_k=split)
    return GemmConfig(256, 128, 32, num_warps=8, num_stages=4, split_k=1)


def speedup_over_expert(choose: Callable[[int, int, int], GemmConfig], shape_list: list[Shape],
                        table: TimeTable) -> float:
    """Return the geometric-mean speedup of `choose` over the expert on `shape_list` (lecture 14's score)."""
    return report.geomean([table.time(expert.expert_config(s), s) / table.time(choose(s.M, s.N, s.K), s)
                           for s in shape_list])


# ----- Exercise 2: Hopper against Ampere

def oracle_block_m(gpu: str, layer: str = "8B gate_up", ms: tuple[int, ...] = (16, 24, 48, 64)) -> dict[int, int]:
    """Return the oracle's BLOCK_M for `layer` at each M of `ms` on `gpu`."""
    table = shared_table(gpu)
    return {m: table.oracle(shapes.layer_shape(layer, m))[0].block_m for m in ms}


def small_tile_penalty(gpu: str, layer: str = "8B gate_up", M: int = 48) -> float:
    """Return the best time with BLOCK_M < 64 over the oracle's time (1.0 when a small tile is the oracle)."""
    table = shared_table(gpu)
    shape = shapes.layer_shape(layer, M)
    small = np.array([c.block_m < 64 for c in table.configs])
    return float(table.row(shape)[small].min()) / table.oracle(shape)[1]


# ----- Exercise 3: how much the load latency decides

def vllm_ranks_at_latency(load_latency_s: float) -> list[vllm.VllmRank]:
    """Return vLLM's configs ranked by the model on an H100 whose loaded memory latency is `load_latency_s`."""
    h100 = dataclasses.replace(get_gpu("H100"), load_latency_s=load_latency_s)
    return vllm.vllm_ranks(TimeTable(h100))


# ----- Exercise 4: what the timing method is worth

def error_without_timing(found: list[validate.Check]) -> dict[str, tuple[float, float]]:
    """Return, per timing method and for "all": (geomean error as the model predicts, error of the kernel time alone).

    The kernel time alone is what the model would say if it ignored how each benchmark was taken (`Check.kernel_us`).
    """
    groups: dict[str, list[validate.Check]] = {"all": list(found)}
    for c in found:
        groups.setdefault(c.measurement.timing, []).append(c)

    def error(members: list[validate.Check], us: Callable[[validate.Check], float]) -> float:
        logs = [abs(math.log(us(c) / c.measurement.measured_us)) for c in members]
        return math.exp(sum(logs) / len(logs)) - 1.0

    return {name: (error(members, lambda c: c.model_us), error(members, lambda c: c.kernel_us))
            for name, members in groups.items()}
