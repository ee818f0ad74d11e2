"""The GEMM time model: how long a tiled bf16 GEMM with one config takes on one GPU (a teaching model).

The kernel is Triton's classic matmul: every block computes a BLOCK_M x BLOCK_N tile of C, stepping through its slice
of K in BLOCK_K steps, with `num_stages` steps of A and B tiles in flight in shared memory. The model:

* **Padding / tile quantization**: the tensor cores compute whole tiles, so M, N and K are padded up to the block.
* **Waves**: blocks (tiles x split_k) are dealt round-robin to the SMs; the busiest SM gets ceil(blocks / SMs) of them,
  so 133 blocks on 132 SMs take about two waves.
* **Per-SM time**: each k-step takes the longer of its tensor-core work (shared by the blocks co-resident on the SM)
  and the load latency not hidden by the pipeline, `latency / (stages - 1)`: loads are issued `stages - 1` steps
  ahead, so bytes in flight = blocks x (stages - 1) x tile bytes must cover bandwidth x latency (Little's law).
  Tensor-core efficiency grows with the tile
  (more reuse of each loaded byte), with warps up to 4 per SM sub-partition (16 per SM) and, on Hopper, needs 64-row
  warpgroup tiles of >= 4 warps (wgmma); otherwise the older mma instructions reach ~60% of peak.
* **Loads into an SM** are capped at a few fair shares of bandwidth (L2 -> SM, 4x DRAM over all SMs as in Triton's
  `matmul_perf_model.py`), so few blocks cannot saturate HBM: the decode problem.
* **DRAM traffic and L2 reuse**: the blocks in flight at once cover GROUP_M block rows (Triton's grouped ordering) and
  as many block columns as fit; tiles they share come from L2, so A is read from DRAM once per group of columns and
  B once per group of rows. Plus C (or split-K's fp32 partial sums). Achieved bandwidth is at most 92% of peak
  (pytorch/ao's `roofline_utils.py`).
* **Overlap**: compute, the SM's loads and DRAM traffic overlap, but not perfectly: the main time is their 6-norm
  (between the max, perfect overlap, and the sum, none), so a config whose other limits are close to its bottleneck
  is a little slower.
* **Fixed costs**: the launch (~2 us), one memory latency to fill the pipeline and one to drain the last store, and
  for split-K a reduction kernel that reads the partials and writes C.

Where the toy differs from a real GPU: no clock or power effects, no TMA multicast or clusters, no bank conflicts, one
latency for every load, L2 reuse and per-SM bandwidth follow fixed rules, and the overlap is one formula. The same
numpy formula serves one config (`gemm_time`) and the whole config space (`toyhw.gemm.time_table`), so the two agree
bit for bit.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from toyhw.gemm import config as gemm_config
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import GPU
from toyhw.gemm.shapes import Shape

BW_EFFICIENCY = 0.92  # share of peak HBM bandwidth a kernel reaches (pytorch/ao roofline_utils.py)
L2_TO_SM_FACTOR = 4.0  # all SMs together load from L2 at 4x DRAM bandwidth (Triton matmul_perf_model.py)
GROUP_M = 8  # block rows that run side by side (the grouped ordering of Triton's matmul tutorial)
LATENCY_S = 0.8e-6  # one global load, issue to use, loaded GPU (a toy constant: HBM latency is ~0.5-1 us)
FILL_LATENCIES = 2  # latencies nothing overlaps: the first loads (prologue) and the last store of C (epilogue)
TILE_REUSE_HALF = 4.0  # tile intensity BM*BN/(BM+BN) at which tensor cores reach half of their speed (toy)
WARPS_FULL = 16  # warps per SM for full tensor-core issue: 4 per sub-partition
WARP_EFF_MIN = 0.8  # tensor-core issue efficiency with 1 warp per SM, growing linearly to 1 at WARPS_FULL (toy)
MMA_FALLBACK = 0.6  # Hopper speed without wgmma (BLOCK_M < 64 or < 4 warps), share of peak (toy)
REDUCTION_LAUNCH_SHARE = 0.5  # fixed cost of split-K's reduction kernel, as a share of a launch (same CUDA graph)
OVERLAP_NORM = 6.0  # compute, SM loads and DRAM overlap imperfectly: main time = their 6-norm (toy; max() is perfect)
RESERVED_SMEM_PER_BLOCK = 1024  # bytes the runtime reserves per resident block (CUDA guide)

Arrays = dict[str, np.ndarray]


@dataclasses.dataclass(frozen=True)
class GemmCost:
    """The time of one config on one shape, with the breakdown that explains it.

    Attributes:
        time_us: total kernel time, microseconds (math.inf when the config cannot launch).
        reason: why the config cannot launch (None when it can).
        launch_us: launch overhead, microseconds.
        fill_us: the latencies of the first load and the last store, which nothing overlaps, microseconds.
        compute_us: tensor-core time of the busiest SM, microseconds.
        latency_us: time the busiest SM waits on loads the pipeline does not hide, microseconds (overlaps compute).
        sm_load_us: time to pull the busiest SM's tiles through its share of bandwidth, microseconds.
        dram_us: DRAM traffic over the achieved bandwidth, microseconds.
        reduction_us: split-K reduction kernel, microseconds (0 without split-K).
        bound: which term set the main time: "compute", "latency", "sm_load" or "dram".
        blocks: blocks launched (tiles x split_k).
        waves: blocks on the busiest SM, ceil(blocks / SMs).
        occupancy: blocks that fit on one SM at once (shared memory, registers, warps).
        padding_waste: share of the tensor-core work spent on padding (0-1).
        dram_bytes: bytes moved to and from DRAM, including split-K partials and the reduction.
        efficiency: tensor-core efficiency of a k-step, share of peak (0-1).
    """

    time_us: float
    reason: str | None
    launch_us: float = 0.0
    fill_us: float = 0.0
    compute_us: float = 0.0
    latency_us: float = 0.0
    sm_load_us: float = 0.0
    dram_us: float = 0.0
    reduction_us: float = 0.0
    bound: str = ""
    blocks: int = 0
    waves: int = 0
    occupancy: int = 0
    padding_waste: float = 0.0
    dram_bytes: float = 0.0
    efficiency: float = 0.0


def config_arrays(configs: tuple[GemmConfig, ...] | list[GemmConfig], gpu: GPU) -> Arrays:
    """Return the shape-independent columns of `configs` on `gpu`: fields, launchability, occupancy, efficiencies."""
    cols = {f: np.array([getattr(c, f) for c in configs], dtype=np.float64) for f in gemm_config.FIELDS}
    bm, bn, bk, w, st = cols["block_m"], cols["block_n"], cols["block_k"], cols["num_warps"], cols["num_stages"]
    smem = st * (bm + bn) * bk * gemm_config.BYTES_PER_ELEMENT
    regs = np.ceil(bm * bn / (32 * w)) + gemm_config.REG_OVERHEAD
    ok = np.array([gemm_config.launch_problem(c, gpu) is None for c in configs], dtype=bool)
    by_smem = np.floor(gpu.smem_per_sm / (smem + RESERVED_SMEM_PER_BLOCK))
    by_regs = np.floor(gpu.regs_per_sm / (np.ceil(regs / 8) * 8 * 32 * w))
    by_warps = np.floor(gpu.max_warps_per_sm / w)
    occupancy = np.where(ok, np.maximum(1.0, np.minimum(np.minimum(by_smem, by_regs), np.minimum(by_warps, 32.0))), 1.0)
    reuse = bm * bn / (bm + bn)
    mma = np.where(gpu.warpgroup_mma & ((bm < 64) | (w < 4)), MMA_FALLBACK, 1.0)
    cols.update(launchable=ok, occupancy=occupancy, tile_eff=reuse / (reuse + TILE_REUSE_HALF) * mma)
    return cols


def evaluate(cols: Arrays, shape: Shape, gpu: GPU) -> Arrays:
    """Return the model's arrays (times in seconds) for every config column in `cols` on `shape`.

    This is the one formula of the model; `gemm_time` and `TimeTable` both call it.
    """
    bm, bn, bk, w, st, sk = (cols[f] for f in gemm_config.FIELDS)
    M, N, K = float(shape.M), float(shape.N), float(shape.K)
    tiles_m, tiles_n = np.ceil(M / bm), np.ceil(N / bn)
    k_iters = np.ceil(np.ceil(K / sk) / bk)  # k-steps of one block
    blocks = tiles_m * tiles_n * sk
    waves = np.ceil(blocks / gpu.sms)  # blocks on the busiest SM
    resident = np.minimum(cols["occupancy"], waves)  # blocks sharing that SM at once
    groups = np.ceil(waves / resident)
    peak_sm = gpu.bf16_flops / gpu.sms
    warp_eff = WARP_EFF_MIN + (1.0 - WARP_EFF_MIN) * np.minimum(1.0, resident * w / WARPS_FULL)
    efficiency = cols["tile_eff"] * warp_eff
    step_compute = 2.0 * bm * bn * bk / (peak_sm * efficiency)  # one k-step of one block, alone on the SM
    step_wait = LATENCY_S / (st - 1.0)  # load latency the pipeline leaves exposed per k-step
    steps = groups * k_iters
    compute = steps * resident * step_compute
    latency = steps * step_wait
    sm_main = steps * np.maximum(resident * step_compute, step_wait)
    tile_bytes = (np.minimum(bm, M) + np.minimum(bn, N)) * bk * 2.0
    out_bytes = np.minimum(bm, M) * np.minimum(bn, N) * np.where(sk > 1, 4.0, 2.0)
    sm_bw = L2_TO_SM_FACTOR * gpu.hbm_bytes_per_s / gpu.sms
    sm_load = (waves * k_iters * tile_bytes + waves * out_bytes) / sm_bw
    a_bytes, b_bytes = 2.0 * M * K, 2.0 * K * N
    partials = np.where(sk > 1, sk * M * N * 4.0, 2.0 * M * N)
    in_flight = np.minimum(blocks, gpu.sms * cols["occupancy"]) / sk  # output tiles being computed at once
    rows_together = np.minimum(tiles_m, GROUP_M)
    cols_together = np.clip(np.floor(in_flight / rows_together), 1.0, tiles_n)
    dram_bytes = a_bytes * np.ceil(tiles_n / cols_together) + b_bytes * np.ceil(tiles_m / rows_together) + partials
    bandwidth = BW_EFFICIENCY * gpu.hbm_bytes_per_s
    dram = dram_bytes / bandwidth
    reduce_bytes = np.where(sk > 1, sk * M * N * 4.0 + 2.0 * M * N, 0.0)
    reduction = np.where(sk > 1, reduce_bytes / bandwidth + REDUCTION_LAUNCH_SHARE * gpu.launch_s, 0.0)
    main = (sm_main ** OVERLAP_NORM + sm_load ** OVERLAP_NORM + dram ** OVERLAP_NORM) ** (1.0 / OVERLAP_NORM)
    total = gpu.launch_s + FILL_LATENCIES * LATENCY_S + main + reduction
    padded = tiles_m * bm * tiles_n * bn * k_iters * bk * sk
    return dict(
        time=np.where(cols["launchable"], total, np.inf), main=main, compute=compute, latency=latency,
        sm_load=sm_load, dram=dram, reduction=reduction, blocks=blocks, waves=waves,
        padding_waste=1.0 - M * N * K / padded, dram_bytes=dram_bytes + reduce_bytes, efficiency=efficiency,
    )


def _bound(values: Arrays, i: int) -> str:
    terms = {"compute": values["compute"][i], "latency": values["latency"][i], "sm_load": values["sm_load"][i],
             "dram": values["dram"][i]}
    return max(terms, key=lambda k: terms[k])


def gemm_time(config: GemmConfig, shape: Shape, gpu: GPU) -> GemmCost:
    """Return the modelled time of `config` on `shape` and `gpu`, with its breakdown (math.inf if unlaunchable)."""
    reason = gemm_config.launch_problem(config, gpu)
    cols = config_arrays([config], gpu)
    v = evaluate(cols, shape, gpu)
    us = 1e6
    return GemmCost(
        time_us=float(v["time"][0] * us) if reason is None else math.inf, reason=reason,
        launch_us=gpu.launch_s * us, fill_us=FILL_LATENCIES * LATENCY_S * us, compute_us=float(v["compute"][0] * us),
        latency_us=float(v["latency"][0] * us), sm_load_us=float(v["sm_load"][0] * us),
        dram_us=float(v["dram"][0] * us),
        reduction_us=float(v["reduction"][0] * us), bound=_bound(v, 0), blocks=int(v["blocks"][0]),
        waves=int(v["waves"][0]), occupancy=int(cols["occupancy"][0]), padding_waste=float(v["padding_waste"][0]),
        dram_bytes=float(v["dram_bytes"][0]), efficiency=float(v["efficiency"][0]),
    )


def roofline_us(shape: Shape, gpu: GPU) -> float:
    """Return the roofline lower bound max(2MNK / peak, 2(MK + KN + MN) / bandwidth) in microseconds.

    No padding, no launch, full peak and full bandwidth: no config can beat it.
    """
    M, N, K = shape.M, shape.N, shape.K
    return max(2.0 * M * N * K / gpu.bf16_flops, 2.0 * (M * K + K * N + M * N) / gpu.hbm_bytes_per_s) * 1e6
