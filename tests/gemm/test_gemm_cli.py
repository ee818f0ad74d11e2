"""`python -m toyhw gemm`: the JSON contract, the readable table and refusals of unknown names."""

from __future__ import annotations

import json

import pytest

from toyhw import cli
from toyhw.gemm import shapes
from toyhw.gemm.gpu import get_gpu
from toyhw.gemm.time_table import TimeTable


def test_json_contract(capsys: pytest.CaptureFixture[str]):
    assert cli.main(["gemm", "--gpu", "H100", "--layer", "70B/8 qkv", "--m", "16", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["shape"] == {"name": "70B/8 qkv", "M": 16, "N": 1280, "K": 8192}
    assert set(result) >= {"shape", "roofline_us", "expert", "oracle", "n_configs", "n_launchable"}
    assert (result["n_configs"], result["n_launchable"]) == (4800, 2744)
    assert result["expert"]["config"] == {
        "block_m": 16,
        "block_n": 64,
        "block_k": 256,
        "num_warps": 4,
        "num_stages": 5,
        "split_k": 1,
    }
    assert result["roofline_us"] <= result["oracle"]["time_us"] <= result["expert"]["time_us"]


def test_table_output_and_unlaunchable_expert(capsys: pytest.CaptureFixture[str]):
    assert cli.main(["gemm"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("70B/8 qkv M=16 (N=1280, K=8192) on H100") and "oracle speedup over the expert" in out
    assert cli.main(["gemm", "--gpu", "L40S", "--m", "1", "--json"]) == 0
    expert = json.loads(capsys.readouterr().out)["expert"]
    assert expert["time_us"] is None and "shared memory" in expert["reason"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["gemm", "--gpu", "V100"], "unknown GPU 'V100'; known GPUs: H100, H200, A100, L40S, B200"),
        (["gemm", "--layer", "9B qkv"], "unknown layer '9B qkv'; known layers: 8B qkv"),
        (["gemm", "--m", "0"], "M = 0 is not allowed"),
    ],
)
def test_bad_input_is_refused_with_the_known_names(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_any_shape_gives_the_same_json_as_the_layer_of_that_shape(capsys: pytest.CaptureFixture[str]):
    assert cli.main(["gemm", "--layer", "70B/8 qkv", "--m", "16", "--json"]) == 0
    by_layer = json.loads(capsys.readouterr().out)
    assert cli.main(["gemm", "--shape", "16x1280x8192", "--json"]) == 0
    by_shape = json.loads(capsys.readouterr().out)
    assert by_shape["shape"] == {"name": "custom", "M": 16, "N": 1280, "K": 8192}
    assert {**by_shape, "shape": None} == {**by_layer, "shape": None}
    assert cli.main(["gemm", "--shape", "3x5x7", "--gpu", "A100"]) == 0
    assert capsys.readouterr().out.startswith("custom M=3 (N=5, K=7) on A100")


@pytest.mark.parametrize(
    "shape", ["12x0x5", "16x4096", "16x4096x4096x2", "axbxc", "-1x2x3", "", "16*4096*4096", "1x1x99999999999"]
)
def test_a_malformed_shape_exits_2_saying_what_is_allowed(shape: str, capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["gemm", f"--shape={shape}"])  # "=": a value may start with "-"
    assert exit_.value.code == 2
    assert (
        f"--shape = {shape!r} is not allowed; give MxNxK with positive integers, e.g. 16x4096x4096"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize("argv", [["--shape", "16x64x64", "--layer", "8B qkv"], ["--shape", "16x64x64", "--m", "4"]])
def test_shape_is_exclusive_with_layer_and_m(argv: list[str], capsys: pytest.CaptureFixture[str]):
    assert cli.main(["gemm", *argv]) == 2
    assert "--shape cannot be combined with --layer or --m" in capsys.readouterr().err


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: get_gpu(None), "unknown GPU None; known GPUs: H100"),
        (lambda: get_gpu(3), "unknown GPU 3"),
        (lambda: shapes.layer_shape(["8B qkv"], 16), r"unknown layer \['8B qkv'\]; known layers"),
        (lambda: shapes.layer_shape("8B qkv", 2**40), "M = 1099511627776 is not allowed"),
        (lambda: shapes.Shape("x", 1, 1, 2**31), "Shape.K = 2147483648 is not allowed"),
        (lambda: TimeTable(None), "unknown GPU None; known GPUs"),
    ],
)
def test_library_calls_name_a_bad_gpu_layer_or_size(call, message):
    with pytest.raises(ValueError, match=message):
        call()
