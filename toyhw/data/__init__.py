"""Read the pack's small data files (the only module that opens `data/*.csv`), validated against one schema per file.

Every value the GEMM model takes from the real world sits in a versioned CSV with a source column, so a reader can
check it and a test can pin it. A silently mis-read constant would change every number of lecture 13 without anyone
noticing, so each file is checked when it is read, against its schema below (one `Column` per column: adding a column
is one line): the encoding (UTF-8), the header (every column present, none unknown or repeated), each row's field
count, each value's type and range (finite, and within physical bounds whose reason the error gives), unique keys, and
at least one row. A problem raises DataError (a ValueError) naming the file, the line and the column, e.g.
`gpus.csv, line 3, column 'hbm_tb_per_s': 'inf' must be a finite number >= 0.1 and <= 100 (...)`.

`data/gpus.csv` columns (one row per GPU):
    key                      short name used by `toyhw.gemm.gpu.get_gpu` ("H100", "H200", "A100", "L40S", "B200")
    model                    full product name ("H100 SXM5")
    sms                      streaming multiprocessors
    smem_per_sm_bytes        shared memory per SM, bytes
    smem_per_block_bytes     opt-in shared memory one thread block may use, bytes
    regs_per_sm              32-bit registers per SM
    max_regs_per_thread      registers one thread may use
    max_warps_per_sm         resident warps per SM
    hbm_tb_per_s             DRAM (HBM/GDDR) bandwidth, TB/s (10^12 bytes/s)
    bf16_dense_tflop_per_s   dense BF16 tensor-core peak, TFLOP/s (10^12 FLOP/s)
    l2_mb                    L2 cache, MB as NVIDIA and the CUDA device query write it: MiB (2^20 bytes)
    mma_min_rows             BLOCK_M below which the tensor cores run at the fallback rate (Hopper wgmma, Blackwell
                             tcgen05.mma: 64; 1 = no such rule)
    mma_min_warps            warps per block below which they do (Hopper's 4-warp warpgroup; 1 = no such rule)
    tc_sustained_share       sustained share of the dense peak on a long GEMM with the best tile (0-1, calibrated)
    hbm_achievable_share     share of the bandwidth a streaming kernel reaches (0-1, calibrated)
    load_latency_us          loaded global-memory latency, microseconds (calibrated)
    launch_us                GPU time of one kernel launch inside a CUDA graph, microseconds (calibrated)
    spec_source              where the datasheet figures come from
    calibration_source       where the calibrated figures come from (a published figure or a fit)

`data/llm_layers.csv` columns (one row per linear layer; C[M, N] = A[M, K] B[K, N], M = tokens):
    name        layer name as the lecture writes it ("70B/8 qkv" = Llama-3-70B at tensor-parallel 8)
    model       model name
    tp          tensor-parallel degree
    layer       qkv, o, gate_up or down
    n, k        GEMM N and K of one GPU's shard
    derivation  how N and K follow from the model's published dimensions

The other files' columns: see `measurement_rows`, `vllm_config_rows`, `kernelbench_rows`, `kernelbench_one_shot_rows`
and `paper_figures`.
"""

from __future__ import annotations

import pathlib
from functools import lru_cache
from typing import Optional

from toyhw.data.schema import Column, DataError, RowCheck, Value, read_table

__all__ = ["Column", "DataError", "read_table"]  # the schema's reader, re-exported: callers read data files here

DATA_DIR = pathlib.Path(__file__).resolve().parents[2] / "data"


def _count(name: str, low: int, high: int, why: str, **kw) -> Column:
    return Column(name, "int", low, high, why, **kw)


def _number(name: str, low: float, high: float, why: str, **kw) -> Column:
    return Column(name, "number", low, high, why, **kw)


GPU_COLUMNS: tuple[Column, ...] = (
    Column("key", unique=True),
    Column("model", unique=True),
    _count("sms", 1, 1_000, "streaming multiprocessors; real GPUs have 20 to 200"),
    _count("smem_per_sm_bytes", 1_024, 4 << 20, "bytes; real SMs have 64 KiB to 228 KiB"),
    _count("smem_per_block_bytes", 1_024, 4 << 20, "bytes; real blocks may use 48 KiB to 227 KiB"),
    _count("regs_per_sm", 1_024, 1 << 20, "32-bit registers; real SMs have 65,536"),
    _count("max_regs_per_thread", 16, 1_024, "registers; real GPUs allow 255"),
    _count("max_warps_per_sm", 1, 256, "warps; real SMs hold 32 to 64"),
    _number("hbm_tb_per_s", 0.1, 100, "TB/s; real GPUs have 0.3 to 8"),
    _number("bf16_dense_tflop_per_s", 1, 100_000, "TFLOP/s; real GPUs have 100 to 2,500"),
    _number("l2_mb", 0.1, 10_000, "MB; real GPUs have 6 to 130"),
    _count("mma_min_rows", 1, 256, "rows; 64 for wgmma and tcgen05.mma, 1 for no rule"),
    _count("mma_min_warps", 1, 32, "warps; 4 for Hopper's warpgroup, 1 for no rule"),
    _number("tc_sustained_share", 0.05, 1, "a share of the peak"),
    _number("hbm_achievable_share", 0.05, 1, "a share of the bandwidth"),
    _number("load_latency_us", 0.01, 100, "microseconds; real loaded latencies are 0.3 to 1"),
    _number("launch_us", 0.1, 1_000, "microseconds; a launch takes 1 to 10"),
    Column("spec_source"),
    Column("calibration_source"),
)
"""data/gpus.csv: one row per GPU (the module docstring says what each column means)."""

LAYER_COLUMNS: tuple[Column, ...] = (
    Column("name", unique=True),
    Column("model"),
    _count("tp", 1, 1_024, "tensor-parallel degree"),
    Column("layer"),
    _count("n", 1, 10_000_000, "elements; the largest Llama-3 layer has N = 106,496"),
    _count("k", 1, 10_000_000, "elements; the largest Llama-3 layer has K = 53,248"),
    Column("derivation"),
)
"""data/llm_layers.csv: one row per linear layer."""

KERNELBENCH_MODELS = ("llama_3_1_70b", "deepseek_v3", "deepseek_r1")
KERNELBENCH_COLUMNS: tuple[Column, ...] = (
    Column("method", unique=True),
    Column("toy_mode", choices=("one_shot", "resample", "scalar", "explain", "suggest")),
    *(
        _count(model, 0, 100, "a percentage; empty where the paper has no entry", optional=True)
        for model in KERNELBENCH_MODELS
    ),
    Column("source"),
)
"""data/kernelbench_table1.csv: KernelBench's Table 1 (see `kernelbench_rows`)."""

KERNELBENCH_LEVELS = ("level_1", "level_2", "level_3")
KERNELBENCH_FIGURE2_COLUMNS: tuple[Column, ...] = (
    Column("model", unique=True),
    *(_count(level, 0, 100, "a percentage", optional=True) for level in KERNELBENCH_LEVELS),
    Column("source"),
)
"""data/kernelbench_figure2.csv: KernelBench's one-shot baseline (see `kernelbench_one_shot_rows`)."""

PAPER_FIGURE_COLUMNS: tuple[Column, ...] = (
    Column("key", unique=True),
    Column("value", "figure", 1e-9, 1e12, "a positive figure quoted from a paper"),
    Column("source"),
)
"""data/paper_figures.csv: single figures the notebooks quote (see `paper_figures`)."""

MEASUREMENT_TIMINGS = ("graph", "trace", "per_call", "back_to_back", "unknown")
MEASUREMENT_COLUMNS: tuple[Column, ...] = (
    Column("id", unique=True),
    Column("gpu", optional=True),
    Column("gpu_as_stated"),
    *(_count(name, 1, 2**31 - 1, "elements of a GEMM dimension") for name in ("m", "n", "k")),
    Column("dtype", choices=("bf16", "fp16")),
    _number("measured_tflops", 0.001, 100_000, "TFLOP/s; real GEMMs reach 1 to 2,500", optional=True),
    _number("measured_us", 0.01, 1e9, "microseconds", optional=True),
    Column("primary", choices=("tflops", "us")),
    Column("library"),
    Column("timing", choices=MEASUREMENT_TIMINGS),
    Column("l2_flushed", choices=("yes", "no", "unknown")),
    Column("use", choices=("yes", "no")),
    Column("why_not_used", optional=True),
    Column("timing_notes"),
    Column("source"),
    Column("source_location"),
    Column("quote"),
    Column("notes", optional=True),
)
"""data/gemm_measurements.csv: published GEMM timings (see `measurement_rows`)."""

VLLM_COLUMNS: tuple[Column, ...] = (
    _count("m_key", 1, 2**31 - 1, "vLLM's key: a token count", unique=True),
    *(
        _count(name, 1, 1_024, "a tile size or count")
        for name in ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages")
    ),
    Column("file"),
    Column("vllm_release"),
    Column("source_location"),
)
"""data/vllm_moe_configs.csv: vLLM's tuned H100 configs (see `vllm_config_rows`)."""

SCHEMAS: dict[str, tuple[Column, ...]] = {
    "gpus.csv": GPU_COLUMNS,
    "llm_layers.csv": LAYER_COLUMNS,
    "kernelbench_table1.csv": KERNELBENCH_COLUMNS,
    "kernelbench_figure2.csv": KERNELBENCH_FIGURE2_COLUMNS,
    "paper_figures.csv": PAPER_FIGURE_COLUMNS,
    "gemm_measurements.csv": MEASUREMENT_COLUMNS,
    "vllm_moe_configs.csv": VLLM_COLUMNS,
}
"""Every data file and its schema."""


MODELLED_TIMINGS = ("graph", "trace", "per_call", "back_to_back")
"""The timing methods the GEMM model reproduces (toyhw.gemm.validate.TIMINGS): a used row must have one."""
TFLOPS_US_TOLERANCE = 0.01
"""How far measured_us may be from 2MNK / measured_tflops when a row gives both (the derived one is rounded)."""


def _measurement_rule(row: dict[str, Value]) -> Optional[tuple[str, str]]:
    if row[f"measured_{row['primary']}"] is None:
        return "primary", "names a column that is empty; it must name the one holding the source's number"
    if (row["use"] == "yes") == bool(row["why_not_used"]):
        return "use", "must be 'yes' (and why_not_used empty) or 'no' (with a reason in why_not_used)"
    gpu = row["gpu"]
    if gpu is not None:
        known = [str(r["key"]) for r in _cached("gpus.csv")]
        names = {name.lower() for r in _cached("gpus.csv") for name in (str(r["key"]), str(r["model"]))}
        if str(gpu).strip().lower() not in names:
            return "gpu", f"is not a GPU of data/gpus.csv; it must be one of {', '.join(known)}, or empty"
    if row["use"] == "yes" and gpu is None:
        return "gpu", (
            "is empty in a used row; the model is validated only on a GPU of data/gpus.csv (or set use to "
            "'no' with a reason)"
        )
    if row["use"] == "yes" and row["timing"] not in MODELLED_TIMINGS:
        return "timing", (
            f"cannot be modelled in a used row; it must be one of {', '.join(MODELLED_TIMINGS)} (or set "
            "use to 'no' with a reason)"
        )
    tflops, us = row["measured_tflops"], row["measured_us"]
    if tflops is not None and us is not None:
        derived = 2e-6 * row["m"] * row["n"] * row["k"] / float(tflops)  # type: ignore[operator]
        if abs(derived / float(us) - 1.0) > TFLOPS_US_TOLERANCE:
            return "measured_us", (
                f"disagrees with measured_tflops = {tflops}: 2MNK / measured_tflops gives "
                f"{derived:,.3f} us (at most {TFLOPS_US_TOLERANCE:.0%} apart, for rounding)"
            )
    return None


_ROW_CHECKS: dict[str, RowCheck] = {"gemm_measurements.csv": _measurement_rule}


@lru_cache(maxsize=None)
def _cached(name: str) -> tuple[dict[str, Value], ...]:
    return tuple(read_table(DATA_DIR / name, SCHEMAS[name], _ROW_CHECKS.get(name)))


def gpu_rows() -> list[dict[str, Value]]:
    """Return the rows of data/gpus.csv (converted, in file order)."""
    return [dict(r) for r in _cached("gpus.csv")]


def layer_rows() -> list[dict[str, Value]]:
    """Return the rows of data/llm_layers.csv (converted, in file order)."""
    return [dict(r) for r in _cached("llm_layers.csv")]


def measurement_rows() -> list[dict[str, Value]]:
    """Return data/gemm_measurements.csv: published timings of single BF16/FP16 GEMMs, each with its source.

    Columns: id; gpu (a key of data/gpus.csv, or None when the measured GPU is not one of the pack's); gpu_as_stated
    (the source's words); m, n, k (C[M, N] = A[M, K] B[K, N]); dtype; measured_tflops and measured_us (the source
    printed the one named in `primary`, the other is derived with 2MNK / t; None when empty); library; timing (how it
    was timed: "graph" = inside a CUDA graph, "trace" = kernel duration from a profiler, "per_call" = CUDA events
    around each call, "back_to_back" = events around a run of calls, "unknown"); l2_flushed (yes / no / unknown); use
    ("yes" if the model is validated against it) and why_not_used; timing_notes, source, source_location, quote, notes
    (provenance).
    """
    return [dict(r) for r in _cached("gemm_measurements.csv")]


def vllm_config_rows() -> list[dict[str, Value]]:
    """Return data/vllm_moe_configs.csv: vLLM's tuned H100 Triton configs of one fused-MoE config file, per M key.

    Columns: m_key (vLLM's key: a token count); block_m, block_n, block_k, group_m, num_warps, num_stages (the file's
    BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, num_warps, num_stages); file, vllm_release,
    source_location (provenance). Keys are unique and ascending, as in the file.
    """
    rows = [dict(r) for r in _cached("vllm_moe_configs.csv")]
    keys = [r["m_key"] for r in rows]
    if keys != sorted(keys):  # type: ignore[type-var]
        raise DataError(
            f"vllm_moe_configs.csv: column 'm_key' must hold ascending keys, as vLLM's file does; got {keys}"
        )
    return rows


def kernelbench_rows() -> list[dict[str, Value]]:
    """Return KernelBench's Table 1 (Level 2, fast_1 in %, 10 calls) from data/kernelbench_table1.csv.

    Source: arXiv 2502.10517v1, Table 1 (section 5.1.3). Columns: method (the paper's row), toy_mode (the lecture-10
    mode it corresponds to), one column per model in KERNELBENCH_MODELS (a percentage 0..100, or empty where the paper
    has no entry: None), source.
    """
    return [dict(r) for r in _cached("kernelbench_table1.csv")]


def kernelbench_one_shot_rows() -> list[dict[str, Value]]:
    """Return KernelBench's one-shot baseline (fast_1 over PyTorch Eager in %) from data/kernelbench_figure2.csv.

    Source: arXiv 2502.10517v1, Figure 2 (section 4.1), greedy decoding on an NVIDIA L40S. Columns: model, one column
    per level in KERNELBENCH_LEVELS (a percentage 0..100), source.
    """
    return [dict(r) for r in _cached("kernelbench_figure2.csv")]


def paper_figures() -> dict[str, float]:
    """Return the single figures the notebooks quote from papers, by key, from data/paper_figures.csv.

    Columns: key, value (a positive number; an int when written without a decimal point), source (paper, version and
    the place in it). Kept here, not in prose, so that every number a notebook states comes from a file with a source.
    """
    return {str(r["key"]): r["value"] for r in _cached("paper_figures.csv")}  # type: ignore[misc]
