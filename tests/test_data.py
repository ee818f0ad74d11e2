"""data.py: the CSVs load, carry their sources, and a malformed row is refused naming file, line and column."""
from __future__ import annotations

import pathlib

import pytest

from toyhw import data


def test_gpus_csv_has_the_facts_figures():
    rows = {r["key"]: r for r in data.gpu_rows()}
    assert list(rows) == ["H100", "H200", "A100", "L40S", "B200"]
    h100 = rows["H100"]
    assert (h100["sms"], h100["smem_per_block_bytes"], h100["max_regs_per_thread"]) == (132, 232_448, 255)
    assert (h100["hbm_tb_per_s"], h100["bf16_dense_tflop_per_s"], h100["l2_mb"]) == (3.35, 989.0, 50.0)
    assert all(r["spec_source"] and r["calibration_source"] for r in rows.values())
    assert all(0 < r[c] <= 1 for r in rows.values() for c in ("tc_sustained_share", "hbm_achievable_share"))


def test_layers_csv_has_the_lecture_and_seed_shapes():
    rows = {r["name"]: (r["n"], r["k"]) for r in data.layer_rows()}
    assert rows["70B/8 qkv"] == (1280, 8192)
    assert rows["405B/8 qkv"] == (2560, 16384)
    assert rows["405B/8 qkv 8kv"] == (2304, 16384)
    assert rows["405B/8 down"] == (16384, 6656)
    assert all(r["derivation"] for r in data.layer_rows())


@pytest.mark.parametrize("bad, message", [
    ("8B qkv,Llama-3-8B,1,qkv,six,4096,x", "line 2, column 'n'"),
    ("8B qkv,Llama-3-8B,1,qkv,-5,4096,x", "line 2, column 'n'"),
    ("8B qkv,Llama-3-8B,1,qkv,6144", "line 2"),
    (",Llama-3-8B,1,qkv,6144,4096,x", "line 2, column 'name'"),
])
def test_malformed_row_names_file_line_and_column(tmp_path: pathlib.Path, bad: str, message: str):
    path = tmp_path / "layers.csv"
    path.write_text("name,model,tp,layer,n,k,derivation\n" + bad + "\n")
    with pytest.raises(ValueError, match="layers.csv") as err:
        data.read_table(path, data.LAYER_COLUMNS)
    assert message in str(err.value)


def test_missing_column_is_refused(tmp_path: pathlib.Path):
    path = tmp_path / "g.csv"
    path.write_text("key,model\nH100,H100\n")
    with pytest.raises(ValueError, match="g.csv, line 1: missing column"):
        data.read_table(path, data.GPU_COLUMNS)


def test_kernelbench_csvs_hold_table_1_and_figure_2_of_v1_with_their_sources():
    table1 = {r["method"]: r for r in data.kernelbench_rows()}
    assert [table1[m]["deepseek_r1"] for m in table1] == [36, None, 44, 62, 72]
    assert [table1[m]["llama_3_1_70b"] for m in table1] == [0, 3, 0, 5, 4]
    assert all("2502.10517v1" in str(r["source"]) and "Table 1 (section 5.1.3)" in str(r["source"])
               for r in table1.values())
    figure2 = {r["model"]: r for r in data.kernelbench_one_shot_rows()}
    assert (figure2["GPT-4o"]["level_1"], figure2["OpenAI o1"]["level_1"], figure2["DeepSeek-R1"]["level_1"]) == (4, 10, 12)
    assert all("Figure 2 (section 4.1)" in str(r["source"]) for r in figure2.values())
    # The paper's one-shot Level 2 numbers are Table 1's "single attempt" row: the two files agree.
    single = table1["single attempt (baseline)"]
    assert (figure2["Llama-3.1-70B Instruct"]["level_2"], figure2["DeepSeek-V3"]["level_2"],
            figure2["DeepSeek-R1"]["level_2"]) == (single["llama_3_1_70b"], single["deepseek_v3"], single["deepseek_r1"])


def test_paper_figures_carry_the_numbers_the_notebooks_quote():
    figures = data.paper_figures()
    assert figures == {"kernelbench_table1_level": 2, "kernelbench_table1_calls": 10, "asi_llm_iterations": 10,
                       "asi_opentuner_iterations": 1000, "asi_speedup_over_opentuner": 3.8}


# ----- broken data files: each refused naming the file, the line and (where there is one) the column

GPU_HEADER = ("key,model,sms,smem_per_sm_bytes,smem_per_block_bytes,regs_per_sm,max_regs_per_thread,max_warps_per_sm,"
              "hbm_tb_per_s,bf16_dense_tflop_per_s,l2_mb,warpgroup_mma,tc_sustained_share,hbm_achievable_share,"
              "load_latency_us,launch_us,spec_source,calibration_source")
H100 = "H100,H100 SXM5,132,233472,232448,65536,255,64,3.35,989,50,1,0.9271,0.92,0.882,1.0,datasheet,fit"
A100 = "A100,A100 SXM 80GB,108,167936,166912,65536,255,64,2.039,312,40,0,0.8998,0.79,0.572,2.0,datasheet,fit"


def _gpus(tmp_path: pathlib.Path, *lines: str, raw: bytes | None = None) -> pathlib.Path:
    path = tmp_path / "gpus.csv"
    path.write_bytes(raw if raw is not None else ("\n".join(lines) + "\n").encode())
    return path


@pytest.mark.parametrize("bandwidth, message", [
    ("inf", "line 2, column 'hbm_tb_per_s': 'inf' must be a finite number >= 0.1 and <= 100"),
    ("nan", "'nan' must be a finite number"),
    ("500", "line 2, column 'hbm_tb_per_s': '500' must be a finite number >= 0.1 and <= 100 (TB/s"),
    ("0.000001", "'0.000001' must be a finite number >= 0.1"),
    ("3,35", "line 2: 19 fields, expected 18"),
    ("", "line 2, column 'hbm_tb_per_s': '' must be a finite number"),
])
def test_an_absurd_or_infinite_bandwidth_is_refused(tmp_path, bandwidth, message):
    row = H100.replace(",3.35,", f",{bandwidth},")
    with pytest.raises(data.DataError, match="^gpus.csv, line 2") as err:
        data.read_table(_gpus(tmp_path, GPU_HEADER, row), data.GPU_COLUMNS)
    assert message in str(err.value)


def test_a_second_row_for_the_same_gpu_is_refused(tmp_path):
    path = _gpus(tmp_path, GPU_HEADER, H100, A100, H100.replace("H100 SXM5", "H100 PCIe"))
    with pytest.raises(data.DataError, match="gpus.csv, line 4, column 'key': 'H100' is already on line 2"):
        data.read_table(path, data.GPU_COLUMNS)


def test_a_duplicated_layer_name_is_refused_naming_both_lines(tmp_path):
    path = tmp_path / "llm_layers.csv"
    path.write_text("name,model,tp,layer,n,k,derivation\n8B qkv,Llama-3-8B,1,qkv,6144,4096,x\n"
                    "8B qkv,Llama-3-8B,1,qkv,6144,4096,y\n")
    with pytest.raises(data.DataError, match="llm_layers.csv, line 3, column 'name': '8B qkv' is already on line 2"):
        data.read_table(path, data.LAYER_COLUMNS)


def test_invalid_utf8_names_the_file_and_the_line(tmp_path):
    raw = (GPU_HEADER + "\n" + H100 + "\n").encode() + b"A100,A100 \xff,108\n"
    with pytest.raises(data.DataError, match=r"gpus.csv, line 3: byte 0xff at position 11 is not UTF-8"):
        data.read_table(_gpus(tmp_path, raw=raw), data.GPU_COLUMNS)


def test_a_misspelled_kernelbench_column_is_refused_not_read_as_none(tmp_path):
    path = tmp_path / "kernelbench_table1.csv"
    path.write_text("method,toy_mode,llama_3_1_70B,deepseek_v3,deepseek_r1,source\nsingle attempt,one_shot,0,4,36,x\n")
    with pytest.raises(data.DataError) as err:
        data.read_table(path, data.KERNELBENCH_COLUMNS)
    assert str(err.value).startswith("kernelbench_table1.csv, line 1: unknown column(s) 'llama_3_1_70B' (did you mean "
                                     "'llama_3_1_70b'?); missing column(s) 'llama_3_1_70b'; expected the columns method,")


@pytest.mark.parametrize("content, message", [
    ("", "gpus.csv: the file is empty; expected a header line with the columns key, model"),
    (GPU_HEADER, "gpus.csv: no rows under the header"),
    (GPU_HEADER.replace("sms,", "sms,sms,"), "gpus.csv, line 1: column(s) 'sms' appear more than once"),
    (GPU_HEADER + "\n" + H100 + ",extra", "gpus.csv, line 2: 19 fields, expected 18"),
    (GPU_HEADER + "\n" + H100.replace(",132,", ",1_000,"), "column 'sms': '1_000' must be an integer"),
    (GPU_HEADER + "\n" + H100.replace(",50,1,", ",50,2,"), "column 'warpgroup_mma': '2' must be an integer"),
    (GPU_HEADER + "\n" + H100.replace(",fit", ","), "column 'calibration_source': '' must be a non-empty text"),
    (GPU_HEADER + "\n" + H100.replace(",0.92,", ",92,"), "column 'hbm_achievable_share': '92' must be a finite "
                                                        "number >= 0.05 and <= 1 (a share of the bandwidth)"),
])
def test_empty_repeated_or_extra_fields_are_refused(tmp_path, content, message):
    with pytest.raises(data.DataError) as err:
        data.read_table(_gpus(tmp_path, content), data.GPU_COLUMNS)
    assert message in str(err.value)


def test_a_byte_order_mark_and_blank_lines_are_fine(tmp_path):
    rows = data.read_table(_gpus(tmp_path, raw=("\ufeff" + GPU_HEADER + "\n\n" + H100 + "\n").encode()),
                           data.GPU_COLUMNS)
    assert [r["key"] for r in rows] == ["H100"] and rows[0]["hbm_tb_per_s"] == 3.35


def test_a_kernelbench_mode_outside_lecture_10_is_refused(tmp_path):
    path = tmp_path / "kernelbench_table1.csv"
    path.write_text("method,toy_mode,llama_3_1_70b,deepseek_v3,deepseek_r1,source\nx,oracle,0,4,,y\n")
    with pytest.raises(data.DataError, match="line 2, column 'toy_mode': 'oracle' must be one of one_shot, resample"):
        data.read_table(path, data.KERNELBENCH_COLUMNS)


@pytest.fixture
def broken_data(tmp_path, monkeypatch):
    """Point the package at a copy of data/ whose gpus.csv has an infinite bandwidth; restore the caches after."""
    from toyhw.gemm import shapes

    for name in data.SCHEMAS:
        (tmp_path / name).write_bytes((data.DATA_DIR / name).read_bytes())
    gpus = (tmp_path / "gpus.csv").read_text().splitlines()
    gpus[2] = gpus[2].replace(",4.8,", ",inf,")
    (tmp_path / "gpus.csv").write_text("\n".join(gpus) + "\n")
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    data._cached.cache_clear()
    shapes._layer_tables.cache_clear()
    yield tmp_path
    data._cached.cache_clear()
    shapes._layer_tables.cache_clear()


def test_broken_data_gives_a_one_line_error_at_the_command_line_not_a_traceback(broken_data, capsys):
    from toyhw import cli

    assert cli.main(["gemm", "--gpu", "H200"]) == 2
    err = capsys.readouterr().err
    assert err == ("python -m toyhw gemm: error: gpus.csv, line 3, column 'hbm_tb_per_s': 'inf' must be a finite "
                   "number >= 0.1 and <= 100 (TB/s; real GPUs have 0.3 to 8)\n")
    assert cli.main(["fastp", "--tasks", "3", "--json"]) == 0  # lecture 10 reads no data file at all
    assert cli.build_parser(["gemm"]).parse_args(["gemm", "--gpu", "nope"]).gpu == "nope"  # the parser reads none


def test_the_layer_table_is_read_on_first_use_not_at_import(broken_data, capsys):
    from toyhw import cli
    from toyhw.gemm import shapes

    (broken_data / "llm_layers.csv").write_text("name,model,tp,layer,n,k,derivation\n"
                                                "8B qkv,Llama-3-8B,1,qkv,6144,4096,x\n8B qkv,Llama-3-8B,1,qkv,1,1,y\n")
    with pytest.raises(data.DataError, match="llm_layers.csv, line 3, column 'name': '8B qkv' is already on line 2"):
        shapes.LAYERS
    assert cli.main(["gemm", "--layer", "8B qkv"]) == 2
    assert "error: llm_layers.csv, line 3, column 'name'" in capsys.readouterr().err
