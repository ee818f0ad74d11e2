"""Notebook 03's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from toyhw import data
from exercise_cells import NOTEBOOKS, load_solution
from toyhw.gemm import config as gemm_config, cost, expert, report, shapes, validate, vllm
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import get_gpu, gpu_names
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import shared_table
from claims import Claim, holds, said
from claims.formats import pct as _pct


def _by_id() -> dict[str, validate.Measurement]:
    return {m.id: m for m in validate.measurements()}


# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset({"nb03-01b", "nb03-05", "nb03-07", "nb03-12", "nb03-46", "nb03-48", "nb03-60"})
NOT_RESULTS = {
    "nb03-11": ("Which of the three",),
    "nb03-14": ("Below, every lecture", "The dot is the **oracle**"),
    "nb03-16": (
        "Why do the dots on",
        "What would a dot",
        "A dot above the roof",
        "`tests/gemm/test_gemm_table.py` checks that",
    ),
    "nb03-19": ("Below, N grows one",),
    "nb03-24": ("The padded rows are",),
    "nb03-25": ("The model's memory", "* **DRAM traffic", "A block issues its"),
    "nb03-34": ("A search whose every",),
    "nb03-40": ("Where the expert",),
    "nb03-42": ("Name them, and write",),
    "nb03-45": ("The fixed costs do",),
    "nb03-52": ("The worst rows:",),
    "nb03-56": ("Before comparing two", "Which of the misses", "A ceiling that is", "These constants were"),
    "nb03-59": ("Pick the config the",),
    "nb03-ex1": ("Write a heuristic", "Keep it small: at", "score is the geometric-mean", "Finding rules that"),
    "nb03-ex2": ("The missing effect",),
    "nb03-ex4": ("A model that ignored",),
    "nb03-references": ("* The published GEMM",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS = frozenset({"nb03-14", "nb03-19", "nb03-40"})
QUOTED = {
    "nb03-16": ("The highest dot is", "They sit below it"),
    "nb03-22": ("With waves, one block",),
    "nb03-27": ("* **narrow tile**",),
    "nb03-29": ("The fastest split-K",),
    "nb03-34": ("cannot launch and",),
    "nb03-56": ("What would change",),
    "nb03-summary": ("published timings the",),
    "nb03-ex2": ("of its math rather",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb03-03", "input", tensor_parallel="8"),
    *said("nb03-19", "input", blocks_per_step="4"),
    *said("nb03-25", "input", section4_m="16"),
    *said("nb03-29", "input", section4_m="16"),
    *said("nb03-ex1", "input", expert_score="1"),
    *said("nb03-ex1", "input", solution_split_k="4"),
    *said("nb03-57", "input", jamba_tensor_parallel="8"),
    *said("nb03-60", "input", section4_m="16", warps_4="4", stages_3="3"),
    *said("nb03-60", "input", warps_8="8", panel_m_from="1"),
    *said("nb03-references", "input", cc_a100="8.0", cc_l40s="8.9", cc_hopper="9.0", cc_blackwell="10.0"),
    *said("nb03-references", "input", cacm_volume="52"),
    *said("nb03-references", "input", or_volume="9", or_issue="3"),
    *said("nb03-references", "input", triton_issue_3672="3672", triton_issue_2339="2339", triton_issue_743="743"),
    *said("nb03-references", "input", torch_perf_issue_79="79"),
    *said("nb03-references", "input", fb_triton_pr_1679="1679"),
    *said("nb03-references", "input", vllm_issue_35467="35467"),
    *said("nb03-54", "input", triton_issue_743="743"),
    *said("nb03-56", "input", blackwell_2cta="2"),
    *said("nb03-references", "input", ptx_isa_version="8.7"),
]


def claims() -> list[Claim]:
    solutions = load_solution(NOTEBOOKS / "03_gemm_cost_model.ipynb")  # its solution file
    table = shared_table("H100")
    h100 = table.gpu
    all_shapes = shapes.all_shapes()
    train, test = shapes.split_shapes(all_shapes)
    out: list[Claim] = []

    # ----- Section 1
    (_, _, decode_hi), (_, mid_lo, mid_hi), _ = shapes.REGIMES
    prefill_m = [m for m in shapes.LECTURE_M if shapes.regime(m) == "prefill"]
    out += [
        holds(
            min(gemm_config.FIELDS["block_m"]) == decode_hi
            and all(shapes.regime(m) == "decode" for m in shapes.LECTURE_M if m <= decode_hi),
            "regimes_by_smallest_tile",
            "nb03-03",
        ),
        *said(("nb03-03", "nb03-glossary"), decode_hi=f'{decode_hi}', mid_hi=f'{mid_hi}'),
        *said(
            "nb03-03",
            smallest_block_m=f"{min(gemm_config.FIELDS['block_m'])}",
            mid_lo=f'{mid_lo}',
            lecture_prefill_m=f"{' and '.join(map(str, prefill_m))}",
        ),
    ]
    weights = {name: 2 * n * k / 1e6 for name, (n, k) in shapes.LAYERS.items()}
    light, heavy = min(weights, key=weights.get), max(weights, key=weights.get)
    space = gemm_config.config_space()
    kinds = {
        g: Counter(gemm_config.problem_kind(gemm_config.launch_problem(c, get_gpu(g))) for c in space)
        for g in gpu_names()
    }
    launch = {g: kinds[g][None] for g in kinds}
    tut = {s: GemmConfig(128, 256, 64, num_warps=8, num_stages=s) for s in (4, 5)}
    per_stage = gemm_config.shared_memory_bytes(tut[4]) // 4
    l40s = get_gpu("L40S")
    fits = {
        g: max(s for s in gemm_config.FIELDS["num_stages"] if s * per_stage <= get_gpu(g).smem_per_block)
        for g in ("H100", "L40S")
    }
    expert_configs = [c for _, c in expert.EXPERT_RULES] + [expert.EXPERT_DEFAULT]
    out += [
        *said("nb03-05", lightest_weights_mb=f'{weights[light]:.1f}', heaviest_weights_mb=f'{weights[heavy]:.1f}'),
        *said(("nb03-05", "nb03-19", "nb03-24", "nb03-27", "nb03-42", "nb03-glossary"), h100_sms=f'{h100.sms}'),
        *said("nb03-05", "input", warp_size="32"),
        *said("nb03-07", n_configs=f'{len(space)}'),
        *said(("nb03-07", "nb03-11"), n_launch_h100=f"{launch['H100']}"),
        *said(("nb03-07", "nb03-11"), h100_smem_per_block=f'{h100.smem_per_block:,}'),
        *said("nb03-07", h100_max_regs_per_thread=f'{h100.max_regs_per_thread}'),
        holds(
            gemm_config.launch_problem(tut[4], h100) is None and gemm_config.launch_problem(tut[5], h100) is not None,
            "tut_tile_fits_4_stages",
            "nb03-07",
        ),
        *said("nb03-07", "input", warps_8="8", stages_4="4", stages_5="5"),
        *said("nb03-09", bytes_per_stage=f'{per_stage:,}'),
        holds(launch["H100"] == launch["H200"] == launch["B200"], "hopper_gpus_launch_alike", "nb03-11"),
        *said(
            "nb03-11",
            h100_smem_first_failing=f"{kinds['H100']['shared memory']}",
            n_launch_a100=f"{launch['A100']}",
            n_launch_l40s=f"{launch['L40S']}",
        ),
        holds(kinds["L40S"]["shared memory"] > kinds["H100"]["shared memory"], "l40s_smem_fails_more", "nb03-11"),
        *said(("nb03-11", "nb03-63"), l40s_smem_per_block=f'{l40s.smem_per_block:,}'),
        *said("nb03-11", l40s_smem_first_failing=f"{kinds['L40S']['shared memory']}"),
        *said("nb03-11", stages_fit_h100=f"{fits['H100']}", stages_fit_l40s=f"{fits['L40S']}"),
        holds(
            kinds["L40S"]["registers"] < kinds["H100"]["registers"]
            and kinds["L40S"]["warp tiling"] < kinds["H100"]["warp tiling"],
            "l40s_fewer_register_failures",
            "nb03-11",
        ),
        *said(
            "nb03-11",
            h100_register_failures=f"{kinds['H100']['registers']}",
            l40s_register_failures=f"{kinds['L40S']['registers']}",
            h100_warp_tiling_failures=f"{kinds['H100']['warp tiling']}",
            l40s_warp_tiling_failures=f"{kinds['L40S']['warp tiling']}",
        ),
        holds(
            all(gemm_config.shared_memory_bytes(c) > l40s.smem_per_block for c in expert_configs),
            "expert_needs_more_than_l40s",
            "nb03-11",
        ),
    ]

    # ----- Section 2
    gate_up = {m: shapes.layer_shape("8B gate_up", m) for m in (1, 8192)}
    roof = {m: table.roofline(s) for m, s in gate_up.items()}
    achieved = {s: s.flops() / table.oracle(s)[1] / 1e6 for s in all_shapes}
    top = max(achieved, key=achieved.get)
    close1 = roof[1] / table.oracle(gate_up[1])[1]
    out += [
        *said(("nb03-12", "nb03-48"), h100_peak_tflops=f'{h100.bf16_flops / 1000000000000.0:.0f}'),
        *said("nb03-12", h100_hbm_tb_per_s=f'{h100.hbm_bytes_per_s / 1000000000000.0:.2f}'),
        *said("nb03-14", h100_ridge=f'{h100.ridge_flop_per_byte:.0f}'),
        *said(
            "nb03-14",
            gate_up_roof_m1=f'{roof[1]:.1f}',
            roof_8192=f'{roof[8192]:.1f}',
            gate_up_roof_ratio=f'{roof[8192] / roof[1]:.0f}',
        ),
        *said("nb03-14", "input", m_1="1", m_8192="8192"),
        *said(
            "nb03-16",
            top_dot_m=f'{top.M}',
            top_dot_tflops=f'{achieved[top]:.1f}',
            top_dot_peak_share=f'{achieved[top] * 1000000000000.0 / h100.bf16_flops:.1%}',
        ),
        *said(
            ("nb03-16", "nb03-25"),
            h100_hbm_achievable_share=f'{_pct(h100.hbm_achievable_share)}',
            h100_achievable_bytes_per_s=f'{h100.achievable_bytes_per_s / 1000000000000.0:.3f}',
        ),
        *said("nb03-16", "input", m_1="1"),
        *said("nb03-16", gate_up_m1_roof_share=f'{_pct(close1)}'),
        holds(max(achieved.values()) * 1e12 / h100.bf16_flops < 0.8, "highest_below_80pct", "nb03-16"),
        *said("nb03-16", "input", peak_share_80pct="80%"),
    ]

    # ----- Section 3
    def waste(m: int, bm: int) -> float:
        return 1 - m / (math.ceil(m / bm) * bm)

    config = GemmConfig(128, 128, 64, num_warps=8, num_stages=4)
    one, two = (Shape("sweep", mt * 128, nt * 128, 8192) for mt, nt in ((12, 11), (7, 19)))
    w1, w2 = cost.gemm_time(config, one, h100), cost.gemm_time(config, two, h100)
    s2 = cost.gemm_time(config, two, h100, kind="stream_k")
    meet = [k * h100.sms for k in (1, 2, 3)]
    met = all(
        cost.gemm_time(config, Shape("s", 512, b // 4 * 128, 8192), h100).time_us
        == cost.gemm_time(config, Shape("s", 512, b // 4 * 128, 8192), h100, kind="stream_k").time_us
        for b in meet
    )
    rows = _by_id()
    small, big = rows["G020"], rows["G021"]
    tiles_big = math.ceil(big.shape.M / 128) * math.ceil(big.shape.N / 128)
    waves_only = [validate.predict(m, schedules=("waves",)).model_us for m in (small, big)]
    either = [validate.predict(m).model_us for m in (small, big)]
    work = big.shape.flops() / small.shape.flops()
    measured = big.measured_us / small.measured_us
    gate1 = gate_up[1]
    c1 = cost.gemm_time(table.oracle(gate1)[0], gate1, h100)
    square = Shape("square", 2048, 2048, 2048)
    dp, dp_config, _ = validate.best_kernel(square, h100, schedules=("waves",))
    sk, sk_config, _ = validate.best_kernel(square, h100, schedules=("stream_k",))
    tiles_sq = (2048 // dp_config.block_m) * (2048 // dp_config.block_n)
    out += [
        *said("nb03-17", "input", tokens_16="16", tile_rows_128="128"),
        *said("nb03-17", useful_math_ratio=f'{128 // 16}'),
        *said("nb03-19", "input", rows_16="16", m_1="1", rows_64="64", m_24="24"),
        *said(("nb03-19", "nb03-24"), waste_m1_tile16=f'{_pct(waste(1, 16))}'),
        *said(("nb03-19", "nb03-ex2"), waste_m24_tile64=f'{_pct(waste(24, 64))}'),
        *said("nb03-19", h100_sms_plus_one=f'{h100.sms + 1}'),
        *said(
            "nb03-22",
            wave_one_us=f'{w1.time_us:.1f}',
            wave_two_us=f'{w2.time_us:.1f}',
            wave_ratio=f'{w2.time_us / w1.time_us:.2f}',
            wave_more_work=f'{two.M * two.N / (one.M * one.N) - 1:.1%}',
        ),
        *said("nb03-22", stream_k_us=f'{s2.time_us:.1f}', stream_k_fixup_us=f'{s2.reduction_us:.2f}'),
        holds(met, "curves_meet", "nb03-22"),
        *said("nb03-22", meet_1_wave=f'{meet[0]}', meet_2_waves=f'{meet[1]}', meet_3_waves=f'{meet[2]}'),
        *said("nb03-22", g020_m=f'{small.shape.M}', g021_m=f'{big.shape.M}'),
        *said("nb03-22", g021_tiles=f'{tiles_big}', g021_waves=f'{tiles_big / h100.sms:.2f}'),
        *said("nb03-22", "input", tile_128="128"),
        holds(either[1] / either[0] < measured < waves_only[1] / waves_only[0], "dip_between_models", "nb03-24"),
        *said(
            "nb03-24",
            g021_work_ratio=f'{work:.2f}',
            g021_measured_ratio=f'{measured:.2f}',
            waves_only_ratio=f'{waves_only[1] / waves_only[0]:.2f}',
            stream_k_ratio=f'{either[1] / either[0]:.2f}',
        ),
        *said("nb03-24", "input", m_1="1", section4_m="16"),
        holds(table.oracle(gate1)[0] == GemmConfig(16, 32, 64, 2, 5, 1), "gate_up_m1_oracle", "nb03-24"),
        *said("nb03-24", "input", warps_2="2", stages_5="5"),
        *said("nb03-24", gate_up_m1_padding=f'{_pct(c1.padding_waste)}'),
        holds(c1.compute_us < c1.dram_us, "gate_up_m1_dram_bound", "nb03-24"),
        *said("nb03-24", gate_up_m1_compute_us=f'{c1.compute_us:.1f}', gate_up_m1_dram_us=f'{c1.dram_us:.1f}'),
        *said("nb03-24", "input", rows_64="64"),
        *said("nb03-24", "input", square_size="2048"),
        holds(dp < sk, "square_data_parallel_faster", "nb03-24"),
        *said(
            "nb03-24",
            square_dp_us=f'{dp:.1f}',
            square_dp_tflops=f'{square.flops() / dp / 1000000.0:.0f}',
            square_sk_us=f'{sk:.1f}',
            square_sk_tflops=f'{square.flops() / sk / 1000000.0:.0f}',
        ),
        holds(
            tiles_sq <= h100.sms and (dp_config.block_m, dp_config.block_n) == (256, 128), "square_one_wave", "nb03-24"
        ),
        *said("nb03-24", square_tiles=f'{tiles_sq}'),
        *said("nb03-24", "input", tile_256="256"),
    ]

    # ----- Section 4
    qkv16 = shapes.layer_shape("70B/8 qkv", 16)
    cand = {
        "expert": expert.expert_config(qkv16),
        "narrow": GemmConfig(32, 16, 256, num_warps=2, num_stages=5),
        "shallow": GemmConfig(16, 64, 64, num_warps=4, num_stages=2, split_k=4),
        "oracle": table.oracle(qkv16)[0],
    }
    b = {k: cost.gemm_time(c, qkv16, h100) for k, c in cand.items()}
    o = b["oracle"]
    fixed = o.launch_us + o.fill_us + o.reduction_us
    qkv_roof = table.roofline(qkv16)
    busy = h100.sms / cost.L2_TO_SM_FACTOR
    in_flight = h100.achievable_bytes_per_s * h100.load_latency_s / 1e6
    d = table.details(qkv16)
    useful = 2.0 * (qkv16.M * qkv16.K + qkv16.K * qkv16.N + qkv16.M * qkv16.N)
    best_bw = float(np.max(useful / d["main"][table.launchable])) / 1e12
    gate16 = shapes.layer_shape("8B gate_up", 16)
    g_best, g_t = table.oracle(gate16)
    g_cost = cost.gemm_time(g_best, gate16, h100)
    split = np.array([c.split_k > 1 for c in table.configs])
    g_split = float(table.row(gate16)[split].min())
    out += [
        holds(h100.hbm_achievable_share == 0.92, "hbm_share_is_pytorch_ao", "nb03-25"),
        holds(cost.L2_TO_SM_FACTOR == 4.0, "busy_sms_from_l2_factor", "nb03-25"),
        *said(("nb03-25", "nb03-29"), busy=f'{busy:.0f}'),
        holds(b["expert"].blocks < busy, "expert_leaves_sms_idle", "nb03-25"),
        *said(("nb03-25", "nb03-27", "nb03-29"), expert_blocks=f"{b['expert'].blocks}"),
        *said("nb03-25", idle_sms=f"{h100.sms - b['expert'].blocks}"),
        *said(("nb03-25", "nb03-59", "nb03-ex3"), h100_load_latency_us=f'{h100.load_latency_s * 1000000.0:.3f}'),
        *said("nb03-25", bytes_in_flight_mb=f'{in_flight:.2f}'),
        *said(("nb03-25", "nb03-56"), h100_launch_us=f'{h100.launch_s * 1000000.0:.1f}'),
        *said("nb03-25", qkv_n=f'{qkv16.N}', qkv_blocks_64=f'{qkv16.N // 64}'),
        *said("nb03-25", "input", tile_64="64"),
        holds(cand["expert"] == GemmConfig(16, 64, 256, 4, 5, 1), "expert_is_16x64x256", "nb03-27"),
        *said("nb03-27", "input", warps_4="4", stages_5="5"),
        *said("nb03-27", b_expert_time_us=f"{b['expert'].time_us:.1f}"),
        holds(b["expert"].bound == "sm_load", "expert_sm_load_bound", "nb03-27"),
        *said("nb03-27", "input", warps_2="2", narrow_tile_n="16"),
        *said(
            "nb03-27",
            b_narrow_blocks=f"{b['narrow'].blocks}",
            b_narrow_time_us=f"{b['narrow'].time_us:.1f}",
            narrow_slower=f"{b['narrow'].time_us / o.time_us - 1:.0%}",
        ),
        holds(b["narrow"].bound == "latency", "narrow_latency_bound", "nb03-27"),
        *said("nb03-27", qkv16_k=f'{qkv16.K // 256}', b_narrow_latency_us=f"{b['narrow'].latency_us:.1f}"),
        holds(b["narrow"].padding_waste == 0.5, "narrow_pads_half", "nb03-27"),
        *said("nb03-27", b_shallow_blocks=f"{b['shallow'].blocks}"),
        holds(
            b["shallow"].time_us > b["expert"].time_us and b["shallow"].bound == "latency",
            "shallow_worse_than_expert",
            "nb03-27",
        ),
        *said("nb03-27", b_shallow_time_us=f"{b['shallow'].time_us:.1f}"),
        holds(
            cand["oracle"] == GemmConfig(16, 64, 256, 4, 5, 4) and o.bound == "dram", "oracle_is_dram_bound", "nb03-27"
        ),
        *said("nb03-27", o_blocks=f'{o.blocks}', o_time_us=f'{o.time_us:.1f}'),
        *said("nb03-27", "input", block_k_256="256"),
        *said(
            "nb03-27",
            qkv_roof=f'{qkv_roof:.1f}',
            fixed=f'{fixed:.1f}',
            oracle_gap_to_roof=f'{o.time_us - qkv_roof:.1f}',
        ),
        holds(best_bw < h100.achievable_bytes_per_s / 1e12, "no_config_reaches_achievable", "nb03-29"),
        *said("nb03-29", best_bw=f'{best_bw:.2f}'),
        *said("nb03-29", gate16_n=f'{gate16.N}', gate16_blocks_64=f'{gate16.N // 64}'),
        *said("nb03-29", "input", tile_64="64"),
        holds(
            g_best.split_k == 1 and g_cost.bound == "dram" and g_cost.blocks > busy,
            "gate16_oracle_dram_bound",
            "nb03-29",
        ),
        *said(
            "nb03-29",
            g_best_num_warps=f'{g_best.num_warps}',
            g_best_num_stages=f'{g_best.num_stages}',
            g_cost_blocks=f'{g_cost.blocks}',
            g_cost_dram_us=f'{g_cost.dram_us:.1f}',
            g_t=f'{g_t:.1f}',
        ),
        *said("nb03-29", g_split=f'{g_split:.1f}', gate16_split_slower=f'{g_split / g_t - 1:.1%}'),
    ]

    # ----- Section 5
    prefill = shapes.layer_shape("8B gate_up", 2048)
    cells = {
        (bm, bn): table.time(GemmConfig(bm, bn, 64, 8, 4, 1), prefill)
        for bm in gemm_config.FIELDS["block_m"]
        for bn in gemm_config.FIELDS["block_n"]
    }
    ranked = sorted((t, k) for k, t in cells.items() if math.isfinite(t))
    neighbours = report.neighbours(table, prefill)
    cannot = [n for n in neighbours if "cannot" in n]
    ratios = [float(re.search(r"(\d+\.\d+)x", n).group(1)) for n in neighbours if "cannot" not in n]
    ties = [r for r in ratios if r == 1.0]
    slower = [r for r in ratios if r > 1.0]
    decode_oracle, prefill_oracle = table.oracle(qkv16)[0], table.oracle(prefill)[0]
    differ = [f for f in gemm_config.FIELDS if getattr(decode_oracle, f) != getattr(prefill_oracle, f)]
    g003 = [r for r in data.measurement_rows() if r["id"] == "G003"][0]
    out += [
        *said("nb03-30", "input", warps_per_sub_partition="4"),
        *said("nb03-30", cost_warps_full=f'{cost.WARPS_FULL}'),
        *said(("nb03-30", "nb03-56", "nb03-ex2"), cost_mma_fallback=f'{_pct(cost.MMA_FALLBACK)}'),
        *said(
            "nb03-30",
            h100_tc_sustained_share=f'{h100.tc_sustained_share:.1%}',
            validate_best_efficiency_h100=f'{validate.best_efficiency(h100):.1%}',
            g003_measured_tflops_over_h100_bf16=f"{g003['measured_tflops'] * 1000000000000.0 / h100.bf16_flops:.1%}",
        ),
        holds((h100.mma_min_rows, h100.mma_min_warps) == (64, 4), "full_speed_needs_row_tiles", "nb03-30"),
        *said("nb03-30", "input", mma_rows_64="64"),
        holds(
            ranked[0][1] == (256, 128) and ranked[1][1] == (128, 256) and ranked[2][1] == (128, 128),
            "slice_best_cells",
            "nb03-32",
        ),
        *said(
            "nb03-32",
            slice_best_us=f'{ranked[0][0]:.1f}',
            slice_second_behind=f'{ranked[1][0] / ranked[0][0] - 1:.1%}',
            slice_third_behind=f'{ranked[2][0] / ranked[0][0] - 1:.0%}',
            slice_cannot_launch=f'{sum((not math.isfinite(t) for t in cells.values()))}',
            slice_cells=f'{len(cells)}',
        ),
        *said(
            "nb03-34",
            n_one_field_changes=f'{len(neighbours)}',
            n_changes_cannot_launch=f'{len(cannot)}',
            n_changes_tie=f'{len(ties)}',
            n_changes_slower=f'{len(slower)}',
            changes_slower_min=f'{min(slower):.2f}',
            changes_slower_max=f'{max(slower):.2f}',
        ),
        *said("nb03-34", "input", block_k_64="64"),
        holds(len(differ) == 6, "decode_prefill_oracles_differ", "nb03-34"),
        *said("nb03-34", n_fields_differ=f'{len(differ)}'),
        *said("nb03-34", "input", warps_4="4", warps_8="8"),
        holds(
            sorted(
                n.split("=")[0].strip() + "=" + n.split("=")[1].split()[0] + ":" + n.split("(")[-1].rstrip(")")
                for n in cannot
            )
            == [
                "block_k=128:shared memory",
                "block_k=256:shared memory",
                "block_n=256:registers",
                "num_warps=2:registers",
                "num_warps=4:registers",
            ],
            "prefill_cannot_launch_reasons",
            "nb03-34",
        ),
        *said("nb03-34", "input", block_k_128="128", block_k_256="256"),
        *said("nb03-34", changes_cost_min=f'{min(slower) - 1:.0%}'),
    ]

    # ----- Section 6
    at_prefill = {table.oracle(s)[0] for s in all_shapes if s.M >= 2048 and s.name != "70B/8 qkv"}
    split_shapes = {(s.name, s.M) for s in all_shapes if table.oracle(s)[0].split_k > 1}
    gains = {s: table.time(expert.expert_config(s), s) / table.oracle(s)[1] for s in all_shapes}
    big_gains = sorted(((g, s) for s, g in gains.items() if g > 1.05), key=lambda x: -x[0])
    log_total = sum(math.log(g) for g in gains.values())
    top5 = sum(math.log(g) for g, _ in big_gains[:5])
    mid_bm = sorted({table.oracle(x)[0].block_m for x in all_shapes if 16 < x.M < 2048})
    out += [
        holds({table.oracle(x)[0].block_m for x in all_shapes if x.M <= 16} == {16}, "three_families", "nb03-37"),
        *said("nb03-37", "input", rows_16="16"),
        *said("nb03-37", mid_rows_min=f'{mid_bm[0]}', mid_rows_max=f'{mid_bm[-1]}'),
        holds(at_prefill == {GemmConfig(256, 128, 32, 8, 4, 1)}, "one_prefill_config", "nb03-37"),
        *said("nb03-37", "input", warps_8="8", stages_4="4"),
        holds({n for n, _ in split_shapes} == {"70B/8 qkv", "8B down"}, "split_k_only_two_layers", "nb03-37"),
        *said(("nb03-37", "nb03-42"), qkv_n_layer=f"{shapes.LAYERS['70B/8 qkv'][0]}"),
        *said("nb03-37", down_k=f"{shapes.LAYERS['8B down'][1]}"),
        holds(
            vllm.tuned_configs()[min(vllm.tuned_configs())] == expert.EXPERT_RULES[0][1],
            "expert_decode_is_vllm",
            "nb03-37",
        ),
        *said(
            "nb03-40",
            oracle_over_expert=f'{report.oracle_speedup(all_shapes, table):.3f}',
            oracle_over_expert_train=f'{report.oracle_speedup(train, table):.3f}',
            oracle_over_expert_test=f'{report.oracle_speedup(test, table):.3f}',
        ),
        *said(("nb03-40", "nb03-42", "nb03-45"), n_shapes=f'{len(all_shapes)}'),
        *said("nb03-40", n_big_gains=f'{len(big_gains)}'),
        *said("nb03-40", "input", gain_5pct="5%"),
        *said(
            "nb03-40",
            top5_log_gain_share=f'{top5 / log_total:.0%}',
            top_gain_m=f'{big_gains[0][1].M}',
            top_gain=f"{big_gains[0][0]:.2f}x",
        ),
    ]
    # Think! 7
    narrow = [s for s in all_shapes if s.N <= 2048]
    narrow_loses = sorted(s.M for s in narrow if gains[s] > 1.05)
    narrow_blocks = [cost.gemm_time(expert.expert_config(s), s, h100).blocks for s in narrow if s.M <= 512]
    wide_mid = [s for s in all_shapes if s.M in (256, 512) and s.N > 2048]
    wide_blocks = [cost.gemm_time(expert.expert_config(s), s, h100).blocks for s in wide_mid if gains[s] > 1.05]
    share_narrow = sum(math.log(gains[s]) for s in narrow) / log_total
    share_wide = sum(math.log(gains[s]) for s in wide_mid) / log_total

    def with_rule(s: Shape) -> GemmConfig:
        c = expert.expert_config(s)
        return (
            GemmConfig(c.block_m, c.block_n, c.block_k, c.num_warps, c.num_stages, 4)
            if s.N <= 2048 and s.M <= 512
            else c
        )

    rule_gain = report.geomean(
        [table.time(expert.expert_config(s), s) / table.time(with_rule(s), s) for s in all_shapes]
    )
    down256 = shapes.layer_shape("8B down", 256)
    out += [
        holds(
            narrow_loses[-1] == 512
            and all(m in narrow_loses for m in shapes.LECTURE_M if m <= 512)
            and all(s.name == "70B/8 qkv" for s in narrow),
            "narrow_loses_at_every_m",
            "nb03-42",
        ),
        *said("nb03-42", "input", m_512="512"),
        *said(
            "nb03-42",
            narrow_blocks_min=f'{min(narrow_blocks)}',
            narrow_blocks_max=f'{max(narrow_blocks)}',
            narrow_log_share=f'{share_narrow:.0%}',
        ),
        *said("nb03-42", "input", m_256="256"),
        *said(
            "nb03-42",
            wide_blocks_min=f'{min(wide_blocks)}',
            wide_blocks_max=f'{max(wide_blocks)}',
            down_256_gain=f"{gains[down256]:.2f}x",
            wide_log_share=f'{share_wide:.0%}',
        ),
        *said(
            "nb03-42",
            one_rule_gain=f"{rule_gain:.3f}x",
            one_rule_log_share=f'{math.log(rule_gain) * len(all_shapes) / sum((math.log(gains[s]) for s in narrow)):.0%}',
        ),
    ]

    # ----- Section 7
    rows7 = report.shape_rows(table, [s for s in all_shapes if s.M in (1, 16, 2048, 8192)])
    dec = [r for r in rows7 if r.shape.M <= 16]
    pre = [r for r in rows7 if r.shape.M >= 2048]
    dmin, dmax = min(dec, key=lambda r: r.closeness), max(dec, key=lambda r: r.closeness)
    pmin, pmax = min(pre, key=lambda r: r.closeness), max(pre, key=lambda r: r.closeness)
    regimes = report.closeness_by_regime(table, all_shapes)
    o_dec = {name: shapes.layer_shape(name, 1) for name in ("70B/8 o", "8B gate_up")}
    oc = {name: cost.gemm_time(table.oracle(s)[0], s, h100) for name, s in o_dec.items()}
    fixed_dec = {name: c.launch_us + c.fill_us + c.reduction_us for name, c in oc.items()}
    out += [
        *said(
            "nb03-45",
            decode_closeness_min=f'{dmin.closeness:.1%}',
            decode_closeness_max=f'{dmax.closeness:.1%}',
            prefill_closeness_min=f'{pmin.closeness:.1%}',
            prefill_closeness_min_m=f'{pmin.shape.M}',
            prefill_closeness_max=f'{pmax.closeness:.1%}',
        ),
        *said(
            "nb03-45",
            decode_closeness=f"{regimes['decode']:.0%}",
            mid_closeness=f"{regimes['mid']:.0%}",
            prefill_closeness=f"{regimes['prefill']:.0%}",
        ),
        *said("nb03-45", qkv_weights_mb=f"{weights['70B/8 o']:.1f}", gate_up_weights_mb=f"{weights['8B gate_up']:.0f}"),
        *said(
            "nb03-45",
            gate_up_roof_share=f"{table.roofline(o_dec['8B gate_up']) / oc['8B gate_up'].time_us:.0%}",
            qkv_roof_share=f"{table.roofline(o_dec['70B/8 o']) / oc['70B/8 o'].time_us:.0%}",
        ),
        *said("nb03-45", "input", m_1="1"),
        holds(abs(fixed_dec["70B/8 o"] - fixed_dec["8B gate_up"]) < 0.1, "fixed_costs_alike", "nb03-45"),
        *said("nb03-45", qkv_fixed_us=f"{fixed_dec['70B/8 o']:.1f}"),
        *said(
            "nb03-45",
            qkv_fixed_share=f"{fixed_dec['70B/8 o'] / oc['70B/8 o'].time_us:.0%}",
            qkv_oracle_us=f"{oc['70B/8 o'].time_us:.1f}",
            qkv_roof_us=f"{table.roofline(o_dec['70B/8 o']):.1f}",
            gate_up_fixed_share=f"{fixed_dec['8B gate_up'] / oc['8B gate_up'].time_us:.0%}",
            gate_up_oracle_us=f"{oc['8B gate_up'].time_us:.1f}",
        ),
    ]

    # ----- Section 8
    rows_all = data.measurement_rows()
    found = validate.checks()
    s = validate.summary(found)
    gpus_used = sorted({m.gpu for m in validate.measurements()})
    best_rows = {"H100": "G003", "A100": "G001", "B200": "G005"}
    cal = {g: validate.calibration(get_gpu(g)) for g in ("H100", "A100", "B200")}
    a100 = get_gpu("A100")
    within = sum(1 for c in found if c.off_by <= 1.25)
    errs = {(r["by"], r["group"]): r for r in validate.error_table(found)}
    out += [
        *said("nb03-46", n_rows=f'{len(rows_all)}'),
        holds(
            gpus_used == ["A100", "B200", "H100"] and all(r["why_not_used"] for r in rows_all if r["use"] == "no"),
            "validation_rows_split",
            "nb03-46",
        ),
        *said(("nb03-46", "nb03-50", "nb03-52", "nb03-summary"), n_validation_rows=f"{s['n']}"),
        holds(
            all(
                abs(
                    validate.best_efficiency(get_gpu(g))
                    - float([r for r in rows_all if r["id"] == i][0]["measured_tflops"]) * 1e12 / get_gpu(g).bf16_flops
                )
                < 2e-3
                for g, i in best_rows.items()
            ),
            "shape_search_rows",
            "nb03-46",
        ),
        *said(
            "nb03-48",
            cal_tc_sustained_share=f"{cal['H100']['sustained share']:.1%}",
            cal_best_square=f"{cal['H100']['best square GEMM']:.1%}",
            cal_achievable_tb_per_s=f"{cal['H100']['achievable TB/s']:.3f}",
            cal_achievable_share=f"{_pct(cal['H100']['achievable share'])}",
            cal_load_latency_us=f"{cal['H100']['loaded latency us']:.3f}",
            cal_launch_us=f"{cal['H100']['launch us']:.1f}",
        ),
        holds(
            "1.62 TB/s" in a100.calibration_source and "assumed" in a100.calibration_source,
            "a100_bandwidth_from_elementwise",
            "nb03-48",
        ),
        *said(
            "nb03-48",
            a100_hbm_achievable_share=f'{_pct(a100.hbm_achievable_share)}',
            a100_launch_s=f'{a100.launch_s * 1000000.0:.1f}',
        ),
        *said("nb03-50", n_within_band=f'{within}'),
        *said("nb03-50", "input", band_1_25="1.25"),
        *said(("nb03-52", "nb03-summary"), geomean_error=f"{s['geomean_error']:.1%}"),
        holds(
            s["geomean_error"] < validate.TARGET_GEOMEAN_ERROR and s["worst"]["off_by"] < validate.TARGET_WORST_RATIO,
            "within_targets",
            "nb03-52",
        ),
        *said(("nb03-52", "nb03-summary", "nb03-ex4"), worst_off_by=f"{s['worst']['off_by']:.2f}x"),
        *said("nb03-52", target_error=f'{validate.TARGET_GEOMEAN_ERROR:.0%}'),
        *said(("nb03-52", "nb03-ex4"), target_worst_ratio=f"{validate.TARGET_WORST_RATIO:.2f}x"),
        holds(
            min(s["by_regime"], key=lambda k: s["by_regime"][k]["geomean_error"]) == "decode",
            "decode_easiest",
            "nb03-52",
        ),
        *said("nb03-52", error_decode=f"{s['by_regime']['decode']['geomean_error']:.1%}"),
        *said(
            "nb03-52",
            error_prefill=f"{s['by_regime']['prefill']['geomean_error']:.1%}",
            error_mid=f"{s['by_regime']['mid']['geomean_error']:.1%}",
        ),
        holds(
            max((r for r in errs.values() if r["by"] == "timing"), key=lambda r: r["geomean_error"])["group"]
            == "per_call",
            "mid_hardest",
            "nb03-52",
        ),
        *said("nb03-52", error_per_call_rows=f"{errs['timing', 'per_call']['geomean_error']:.1%}"),
    ]
    # the worst rows
    worst = {c.measurement.id: c for c in validate.worst_checks(found)}
    note22 = [r for r in rows_all if r["id"] == "G022"][0]
    before = float(re.search(r"Drop vs 2560 \((\d+\.\d+)\)", note22["notes"]).group(1))
    g22, g66 = worst["G022"], worst["G066"]
    tiles22 = math.ceil(2688 / 128) ** 2
    b200 = get_gpu("B200")
    k66 = cost.gemm_time(g66.config, g66.measurement.shape, b200, g66.schedule)
    g16, g11 = worst["G016"], worst["G011"]
    share16 = validate.PER_CALL_OVERHEAD_US / g16.model_us
    share11 = validate.PER_CALL_OVERHEAD_US / g11.model_us
    a_rows = {i: [r for r in rows_all if r["id"] == i][0] for i in ("G024", "G026", "G001")}
    out += [
        holds(
            list(worst)[:2] == ["G022", "G066"] and g22.ratio < 1 and g22.measurement.shape.M == 2688,
            "g022_model_too_fast",
            "nb03-54",
        ),
        *said("nb03-54", "input", shape_2688="2688"),
        *said("nb03-54", g022_ratio=f"{g22.ratio:.2f}x"),
        *said("nb03-54", g022_before_tflops=f'{before:.0f}', g022_after_tflops=f"{note22['measured_tflops']:.0f}"),
        *said("nb03-54", "input", shape_2560="2560"),
        *said("nb03-54", tiles_per_side_2688=f'{2688 // 128}'),
        *said("nb03-54", "input", tile_128="128"),
        *said("nb03-54", g022_tiles=f'{tiles22}', g022_waves=f'{tiles22 / h100.sms:.2f}'),
        holds(g22.schedule == "stream_k", "g022_model_under_cublas", "nb03-54"),
        *said("nb03-54", g022_model_us=f'{g22.model_us:.1f}', g022_measured_us=f'{g22.measurement.measured_us:.1f}'),
        *said("nb03-54", g066_ratio=f"{g66.ratio:.2f}x"),
        holds(g66.schedule == "stream_k", "g066_long_k_even", "nb03-54"),
        *said("nb03-54", g066_blocks=f'{k66.blocks}', b200_sms=f'{b200.sms}'),
        *said(
            "nb03-54",
            g001_tflops=f"{[r for r in rows_all if r['id'] == 'G066'][0]['measured_tflops']:.0f}",
            g001_peak_share=f"{[r for r in rows_all if r['id'] == 'G066'][0]['measured_tflops'] * 1000000000000.0 / b200.bf16_flops:.0%}",
        ),
        holds(
            g16.ratio > 1 and g11.ratio > 1 and g16.measurement.shape.M == 512, "g016_g011_model_too_slow", "nb03-54"
        ),
        *said(
            "nb03-54",
            g016_g011_ratio_min=f"{min(g16.ratio, g11.ratio):.2f}x",
            g016_kernel_us=f'{g16.kernel_us:.2f}',
            share16=f'{share16:.0%}',
            share11=f'{share11:.0%}',
        ),
        *said("nb03-54", "input", shape_512="512"),
        *said(("nb03-54", "nb03-56", "nb03-ex4"), per_call_overhead_us=f'{validate.PER_CALL_OVERHEAD_US:.2f}'),
        *said("nb03-54", "input", shape_4096="4096"),
        *said("nb03-54", g026_g024_ratio=f"{min(worst['G026'].ratio, worst['G024'].ratio):.2f}x"),
        holds(a_rows["G026"]["dtype"] == "bf16" and a_rows["G024"]["dtype"] == "fp16", "a100_rows_low", "nb03-54"),
        *said(
            "nb03-54",
            g026_tflops=f"{a_rows['G026']['measured_tflops']:.1f}",
            g024_tflops=f"{a_rows['G024']['measured_tflops']:.1f}",
            g024_peak_share=f"{a_rows['G024']['measured_tflops'] * 1000000000000.0 / a100.bf16_flops:.0%}",
            g001_a100_peak_share=f"{a_rows['G001']['measured_tflops'] * 1000000000000.0 / a100.bf16_flops:.1%}",
        ),
    ]
    # what the timing method adds
    g17 = rows["G017"]
    timed = validate.as_timed(g17)
    out += [
        *said("nb03-56", g017_m=f'{g17.shape.M}', timed_trace=f"{timed['trace']:.2f}"),
        *said("nb03-56", timed_graph=f"{timed['graph']:.2f}"),
        *said("nb03-56", timed_per_call=f"{timed['per_call']:.2f}"),
        holds(timed["back_to_back"] == validate.EAGER_FLOOR_US, "back_to_back_is_eager_floor", "nb03-56"),
        *said(
            "nb03-56",
            timed_back_to_back=f"{timed['back_to_back']:.1f}",
            eager_floor_us=f'{validate.EAGER_FLOOR_US:.1f}',
        ),
        holds(
            g17.measured_us > rows["G033"].measured_us and timed["per_call"] > timed["back_to_back"],
            "per_call_above_back_to_back",
            "nb03-56",
        ),
        *said("nb03-56", g017_measured_us=f'{g17.measured_us:.2f}', g033_measured_us=f"{rows['G033'].measured_us:.2f}"),
        holds("256x144" in [r for r in rows_all if r["id"] == "G060"][0]["library"], "g060_tile_256x144", "nb03-56"),
    ]
    # Think! 9
    base_ranks = {(r.M, r.gemm): r for r in vllm.vllm_ranks(table)}
    fast_ranks = {(r.M, r.gemm): r for r in solutions.vllm_ranks_at(0.5e-6)}
    slow_ranks = {(r.M, r.gemm): r for r in solutions.vllm_ranks_at(1.2e-6)}
    out += [
        *said("nb03-56", "input", vllm_entry_256="256", latency_low="0.5", latency_high="1.2"),
        *said(
            ("nb03-56", "nb03-59"),
            rank_at_low_latency=f"{fast_ranks[256, 'gate/up'].rank}",
            rank_at_high_latency=f"{slow_ranks[256, 'gate/up'].rank}",
        ),
    ]

    # ----- Section 9
    ranks = vllm.vllm_ranks(table)
    worst_rank = max(ranks, key=lambda r: r.top_share)
    n_launch = int(table.launchable.sum())
    prefill_ranks = [r for r in ranks if r.key >= 5120]
    mid = [r for r in ranks if r.key in (256, 512, 2048)]
    mid256 = [r for r in mid if r.M == 256]
    out += [
        *said("nb03-57", n_vllm_entries=f'{len(vllm.tuned_configs())}'),
        *said(("nb03-57", "nb03-references"), vllm_hidden=f'{vllm.HIDDEN}'),
        *said("nb03-57", vllm_gate_up_n=f'{2 * vllm.FILE_N}', vllm_file_n=f'{vllm.FILE_N}'),
        holds(
            8192 not in vllm.tuned_configs() and vllm.chosen_key(8192, list(vllm.tuned_configs())) == 9216,
            "no_8192_key",
            "nb03-57",
        ),
        *said("nb03-57", "input", key_9216="9216"),
        *said(("nb03-57", "nb03-59"), n_launchable=f'{n_launch}'),
        holds(all(r.top_share <= 0.02 for r in ranks), "vllm_top_2pct", "nb03-59"),
        *said("nb03-59", "input", top_2pct="2%"),
        *said(
            "nb03-59",
            worst_rank=f'{worst_rank.rank}',
            worst_rank_share=f'{worst_rank.top_share:.1%}',
            worst_rank_m=f'{worst_rank.M}',
        ),
        holds(all(r.rank == 1 for r in ranks if r.M == 1), "vllm_decode_best", "nb03-59"),
        *said("nb03-59", "input", rank_1="1"),
        holds(all(r.rank == 6 and r.slowdown <= 1.01 for r in prefill_ranks), "prefill_entries_rank_6", "nb03-59"),
        *said("nb03-59", "input", key_5120="5120", key_9216="9216", rank_6="6", within_1pct="1%"),
        holds(
            all(r.config.num_warps == 4 and (r.config.block_m, r.config.block_n) == (128, 128) for r in mid),
            "mid_keys_128x128",
            "nb03-59",
        ),
        *said("nb03-59", "input", key_512="512", key_2048="2048", warps_4="4"),
        *said(
            "nb03-59",
            mid_behind_min=f'{min((r.slowdown for r in mid)) - 1:.0%}',
            mid_behind_max=f'{max((r.slowdown for r in mid)) - 1:.0%}',
        ),
        holds(
            all(
                r.bound == "latency"
                and r.config.num_stages == 3
                and r.oracle.num_warps == 8
                and r.oracle.num_stages == 4
                for r in mid256
            ),
            "m256_latency_bound",
            "nb03-59",
        ),
        *said("nb03-59", "input", stages_3="3", warps_8="8"),
        holds(
            all(
                r.bound == "sm_load" and r.oracle.num_warps == 8 and {r.oracle.block_m, r.oracle.block_n} == {128, 256}
                for r in mid
                if r.M in (512, 2048)
            ),
            "mid_sm_load_bound",
            "nb03-59",
        ),
        holds(
            worst_rank.M == 256 and worst_rank.config == GemmConfig(128, 128, 64, 4, 3, 1),
            "worst_is_entry_256",
            "nb03-59",
        ),
        *said("nb03-59", worst_rank_slowdown=f'{worst_rank.slowdown:.2f}'),
        holds(fast_ranks[256, "gate/up"].slowdown < 1.005, "entry_256_by_latency", "nb03-59"),
        *said("nb03-59", "input", latency_low="0.5", latency_high="1.2"),
        holds(worst_rank.oracle == GemmConfig(128, 128, 64, 8, 4, 1), "entry_256_oracle", "nb03-59"),
    ]

    # ----- the demo's "What to look for"
    panel_ks = {k: table.time(GemmConfig(16, 64, 128, 4, 3, k), qkv16) for k in gemm_config.FIELDS["split_k"]}
    fastest = min(panel_ks, key=panel_ks.get)
    req = [gemm_config.shared_memory_bytes(c) for c in expert_configs]
    steps = sorted({max(1, round(2 ** (0.25 * i))) for i in range(57)})
    gate = {m: shapes.layer_shape("8B gate_up", m) for m in steps}

    def best_cell(shape: Shape) -> tuple[int, int]:
        grid = {
            (bm, bn): table.time(GemmConfig(bm, bn, 64, 8, 3, 1), shape)
            for bm in gemm_config.FIELDS["block_m"]
            for bn in gemm_config.FIELDS["block_n"]
        }
        return min(grid, key=grid.get)

    first = next(m for m in steps if best_cell(gate[m]) == (128, 256))
    above = [m for m in steps if m >= first]
    hits = [m for m in above if best_cell(gate[m]) == (128, 256)]
    g2048 = {c: table.time(GemmConfig(*c, 64, 8, 3, 1), gate[2048]) for c in ((256, 128), (128, 256))}
    out += [
        holds(fastest == 8, "panel_split_k_8_best", "nb03-63"),
        *said("nb03-63", "input", split_k_8="8", split_k_1="1", split_k_2="2", split_k_4="4"),
        *said(
            "nb03-63",
            panel_split8_us=f'{panel_ks[8]:.2f}',
            panel_split8_ratio=f'{panel_ks[8] / table.oracle(qkv16)[1]:.2f}',
            qkv_oracle_us_2f=f'{table.oracle(qkv16)[1]:.2f}',
            panel_split1_us=f'{panel_ks[1]:.2f}',
            panel_split2_us=f'{panel_ks[2]:.2f}',
            panel_split4_us=f'{panel_ks[4]:.2f}',
        ),
        *said("nb03-63", "input", stages_3="3"),
        holds(min(req) > l40s.smem_per_block, "expert_configs_too_big_for_l40s", "nb03-63"),
        *said(
            "nb03-63",
            decode_config_bytes=f'{req[0]:,}',
            mid_config_bytes=f'{req[1]:,}',
            prefill_config_bytes=f'{req[2]:,}',
        ),
        *said("nb03-63", first_m_128x256=f'{first}'),
        *said("nb03-63", n_m_128x256_best=f'{len(hits)}', n_positions_above=f'{len(above)}'),
        holds(best_cell(gate[2048]) == (256, 128), "cell_256x128_best_at_2048", "nb03-63"),
        *said("nb03-63", "input", m_2048="2048"),
        *said(
            "nb03-63",
            cell_256x128_ahead=f'{g2048[128, 256] / g2048[256, 128] - 1:.1%}',
            cell_256x128_us=f'{g2048[256, 128]:.1f}',
            cell_128x256_us=f'{g2048[128, 256]:.1f}',
        ),
    ]

    # ----- Summary
    out += [
        *said("nb03-summary", "input", warps_8="8"),
        *said("nb03-summary", "input", top_2pct="2%"),
    ]

    # ----- Exercises
    tr = solutions.speedup_over_expert(solutions.choose, train, table)
    te = solutions.speedup_over_expert(solutions.choose, test, table)
    o_tr, o_te = report.oracle_speedup(train, table), report.oracle_speedup(test, table)
    losses = [
        table.time(solutions.choose(x.M, x.N, x.K), x) / table.time(expert.expert_config(x), x) for x in all_shapes
    ]
    lost = [x for x, r in zip(all_shapes, losses) if r > 1.01]
    second = [table.time(expert.expert_config(x), x) / table.time(solutions.choose(x.M, x.N, x.K), x) for x in wide_mid]
    out += [
        *said(
            "nb03-ex1",
            choose_train=f'{tr:.3f}',
            choose_test=f'{te:.3f}',
            oracle_train=f'{o_tr:.3f}',
            oracle_test=f'{o_te:.3f}',
            choose_log_share=f'{math.log(tr) / math.log(o_tr):.0%}',
        ),
        holds(all(solutions.choose(x.M, x.N, x.K).block_m == 128 for x in wide_mid), "choose_128_tile_mid", "nb03-ex1"),
        *said("nb03-ex1", "input", warps_8="8", m_256="256", m_512="512"),
        *said(
            "nb03-ex1",
            choose_second_group_share=f'{sum((math.log(r) for r in second)) / sum((math.log(gains[x]) for x in wide_mid)):.0%}',
        ),
        holds(
            {x.M for x in lost} == {256, 512} and all(gains[x] < 1.01 for x in lost),
            "choose_loses_where_expert_is_oracle",
            "nb03-ex1",
        ),
        *said("nb03-ex1", choose_n_lost=f'{len(lost)}', choose_worst_loss=f'{max(losses):.2f}'),
    ]
    h_bm, a_bm = solutions.oracle_block_m("H100"), solutions.oracle_block_m("A100")
    gate24 = shapes.layer_shape("8B gate_up", 24)
    out += [
        holds(
            h_bm == {16: 16, 24: 64, 48: 64, 64: 64} and a_bm == {16: 16, 24: 32, 48: 64, 64: 64},
            "oracle_block_m_by_gpu",
            "nb03-ex2",
        ),
        *said("nb03-ex2", "input", section4_m="16", rows_64="64", m_24="24", rows_32="32", m_48="48"),
        holds(cost.gemm_time(table.oracle(gate24)[0], gate24, h100).bound == "dram", "m24_dram_bound", "nb03-ex2"),
        *said(
            "nb03-ex2",
            small_tile_penalty_h100_m24=f"{solutions.small_tile_penalty('H100', M=24) - 1:.1%}",
            small_tile_penalty_h100_m48=f"{solutions.small_tile_penalty('H100', M=48) - 1:.1%}",
            small_tile_penalty_a100_m48=f"{solutions.small_tile_penalty('A100', M=48) - 1:.1%}",
        ),
    ]
    base, fast, slow = base_ranks[256, "gate/up"], fast_ranks[256, "gate/up"], slow_ranks[256, "gate/up"]
    out += [
        holds(
            max(base_ranks, key=lambda k: abs(slow_ranks[k].rank - fast_ranks[k].rank))[0] == 256,
            "entry_256_moves_most",
            "nb03-ex3",
        ),
        *said("nb03-ex3", "input", vllm_entry_256="256", latency_low="0.5", latency_high="1.2"),
        *said(
            "nb03-ex3",
            rank_fitted=f'{base.rank}',
            rank_low=f'{fast.rank}',
            rank_high=f'{slow.rank}',
            slowdown_high=f'{slow.slowdown:.2f}',
        ),
        holds(base.config.num_stages == 3, "entry_256_three_stages", "nb03-ex3"),
        *said("nb03-ex3", "input", stages_3="3"),
        holds(
            all(r.rank <= 9 for runs in (fast_ranks, slow_ranks) for (m, _), r in runs.items() if m <= 16),
            "decode_entries_top_9",
            "nb03-ex3",
        ),
        *said("nb03-ex3", "input", top_9="9"),
    ]
    errors = solutions.error_without_timing(found)
    worst_kernel = max(
        max(c.kernel_us / c.measurement.measured_us, c.measurement.measured_us / c.kernel_us) for c in found
    )
    out += [
        holds(
            errors["all"][1] > errors["all"][0] and worst_kernel > validate.TARGET_WORST_RATIO > s["worst"]["off_by"],
            "error_grows_without_timing",
            "nb03-ex4",
        ),
        *said(
            "nb03-ex4",
            error_all_with=f"{errors['all'][0]:.1%}",
            error_all_without=f"{errors['all'][1]:.1%}",
            worst_row_without=f"{worst_kernel:.2f}x",
        ),
        holds(max(errors, key=lambda k: errors[k][1] - errors[k][0]) == "per_call", "per_call_grows_most", "nb03-ex4"),
        *said(
            "nb03-ex4",
            error_per_call_with=f"{errors['per_call'][0]:.1%}",
            error_per_call_without=f"{errors['per_call'][1]:.1%}",
        ),
        *said(
            "nb03-ex4",
            error_back_to_back_with=f"{errors['back_to_back'][0]:.1%}",
            error_back_to_back_without=f"{errors['back_to_back'][1]:.1%}",
            error_graph=f"{errors['graph'][0]:.1%}",
        ),
        holds(
            errors["graph"][0] == errors["graph"][1] and errors["trace"][1] < errors["trace"][0],
            "trace_error_drops",
            "nb03-ex4",
        ),
        *said(
            "nb03-ex4", error_trace_with=f"{errors['trace'][0]:.1%}", error_trace_without=f"{errors['trace'][1]:.1%}"
        ),
    ]

    # ----- References and glossary
    out += [
        *said("nb03-references", "input", pytorch_ao_share="0.92", pytorch_ao_launch_us="2"),
        holds(
            all((get_gpu(g).mma_min_rows, get_gpu(g).mma_min_warps) == (1, 1) for g in ("A100", "L40S"))
            and get_gpu("H200").mma_min_warps == h100.mma_min_warps
            and get_gpu("B200").mma_min_warps == 1,
            "mma_rule_by_gpu",
            "nb03-references",
        ),
        *said(
            "nb03-references",
            mma_min_rows=f'{h100.mma_min_rows}',
            mma_min_warps=f'{h100.mma_min_warps}',
            b200_mma_min_rows=f"{get_gpu('B200').mma_min_rows}",
        ),
        *said("nb03-glossary", "input", warp_threads="32"),
        *said("nb03-glossary", "input", mma_rows_64="64", warpgroup_warps="4"),
    ]
    # ----- comparisons without a number of their own (tests/test_comparison_claims.py)
    out += [
        holds(l40s.smem_per_block < h100.smem_per_block / 2, "l40s_less_than_half_smem", "nb03-11"),
        holds(all(table.oracle(x)[1] >= table.roofline(x) for x in all_shapes), "dots_below_sloped_roof", "nb03-16"),
        holds(measured < waves_only[1] / waves_only[0], "measured_dips_shallower", "nb03-24"),
        holds(share_narrow + share_wide > 0.5, "big_losses_two_groups", "nb03-42"),
        holds(g16.ratio > 1 and g11.ratio > 1, "benchmarks_added_less", "nb03-54"),
        holds(o_tr > 1 and o_te > 1, "oracle_beats_expert", "nb03-summary"),
    ]
    # the names the prose states beside its numbers (words, not numbers): each one a check of its value
    out += [
        holds((light, heavy) == ("70B/8 o", "8B gate_up"), "lightest_and_heaviest_layers", "nb03-05"),
        holds(top.name == "8B down", "top_dot_layer", "nb03-16"),
        holds((g_best.block_m, g_best.block_n, g_best.block_k) == (16, 256, 64), "gate16_oracle_tile", "nb03-29"),
        holds(big_gains[0][1].name == "70B/8 qkv", "top_gain_layer", "nb03-40"),
        holds(
            (dmin.shape.name, dmax.shape.name, pmin.shape.name) == ("70B/8 o", "8B gate_up", "70B/8 qkv"),
            "closeness_extreme_layers",
            "nb03-45",
        ),
        holds(worst_rank.gemm == "gate/up", "worst_rank_gemm", "nb03-59"),
    ]
    return INPUTS + out
