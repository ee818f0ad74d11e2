"""Read the pack's small data files (the only module that opens `data/*.csv`).

Every value the GEMM model takes from the real world sits in a versioned CSV with a source column, so a reader can
check it and a test can pin it. A malformed row is refused with a ValueError naming the file, the line and the column:
a silently mis-read constant would change every number of lecture 13 without anyone noticing.

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
    l2_mb                    L2 cache, MB (10^6 bytes)
    warpgroup_mma            1 if the tensor cores want 64-row warpgroup tiles (Hopper wgmma, Blackwell), else 0
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
"""
from __future__ import annotations

import csv
import pathlib
from functools import lru_cache
from typing import Callable

DATA_DIR = pathlib.Path(__file__).resolve().parents[1] / "data"

GPU_COLUMNS: dict[str, Callable[[str], object]] = {
    "key": str, "model": str, "sms": int, "smem_per_sm_bytes": int, "smem_per_block_bytes": int, "regs_per_sm": int,
    "max_regs_per_thread": int, "max_warps_per_sm": int, "hbm_tb_per_s": float, "bf16_dense_tflop_per_s": float,
    "l2_mb": float, "warpgroup_mma": int, "tc_sustained_share": float, "hbm_achievable_share": float,
    "load_latency_us": float, "launch_us": float, "spec_source": str, "calibration_source": str,
}
LAYER_COLUMNS: dict[str, Callable[[str], object]] = {
    "name": str, "model": str, "tp": int, "layer": str, "n": int, "k": int, "derivation": str,
}


def read_table(path: pathlib.Path, columns: dict[str, Callable[[str], object]]) -> list[dict[str, object]]:
    """Return the rows of the CSV at `path` converted by `columns`; raise ValueError naming file, line and column.

    Numbers must be positive (every column here is a size, a count or a rate) and text must not be empty.
    """
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [c for c in columns if c not in header]
        if missing:
            raise ValueError(f"{path.name}, line 1: missing column(s) {', '.join(missing)}; expected {list(columns)}")
        rows = []
        for row in reader:
            line = reader.line_num
            if None in row or any(v is None for v in row.values()):
                raise ValueError(f"{path.name}, line {line}: expected {len(header)} fields, got a different number")
            out: dict[str, object] = {}
            for column, convert in columns.items():
                text = row[column].strip()
                try:
                    value = convert(text)
                except ValueError:
                    raise ValueError(
                        f"{path.name}, line {line}, column {column!r}: {text!r} is not a valid {convert.__name__}"
                    ) from None
                if convert is str and not value:
                    raise ValueError(f"{path.name}, line {line}, column {column!r}: empty")
                if convert is not str and not value > 0 and column != "warpgroup_mma":
                    raise ValueError(f"{path.name}, line {line}, column {column!r}: {text!r} must be > 0")
                out[column] = value
            rows.append(out)
    return rows


@lru_cache(maxsize=None)
def _cached(name: str) -> tuple[dict[str, object], ...]:
    columns = GPU_COLUMNS if name == "gpus.csv" else LAYER_COLUMNS
    return tuple(read_table(DATA_DIR / name, columns))


def gpu_rows() -> list[dict[str, object]]:
    """Return the rows of data/gpus.csv (converted, in file order)."""
    return [dict(r) for r in _cached("gpus.csv")]


def layer_rows() -> list[dict[str, object]]:
    """Return the rows of data/llm_layers.csv (converted, in file order)."""
    return [dict(r) for r in _cached("llm_layers.csv")]


MEASUREMENT_TIMINGS = ("graph", "trace", "per_call", "back_to_back", "unknown")


def measurement_rows() -> list[dict[str, object]]:
    """Return data/gemm_measurements.csv: published timings of single BF16/FP16 GEMMs, each with its source.

    Columns: id; gpu (a key of data/gpus.csv, or empty when the measured GPU is not one of the pack's); gpu_as_stated
    (the source's words); m, n, k (C[M, N] = A[M, K] B[K, N]); dtype; measured_tflops and measured_us (the source
    printed the one named in `primary`, the other is derived with 2MNK / t); library; timing (how it was timed:
    "graph" = inside a CUDA graph, "trace" = kernel duration from a profiler, "per_call" = CUDA events around each
    call, "back_to_back" = events around a run of calls, "unknown"); l2_flushed (yes / no / unknown); use ("yes" if the
    model is validated against it) and why_not_used; timing_notes, source, source_location, quote, notes (provenance).
    A malformed row is refused with the file, line and column.
    """
    path = DATA_DIR / "gemm_measurements.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = []
        for row in reader:
            line = reader.line_num

            def fail(column: str, why: str) -> ValueError:
                return ValueError(f"{path.name}, line {line}, column {column!r}: {row.get(column)!r} {why}")

            out: dict[str, object] = dict(row)
            for column in ("m", "n", "k"):
                if not (row[column] or "").isdigit() or int(row[column]) < 1:
                    raise fail(column, "is not an integer >= 1")
                out[column] = int(row[column])
            for column in ("measured_tflops", "measured_us"):
                text = (row[column] or "").strip()
                try:
                    value = float(text) if text else None
                except ValueError:
                    raise fail(column, "is not a number") from None
                if value is not None and not (value > 0 and value < float("inf")):
                    raise fail(column, "must be a finite number > 0")
                out[column] = value
            primary = f"measured_{row['primary']}"
            if primary not in ("measured_tflops", "measured_us") or out[primary] is None:
                raise fail("primary", "must be 'tflops' or 'us', naming a column that holds the source's number")
            if row["timing"] not in MEASUREMENT_TIMINGS:
                raise fail("timing", f"is not one of {list(MEASUREMENT_TIMINGS)}")
            if row["use"] not in ("yes", "no") or (row["use"] == "yes") == bool(row["why_not_used"]):
                raise fail("use", "must be 'yes' (and why_not_used empty) or 'no' (with a reason in why_not_used)")
            if not row["source"] or not row["quote"]:
                raise fail("source", "needs a source and a quote")
            rows.append(out)
    return rows


def vllm_config_rows() -> list[dict[str, object]]:
    """Return data/vllm_moe_configs.csv: vLLM's tuned H100 Triton configs of one fused-MoE config file, per M key.

    Columns: m_key (vLLM's key: a token count); block_m, block_n, block_k, group_m, num_warps, num_stages (the file's
    BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, num_warps, num_stages); file, vllm_release,
    source_location (provenance). Keys are unique and ascending, as in the file.
    """
    path = DATA_DIR / "vllm_moe_configs.csv"
    columns = {"m_key": int, "block_m": int, "block_n": int, "block_k": int, "group_m": int, "num_warps": int,
               "num_stages": int, "file": str, "vllm_release": str, "source_location": str}
    rows = read_table(path, columns)
    keys = [int(r["m_key"]) for r in rows]
    if keys != sorted(set(keys)):
        raise ValueError(f"{path.name}: column 'm_key' must hold unique keys in ascending order, got {keys}")
    return rows


KERNELBENCH_MODELS = ("llama_3_1_70b", "deepseek_v3", "deepseek_r1")
KERNELBENCH_LEVELS = ("level_1", "level_2", "level_3")


def _percentages(name: str, keys: tuple[str, ...], columns: tuple[str, ...]) -> list[dict[str, object]]:
    """Return the rows of data/`name`: text `keys` as read, each of `columns` a percentage 0..100 (None if empty)."""
    path = DATA_DIR / name
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = []
        for row in reader:
            out: dict[str, object] = {key: row[key] for key in keys}
            for column in columns:
                text = (row.get(column) or "").strip()
                if text and not (text.isdigit() and 0 <= int(text) <= 100):
                    raise ValueError(f"{path.name}, line {reader.line_num}, column {column!r}: {text!r} is not a "
                                     "percentage 0..100 (or empty for no entry)")
                out[column] = int(text) if text else None
            rows.append(out)
    return rows


def kernelbench_rows() -> list[dict[str, object]]:
    """Return KernelBench's Table 1 (Level 2, fast_1 in %, 10 calls) from data/kernelbench_table1.csv.

    Source: arXiv 2502.10517v1, Table 1 (section 5.1.3). Columns: method (the paper's row), toy_mode (the lecture-10
    mode it corresponds to), one column per model in KERNELBENCH_MODELS (a percentage 0..100, or empty where the paper
    has no entry: None), source.
    """
    return _percentages("kernelbench_table1.csv", ("method", "toy_mode", "source"), KERNELBENCH_MODELS)


def kernelbench_one_shot_rows() -> list[dict[str, object]]:
    """Return KernelBench's one-shot baseline (fast_1 over PyTorch Eager in %) from data/kernelbench_figure2.csv.

    Source: arXiv 2502.10517v1, Figure 2 (section 4.1), greedy decoding on an NVIDIA L40S. Columns: model, one column
    per level in KERNELBENCH_LEVELS (a percentage 0..100), source.
    """
    return _percentages("kernelbench_figure2.csv", ("model", "source"), KERNELBENCH_LEVELS)


def paper_figures() -> dict[str, float]:
    """Return the single figures the notebooks quote from papers, by key, from data/paper_figures.csv.

    Columns: key, value (a positive number; an int when written without a decimal point), source (paper, version and
    the place in it). Kept here, not in prose, so that every number a notebook states comes from a file with a source.
    """
    path = DATA_DIR / "paper_figures.csv"
    figures: dict[str, float] = {}
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            text = (row.get("value") or "").strip()
            try:
                value = int(text) if text.isdigit() else float(text)
            except ValueError:
                raise ValueError(f"{path.name}, line {reader.line_num}, column 'value': {text!r} is not a number") from None
            if not value > 0 or not (row.get("source") or "").strip():
                raise ValueError(f"{path.name}, line {reader.line_num}: value must be > 0 and the source not empty")
            figures[row["key"]] = value
    return figures
