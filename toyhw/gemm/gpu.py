"""GPU specifications for the GEMM cost model (figures from data/gpus.csv, sources there).

A real GPU has many more limits (TMA multicast, clusters, per-instruction latencies); the toy keeps only what the GEMM
model uses: SM count, shared memory and registers (launchability and occupancy), HBM bandwidth and BF16 peak (the
roofline), L2 size and whether the tensor cores want 64-row warpgroup tiles (datasheet figures), plus four calibrated
figures: the sustained share of the peak (clocks under power limits), the achievable share of the bandwidth, the
loaded memory latency and the launch cost inside a CUDA graph.
"""

from __future__ import annotations

import dataclasses

from toyhw import data
from toyhw.checks import UnknownNameError


@dataclasses.dataclass(frozen=True)
class GPU:
    """One GPU as the GEMM model sees it.

    Attributes:
        name: short key ("H100").
        model: full product name ("H100 SXM5").
        sms: streaming multiprocessors (blocks are scheduled over these in waves).
        smem_per_sm: shared memory per SM, bytes (bounds how many blocks can be resident).
        smem_per_block: opt-in shared memory one block may use, bytes (over it a launch fails).
        regs_per_sm: 32-bit registers per SM.
        max_regs_per_thread: registers one thread may use (the accumulator must fit under it).
        max_warps_per_sm: resident warps per SM.
        hbm_bytes_per_s: DRAM bandwidth, bytes/s.
        bf16_flops: dense BF16 tensor-core peak, FLOP/s.
        l2_bytes: L2 cache size, bytes.
        mma_min_rows, mma_min_warps: the small-tile MMA rule: a block with BLOCK_M under mma_min_rows or fewer warps
            than mma_min_warps runs its tensor cores at the fallback rate (Hopper's wgmma needs 64 rows and a
            4-warp warpgroup; Blackwell's tcgen05.mma needs 64 rows and is issued by one thread; 1 = no rule).
        tc_sustained_share: the share of the dense peak the tensor cores sustain on a long GEMM with the best tile
            (clock and power limits), 0-1.
        hbm_achievable_share: the share of the datasheet bandwidth a streaming kernel reaches, 0-1.
        load_latency_s: one global load, issue to use, on a loaded GPU, seconds (what the pipeline must hide).
        launch_s: GPU time of one kernel launch inside a CUDA graph, seconds.
        spec_source: where the datasheet figures come from.
        calibration_source: where the four calibrated figures come from (a published figure, or a fit to
            data/gemm_measurements.csv).
    """

    name: str
    model: str
    sms: int
    smem_per_sm: int
    smem_per_block: int
    regs_per_sm: int
    max_regs_per_thread: int
    max_warps_per_sm: int
    hbm_bytes_per_s: float
    bf16_flops: float
    l2_bytes: float
    mma_min_rows: int
    mma_min_warps: int
    tc_sustained_share: float
    hbm_achievable_share: float
    load_latency_s: float
    launch_s: float
    spec_source: str
    calibration_source: str

    @property
    def achievable_bytes_per_s(self) -> float:
        """Return the bandwidth a streaming kernel reaches, bytes/s (hbm_bytes_per_s x hbm_achievable_share)."""
        return self.hbm_bytes_per_s * self.hbm_achievable_share

    @property
    def ridge_flop_per_byte(self) -> float:
        """Return peak FLOP/s over bandwidth: the arithmetic intensity where a GEMM turns compute-bound (FLOP/byte)."""
        return self.bf16_flops / self.hbm_bytes_per_s


def _from_row(row: dict[str, object]) -> GPU:
    return GPU(
        name=str(row["key"]),
        model=str(row["model"]),
        sms=int(row["sms"]),
        smem_per_sm=int(row["smem_per_sm_bytes"]),
        smem_per_block=int(row["smem_per_block_bytes"]),
        regs_per_sm=int(row["regs_per_sm"]),
        max_regs_per_thread=int(row["max_regs_per_thread"]),
        max_warps_per_sm=int(row["max_warps_per_sm"]),
        hbm_bytes_per_s=float(row["hbm_tb_per_s"]) * 1e12,
        bf16_flops=float(row["bf16_dense_tflop_per_s"]) * 1e12,
        l2_bytes=float(row["l2_mb"]) * 2**20,  # an L2 "MB" is MiB, as the device query prints it (data/gpus.csv)
        mma_min_rows=int(row["mma_min_rows"]),
        mma_min_warps=int(row["mma_min_warps"]),
        tc_sustained_share=float(row["tc_sustained_share"]),
        hbm_achievable_share=float(row["hbm_achievable_share"]),
        load_latency_s=float(row["load_latency_us"]) * 1e-6,
        launch_s=float(row["launch_us"]) * 1e-6,
        spec_source=str(row["spec_source"]),
        calibration_source=str(row["calibration_source"]),
    )


def _all() -> dict[str, GPU]:
    return {str(row["key"]): _from_row(row) for row in data.gpu_rows()}


def gpu_names() -> list[str]:
    """Return the known GPU keys in file order (H100 first: the default)."""
    return list(_all())


def get_gpu(name: str = "H100") -> GPU:
    """Return the GPU called `name` (its key or full model name, any case); UnknownNameError (a KeyError and a
    ValueError) lists the known ones."""
    gpus = _all()
    if isinstance(name, str):
        for gpu in gpus.values():
            if name.strip().lower() in (gpu.name.lower(), gpu.model.lower()):
                return gpu
    raise UnknownNameError(f"unknown GPU {name!r}; known GPUs: {', '.join(gpus)}")
