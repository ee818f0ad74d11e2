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
    launch_us                GPU time of an empty kernel launch, microseconds
    warpgroup_mma            1 if the tensor cores want 64-row warpgroup tiles (Hopper wgmma, Blackwell), else 0
    source                   where the figures come from

`data/llm_layers.csv` columns (one row per linear layer; C[M, N] = A[M, K] B[K, N], M = tokens):
    name        layer name as the lecture writes it ("70B/8 qkv" = Llama-3-70B at tensor-parallel 8)
    model       model name
    tp          tensor-parallel degree
    layer       qkv, o, gate_up or down
    n, k        GEMM N and K of one GPU's shard
    derivation  how N and K follow from the model's published dimensions

`data/kernelbench_table1.csv` columns: see `kernelbench_rows`.
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
from typing import Optional, Union

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
        kind: "text" (not empty), "int" or "number" (a finite float).
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
        what = {"text": "a non-empty text", "int": "an integer", "number": "a finite number"}[self.kind]
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
        elif self.kind == "int":
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
    _number("launch_us", 0.1, 1_000, "microseconds; an empty launch takes 2 to 10"),
    _count("warpgroup_mma", 0, 1, "1 for 64-row warpgroup tensor-core tiles, else 0"),
    Column("source"),
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

SCHEMAS: dict[str, tuple[Column, ...]] = {
    "gpus.csv": GPU_COLUMNS,
    "llm_layers.csv": LAYER_COLUMNS,
    "kernelbench_table1.csv": KERNELBENCH_COLUMNS,
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


def read_table(path: pathlib.Path, columns: tuple[Column, ...]) -> list[dict[str, Value]]:
    """Return the rows of the CSV at `path`, each value converted by its column; raise DataError naming file, line
    and column for anything the schema does not allow (see the module docstring)."""
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
            rows.append({c.name: row[c.name] for c in columns})
    except csv.Error as err:
        raise DataError(f"{name}, line {reader.line_num}: not a readable CSV row ({err})") from None
    if not rows:
        raise DataError(f"{name}: no rows under the header; the file needs at least one")
    return rows


@lru_cache(maxsize=None)
def _cached(name: str) -> tuple[dict[str, Value], ...]:
    return tuple(read_table(DATA_DIR / name, SCHEMAS[name]))


def gpu_rows() -> list[dict[str, Value]]:
    """Return the rows of data/gpus.csv (converted, in file order)."""
    return [dict(r) for r in _cached("gpus.csv")]


def layer_rows() -> list[dict[str, Value]]:
    """Return the rows of data/llm_layers.csv (converted, in file order)."""
    return [dict(r) for r in _cached("llm_layers.csv")]


def kernelbench_rows() -> list[dict[str, Value]]:
    """Return KernelBench's Table 1 (Level 2, fast_1 in %, 10 calls) from data/kernelbench_table1.csv.

    Columns: method (the paper's row), toy_mode (the lecture-10 mode it corresponds to), one column per model in
    KERNELBENCH_MODELS (a percentage 0..100, or empty where the paper has no entry: None), source.
    """
    return [dict(r) for r in _cached("kernelbench_table1.csv")]
