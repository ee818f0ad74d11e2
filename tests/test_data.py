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
