"""`python -m toyhw gemm`: the JSON contract, the readable table and refusals of unknown names."""
from __future__ import annotations

import json

import pytest

from toyhw import cli


def test_json_contract(capsys: pytest.CaptureFixture[str]):
    assert cli.main(["gemm", "--gpu", "H100", "--layer", "70B/8 qkv", "--m", "16", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["shape"] == {"name": "70B/8 qkv", "M": 16, "N": 1280, "K": 8192}
    assert set(result) >= {"shape", "roofline_us", "expert", "oracle", "n_configs", "n_launchable"}
    assert (result["n_configs"], result["n_launchable"]) == (4800, 2744)
    assert result["expert"]["config"] == {"block_m": 16, "block_n": 64, "block_k": 256, "num_warps": 4,
                                          "num_stages": 5, "split_k": 1}
    assert result["roofline_us"] <= result["oracle"]["time_us"] <= result["expert"]["time_us"]


def test_table_output_and_unlaunchable_expert(capsys: pytest.CaptureFixture[str]):
    assert cli.main(["gemm"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("70B/8 qkv M=16 (N=1280, K=8192) on H100") and "oracle speedup over the expert" in out
    assert cli.main(["gemm", "--gpu", "L40S", "--m", "1", "--json"]) == 0
    expert = json.loads(capsys.readouterr().out)["expert"]
    assert expert["time_us"] is None and "shared memory" in expert["reason"]


@pytest.mark.parametrize("argv, message", [
    (["gemm", "--gpu", "V100"], "unknown GPU 'V100'; known GPUs: H100, H200, A100, L40S, B200"),
    (["gemm", "--layer", "9B qkv"], "unknown layer '9B qkv'; known layers: 8B qkv"),
    (["gemm", "--m", "0"], "M = 0 is not allowed"),
])
def test_bad_input_is_refused_with_the_known_names(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err
