"""Read a CSV file against a declared schema: one `Column` per column, every cell checked, errors that point at it.

Why not pandas.read_csv or a schema library: read_csv guesses types and reports a bad cell without its line and
column, and a schema package would be one more dependency for a few small files; the csv module and this reader do both.

Why a module of its own: the pack's data files (toyhw.data declares their schemas) are small but every number in them
ends up in a lecture, so the reader refuses anything it cannot trust - bytes that are not UTF-8, a misspelled, missing
or repeated column, a row with the wrong number of fields, a value of the wrong type or outside its physical bounds,
a repeated key, an empty file, a quote left open (a file cut inside a quoted field: the csv module, unless strict,
would read the rest as the field's text) - with a DataError that names the file, the line and the column. Generic: it
knows no file of the pack.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import pathlib
import re
from dataclasses import dataclass
from typing import Callable, Optional, Union

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
        what = {
            "text": "a non-empty text",
            "int": "an integer",
            "number": "a finite number",
            "figure": "a finite number",
        }[self.kind]
        bounds = [
            f">= {_show(self.low)}" if self.low is not None else "",
            f"<= {_show(self.high)}" if self.high is not None else "",
        ]
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


def _decode(path: pathlib.Path) -> str:
    """Return the file's text; refuse bytes that are not UTF-8, naming the line and the byte's position in it."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise DataError(
            f"{path.name}: cannot read {path} ({err.strerror or err}); the pack's data files are in its data/ folder"
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise DataError(
            f"{path.name}, line {line}: byte 0x{raw[err.start]:02x} at position {column} is not UTF-8; "
            "save the file as UTF-8"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text  # a byte-order mark some editors write


def _header(where: str, fields: list[str], columns: tuple[Column, ...]) -> None:
    expected = [c.name for c in columns]
    repeated = sorted({f for f in fields if fields.count(f) > 1})
    if repeated:
        raise DataError(
            f"{where}: column(s) {', '.join(map(repr, repeated))} appear more than once; "
            f"expected the columns {', '.join(expected)}"
        )
    unknown = [f for f in fields if f not in expected]
    missing = [c for c in expected if c not in fields]
    if unknown or missing:
        hints = []
        for f in unknown:
            close = difflib.get_close_matches(f, missing, n=1)
            hints.append(f"{f!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        parts = ([f"unknown column(s) {', '.join(hints)}"] if unknown else []) + (
            [f"missing column(s) {', '.join(map(repr, missing))}"] if missing else []
        )
        raise DataError(f"{where}: {'; '.join(parts)}; expected the columns {', '.join(expected)}")


RowCheck = Callable[[dict[str, Value]], Optional[tuple[str, str]]]
"""A rule across a row's columns: None when the row is fine, else (the column to blame, why)."""


def read_table(
    path: pathlib.Path, columns: tuple[Column, ...], check_row: Optional[RowCheck] = None
) -> list[dict[str, Value]]:
    """Return the rows of the CSV at `path`, each value converted by its column; raise DataError naming file, line
    and column for anything the schema does not allow (see the module docstring) or `check_row` refuses."""
    name = path.name
    reader = csv.reader(io.StringIO(_decode(path), newline=""), strict=True)
    by_name = {c.name: c for c in columns}
    rows: list[dict[str, Value]] = []
    seen: dict[str, dict[object, int]] = {c.name: {} for c in columns if c.unique}
    line = 0  # the last line of the last row read: the next row starts on the line after it
    try:
        header = next((record for record in reader if any(f.strip() for f in record)), None)  # blank lines skipped
        if header is None:
            raise DataError(f"{name}: the file is empty; expected a header line with the columns {', '.join(by_name)}")
        fields = [f.strip() for f in header]
        _header(f"{name}, line {reader.line_num}", fields, columns)
        line = reader.line_num
        for record in reader:
            line = reader.line_num
            if not record or not any(f.strip() for f in record):
                continue  # a blank line
            if len(record) != len(fields):
                raise DataError(
                    f"{name}, line {line}: {len(record)} fields, expected {len(fields)} (one per column; "
                    "quote a value that contains a comma)"
                )
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
                        raise DataError(
                            f"{name}, line {line}, column {field!r}: {value!r} is already on line "
                            f"{first}; each row needs its own {field}"
                        )
                row[field] = value
            problem = check_row(row) if check_row is not None else None
            if problem is not None:
                column_name, why = problem
                raise DataError(f"{name}, line {line}, column {column_name!r}: {row[column_name]!r} {why}")
            rows.append({c.name: row[c.name] for c in columns})
    except csv.Error as err:
        if "end of data" in str(err):  # EOF inside a quoted field: say where the field began
            raise DataError(
                f"{name}, line {line + 1}: a quoted field opened in this row is never closed (the file ends inside "
                f"it, on line {reader.line_num}): the file is cut, or a quote is missing"
            ) from None
        raise DataError(f"{name}, line {reader.line_num}: not a readable CSV row ({err})") from None
    if not rows:
        raise DataError(f"{name}: no rows under the header; the file needs at least one")
    return rows
