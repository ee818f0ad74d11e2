"""`validate` reads the measurements through the data files' schema, with row-level and cross-field checks: a bad row
is refused in one line naming the file, the line and the column, never dropped or left to a traceback."""

import csv
import io
import shutil

import pytest

from toyhw import cli, data
from toyhw.gemm import validate


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A copy of data/ that the pack reads instead (its caches emptied before and after)."""
    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder)
    monkeypatch.setattr(data, "DATA_DIR", folder)
    data._cached.cache_clear()
    yield folder
    data._cached.cache_clear()


def rewrite(folder, change):
    """Rewrite gemm_measurements.csv with `change(rows)` applied to its rows (dicts of text); return its header."""
    path = folder / "gemm_measurements.csv"
    reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
    rows = list(reader)
    change(rows)
    out = io.StringIO()
    writer = csv.DictWriter(out, reader.fieldnames, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return rows


def first_used(rows):
    return next(i for i, r in enumerate(rows) if r["use"] == "yes")


def error_line(capsys):
    assert cli.main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m toyhw validate: error: ") and err.count("\n") == 1, err
    return err


def set_used(column, value):
    def change(rows):
        rows[first_used(rows)][column] = value

    return change


@pytest.mark.parametrize(
    "column, value, message",
    [
        ("gpu", "", "column 'gpu': None is empty in a used row"),
        ("gpu", "V100", "column 'gpu': 'V100' is not a GPU of data/gpus.csv; it must be one of"),
        ("timing", "unknown", "column 'timing': 'unknown' cannot be modelled in a used row"),
        ("timing", "wallclock", "column 'timing': 'wallclock' must be one of"),
        ("measured_us", "500.0", "column 'measured_us': 500.0 disagrees with measured_tflops = 271.2"),
    ],
)
def test_a_bad_used_row_is_refused_naming_file_line_and_column(column, value, message, data_dir, capsys):
    rows = rewrite(data_dir, set_used(column, value))
    err = error_line(capsys)
    assert f"gemm_measurements.csv, line {first_used(rows) + 2}, {message}" in err


def test_a_file_without_used_rows_or_no_file_at_all_is_one_line(data_dir, capsys):
    def unuse(rows):
        for r in rows:
            r["use"], r["why_not_used"] = "no", r["why_not_used"] or "a test"

    rewrite(data_dir, unuse)
    assert "no row has use = yes" in error_line(capsys)
    data._cached.cache_clear()
    (data_dir / "gemm_measurements.csv").unlink()
    assert "gemm_measurements.csv: cannot read" in error_line(capsys)


def test_every_used_row_of_the_pack_is_checked(capsys):
    used = [r for r in data.measurement_rows() if r["use"] == "yes"]
    assert len(validate.measurements()) == len(used)  # none dropped
    assert set(data.MODELLED_TIMINGS) == set(validate.TIMINGS)
