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

The other files' columns: see `measurement_rows`, `vllm_config_rows`, `kernelbench_rows`, `kernelbench_one_shot_rows`
and `paper_figures`.
"""
from __future__ import annotations

import csv
import difflib
import io
import math
import pathlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional, Union

DATA_DIR = pathlib.Path(__file__).resolve().parents[1] / "data"
Value = Union[str, int, float, None]
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


class DataError(ValueError):
    """A data file that cannot be trusted: the message names the file, the line and the column."""


@dataclass(frozen=True)
class Column:
    """One column of a data file and what its values may be.

    Attributes:
        name: the header's name for it.
        kind: "text" (not empty), "int", "number" (a finite float) or "figure" (a finite number, an int when written
            without a decimal point).
        low, high: inclusive bounds of a number (None: unbounded); physical quantities get bounds a real value never
            leaves, so a unit slip (bytes for KiB, GB/s for TB/s) or a typo is refused instead of modelled.
        why: the bounds' reason, quoted in the error.
        optional: an empty field is allowed and read as None.
        unique: no two rows may hold the same value (text compared ignoring case: lookups ignore it too).
        choices: the only allowed texts (empty: any).
    """

    name: str
    kind: str = "text"
    low: Optional[float] = None
    high: Optional[float] = None
    why: str = ""
    optional: bool = False
    unique: bool = False
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        """Return what a value of this column must be, as the end of an error sentence."""
        if self.choices:
            return f"must be one of {', '.join(self.choices)}"
        what = {"text": "a non-empty text", "int": "an integer", "number": "a finite number",
                "figure": "a finite number"}[self.kind]
        bounds = [f">= {_show(self.low)}" if self.low is not None else "",
                  f"<= {_show(self.high)}" if self.high is not None else ""]
        text = f"must be {what} " + " and ".join(b for b in bounds if b)
        text = text.rstrip() + (f" ({self.why})" if self.why else "")
        return text + (" or empty" if self.optional else "")

    def convert(self, text: str) -> Value:
        """Return the value of `text` (stripped), or raise ValueError with `allowed()` as its message."""
        if not text:
            if self.optional:
                return None
            raise ValueError(self.allowed())
        value: Value
        if self.kind == "text":
            value = text
            ok = not self.choices or text in self.choices
        elif self.kind == "int" or (self.kind == "figure" and _INTEGER.fullmatch(text)):
            ok = _INTEGER.fullmatch(text) is not None  # int() would also take "1_000" and non-ASCII digits
            value = int(text) if ok else None
        else:
            ok = _NUMBER.fullmatch(text) is not None  # float() would also take "1_000", "١٢", "inf" and "nan"
            value = float(text) if ok else None
            ok = ok and math.isfinite(value)  # type: ignore[arg-type]  # 1e999 overflows to inf
        if ok and self.kind != "text":
            ok = (self.low is None or value >= self.low) and (self.high is None or value <= self.high)  # type: ignore
        if not ok:
            raise ValueError(self.allowed())
        return value


def _show(bound: float) -> str:
    return f"{bound:,.0f}" if float(bound).is_integer() else f"{bound:g}"


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
    _count("warpgroup_mma", 0, 1, "1 for 64-row warpgroup tensor-core tiles, else 0"),
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
    *(_count(model, 0, 100, "a percentage; empty where the paper has no entry", optional=True)
      for model in KERNELBENCH_MODELS),
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
    *(_count(name, 1, 1_024, "a tile size or count") for name in ("block_m", "block_n", "block_k", "group_m",
                                                                  "num_warps", "num_stages")),
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


def _decode(path: pathlib.Path) -> str:
    """Return the file's text; refuse bytes that are not UTF-8, naming the line and the byte's position in it."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise DataError(f"{path.name}, line {line}: byte 0x{raw[err.start]:02x} at position {column} is not UTF-8; "
                        "save the file as UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text  # a byte-order mark some editors write


def _header(where: str, fields: list[str], columns: tuple[Column, ...]) -> None:
    expected = [c.name for c in columns]
    repeated = sorted({f for f in fields if fields.count(f) > 1})
    if repeated:
        raise DataError(f"{where}: column(s) {', '.join(map(repr, repeated))} appear more than once; "
                        f"expected the columns {', '.join(expected)}")
    unknown = [f for f in fields if f not in expected]
    missing = [c for c in expected if c not in fields]
    if unknown or missing:
        hints = []
        for f in unknown:
            close = difflib.get_close_matches(f, missing, n=1)
            hints.append(f"{f!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        parts = ([f"unknown column(s) {', '.join(hints)}"] if unknown else []) + (
            [f"missing column(s) {', '.join(map(repr, missing))}"] if missing else [])
        raise DataError(f"{where}: {'; '.join(parts)}; expected the columns {', '.join(expected)}")


RowCheck = Callable[[dict[str, Value]], Optional[tuple[str, str]]]
"""A rule across a row's columns: None when the row is fine, else (the column to blame, why)."""


def read_table(path: pathlib.Path, columns: tuple[Column, ...],
               check_row: Optional[RowCheck] = None) -> list[dict[str, Value]]:
    """Return the rows of the CSV at `path`, each value converted by its column; raise DataError naming file, line
    and column for anything the schema does not allow (see the module docstring) or `check_row` refuses."""
    name = path.name
    reader = csv.reader(io.StringIO(_decode(path), newline=""))
    by_name = {c.name: c for c in columns}
    rows: list[dict[str, Value]] = []
    seen: dict[str, dict[object, int]] = {c.name: {} for c in columns if c.unique}
    try:
        header = next((record for record in reader if any(f.strip() for f in record)), None)  # blank lines skipped
        if header is None:
            raise DataError(f"{name}: the file is empty; expected a header line with the columns "
                            f"{', '.join(by_name)}")
        fields = [f.strip() for f in header]
        _header(f"{name}, line {reader.line_num}", fields, columns)
        for record in reader:
            line = reader.line_num
            if not record or not any(f.strip() for f in record):
                continue  # a blank line
            if len(record) != len(fields):
                raise DataError(f"{name}, line {line}: {len(record)} fields, expected {len(fields)} (one per column; "
                                "quote a value that contains a comma)")
            row: dict[str, Value] = {}
            for field, text in zip(fields, record):
                column = by_name[field]
                try:
                    value = column.convert(text.strip())
                except ValueError as err:
                    raise DataError(f"{name}, line {line}, column {field!r}: {text.strip()!r} {err}") from None
                if column.unique:
                    key = value.casefold() if isinstance(value, str) else value
                    first = seen[field].setdefault(key, line)
                    if first != line:
                        raise DataError(f"{name}, line {line}, column {field!r}: {value!r} is already on line "
                                        f"{first}; each row needs its own {field}")
                row[field] = value
            problem = check_row(row) if check_row is not None else None
            if problem is not None:
                column_name, why = problem
                raise DataError(f"{name}, line {line}, column {column_name!r}: {row[column_name]!r} {why}")
            rows.append({c.name: row[c.name] for c in columns})
    except csv.Error as err:
        raise DataError(f"{name}, line {reader.line_num}: not a readable CSV row ({err})") from None
    if not rows:
        raise DataError(f"{name}: no rows under the header; the file needs at least one")
    return rows


def _measurement_rule(row: dict[str, Value]) -> Optional[tuple[str, str]]:
    if row[f"measured_{row['primary']}"] is None:
        return "primary", "names a column that is empty; it must name the one holding the source's number"
    if (row["use"] == "yes") == bool(row["why_not_used"]):
        return "use", "must be 'yes' (and why_not_used empty) or 'no' (with a reason in why_not_used)"
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
        raise DataError(f"vllm_moe_configs.csv: column 'm_key' must hold ascending keys, as vLLM's file does; got "
                        f"{keys}")
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
