"""Notebook 03's exercise solutions (notebooks/solutions/03_gemm_cost_model.py) run, and what each Answer block
says about its result holds."""

from __future__ import annotations

import pytest

from exercise_cells import NOTEBOOKS, load_solution
from toyhw.gemm import config as gemm_config, expert, report, shapes, validate, vllm
from toyhw.gemm.gpu import get_gpu
from toyhw.gemm.time_table import shared_table

solutions = load_solution(NOTEBOOKS / "03_gemm_cost_model.ipynb")
TABLE = shared_table("H100")
SHAPES = shapes.all_shapes()
TRAIN, TEST = shapes.split_shapes(SHAPES)


def test_four_rules_beat_the_expert_on_train_and_test_but_not_everywhere():
    train = solutions.speedup_over_expert(solutions.choose, TRAIN, TABLE)
    test = solutions.speedup_over_expert(solutions.choose, TEST, TABLE)
    assert train == pytest.approx(1.0989, abs=5e-4) and test == pytest.approx(1.1141, abs=5e-4)
    assert 1.0 < train < report.oracle_speedup(TRAIN, TABLE) and 1.0 < test < report.oracle_speedup(TEST, TABLE)
    # it launches everywhere, and it loses to the expert only at M = 256 and 512, on six shapes
    assert all(TABLE.time(solutions.choose(s.M, s.N, s.K), s) < float("inf") for s in SHAPES + shapes.new_shapes())
    losses = [
        s
        for s in SHAPES
        if TABLE.time(solutions.choose(s.M, s.N, s.K), s) > 1.01 * TABLE.time(expert.expert_config(s), s)
    ]
    assert {s.M for s in losses} == {256, 512} and len(losses) == 6
    # the expert against itself scores 1
    assert solutions.speedup_over_expert(
        lambda M, N, K: expert.expert_config(shapes.Shape("x", M, N, K)), TRAIN, TABLE
    ) == pytest.approx(1.0)


def test_hopper_pads_to_64_rows_where_ampere_follows_m():
    assert solutions.oracle_block_m("H100") == {16: 16, 24: 64, 48: 64, 64: 64}
    assert solutions.oracle_block_m("A100") == {16: 16, 24: 32, 48: 64, 64: 64}
    assert (get_gpu("H100").mma_min_rows, get_gpu("H100").mma_min_warps) == (64, 4)
    assert (get_gpu("A100").mma_min_rows, get_gpu("A100").mma_min_warps) == (1, 1)
    assert (get_gpu("B200").mma_min_rows, get_gpu("B200").mma_min_warps) == (64, 1)  # tcgen05.mma: no warpgroup
    assert solutions.small_tile_penalty("H100", M=16) == 1.0
    assert 1.0 < solutions.small_tile_penalty("H100", M=24) < 1.01  # DRAM-bound: the penalty is mostly hidden
    h100, a100 = solutions.small_tile_penalty("H100", M=48), solutions.small_tile_penalty("A100", M=48)
    assert h100 == pytest.approx(1.082, abs=1e-3) and a100 == pytest.approx(1.033, abs=1e-3) and h100 > a100


def test_the_load_latency_decides_the_256_entry():
    base = {(r.M, r.gemm): r for r in vllm.vllm_ranks(TABLE)}
    fast = {(r.M, r.gemm): r for r in solutions.vllm_ranks_at(0.5e-6)}
    slow = {(r.M, r.gemm): r for r in solutions.vllm_ranks_at(1.2e-6)}
    assert (base[256, "gate/up"].rank, fast[256, "gate/up"].rank, slow[256, "gate/up"].rank) == (52, 7, 173)
    assert fast[256, "gate/up"].slowdown == pytest.approx(1.0, abs=5e-3)
    assert slow[256, "gate/up"].slowdown == pytest.approx(1.43, abs=5e-3)
    assert base[256, "gate/up"].config.num_stages == 3
    # the decode entries stay at or near the top either way
    assert all(r.rank <= 9 for runs in (base, fast, slow) for (m, _), r in runs.items() if m <= 16)
    # the calibrated latency is between the two
    assert 0.5e-6 < TABLE.gpu.load_latency_s < 1.2e-6
    # replacing a field gives a new GPU: the shared table is untouched
    assert shared_table("H100").gpu.load_latency_s == get_gpu("H100").load_latency_s


def test_ignoring_the_timing_method_makes_the_model_worse_where_overhead_dominates():
    errors = solutions.error_without_timing(validate.checks())
    assert errors["all"][0] == pytest.approx(validate.summary(validate.checks())["geomean_error"])
    assert errors["all"][0] == pytest.approx(0.085, abs=5e-4) and errors["all"][1] == pytest.approx(0.136, abs=5e-4)
    assert errors["per_call"][1] > 1.8 * errors["per_call"][0]
    assert errors["graph"][0] == errors["graph"][1]  # inside a CUDA graph the benchmark adds nothing
    assert errors["trace"][1] < errors["trace"][0]  # the one profiler row: the launch is the model's own guess
    worst_kernel_only = max(
        max(c.kernel_us / c.measurement.measured_us, c.measurement.measured_us / c.kernel_us) for c in validate.checks()
    )
    assert worst_kernel_only == pytest.approx(1.72, abs=5e-3) and worst_kernel_only > validate.TARGET_WORST_RATIO


def test_every_solution_config_is_in_the_space():
    space = set(gemm_config.config_space())
    assert all(solutions.choose(s.M, s.N, s.K) in space for s in SHAPES)


def _four_rules_as_program():
    """Return Exercise 1's solution written in lecture 14's rule language, one rule per (range of M, narrow layer)."""
    from toyhw.evolve.programs import Program, Rule

    rules = []
    for m_max, M in ((16, 16), (128, 128), (512, 512)):
        rules.append(Rule(solutions.choose(M, 2048, 4096), m_max=m_max, n_max=2048))
        rules.append(Rule(solutions.choose(M, 4096, 4096), m_max=m_max))
    return Program(tuple(rules), solutions.choose(8192, 4096, 4096))


def test_four_rules_keeps_to_exercise_1s_constraint():
    """Exercise 1 asks for at most four ranges of M, one config each, plus a narrow-layer test that only switches
    split-K on; in the rule language that is at most seven rules (the default counted)."""
    from toyhw.evolve.programs import choose_mnk

    ns = sorted({n for n, _ in shapes.ALL_LAYERS.values()} | {2048, 2049})
    ks = sorted({k for _, k in shapes.ALL_LAYERS.values()})
    ms = range(1, 8193)
    # the config changes with M at no more than three cut points, on either side of the narrow test: four ranges
    cuts = {M for N in (2048, 2049) for M in ms[1:] if solutions.choose(M, N, 4096) != solutions.choose(M - 1, N, 4096)}
    assert len(cuts) <= 3
    # within a range nothing else matters but whether the layer is narrow, and that changes nothing but split_k
    for M in sorted(cuts | {c - 1 for c in cuts} | {1, 8192}):
        for K in ks:
            narrow = {solutions.choose(M, N, K) for N in ns if N <= 2048}
            wide = {solutions.choose(M, N, K) for N in ns if N > 2048}
            assert len(narrow) == 1 and len(wide) == 1
            a, b = narrow.pop(), wide.pop()
            assert gemm_config.GemmConfig(a.block_m, a.block_n, a.block_k, a.num_warps, a.num_stages, b.split_k) == b
    # written as a program it agrees everywhere and has seven rules, as the exercise says
    program = _four_rules_as_program()
    assert program.n_rules() == 7
    assert all(choose_mnk(program, M, N, K) == solutions.choose(M, N, K) for M in ms[::61] for N in ns for K in ks)
