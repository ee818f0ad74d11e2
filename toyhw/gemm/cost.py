"""The GEMM time model: how long a tiled bf16 GEMM with one config takes on one GPU (a teaching model).

The kernel is Triton's classic matmul: every block computes a BLOCK_M x BLOCK_N tile of C, stepping through its slice
of K in BLOCK_K steps, with `num_stages` steps of A and B tiles in flight in shared memory. One function per effect:

* `schedule` — **padding and waves**: M, N and K are padded up to the block; blocks (tiles x split_k) are dealt to the
  SMs in waves, so 133 blocks on 132 SMs take two block-times. Libraries such as cuBLAS and CUTLASS also run a
  persistent **stream-K** schedule that splits the last partial wave's work over every SM (Osama et al., PPoPP 2023);
  `schedule="stream_k"` models it, with the fix-up it pays. The lecture's Triton configs use waves.
* `tensor_core_efficiency` — **the compute side**: a k-step runs at a share of the SM's peak that grows with the tile
  (reuse of each loaded byte), with warps up to 4 per SM sub-partition, needs Hopper's 64-row warpgroup tiles (wgmma),
  and is capped by the GPU's **sustained** share of its datasheet peak (clock and power limits: an H100 sustains about
  80% of 989 TFLOP/s in the best published shape searches).
* `k_loop` — each k-step takes the longer of its tensor-core work (shared by the blocks co-resident on the SM) and
  the load latency the pipeline does not hide, `latency / (stages - 1)` (Little's law: bytes in flight must cover
  bandwidth x latency).
* `memory_traffic` — **DRAM bytes with L2 reuse**: blocks in flight together share tiles through L2 (Triton's grouped
  ordering), plus C or split-K's fp32 partial sums; they stream at the GPU's **achievable** bandwidth (a share of the
  datasheet's). Each SM also loads its tiles through a few fair shares of bandwidth (L2 -> SM), so few blocks cannot
  saturate HBM: the decode problem.
* `overlap` — compute, SM loads and DRAM overlap imperfectly: the main time is their p-norm.
* `tile_fixed_costs` — **ramp-up**: every wave of tiles on an SM waits a few load latencies before its first MMA
  (prologue) and after its last (epilogue: convert and store C), so a problem of one or two waves cannot run at full
  efficiency.
* `kernel_fixed_costs` — the launch (per GPU, inside a CUDA graph), the kernel's own start and drain, and split-K's
  reduction kernel.

Every constant is either sourced (comment) or fitted to the published measurements in data/gemm_measurements.csv
(`tools/calibrate_gemm.py` reproduces the fit; `python -m toyhw validate` prints the model against each measurement).
Where the toy differs from a real GPU: one latency for every load, fixed L2 and per-SM bandwidth rules, one overlap
formula, no TMA multicast, clusters or 2-CTA MMA, no bank conflicts, clocks that depend on nothing but the GPU. The same
numpy formula serves one config (`gemm_time`) and the whole config space (`toyhw.gemm.time_table`), so the two agree
bit for bit.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from toyhw.machine import libm
from toyhw.gemm import config as gemm_config
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import GPU
from toyhw.gemm.shapes import Shape
from toyhw.i18n import t

L2_TO_SM_FACTOR = 4.0  # all SMs together load from L2 at 4x DRAM bandwidth (Triton's matmul_perf_model.py)
GROUP_M = 8  # block rows that run side by side (the grouped ordering of Triton's matmul tutorial)
TILE_REUSE_HALF = 8.0  # fit: tile intensity BM*BN/(BM+BN) at which a tile reaches half of the best tile's speed
BEST_TILE_REUSE = 128 * 256 / (128 + 256)  # by definition: the largest launchable tile (128x256) has factor 1
WARPS_FULL = 16  # warps per SM for full tensor-core issue: 4 per SM sub-partition (CUDA guide: 4 sub-partitions)
WARP_EFF_MIN = 0.97  # fit: tensor-core issue efficiency with 1 warp per SM, growing linearly to 1 at WARPS_FULL
# fit: tensor-core speed outside the small-tile MMA rule (Hopper: BLOCK_M < 64 or < 4 warps, mma.sync)
MMA_FALLBACK = 0.48  # fit
PROLOGUE_LATENCIES = 3.96  # fit: latencies the first wave of tiles waits before its first MMA (ramp-up)
KERNEL_LATENCIES = 1.56  # fit: latencies of the kernel's own start and drain
REDUCTION_LAUNCHES = 1.0  # split-K's reduction is a second kernel in the same CUDA graph: one more launch
OVERLAP_NORM = 3.375  # fit: compute, SM loads and DRAM overlap imperfectly: main time = their p-norm (max() is perfect)
WARM_L2_SPEEDUP = 1.8  # fit: operands already in L2 stream this many times faster than from DRAM
RESERVED_SMEM_PER_BLOCK = 1024  # bytes the runtime reserves per resident block (CUDA C++ Programming Guide)
SCHEDULES = ("waves", "stream_k")  # by definition: data-parallel grid, persistent stream-K

Arrays = dict[str, np.ndarray]


@dataclasses.dataclass(frozen=True)
class GemmCost:
    """The time of one config on one shape, with the breakdown that explains it.

    Attributes:
        time_us: total kernel time, microseconds (math.inf when the config cannot launch).
        reason: why the config cannot launch (None when it can).
        launch_us: launch overhead, microseconds.
        fill_us: latencies nothing overlaps: the kernel's start and drain plus every wave's prologue and epilogue,
            microseconds.
        compute_us: tensor-core time of the busiest SM, microseconds.
        latency_us: time the busiest SM waits on loads the pipeline does not hide, microseconds (overlaps compute).
        sm_load_us: time to pull the busiest SM's tiles through its share of bandwidth, microseconds.
        dram_us: DRAM traffic over the achievable bandwidth, microseconds.
        reduction_us: split-K reduction kernel (or stream-K's fix-up), microseconds (0 without either).
        bound: which term set the main time: "compute", "latency", "sm_load" or "dram".
        blocks: blocks launched (tiles x split_k).
        waves: blocks on the busiest SM, ceil(blocks / SMs).
        occupancy: blocks that fit on one SM at once (shared memory, registers, warps).
        padding_waste: share of the tensor-core work spent on padding (0-1).
        dram_bytes: bytes moved to and from DRAM, including split-K partials and the reduction.
        efficiency: tensor-core efficiency of a k-step, share of the datasheet peak (0-1).
        schedule: "waves" (data-parallel grid) or "stream_k" (persistent, tail split over every SM).
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
    schedule: str = "waves"

    @property
    def fixed_us(self) -> float:
        """The time that does not shrink with the work: launch, fill and drain, and the split-K reduction (us)."""
        return self.launch_us + self.fill_us + self.reduction_us


def config_arrays(configs: tuple[GemmConfig, ...] | list[GemmConfig], gpu: GPU) -> Arrays:
    """Return the shape-independent columns of `configs` on `gpu`: fields, launchability, occupancy, tile efficiency."""
    cols = {f: np.array([getattr(c, f) for c in configs], dtype=np.float64) for f in gemm_config.FIELDS}
    bm, bn, bk, w, st = cols["block_m"], cols["block_n"], cols["block_k"], cols["num_warps"], cols["num_stages"]
    smem = st * (bm + bn) * bk * gemm_config.BYTES_PER_ELEMENT
    regs = np.ceil(bm * bn / (32 * w)) + gemm_config.REG_OVERHEAD
    ok = np.array([gemm_config.launch_problem(c, gpu) is None for c in configs], dtype=bool)
    by_smem = np.floor(gpu.smem_per_sm / (smem + RESERVED_SMEM_PER_BLOCK))
    by_regs = np.floor(gpu.regs_per_sm / (np.ceil(regs / 8) * 8 * 32 * w))
    by_warps = np.floor(gpu.max_warps_per_sm / w)
    occupancy = np.where(ok, np.maximum(1.0, np.minimum(np.minimum(by_smem, by_regs), np.minimum(by_warps, 32.0))), 1.0)
    cols.update(launchable=ok, occupancy=occupancy, tile_eff=_tile_factor(bm, bn, w, gpu))
    return cols


def _tile_factor(bm: np.ndarray, bn: np.ndarray, warps: np.ndarray, gpu: GPU) -> np.ndarray:
    """Return the tile's tensor-core speed relative to the best tile: reuse, and the GPU's small-tile MMA rule
    (`GPU.mma_min_rows`, `GPU.mma_min_warps`: Hopper's wgmma wants 64 rows and 4 warps, Blackwell's tcgen05.mma 64
    rows and no warp count)."""
    reuse = bm * bn / (bm + bn)
    factor = (reuse / (reuse + TILE_REUSE_HALF)) / (BEST_TILE_REUSE / (BEST_TILE_REUSE + TILE_REUSE_HALF))
    mma = np.where((bm < gpu.mma_min_rows) | (warps < gpu.mma_min_warps), MMA_FALLBACK, 1.0)
    return factor * mma


def schedule(cols: Arrays, shape: Shape, gpu: GPU, kind: str) -> Arrays:
    """Return the grid: tiles, k-steps per block, blocks, waves, co-resident blocks and k-steps on the busiest SM.

    "waves": blocks are dealt to the SMs in waves of `sms x resident`; the busiest SM runs ceil(...) groups of blocks,
    each all its k-steps. "stream_k": a persistent kernel gives every SM slot the same share of all tiles' k-steps, so
    a partial last wave costs its fraction of a wave (plus `stream_k_fixup`), not a whole one; split-K configs keep
    their own decomposition.
    """
    bm, bn, bk, sk = cols["block_m"], cols["block_n"], cols["block_k"], cols["split_k"]
    M, N, K = float(shape.M), float(shape.N), float(shape.K)
    tiles_m, tiles_n = np.ceil(M / bm), np.ceil(N / bn)
    k_iters = np.ceil(np.ceil(K / sk) / bk)  # k-steps of one block
    blocks = tiles_m * tiles_n * sk
    waves = np.ceil(blocks / gpu.sms)  # blocks on the busiest SM
    resident = np.minimum(cols["occupancy"], waves)  # blocks sharing that SM at once
    groups = np.ceil(waves / resident)
    steps = groups * k_iters  # k-steps one block slot of the busiest SM runs
    sm_iters = waves * k_iters  # block k-steps (tile loads) on the busiest SM
    if kind == "stream_k":
        tiles = tiles_m * tiles_n
        steps = np.where(sk > 1, steps, np.ceil(tiles * k_iters / (gpu.sms * resident)))
        sm_iters = np.where(sk > 1, sm_iters, np.ceil(tiles * k_iters / gpu.sms))
    elif kind != "waves":
        raise ValueError(f"schedule = {kind!r} is not allowed; allowed: {list(SCHEDULES)}")
    return dict(
        tiles_m=tiles_m,
        tiles_n=tiles_n,
        k_iters=k_iters,
        blocks=blocks,
        waves=waves,
        resident=resident,
        groups=groups,
        steps=steps,
        sm_iters=sm_iters,
    )


def tensor_core_efficiency(cols: Arrays, resident: np.ndarray, gpu: GPU) -> np.ndarray:
    """Return a k-step's tensor-core speed as a share of the datasheet peak: sustained share x tile x warps."""
    warp_eff = WARP_EFF_MIN + (1.0 - WARP_EFF_MIN) * np.minimum(1.0, resident * cols["num_warps"] / WARPS_FULL)
    return gpu.tc_sustained_share * cols["tile_eff"] * warp_eff


def k_loop(cols: Arrays, grid: Arrays, efficiency: np.ndarray, gpu: GPU) -> Arrays:
    """Return the busiest SM's tensor-core time, exposed load latency and main-loop time (seconds)."""
    bm, bn, bk, st = cols["block_m"], cols["block_n"], cols["block_k"], cols["num_stages"]
    step_compute = 2.0 * bm * bn * bk / (gpu.bf16_flops / gpu.sms * efficiency)  # one block's k-step, alone on the SM
    step_wait = gpu.load_latency_s / (st - 1.0)  # load latency the pipeline leaves exposed per k-step
    steps, resident = grid["steps"], grid["resident"]
    return dict(
        compute=steps * resident * step_compute,
        latency=steps * step_wait,
        main=steps * np.maximum(resident * step_compute, step_wait),
    )


def memory_traffic(cols: Arrays, grid: Arrays, shape: Shape, gpu: GPU, warm_l2: bool = False) -> Arrays:
    """Return the SM-load time, DRAM bytes and DRAM time (seconds) with L2 reuse between blocks in flight.

    `warm_l2`: the operands are already in L2 (a benchmark that does not flush it and whose operands fit): they then
    stream at L2's bandwidth, not DRAM's. The lecture's time table is cold (a serving engine's next layer evicts them).
    """
    bm, bn, bk, sk = cols["block_m"], cols["block_n"], cols["block_k"], cols["split_k"]
    M, N, K = float(shape.M), float(shape.N), float(shape.K)
    tile_bytes = (np.minimum(bm, M) + np.minimum(bn, N)) * bk * 2.0
    sm_bw = L2_TO_SM_FACTOR * gpu.hbm_bytes_per_s / gpu.sms
    sm_load = grid["sm_iters"] * tile_bytes / sm_bw
    a_bytes, b_bytes = 2.0 * M * K, 2.0 * K * N
    partials = np.where(sk > 1, sk * M * N * 4.0, 2.0 * M * N)
    in_flight = np.minimum(grid["blocks"], gpu.sms * cols["occupancy"]) / sk  # output tiles being computed at once
    rows_together = np.minimum(grid["tiles_m"], GROUP_M)
    cols_together = np.clip(np.floor(in_flight / rows_together), 1.0, grid["tiles_n"])
    dram_bytes = (
        a_bytes * np.ceil(grid["tiles_n"] / cols_together)
        + b_bytes * np.ceil(grid["tiles_m"] / rows_together)
        + partials
    )
    bandwidth = gpu.achievable_bytes_per_s * (WARM_L2_SPEEDUP if warm_l2 else 1.0)
    return dict(sm_load=sm_load, dram_bytes=dram_bytes, dram=dram_bytes / bandwidth, bandwidth=bandwidth)


def overlap(*terms: np.ndarray) -> np.ndarray:
    """Return the main time when the terms overlap imperfectly: their OVERLAP_NORM-norm (between max and sum)."""
    return libm.power(sum(libm.power(t, OVERLAP_NORM) for t in terms), 1.0 / OVERLAP_NORM)


def tile_fixed_costs(cols: Arrays, grid: Arrays, shape: Shape, gpu: GPU) -> np.ndarray:
    """Return the busiest SM's prologue and epilogue time (seconds): the ramp-up small problems cannot amortize.

    The first wave waits PROLOGUE_LATENCIES load latencies before its first MMA (the kernel's blocks start, their
    first stages load, nothing overlaps yet); every later group of blocks on an SM waits one more latency while its
    pipeline refills; every block stores its C tile through the SM's share of bandwidth.
    """
    bm, bn, sk = cols["block_m"], cols["block_n"], cols["split_k"]
    out_bytes = np.minimum(bm, shape.M) * np.minimum(bn, shape.N) * np.where(sk > 1, 4.0, 2.0)
    sm_bw = L2_TO_SM_FACTOR * gpu.hbm_bytes_per_s / gpu.sms
    return (PROLOGUE_LATENCIES + grid["groups"] - 1.0) * gpu.load_latency_s + grid["waves"] * out_bytes / sm_bw


def stream_k_fixup(cols: Arrays, grid: Arrays, shape: Shape, gpu: GPU) -> np.ndarray:
    """Return stream-K's fix-up (seconds): SMs that share a tail tile exchange fp32 partial sums through memory."""
    slots = gpu.sms * grid["resident"]
    tiles = grid["tiles_m"] * grid["tiles_n"]
    tail = tiles - np.floor(tiles / slots) * slots
    partial = np.minimum(cols["block_m"], shape.M) * np.minimum(cols["block_n"], shape.N) * 4.0
    sm_bw = L2_TO_SM_FACTOR * gpu.hbm_bytes_per_s / gpu.sms
    return np.where((tail > 0) & (cols["split_k"] == 1), gpu.load_latency_s + 2.0 * partial / sm_bw, 0.0)


def kernel_fixed_costs(cols: Arrays, shape: Shape, gpu: GPU, bandwidth: np.ndarray | float) -> Arrays:
    """Return the launch, the kernel's start and drain, and split-K's reduction kernel (seconds)."""
    sk = cols["split_k"]
    M, N = float(shape.M), float(shape.N)
    reduce_bytes = np.where(sk > 1, sk * M * N * 4.0 + 2.0 * M * N, 0.0)
    reduction = np.where(sk > 1, reduce_bytes / bandwidth + REDUCTION_LAUNCHES * gpu.launch_s, 0.0)
    return dict(
        launch=gpu.launch_s, drain=KERNEL_LATENCIES * gpu.load_latency_s, reduce_bytes=reduce_bytes, reduction=reduction
    )


def evaluate(cols: Arrays, shape: Shape, gpu: GPU, kind: str = "waves", warm_l2: bool = False) -> Arrays:
    """Return the model's arrays (times in seconds) for every config column in `cols` on `shape`.

    This is the one formula of the model; `gemm_time` and `TimeTable` both call it.
    """
    grid = schedule(cols, shape, gpu, kind)
    efficiency = tensor_core_efficiency(cols, grid["resident"], gpu)
    loop = k_loop(cols, grid, efficiency, gpu)
    memory = memory_traffic(cols, grid, shape, gpu, warm_l2)
    fixed = kernel_fixed_costs(cols, shape, gpu, memory["bandwidth"])
    main = overlap(loop["main"], memory["sm_load"], memory["dram"])
    prologue = tile_fixed_costs(cols, grid, shape, gpu)
    fixup = stream_k_fixup(cols, grid, shape, gpu) if kind == "stream_k" else 0.0
    fill = fixed["drain"] + prologue
    total = fixed["launch"] + fill + main + fixed["reduction"] + fixup
    padded = (
        grid["tiles_m"]
        * cols["block_m"]
        * grid["tiles_n"]
        * cols["block_n"]
        * grid["k_iters"]
        * cols["block_k"]
        * cols["split_k"]
    )
    return dict(
        time=np.where(cols["launchable"], total, np.inf),
        main=main,
        compute=loop["compute"],
        latency=loop["latency"],
        sm_load=memory["sm_load"],
        dram=memory["dram"],
        reduction=fixed["reduction"] + fixup,
        fill=fill,
        blocks=grid["blocks"],
        waves=grid["waves"],
        padding_waste=1.0 - shape.M * shape.N * shape.K / padded,
        dram_bytes=memory["dram_bytes"] + fixed["reduce_bytes"],
        efficiency=efficiency,
    )


def _bound(values: Arrays, i: int) -> str:
    terms = {
        "compute": values["compute"][i],
        "latency": values["latency"][i],
        "sm_load": values["sm_load"][i],
        "dram": values["dram"][i],
    }
    return max(terms, key=lambda k: terms[k])


def gemm_time(config: GemmConfig, shape: Shape, gpu: GPU, kind: str = "waves", warm_l2: bool = False) -> GemmCost:
    """Return the modelled time of `config` on `shape` and `gpu`, with its breakdown (math.inf if unlaunchable)."""
    reason = gemm_config.launch_problem(config, gpu)
    cols = config_arrays([config], gpu)
    v = evaluate(cols, shape, gpu, kind, warm_l2)
    us = 1e6
    return GemmCost(
        time_us=float(v["time"][0] * us) if reason is None else math.inf,
        reason=reason,
        launch_us=gpu.launch_s * us,
        fill_us=float(np.broadcast_to(v["fill"], (1,))[0] * us),
        compute_us=float(v["compute"][0] * us),
        latency_us=float(v["latency"][0] * us),
        sm_load_us=float(v["sm_load"][0] * us),
        dram_us=float(v["dram"][0] * us),
        reduction_us=float(np.broadcast_to(v["reduction"], (1,))[0] * us),
        bound=_bound(v, 0),
        blocks=int(v["blocks"][0]),
        waves=int(v["waves"][0]),
        occupancy=int(cols["occupancy"][0]),
        padding_waste=float(v["padding_waste"][0]),
        dram_bytes=float(v["dram_bytes"][0]),
        efficiency=float(v["efficiency"][0]),
        schedule=kind,
    )


def schedules_line(config: GemmConfig, shape: Shape, gpu: GPU) -> str:
    """Return one line comparing the two SCHEDULES of `config` on `shape`: its blocks, the time with waves (and how
    many) and with stream-K (and its fix-up)."""
    waves, stream = (gemm_time(config, shape, gpu, kind=kind) for kind in SCHEDULES)
    return t(
        "gemmview.schedules_line",
        blocks=waves.blocks,
        waves_us=waves.time_us,
        waves=waves.waves,
        stream_us=stream.time_us,
        fixup_us=stream.reduction_us,
    )


def roofline_us(shape: Shape, gpu: GPU) -> float:
    """Return the roofline lower bound max(2MNK / peak, 2(MK + KN + MN) / bandwidth) in microseconds.

    No padding, no launch, the datasheet's peak and bandwidth: no config can beat it.
    """
    M, N, K = shape.M, shape.N, shape.K
    return max(2.0 * M * N * K / gpu.bf16_flops, 2.0 * (M * K + K * N + M * N) / gpu.hbm_bytes_per_s) * 1e6
