"""GPU specs, shapes and the config space: validation, launchability with reasons, fixed orders."""

from __future__ import annotations

import pytest

from toyhw.gemm import config as gemm_config, gpu, shapes
from toyhw.gemm.config import GemmConfig


def test_get_gpu_default_and_unknown():
    h100 = gpu.get_gpu()
    assert (h100.name, h100.sms, h100.smem_per_block) == ("H100", 132, 232_448)
    assert gpu.get_gpu("h100 sxm5") == h100
    assert gpu.gpu_names() == ["H100", "H200", "A100", "L40S", "B200"]
    with pytest.raises(KeyError, match="known GPUs: H100, H200, A100, L40S, B200"):
        gpu.get_gpu("V100")
    assert 290 < h100.ridge_flop_per_byte < 300  # 989 TFLOP/s / 3.35 TB/s (data/gpus.csv): ~295 FLOP/B


def test_config_validation_names_field_value_and_allowed():
    with pytest.raises(ValueError, match=r"GemmConfig.block_m = 48 is not allowed; allowed values: \[16, 32"):
        GemmConfig(block_m=48)
    with pytest.raises(ValueError, match="split_k"):
        GemmConfig(split_k=3)


def test_config_space_size_order_and_launchable_share():
    space = gemm_config.config_space()
    assert len(space) == 4800 and len(set(space)) == 4800
    assert space[0] == GemmConfig(16, 16, 32, 2, 2, 1) and space[1] == GemmConfig(16, 16, 32, 2, 2, 2)
    h100 = gpu.get_gpu()
    ok = sum(gemm_config.launch_problem(c, h100) is None for c in space)
    assert ok == 2744  # 57% launchable on H100


def test_shared_memory_limit_facts_example():
    """128x256x64 with 5 stages needs 5 * (128 + 256) * 64 * 2 = 245,760 B (> 232,448 on H100); 4 stages fit."""
    h100 = gpu.get_gpu()
    five = GemmConfig(128, 256, 64, 8, 5)
    assert gemm_config.shared_memory_bytes(five) == 245_760
    assert gemm_config.launch_problem(five, h100) == (
        "out of resource: shared memory, Required: 245760, Hardware limit: 232448. "
        "Reducing block sizes or num_stages may help."
    )
    assert gemm_config.launch_problem(GemmConfig(128, 256, 64, 8, 4), h100) is None


def test_register_and_warp_tiling_limits():
    h100 = gpu.get_gpu()
    # 128x256 accumulators over 4 warps: 256 fp32 registers per thread + overhead > 255
    reason = gemm_config.launch_problem(GemmConfig(128, 256, 32, 4, 2), h100)
    assert gemm_config.problem_kind(reason) == "registers" and "Required: 296" in reason
    assert gemm_config.launch_problem(GemmConfig(128, 256, 32, 8, 2), h100) is None
    reason = gemm_config.launch_problem(GemmConfig(16, 16, 64, 2, 3), h100)
    assert gemm_config.problem_kind(reason) == "warp tiling"
    assert gemm_config.launch_problem(GemmConfig(16, 32, 64, 2, 3), h100) is None


def test_shapes():
    assert shapes.LAYERS == {
        "8B qkv": (6144, 4096),
        "8B o": (4096, 4096),
        "8B gate_up": (28672, 4096),
        "8B down": (4096, 14336),
        "70B/8 qkv": (1280, 8192),
        "70B/8 o": (8192, 1024),
        "70B/8 gate_up": (7168, 8192),
        "70B/8 down": (8192, 3584),
    }
    every = shapes.all_shapes()
    assert len(every) == 88 and every[0] == shapes.Shape("8B qkv", 1, 6144, 4096)
    assert shapes.Shape("70B/8 qkv", 16, 1280, 8192).label() == "70B/8 qkv M=16"
    assert len(shapes.LECTURE_M) == 11 and not set(shapes.LECTURE_M) & set(shapes.NEW_M)
    train, test = shapes.split_shapes(every)
    assert len(train) == len(test) == 44 and not set(train) & set(test)
    for half in (train, test):
        assert min(s.M for s in half) <= 4 and max(s.M for s in half) >= 2048
        assert {s.name for s in half} == set(shapes.LAYERS)
    new = shapes.new_shapes()
    assert len(new) == 100 and shapes.Shape("405B/8 qkv", 2, 2560, 16384) in new
    assert shapes.layer_shape("405B/8 down", 8) == shapes.Shape("405B/8 down", 8, 16384, 6656)
    with pytest.raises(KeyError, match="known layers"):
        shapes.layer_shape("9B qkv", 1)
    with pytest.raises(ValueError, match=r"Shape.K = 0 is not allowed"):
        shapes.Shape("x", 1, 16, 0)
