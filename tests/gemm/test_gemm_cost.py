"""The GEMM time model: each effect of toyhw/gemm/cost.py, pinned on hand-picked shapes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from toyhw.gemm import config as gemm_config, cost as gemm_cost, gpu, shapes
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape

H100 = gpu.get_gpu("H100")


def test_unlaunchable_config_has_no_time_and_a_reason():
    cost = gemm_cost.gemm_time(GemmConfig(128, 256, 64, 8, 5), shapes.layer_shape("8B qkv", 4096), H100)
    assert cost.time_us == math.inf and "shared memory, Required: 245760" in cost.reason
    ok = gemm_cost.gemm_time(GemmConfig(128, 256, 64, 8, 4), shapes.layer_shape("8B qkv", 4096), H100)
    assert math.isfinite(ok.time_us) and ok.reason is None


def test_padding_waste_at_small_m():
    """M = 16 in a 128-row block: 7/8 of the tensor-core work is padding; a 16-row block wastes none."""
    shape = shapes.layer_shape("8B o", 16)
    assert gemm_cost.gemm_time(GemmConfig(128, 64, 64, 4, 3), shape, H100).padding_waste == pytest.approx(0.875)
    assert gemm_cost.gemm_time(GemmConfig(16, 64, 64, 4, 3), shape, H100).padding_waste == 0.0
    # K is padded too: K = 1000 in 256-deep steps computes 1024
    assert gemm_cost.gemm_time(GemmConfig(16, 64, 256, 4, 3), Shape("x", 16, 64, 1000), H100).padding_waste == (
        pytest.approx(1 - 1000 / 1024)
    )


@pytest.mark.parametrize("config", [GemmConfig(128, 128, 64, 8, 4), GemmConfig(128, 256, 64, 8, 3)])
def test_one_block_more_than_the_sms_costs_about_a_second_wave(config: GemmConfig):
    """132 blocks (12 x 11 tiles) fill H100's SMs once; 133 blocks (7 x 19) need a second wave for one block."""
    one = gemm_cost.gemm_time(config, Shape("x", 12 * config.block_m, 11 * config.block_n, 8192), H100)
    two = gemm_cost.gemm_time(config, Shape("x", 7 * config.block_m, 19 * config.block_n, 8192), H100)
    assert (one.blocks, one.waves, two.blocks, two.waves) == (132, 1, 133, 2)
    assert 1.8 < two.time_us / one.time_us < 2.05


def test_split_k_helps_a_decode_shape_whose_tiles_cannot_fill_the_sms():
    """70B/8 qkv at M = 16 with BLOCK_N 64 gives 1280 / 64 = 20 blocks for 132 SMs; split-K 4 makes 80."""
    shape = shapes.layer_shape("70B/8 qkv", 16)
    plain = gemm_cost.gemm_time(GemmConfig(16, 64, 256, 4, 5, 1), shape, H100)
    split = gemm_cost.gemm_time(GemmConfig(16, 64, 256, 4, 5, 4), shape, H100)
    assert (plain.blocks, split.blocks) == (20, 80)
    assert split.time_us < 0.75 * plain.time_us
    assert split.reduction_us > 0 and plain.reduction_us == 0
    # on a shape with plenty of tiles, split-K only adds the reduction
    big = shapes.layer_shape("8B gate_up", 4096)
    assert (
        gemm_cost.gemm_time(GemmConfig(128, 256, 64, 8, 3, 2), big, H100).time_us
        > gemm_cost.gemm_time(GemmConfig(128, 256, 64, 8, 3, 1), big, H100).time_us
    )


def test_few_blocks_cannot_saturate_hbm():
    """The same bytes move faster with more blocks in flight (per-SM bandwidth share, Little's law)."""
    shape = shapes.layer_shape("70B/8 o", 1)
    wide = gemm_cost.gemm_time(GemmConfig(16, 256, 64, 4, 4), shape, H100)  # 32 blocks
    narrow = gemm_cost.gemm_time(GemmConfig(16, 32, 64, 2, 4), shape, H100)  # 256 blocks
    assert wide.blocks == 32 and narrow.blocks == 256
    assert wide.sm_load_us > 2 * narrow.sm_load_us


def test_stages_hide_latency_and_hopper_wants_warpgroup_tiles():
    shape = shapes.layer_shape("8B gate_up", 8192)
    two = gemm_cost.gemm_time(GemmConfig(128, 256, 64, 8, 2), shape, H100)
    four = gemm_cost.gemm_time(GemmConfig(128, 256, 64, 8, 4), shape, H100)
    assert two.occupancy == four.occupancy == 1
    assert two.latency_us == pytest.approx(3 * four.latency_us) and two.time_us > 1.1 * four.time_us
    wgmma = gemm_cost.gemm_time(GemmConfig(64, 128, 64, 4, 4), shape, H100)
    no_wgmma = gemm_cost.gemm_time(GemmConfig(32, 128, 64, 4, 4), shape, H100)
    assert no_wgmma.efficiency < 0.75 * wgmma.efficiency
    a100 = gpu.get_gpu("A100")  # no wgmma: 32-row tiles lose only their smaller reuse
    assert (
        gemm_cost.gemm_time(GemmConfig(32, 128, 64, 4, 4), shape, a100).efficiency
        > 0.9 * gemm_cost.gemm_time(GemmConfig(64, 128, 64, 4, 4), shape, a100).efficiency
    )


def test_launch_overhead_and_roofline_formula():
    shape = Shape("x", 1, 16, 32)  # almost nothing to do: the launch and the fixed latencies dominate
    cost = gemm_cost.gemm_time(GemmConfig(16, 32, 32, 2, 2), shape, H100)
    latency_us = H100.load_latency_s * 1e6
    store_us = 1 * 16 * 2 / (gemm_cost.L2_TO_SM_FACTOR * H100.hbm_bytes_per_s / H100.sms) * 1e6  # the 1x16 C tile
    assert cost.launch_us == pytest.approx(H100.launch_s * 1e6)
    assert cost.fill_us == pytest.approx(
        (gemm_cost.KERNEL_LATENCIES + gemm_cost.PROLOGUE_LATENCIES) * latency_us + store_us
    )
    assert cost.time_us == pytest.approx(cost.launch_us + cost.fill_us + cost.latency_us, rel=1e-3)
    big = shapes.layer_shape("8B gate_up", 8192)
    assert gemm_cost.roofline_us(big, H100) == pytest.approx(2 * 8192 * 28672 * 4096 / 989e12 * 1e6)
    small = shapes.layer_shape("8B gate_up", 1)
    assert gemm_cost.roofline_us(small, H100) == pytest.approx(2 * (4096 + 4096 * 28672 + 28672) / 3.35e12 * 1e6)


def test_littles_law_deep_pipelines_keep_enough_bytes_in_flight_at_decode():
    """112 blocks with one 10 KB stage in flight each cannot cover bandwidth x latency; 4 stages in flight can,
    and so can one stage 4x deeper in K."""
    shape = shapes.layer_shape("70B/8 gate_up", 1)
    shallow = gemm_cost.gemm_time(GemmConfig(16, 64, 64, 4, 2), shape, H100)
    deep = gemm_cost.gemm_time(GemmConfig(16, 64, 64, 4, 5), shape, H100)
    deep_k = gemm_cost.gemm_time(GemmConfig(16, 64, 256, 4, 2), shape, H100)
    assert deep_k.bound == "dram"
    assert shallow.bound == "latency" and deep.bound in ("dram", "sm_load")
    assert shallow.time_us > 2 * deep.time_us


def test_l2_reuse_between_blocks_in_flight():
    """Blocks running side by side share A and B tiles through L2: DRAM sees far fewer bytes than the loads."""
    shape = shapes.layer_shape("8B gate_up", 8192)
    config = GemmConfig(128, 256, 64, 8, 3)
    cost = gemm_cost.gemm_time(config, shape, H100)
    a, b, c = 2 * shape.M * shape.K, 2 * shape.K * shape.N, 2 * shape.M * shape.N
    every_load = a * (shape.N // 256) + b * (shape.M // 128) + c
    assert a + b + c < cost.dram_bytes < 0.2 * every_load


def test_no_config_beats_the_roofline_on_random_shapes():
    rng = np.random.default_rng(0)
    configs = gemm_config.config_space()
    cols = gemm_cost.config_arrays(configs, H100)
    for _ in range(40):
        M, N, K = (int(v) for v in rng.integers(1, 20_000, size=3))
        shape = Shape("random", M, N, K)
        times = gemm_cost.evaluate(cols, shape, H100)["time"] * 1e6
        assert times.min() >= gemm_cost.roofline_us(shape, H100)


def test_stream_k_splits_the_tail_wave_over_every_sm_and_pays_a_fix_up():
    config = GemmConfig(128, 128, 64, num_warps=8, num_stages=4)
    tail = Shape("x", 7 * 128, 19 * 128, 8192)  # 133 tiles: one more than the SMs
    waves = gemm_cost.gemm_time(config, tail, H100)
    stream_k = gemm_cost.gemm_time(config, tail, H100, kind="stream_k")
    assert waves.waves == 2 and stream_k.time_us < 0.7 * waves.time_us  # the tail costs its share, not a wave
    assert stream_k.reduction_us > 0 and waves.reduction_us == 0  # the fix-up of the shared tiles
    full = Shape("x", 12 * 128, 11 * 128, 8192)  # 132 tiles: no tail, nothing to split
    assert gemm_cost.gemm_time(config, full, H100, kind="stream_k").time_us == pytest.approx(
        gemm_cost.gemm_time(config, full, H100).time_us
    )
    with pytest.raises(ValueError, match="schedule = 'persistent'"):
        gemm_cost.gemm_time(config, full, H100, kind="persistent")


def test_operands_already_in_l2_stream_faster():
    shape = shapes.layer_shape("8B qkv", 1)
    config = GemmConfig(16, 64, 256, 4, 5)
    cold, warm = gemm_cost.gemm_time(config, shape, H100), gemm_cost.gemm_time(config, shape, H100, warm_l2=True)
    assert warm.dram_us == pytest.approx(cold.dram_us / gemm_cost.WARM_L2_SPEEDUP)


def test_every_later_group_of_blocks_waits_one_more_latency():
    config = GemmConfig(128, 128, 64, num_warps=8, num_stages=4)  # one resident block per SM at this size
    one = gemm_cost.gemm_time(config, Shape("x", 12 * 128, 11 * 128, 1024), H100)
    three = gemm_cost.gemm_time(config, Shape("x", 36 * 128, 11 * 128, 1024), H100)  # three waves
    assert (one.waves, three.waves) == (1, 3) and one.occupancy == 1
    store = 128 * 128 * 2 / (gemm_cost.L2_TO_SM_FACTOR * H100.hbm_bytes_per_s / H100.sms) * 1e6
    assert three.fill_us - one.fill_us == pytest.approx(2 * H100.load_latency_s * 1e6 + 2 * store)
