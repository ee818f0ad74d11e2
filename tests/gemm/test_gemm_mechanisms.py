"""The GEMM model's mechanisms from its structure, not its calibration: padding and block counts on shapes that are
not multiples of the tile, and split-K's reduction (its bytes and its fixed cost).

Every expectation is computed from the shape, the config, the GPU's spec and the constants cost.py names, never from a
microsecond figure, so these tests hold across a recalibration of the model's efficiencies and latencies.
"""

from __future__ import annotations

import math

import pytest

from toyhw.gemm import cost as gemm_cost, gpu
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape

H100, A100 = gpu.get_gpu("H100"), gpu.get_gpu("A100")
ODD_SHAPES = [
    Shape("odd", 100, 200, 300),
    Shape("odd", 17, 1280, 8192),
    Shape("odd", 1000, 3000, 1000),
    Shape("odd", 3, 5000, 4097),
]
CONFIGS = [
    GemmConfig(64, 128, 64, 4, 3, 1),
    GemmConfig(16, 64, 256, 4, 5, 1),
    GemmConfig(128, 256, 64, 8, 3, 1),
    GemmConfig(32, 64, 128, 4, 4, 4),
    GemmConfig(16, 32, 32, 2, 2, 8),
]


def padded_work(config: GemmConfig, shape: Shape) -> int:
    """Return the tensor-core work M x N x K after padding: M and N up to whole tiles, each split-K slice's
    ceil(K / split_k) up to whole BLOCK_K steps."""
    m = math.ceil(shape.M / config.block_m) * config.block_m
    n = math.ceil(shape.N / config.block_n) * config.block_n
    k = math.ceil(math.ceil(shape.K / config.split_k) / config.block_k) * config.block_k * config.split_k
    return m * n * k


@pytest.mark.parametrize("config", CONFIGS, ids=GemmConfig.short)
@pytest.mark.parametrize("shape", ODD_SHAPES, ids=Shape.label)
def test_padding_waste_is_the_share_of_padded_work(config: GemmConfig, shape: Shape):
    cost = gemm_cost.gemm_time(config, shape, H100)
    assert cost.padding_waste == pytest.approx(1 - shape.M * shape.N * shape.K / padded_work(config, shape), abs=1e-12)
    assert 0 < cost.padding_waste < 1  # none of these shapes is a multiple of its tile


@pytest.mark.parametrize("device", [H100, A100], ids=lambda g: g.name)
@pytest.mark.parametrize("config", CONFIGS, ids=GemmConfig.short)
@pytest.mark.parametrize("shape", ODD_SHAPES, ids=Shape.label)
def test_blocks_are_whole_tiles_times_split_k_and_waves_are_blocks_over_sms(device, config: GemmConfig, shape: Shape):
    cost = gemm_cost.gemm_time(config, shape, device)
    blocks = math.ceil(shape.M / config.block_m) * math.ceil(shape.N / config.block_n) * config.split_k
    assert (cost.blocks, cost.waves) == (blocks, math.ceil(blocks / device.sms))


def test_padding_costs_what_a_whole_step_or_tile_costs():
    """K = 1000 in 256-deep steps computes 1024: the same k-steps, the same tensor-core time; one element more than
    1024 adds a step. M = 100 and M = 128 in 64-row tiles both need two block rows."""
    config = GemmConfig(16, 64, 256, 4, 3, 1)

    def at(M, K):
        return gemm_cost.gemm_time(config, Shape("x", M, 1024, K), H100)

    assert at(16, 1000).compute_us == at(16, 1024).compute_us < at(16, 1025).compute_us
    assert at(16, 1000).latency_us == at(16, 1024).latency_us < at(16, 1025).latency_us
    wide = GemmConfig(64, 64, 64, 4, 3, 1)
    assert (
        gemm_cost.gemm_time(wide, Shape("x", 100, 1024, 4096), H100).compute_us
        == gemm_cost.gemm_time(wide, Shape("x", 128, 1024, 4096), H100).compute_us
    )


def reduction_bytes(shape: Shape, split_k: int) -> float:
    """Split-K's reduction reads split_k fp32 partial tiles of C and writes C in bf16."""
    return split_k * shape.M * shape.N * 4 + 2 * shape.M * shape.N


SPLIT_CASES = [(Shape("decode", 16, 1280, 8192), GemmConfig(16, 64, 256, 4, 5, split)) for split in (2, 4, 8)] + [
    (Shape("odd", 100, 3000, 4097), GemmConfig(32, 64, 128, 4, 4, 4)),
    (Shape("big", 2048, 8192, 8192), GemmConfig(128, 128, 64, 8, 3, 2)),
]


@pytest.mark.parametrize("device", [H100, A100], ids=lambda g: g.name)
def test_split_k_reduction_moves_its_bytes_at_the_dram_bandwidth_plus_a_fixed_cost(device):
    """reduction = its bytes / the bandwidth the DRAM term uses + REDUCTION_LAUNCHES x a launch: one bandwidth
    explains every case, no faster than the GPU's peak, and the reported DRAM bytes include the reduction's."""
    bandwidths = []
    for shape, config in SPLIT_CASES:
        cost = gemm_cost.gemm_time(config, shape, device)
        fixed = gemm_cost.REDUCTION_LAUNCHES * cost.launch_us
        moving = cost.reduction_us - fixed
        assert moving > 0 and fixed > 0
        bandwidth = reduction_bytes(shape, config.split_k) / moving  # bytes per microsecond
        assert bandwidth <= device.hbm_bytes_per_s * 1e-6
        # the main kernel's DRAM traffic goes at the same bandwidth: dram_bytes = main bytes + reduction bytes
        assert (cost.dram_bytes - reduction_bytes(shape, config.split_k)) / cost.dram_us == pytest.approx(bandwidth)
        bandwidths.append(bandwidth)
    assert bandwidths == pytest.approx([bandwidths[0]] * len(bandwidths), rel=1e-9)


def test_without_split_k_there_is_no_reduction():
    for shape in ODD_SHAPES:
        for config in CONFIGS:
            if config.split_k == 1:
                assert gemm_cost.gemm_time(config, shape, H100).reduction_us == 0.0


def test_the_reductions_fixed_cost_is_part_of_the_kernel_time(monkeypatch):
    """One more of REDUCTION_LAUNCHES adds exactly one launch to a split-K config's reduction and
    total time, and nothing to a config without split-K."""
    shape = Shape("decode", 16, 1280, 8192)
    split, plain = GemmConfig(16, 64, 256, 4, 5, 4), GemmConfig(16, 64, 256, 4, 5, 1)
    before = [gemm_cost.gemm_time(c, shape, H100) for c in (split, plain)]
    monkeypatch.setattr(gemm_cost, "REDUCTION_LAUNCHES", gemm_cost.REDUCTION_LAUNCHES + 1.0)
    after = [gemm_cost.gemm_time(c, shape, H100) for c in (split, plain)]
    launch = before[0].launch_us
    assert after[0].reduction_us - before[0].reduction_us == pytest.approx(launch)
    assert after[0].time_us - before[0].time_us == pytest.approx(launch)
    assert after[1].time_us == before[1].time_us


def test_split_k_partial_sums_go_through_dram_in_fp32():
    """On a decode shape whose blocks are all in flight at once (20 x k <= 132), A and B are read once either way:
    split-K k moves 8 k M N bytes more than no split, k fp32 partials written and read back (2 x 4 k M N), and C
    written by the reduction instead of the kernel."""
    shape = Shape("decode", 16, 1280, 8192)
    plain = gemm_cost.gemm_time(GemmConfig(16, 64, 256, 4, 5, 1), shape, H100).dram_bytes
    assert plain == 2 * (shape.M * shape.K + shape.K * shape.N + shape.M * shape.N)
    for split in (2, 4):
        bytes_ = gemm_cost.gemm_time(GemmConfig(16, 64, 256, 4, 5, split), shape, H100).dram_bytes
        assert bytes_ - plain == 8 * split * shape.M * shape.N
