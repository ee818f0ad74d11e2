"""data.py: the CSVs load, carry their sources, and a malformed row is refused naming file, line and column."""

from __future__ import annotations

import csv
import pathlib

import pytest

from toyhw import data


def test_gpus_csv_has_the_facts_figures():
    rows = {r["key"]: r for r in data.gpu_rows()}
    assert list(rows) == ["H100", "H200", "A100", "L40S", "B200"]
    h100 = rows["H100"]
    assert (h100["sms"], h100["smem_per_block_bytes"], h100["max_regs_per_thread"]) == (132, 232_448, 255)
    assert (h100["hbm_tb_per_s"], h100["bf16_dense_tflop_per_s"], h100["l2_mb"]) == (3.35, 989.0, 50.0)
    assert all(r[c] <= 1 for r in rows.values() for c in ("tc_sustained_share", "hbm_achievable_share"))  # > 0: read


def test_layers_csv_has_the_lecture_and_seed_shapes():
    rows = {r["name"]: (r["n"], r["k"]) for r in data.layer_rows()}
    assert rows["70B/8 qkv"] == (1280, 8192)
    assert rows["405B/8 qkv"] == (2560, 16384)
    assert rows["405B/8 qkv 8kv"] == (2304, 16384)
    assert rows["405B/8 down"] == (16384, 6656)


@pytest.mark.parametrize(
    "bad, message",
    [
        ("8B qkv,Llama-3-8B,1,qkv,six,4096,x", "line 2, column 'n'"),
        ("8B qkv,Llama-3-8B,1,qkv,-5,4096,x", "line 2, column 'n'"),
        ("8B qkv,Llama-3-8B,1,qkv,6144", "line 2"),
        (",Llama-3-8B,1,qkv,6144,4096,x", "line 2, column 'name'"),
    ],
)
def test_malformed_row_names_file_line_and_column(tmp_path: pathlib.Path, bad: str, message: str):
    path = tmp_path / "layers.csv"
    path.write_text("name,model,tp,layer,n,k,derivation\n" + bad + "\n")
    with pytest.raises(ValueError, match="layers.csv") as err:
        data.read_table(path, data.LAYER_COLUMNS)
    assert message in str(err.value)


@pytest.mark.parametrize(
    "name, columns, column",
    [
        ("gpus.csv", data.GPU_COLUMNS, "spec_source"),
        ("gpus.csv", data.GPU_COLUMNS, "calibration_source"),
        ("llm_layers.csv", data.LAYER_COLUMNS, "derivation"),
    ],
)
def test_a_figure_without_its_source_is_refused(tmp_path: pathlib.Path, name, columns, column):
    """Every figure carries where it comes from: the reader refuses the file's first row with that column blank."""
    with open(data.DATA_DIR / name, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        row = next(reader)
    row[column] = " "
    path = tmp_path / name
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=reader.fieldnames)
        writer.writeheader()
        writer.writerow(row)
    with pytest.raises(ValueError, match=f"{name}, line 2, column '{column}': '' must be a non-empty text"):
        data.read_table(path, columns)


def test_missing_column_is_refused(tmp_path: pathlib.Path):
    path = tmp_path / "g.csv"
    path.write_text("key,model\nH100,H100\n")
    with pytest.raises(ValueError, match="g.csv, line 1: missing column"):
        data.read_table(path, data.GPU_COLUMNS)


def test_kernelbench_csvs_hold_table_1_and_figure_2_of_v1_with_their_sources():
    table1 = {r["method"]: r for r in data.kernelbench_rows()}
    assert [table1[m]["deepseek_r1"] for m in table1] == [36, None, 44, 62, 72]
    assert [table1[m]["llama_3_1_70b"] for m in table1] == [0, 3, 0, 5, 4]
    assert all(
        "2502.10517v1" in str(r["source"]) and "Table 1 (section 5.1.3)" in str(r["source"]) for r in table1.values()
    )
    figure2 = {r["model"]: r for r in data.kernelbench_one_shot_rows()}
    assert (figure2["GPT-4o"]["level_1"], figure2["OpenAI o1"]["level_1"], figure2["DeepSeek-R1"]["level_1"]) == (
        4,
        10,
        12,
    )
    assert all("Figure 2 (section 4.1)" in str(r["source"]) for r in figure2.values())
    # The paper's one-shot Level 2 numbers are Table 1's "single attempt" row: the two files agree.
    single = table1["single attempt (baseline)"]
    assert (
        figure2["Llama-3.1-70B Instruct"]["level_2"],
        figure2["DeepSeek-V3"]["level_2"],
        figure2["DeepSeek-R1"]["level_2"],
    ) == (single["llama_3_1_70b"], single["deepseek_v3"], single["deepseek_r1"])


def test_paper_figures_carry_the_numbers_the_notebooks_quote():
    figures = data.paper_figures()
    assert figures == {
        "kernelbench_table1_level": 2,
        "kernelbench_table1_calls": 10,
        "asi_llm_iterations": 10,
        "asi_opentuner_iterations": 1000,
        "asi_speedup_over_opentuner": 3.8,
        "alphaevolve_kernel_speedup_percent": 23,
    }


def _cut_copy(tmp_path: pathlib.Path, text: str) -> pathlib.Path:
    path = tmp_path / "gemm_measurements.csv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["notes", "timing_notes", "gpu_as_stated"])
def test_a_measurements_file_cut_inside_a_quoted_field_is_refused(tmp_path: pathlib.Path, where: str):
    """Cut in its last field (notes) the row once read as whole, its text silently short; cut anywhere in a quote,
    the reader names the row where the quote opened."""
    text = (data.DATA_DIR / "gemm_measurements.csv").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    row = 5  # line 5 of the file: the fourth measurement
    start = sum(len(line) for line in lines[: row - 1])
    column = data.MEASUREMENT_COLUMNS.index(next(c for c in data.MEASUREMENT_COLUMNS if c.name == where))
    fields = next(csv.reader([lines[row - 1]]))
    assert fields[column] and f'"{fields[column][:20]}' in lines[row - 1], "the field is quoted in the file"
    cut = text[: start + lines[row - 1].index(f'"{fields[column][:20]}') + 10]
    path = _cut_copy(tmp_path, cut)
    with pytest.raises(data.DataError) as err:
        data.read_table(path, data.MEASUREMENT_COLUMNS, data._ROW_CHECKS["gemm_measurements.csv"])
    assert str(err.value) == (
        f"gemm_measurements.csv, line {row}: a quoted field opened in this row is never closed (the file ends inside "
        f"it, on line {row}): the file is cut, or a quote is missing"
    )


def test_text_after_a_closing_quote_is_refused_naming_the_line(tmp_path: pathlib.Path):
    text = (data.DATA_DIR / "gemm_measurements.csv").read_text(encoding="utf-8")
    path = _cut_copy(tmp_path, text.replace('"torch.mm(A,B,out=C)', '"torch.mm"x(A,B,out=C)', 1))
    with pytest.raises(data.DataError, match=r"^gemm_measurements.csv, line 2: not a readable CSV row \(',' expected"):
        data.read_table(path, data.MEASUREMENT_COLUMNS)


def test_the_whole_measurements_file_reads_as_before_under_the_strict_reader(tmp_path: pathlib.Path):
    text = (data.DATA_DIR / "gemm_measurements.csv").read_text(encoding="utf-8")
    rows = data.read_table(_cut_copy(tmp_path, text), data.MEASUREMENT_COLUMNS)
    assert rows == data.measurement_rows()
