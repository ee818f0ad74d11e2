"""Property: however a data file is corrupted, reading it raises DataError naming the file and the line (and the
column, for a bad value), and never anything else — no UnicodeDecodeError, KeyError or silently wrong row."""

from __future__ import annotations

import pathlib
import re
import tempfile

from hypothesis import given, settings, strategies as st

from toyhw import data

FILES = {name: (data.DATA_DIR / name).read_bytes() for name in ("gpus.csv", "llm_layers.csv", "kernelbench_table1.csv")}
NOT_NUMBERS = [
    "inf",
    "-inf",
    "nan",
    "-1",
    "1e999",
    "abc",
    "0x10",
    "1_000",
    "",
    " ",
    "9" * 400,
    "½",
    "١٢",
    "1e-30",
    "+",
    "--5",
    "None",
    "1,5",
]


def _rows(raw: bytes) -> list[str]:
    return raw.decode().splitlines()


def _read(name: str, raw: bytes) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / name
        path.write_bytes(raw)
        return data.read_table(path, data.SCHEMAS[name])


@st.composite
def bad_value(draw):
    """A file with one numeric field replaced by text that is no allowed value of that column."""
    name = draw(st.sampled_from(["gpus.csv", "llm_layers.csv"]))
    lines = _rows(FILES[name])
    header = lines[0].split(",")
    numeric = [i for i, c in enumerate(data.SCHEMAS[name]) if c.kind != "text"]
    row, column = draw(st.integers(1, len(lines) - 1)), draw(st.sampled_from(numeric))
    fields = lines[row].split(",")  # the numeric columns come before the first quoted text of every row
    fields[column] = draw(st.sampled_from(NOT_NUMBERS))
    if "," in fields[column]:
        fields[column] = f'"{fields[column]}"'
    lines[row] = ",".join(fields)
    return name, "\n".join(lines).encode(), row + 1, header[column]


@settings(max_examples=120)
@given(bad_value())
def test_a_bad_value_names_file_line_and_column(case):
    name, raw, line, column = case
    try:
        _read(name, raw)
    except data.DataError as err:
        assert str(err).startswith(f"{name}, line {line}, column {column!r}: "), str(err)
    else:
        raise AssertionError(f"{name}: a bad {column} on line {line} was read")


@st.composite
def corrupted(draw):
    """A file damaged one way: a duplicated row, a byte that is not UTF-8, a header name changed, a field added or
    removed, or the file cut after its header."""
    name = draw(st.sampled_from(sorted(FILES)))
    raw = FILES[name]
    lines = _rows(raw)
    kind = draw(st.sampled_from(["duplicate", "byte", "header", "extra field", "missing field", "no rows"]))
    if kind == "duplicate":
        row = draw(st.integers(1, len(lines) - 1))
        lines.insert(draw(st.integers(row + 1, len(lines))), lines[row])
        return name, "\n".join(lines).encode()
    if kind == "byte":
        at = draw(st.integers(0, len(raw)))
        return name, raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\x80"])) + raw[at:]
    if kind == "header":
        header = lines[0].split(",")
        i = draw(st.integers(0, len(header) - 1))
        header[i] = draw(st.sampled_from([header[i].upper(), header[i] + "s", header[i][:-1], "", header[i - 1]]))
        lines[0] = ",".join(header)
    elif kind == "extra field":
        row = draw(st.integers(1, len(lines) - 1))
        lines[row] += ",surplus"
    elif kind == "missing field":
        row = draw(st.integers(1, len(lines) - 1))
        lines[row] = lines[row].split(",", 1)[1]
    else:
        lines = lines[:1]
    return name, "\n".join(lines).encode()


@settings(max_examples=150)
@given(corrupted())
def test_any_corruption_names_the_file_and_the_line(case):
    name, raw = case
    try:
        _read(name, raw)
    except data.DataError as err:
        assert re.match(rf"{re.escape(name)}(, line \d+(, column '[^']*')?)?: ", str(err)), str(err)
        assert ", line " in str(err) or "no rows" in str(err) or "empty" in str(err)
    else:
        raise AssertionError(f"a corrupted {name} was read")
