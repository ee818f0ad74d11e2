"""Triton-style GEMM tile configs, the config space and launchability (with the reason a launch fails).

A config fixes the block tile (BLOCK_M x BLOCK_N, stepping BLOCK_K along K), the warps per block, the software
pipeline depth (num_stages) and split-K (K cut into split_k slices whose partial sums are added afterwards).
Launchability uses the rules real autotuners prune with: shared memory `stages * (BM + BN) * BK * 2` bytes against
the per-block limit (Triton's `early_config_prune` in `python/triton/ops/matmul_perf_model.py`; its launch error is
`OutOfResources`), accumulator registers `ceil(BM * BN / (32 * warps))` plus a fixed overhead against 255 per thread,
and PyTorch Inductor's "each warp computes at least a 16x16 tile" (`_finalize_mm_configs`; notebook 07 cites both at a
commit). A real compiler can also fail for reasons the toy ignores (register allocation details, TMA alignment).
"""

from __future__ import annotations

import dataclasses
import itertools
import math

from toyhw.gemm.gpu import GPU
from toyhw.i18n import t

FIELDS: dict[str, tuple[int, ...]] = {
    "block_m": (16, 32, 64, 128, 256),
    "block_n": (16, 32, 64, 128, 256),
    "block_k": (32, 64, 128, 256),
    "num_warps": (2, 4, 8),
    "num_stages": (2, 3, 4, 5),
    "split_k": (1, 2, 4, 8),
}
BYTES_PER_ELEMENT = 2  # bf16 operands
REG_OVERHEAD = 40  # registers per thread besides the accumulator (addresses, loop state, fragments): a toy figure
MIN_WARP_TILE = 16 * 16  # accumulator elements per warp: Inductor caps warps at BM * BN // 256


@dataclasses.dataclass(frozen=True)
class GemmConfig:
    """One kernel configuration; every field must take one of its FIELDS values (else ValueError).

    Attributes:
        block_m: rows of C per block (BLOCK_M).
        block_n: columns of C per block (BLOCK_N).
        block_k: depth of one K step, elements (BLOCK_K).
        num_warps: warps per block (32 threads each).
        num_stages: software-pipeline depth: K steps whose operand tiles are in shared memory at once.
        split_k: number of K slices computed by separate blocks and reduced afterwards (1 = no split).
    """

    block_m: int = 64
    block_n: int = 64
    block_k: int = 64
    num_warps: int = 4
    num_stages: int = 3
    split_k: int = 1

    def __post_init__(self) -> None:
        for field, allowed in FIELDS.items():
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
                raise ValueError(f"GemmConfig.{field} = {value!r} is not allowed; allowed values: {list(allowed)}")
        # cached: the evolution loop hashes configs millions of times (dict lookups in TimeTable.time)
        object.__setattr__(self, "_hash", hash(dataclasses.astuple(self)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    def as_dict(self) -> dict[str, int]:
        """Return the fields as a plain dict (JSON-ready)."""
        return dataclasses.asdict(self)

    def short(self) -> str:
        """Return a compact label like "128x256x64 w8 s3 k1"."""
        return f"{self.block_m}x{self.block_n}x{self.block_k} w{self.num_warps} s{self.num_stages} k{self.split_k}"


def shared_memory_bytes(config: GemmConfig) -> int:
    """Return the shared memory one block needs: every stage holds an A tile and a B tile (bytes)."""
    return config.num_stages * (config.block_m + config.block_n) * config.block_k * BYTES_PER_ELEMENT


def registers_per_thread(config: GemmConfig) -> int:
    """Return the registers per thread: the fp32 accumulator spread over the block's threads, plus overhead."""
    return math.ceil(config.block_m * config.block_n / (32 * config.num_warps)) + REG_OVERHEAD


def launch_problem(config: GemmConfig, gpu: GPU) -> str | None:
    """Return None if `config` can launch on `gpu`, else the reason, worded like Triton's launch error."""
    smem = shared_memory_bytes(config)
    if smem > gpu.smem_per_block:
        return (
            f"out of resource: shared memory, Required: {smem}, Hardware limit: {gpu.smem_per_block}. "
            "Reducing block sizes or num_stages may help."
        )
    regs = registers_per_thread(config)
    if regs > gpu.max_regs_per_thread:
        return (
            f"out of resource: registers, Required: {regs} per thread, Hardware limit: {gpu.max_regs_per_thread}. "
            "Use more warps or a smaller block."
        )
    if config.block_m * config.block_n < MIN_WARP_TILE * config.num_warps:
        return (
            f"warp tiling: a {config.block_m}x{config.block_n} tile cannot give each of {config.num_warps} warps "
            "a 16x16 piece. Use fewer warps or a bigger block."
        )
    return None


def shared_memory_line(config: GemmConfig, gpu: GPU) -> str:
    """Return one line on `config`'s shared memory: its stages, its bytes, and whether it launches on `gpu` (else
    the reason, worded like Triton's launch error)."""
    verdict = launch_problem(config, gpu) or t("gemmview.launches")
    return t("gemmview.smem_line", stages=config.num_stages, bytes=shared_memory_bytes(config), verdict=verdict)


def problem_kind(reason: str | None) -> str | None:
    """Return "shared memory", "registers" or "warp tiling" for a launch_problem reason (None if launchable)."""
    if reason is None:
        return None
    for kind in ("shared memory", "registers", "warp tiling"):
        if kind in reason:
            return kind
    return "other"


_SPACE = tuple(GemmConfig(*values) for values in itertools.product(*FIELDS.values()))


def config_space() -> tuple[GemmConfig, ...]:
    """Return every config, in the fixed order of itertools.product over FIELDS (the last field varies fastest)."""
    return _SPACE
