"""Notebook 03's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`quotes()` returns each phrase of the markdown that states a number, built from the pack's computed values; a claim
that is not a number ("the curves meet", "the lowest rank") is checked with `_holds` before its phrase is returned.
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
from prose.phrasing import holds as _holds, pct as _pct

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, how the model is built, datasheet or paper facts.
NOT_RESULTS = [
    "Every function below comes from the",
    "A kernel runs as a grid of **thread blocks**",
    "* warp tiling: each warp needs at least a 16x16 piece",
    "Which of the three checks fails more often there",
    "A GEMM must do $2MNK$ floating-point operations",
    "No kernel can beat the time to do the math at the peak",
    "The ratio of FLOP to bytes is the **arithmetic intensity**",
    "When M is much smaller than N and K the bytes are mostly the weight",
    "Below, every lecture shape.",
    "The dot is the **oracle**: the fastest launchable config",
    "Why do the dots on the left sit *parallel* to the sloped roof",
    "What would a dot above the roof mean?",
    "A dot above the roof would be a config faster than the datasheet allows",
    "checks that no config beats it on any shape",
    "`python -m toyhw validate` prints the model against every row",
    "Below, N grows one tile column at a time",
    "The padded rows are never loaded either",
    "The model's memory side has three limits",
    "* **DRAM traffic over bandwidth**",
    "A block issues its loads `stages - 1` K steps ahead",
    "A search whose every step changes one field must cross those valleys",
    "Where the expert loses more than 5%, with the expert's problem",
    "Name them, and write the one extra rule",
    "The fixed costs do not depend on the tile, so no config removes them",
    "Four figures per GPU in `data/gpus.csv`",
    "The worst rows:",
    "Before comparing two published GEMM timings",
    "Which of the misses above would change such a ranking",
    "A ceiling that is too high for one GPU (the A100 rows)",
    "These constants were fitted to timings of the libraries' best kernels",
    "Pick the config the model ranks worst among vLLM's.",
    "Change only split_k: which value is fastest",
    "Write a heuristic `choose(M, N, K)`, returning a `GemmConfig`",
    "Keep it small: at most four ranges of M with one config each",
    "Lecture 14's score is the geometric-mean speedup over the expert; a right answer",  # the exercise's criterion  # the constraint: toyhw/course/checks/nb03.py
    "Finding rules that lose nowhere is what lecture 14's search automates.",
    "The missing effect is wgmma",
    "A model that ignored the timing method would have had to hide",
    "* NVIDIA, *H100 Tensor Core GPU* datasheet (SXM5)",
    "* The published GEMM timings: every row of",
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "8B gate_up needs at least 70.1 us at M = 1",
    "The highest dot is 8B down at M = 8192",
    "They sit below it because kernels reach only an achievable share",
    "Even the smallest tile, 16 rows, wastes",
    "With waves, one block more than the SMs costs a whole second wave",
    "a 16-wide tile makes 80 blocks without split-K",
    "The fastest split-K config takes",
    "Of the 19 one-field changes, 5 cannot launch",
    "The oracle is 1.148 times faster than the expert in geometric mean",
    "Only 32 of the 88 shapes gain more than 5%",
    "which moves vLLM's M = 256 entry from rank 7 to rank 173",
    "Held against 53 published timings the model is 8.5% off on average and never",
    "At M = 24 the H100 oracle pads",
]

PARAMETERS = [
    "split over 8 GPUs by tensor parallelism",  # Llama-3-70B at tensor-parallel 8: the lecture's layers
    "(4 blocks per step)",  # the wave plot's M = 512 over BLOCK_M = 128
    "Take 70B/8 qkv at M = 16",  # the shape Section 4 picks
    "Would split-K help it at M = 16?",
    "for 8B gate_up at M = 16, 24, 48 and 64",  # Exercise 2's shapes
    "at 0.5 us and at 1.2 us",  # Exercise 3's latencies
    "[solutions/03_gemm_cost_model.py](solutions/03_gemm_cost_model.py)",  # the solution file's link
    "a right answer scores above 1 on `TRAIN`",  # Exercise 1's threshold: the expert's own score is 1
    "The stub starts from the expert itself (score 1).",
    "(four rules, split-K 4 on the narrow layer)",  # the solution's rules (tests/gemm/test_solutions.py)
    "at 0.5 us",
    "at 1.2 us",
    "at tensor-parallel 8 (Jamba Team",
    "1. The panel starts at 70B/8 qkv, M = 16, with 16x64x128, 4 warps and 3 stages.",  # the panel's defaults
    "(128x256x64, 8 warps, 3 stages). Slide M up from 1:",
    "compute capabilities 8.0, 8.9, 9.0 and 10.0",  # the datasheets' compute capabilities
    "Communications of the ACM 52(4), 2009",  # bibliographic data
    "Operations Research 9(3), 1961",
    "issues #3672 (G016 to G023), #2339 (G011 to G015) and #743 (G024 to G027)",
    "issue #79 (G033 to G037)",
    "pull request #1679 (G066)",
    "issue #35467 (G060)",
    "Triton issue #743",
    "Blackwell's 2-CTA MMA",  # a name: the B200's two-SM tensor-core instruction
    "*PTX ISA* 8.7",  # the document's release
]


def _by_id() -> dict[str, validate.Measurement]:
    return {m.id: m for m in validate.measurements()}


def quotes() -> list[str]:  # noqa: C901 - one notebook, read top to bottom
    solutions = load_solution(NOTEBOOKS / "03_gemm_cost_model.ipynb")  # its solution file
    table = shared_table("H100")
    h100 = table.gpu
    all_shapes = shapes.all_shapes()
    train, test = shapes.split_shapes(all_shapes)
    q: list[str] = []

    # ----- Section 1
    (_, _, decode_hi), (_, mid_lo, mid_hi), _ = shapes.REGIMES
    prefill_m = [m for m in shapes.LECTURE_M if shapes.regime(m) == "prefill"]
    q.append(
        _holds(
            min(gemm_config.FIELDS["block_m"]) == decode_hi
            and all(shapes.regime(m) == "decode" for m in shapes.LECTURE_M if m <= decode_hi),
            f"decode up to M = {decode_hi}, where one block of the smallest tile "
            f"({min(gemm_config.FIELDS['block_m'])} rows) holds every row; mid from {mid_lo} to {mid_hi}, "
            f"large decode batches and short prompts alike; prefill above {mid_hi}, the lecture's prompt "
            f"lengths ({' and '.join(map(str, prefill_m))})",
        )
    )
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
    q += [
        f"hold between {weights[light]:.1f} MB ({light}) and {weights[heavy]:.1f} MB ({heavy})",
        f"An H100 has {h100.sms} **streaming multiprocessors**",
        "grouped in **warps** of 32 that issue",  # CUDA's warp size, a constant of the GPU
        f"Of the {len(space)} configs, {launch['H100']} can **launch** on an H100",
        f"per-block limit ({h100.smem_per_block:,} B on H100)",
        f"fit in {h100.max_regs_per_thread} registers per thread",
        _holds(
            gemm_config.launch_problem(tut[4], h100) is None and gemm_config.launch_problem(tut[5], h100) is not None,
            "tile 128x256x64 with 8 warps fits with 4 stages, not 5",
        ),
        f"Every stage of that tile costs {per_stage:,} B",
        _holds(
            launch["H100"] == launch["H200"] == launch["B200"],
            f"launch the same {launch['H100']} configs; shared memory is the first check to fail for "
            f"{kinds['H100']['shared memory']} of the others. The A100 launches {launch['A100']}, the L40S "
            f"{launch['L40S']}",
        ),
        # Think! 1
        _holds(
            kinds["L40S"]["shared memory"] > kinds["H100"]["shared memory"],
            f"With {l40s.smem_per_block:,} B per block against {h100.smem_per_block:,} B on H100 it is the first "
            f"failing check for {kinds['L40S']['shared memory']} configs instead of "
            f"{kinds['H100']['shared memory']}",
        ),
        f"fits {fits['H100']} stages on H100 but only {fits['L40S']} on the L40S",
        _holds(
            kinds["L40S"]["registers"] < kinds["H100"]["registers"]
            and kinds["L40S"]["warp tiling"] < kinds["H100"]["warp tiling"],
            f"(from {kinds['H100']['registers']} to {kinds['L40S']['registers']} and from "
            f"{kinds['H100']['warp tiling']} to {kinds['L40S']['warp tiling']})",
        ),
        _holds(
            all(gemm_config.shared_memory_bytes(c) > l40s.smem_per_block for c in expert_configs),
            f"need more than {l40s.smem_per_block:,} B, so none of them launches",
        ),
    ]

    # ----- Section 2
    gate_up = {m: shapes.layer_shape("8B gate_up", m) for m in (1, 8192)}
    roof = {m: table.roofline(s) for m, s in gate_up.items()}
    achieved = {s: s.flops() / table.oracle(s)[1] / 1e6 for s in all_shapes}
    top = max(achieved, key=achieved.get)
    close1 = roof[1] / table.oracle(gate_up[1])[1]
    q += [
        f"at the peak ({h100.bf16_flops / 1e12:.0f} TFLOP/s dense BF16 on H100)",
        f"at the full bandwidth ({h100.hbm_bytes_per_s / 1e12:.2f} TB/s)",
        f"The ridge is at {h100.ridge_flop_per_byte:.0f} FLOP/byte",
        f"needs at least {roof[1]:.1f} us at M = 1, where its weights bound the time, and {roof[8192]:.1f} us at "
        f"M = 8192, where the math does: 8192 times the tokens for {roof[8192] / roof[1]:.0f} times the time",
        f"The highest dot is {top.name} at M = {top.M}: {achieved[top]:.1f} TFLOP/s, "
        f"{achieved[top] * 1e12 / h100.bf16_flops:.1%} of the peak",
        # Think! 2
        f"({_pct(h100.hbm_achievable_share)} on H100 in the model, {h100.achievable_bytes_per_s / 1e12:.3f} TB/s;",
        f"8B gate_up at M = 1 gets {_pct(close1)} of its roofline",
        _holds(
            max(achieved.values()) * 1e12 / h100.bf16_flops < 0.8,
            f"just below 80% of the peak (the highest at {achieved[top] * 1e12 / h100.bf16_flops:.1%})",
        ),
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
    q += [
        f"so with M = 16 tokens a 128-row tile does {128 // 16} times the useful math",
        f"Even the smallest tile, 16 rows, wastes {_pct(waste(1, 16))} of its math at M = 1, and a 64-row tile "
        f"wastes {_pct(waste(24, 64))} at M = 24",
        f"are dealt to the {h100.sms} SMs",
        f"{h100.sms} blocks fill the H100 once; {h100.sms + 1} need a second wave",
        f"{w1.time_us:.1f} us become {w2.time_us:.1f} us, {w2.time_us / w1.time_us:.2f} times the time for "
        f"{(two.M * two.N) / (one.M * one.N) - 1:.1%} more work",
        f"every SM: {s2.time_us:.1f} us, of which {s2.reduction_us:.2f} us are the fix-up",
        _holds(met, f"(the curves meet at {meet[0]}, {meet[1]} and {meet[2]} blocks)"),
        f"with M = N = K = {small.shape.M} and {big.shape.M} on an H100",
        f"{big.shape.M} is {tiles_big} tiles of 128 x 128, {tiles_big / h100.sms:.2f} waves",
        _holds(
            either[1] / either[0] < measured < waves_only[1] / waves_only[0],
            f"The larger GEMM is {work:.2f} times the work. cuBLAS took {measured:.2f} times as long; the model "
            f"with data-parallel waves alone predicts {waves_only[1] / waves_only[0]:.2f} times, a deeper dip than "
            f"cuBLAS shows, and with stream-K allowed {either[1] / either[0]:.2f} times",
        ),
        # Think! 3
        f"the padding plot says {_pct(waste(1, 16))} of the math is wasted at M = 1 with BLOCK_M = 16",
        "(a 16-row A tile holds the one real token)",
        _holds(
            table.oracle(gate1)[0] == GemmConfig(16, 32, 64, 2, 5, 1),
            f"8B gate_up at M = 1 (16x32x64, 2 warps, 5 stages) pads {_pct(c1.padding_waste)} of its math",
        ),
        _holds(
            c1.compute_us < c1.dram_us,
            f"its tensor-core time is {c1.compute_us:.1f} us against {c1.dram_us:.1f} us of DRAM traffic",
        ),
        "meets the 64-row tiles of Section 5",
        # Think! 4
        "for M = N = K = 2048 on H100",
        _holds(
            dp < sk,
            f"For 2048³ the model's best data-parallel kernel takes {dp:.1f} us "
            f"({square.flops() / dp / 1e6:.0f} TFLOP/s) and its best stream-K kernel {sk:.1f} us "
            f"({square.flops() / sk / 1e6:.0f} TFLOP/s)",
        ),
        _holds(
            tiles_sq <= h100.sms and (dp_config.block_m, dp_config.block_n) == (256, 128),
            f"{tiles_sq} tiles of 256 x 128 fit in one wave on {h100.sms} SMs",
        ),
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
    q += [
        f"{_pct(h100.hbm_achievable_share)} on H100 ({h100.achievable_bytes_per_s / 1e12:.3f} TB/s)",
        _holds(h100.hbm_achievable_share == 0.92, "the share pytorch/ao assumes reachable"),
        _holds(cost.L2_TO_SM_FACTOR == 4.0, f"about {busy:.0f} busy SMs are needed to saturate HBM"),
        _holds(
            b["expert"].blocks < busy,
            f"With only {b['expert'].blocks} blocks, {h100.sms - b['expert'].blocks} SMs sit idle",
        ),
        f"**loaded latency** of {h100.load_latency_s * 1e6:.3f} us, {in_flight:.2f} MB must be in flight",
        f"the **launch** ({h100.launch_s * 1e6:.1f} us on H100 inside a **CUDA graph**",
        f"N = {qkv16.N}, so a 64-wide tile makes only {qkv16.N // 64} blocks",
        _holds(
            cand["expert"] == GemmConfig(16, 64, 256, 4, 5, 1),
            f"(16x64x256, 4 warps, 5 stages): {b['expert'].blocks} blocks for {h100.sms} SMs, bound by what "
            f"those SMs can pull: {b['expert'].time_us:.1f} us",
        ),
        _holds(b["expert"].bound == "sm_load", "bound by what those SMs can pull"),
        f"(32x16x256, 2 warps, 5 stages): a 16-wide tile makes {b['narrow'].blocks} blocks without split-K, "
        f"{b['narrow'].time_us:.1f} us, {b['narrow'].time_us / o.time_us - 1:.0%} slower",
        _holds(
            b["narrow"].bound == "latency",
            f"all of K, {qkv16.K // 256} steps, and the load latency it cannot hide ({b['narrow'].latency_us:.1f} "
            f"us) bounds it",
        ),
        _holds(b["narrow"].padding_waste == 0.5, "pads half of its 32 rows"),
        f"(16x64x64, 4 warps, 2 stages, split-K 4): the oracle's {b['shallow'].blocks} blocks",
        _holds(
            b["shallow"].time_us > b["expert"].time_us and b["shallow"].bound == "latency",
            f"each step waits a whole latency: {b['shallow'].time_us:.1f} us, worse than the expert",
        ),
        _holds(
            cand["oracle"] == GemmConfig(16, 64, 256, 4, 5, 4) and o.bound == "dram",
            f"(16x64x256, 4 warps, 5 stages, split-K 4): {o.blocks} blocks with four 256-deep steps in flight "
            f"each, DRAM-bound at {o.time_us:.1f} us",
        ),
        f"The roofline is {qkv_roof:.1f} us, and fixed costs alone (launch, fill and drain, the reduction kernel) "
        f"are {fixed:.1f} us of the {o.time_us - qkv_roof:.1f} us gap",
        _holds(
            best_bw < h100.achievable_bytes_per_s / 1e12,
            f"no config reaches the dashed achievable line: the best gets {best_bw:.2f} TB/s",
        ),
        # Think! 5
        f"8B gate_up has N = {gate16.N}: with a 64-wide tile that is {gate16.N // 64} blocks",
        _holds(
            g_best.split_k == 1 and g_cost.bound == "dram" and g_cost.blocks > busy,
            f"the oracle, {g_best.block_m}x{g_best.block_n}x{g_best.block_k} with {g_best.num_warps} warps and "
            f"{g_best.num_stages} stages, makes {g_cost.blocks} blocks without split-K, more than the {busy:.0f} "
            f"busy SMs HBM needs, and it is DRAM-bound ({g_cost.dram_us:.1f} us of DRAM traffic in "
            f"{g_t:.1f} us)",
        ),
        f"The fastest split-K config takes {g_split:.1f} us, {g_split / g_t - 1:.1%} slower than the oracle",
        f"as with 70B/8 qkv's {b['expert'].blocks} blocks",
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
    q += [
        f"up to 4 per SM sub-partition ({cost.WARPS_FULL} per SM)",
        f"the older *mma.sync* path, at {_pct(cost.MMA_FALLBACK)} of the speed in the model",
        f"{h100.tc_sustained_share:.1%} in the model's H100, which makes its best square GEMM reach "
        f"{validate.best_efficiency(h100):.1%} of the peak, where the best published shape search reached "
        f"{g003['measured_tflops'] * 1e12 / h100.bf16_flops:.1%}",
        _holds(
            (h100.mma_min_rows, h100.mma_min_warps) == (64, 4),
            "full speed needs 64-row tiles computed by warpgroups of 4 warps",
        ),
        _holds(
            ranked[0][1] == (256, 128) and ranked[1][1] == (128, 256) and ranked[2][1] == (128, 128),
            f"In this slice 256x128 is the best cell ({ranked[0][0]:.1f} us) and 128x256 is "
            f"{ranked[1][0] / ranked[0][0] - 1:.1%} behind; the next tile, 128x128, is "
            f"{ranked[2][0] / ranked[0][0] - 1:.0%} slower, and {sum(not math.isfinite(t) for t in cells.values())} "
            f"of the {len(cells)} cells cannot launch",
        ),
        f"Of the {len(neighbours)} one-field changes, {len(cannot)} cannot launch and {len(ties)} tie the oracle "
        f"(BLOCK_K 64, or 5 stages); the other {len(slower)} are {min(slower):.2f} to {max(slower):.2f} times slower",
        # Think! 6
        _holds(
            len(differ) == 6,
            f"All {len(differ)}: from 16x64x256 with 4 warps, 5 stages and split-K 4 to "
            f"256x128x32 with 8 warps, 4 stages and no split",
        ),
        f"around the prefill oracle {len(cannot)} of the {len(neighbours)} one-field changes cannot launch",
        _holds(
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
            "(a BLOCK_K of 128 or 256 overflows shared memory; 2 or 4 warps, or a 256-wide tile, cannot hold the "
            "accumulator in registers)",
        ),
        f"most of the rest cost from {min(slower) - 1:.0%} to {max(slower):.2f} times",
    ]

    # ----- Section 6
    at_prefill = {table.oracle(s)[0] for s in all_shapes if s.M >= 2048 and s.name != "70B/8 qkv"}
    split_shapes = {(s.name, s.M) for s in all_shapes if table.oracle(s)[0].split_k > 1}
    gains = {s: table.time(expert.expert_config(s), s) / table.oracle(s)[1] for s in all_shapes}
    big_gains = sorted(((g, s) for s, g in gains.items() if g > 1.05), key=lambda x: -x[0])
    log_total = sum(math.log(g) for g in gains.values())
    top5 = sum(math.log(g) for g, _ in big_gains[:5])
    mid_bm = sorted({table.oracle(x)[0].block_m for x in all_shapes if 16 < x.M < 2048})
    q += [
        _holds(
            {table.oracle(x)[0].block_m for x in all_shapes if x.M <= 16} == {16},
            f"Three families: 16-row tiles for decode, {mid_bm[0]}- to {mid_bm[-1]}-row tiles in the middle",
        ),
        _holds(
            at_prefill == {GemmConfig(256, 128, 32, 8, 4, 1)},
            "one config, 256x128x32 with 8 warps and 4 stages, for every prefill shape but those of 70B/8 qkv",
        ),
        _holds(
            {n for n, _ in split_shapes} == {"70B/8 qkv", "8B down"},
            f"Split-K appears only on 70B/8 qkv (N = {shapes.LAYERS['70B/8 qkv'][0]}) and on 8B down "
            f"(K = {shapes.LAYERS['8B down'][1]})",
        ),
        _holds(
            vllm.tuned_configs()[min(vllm.tuned_configs())] == expert.EXPERT_RULES[0][1],
            "the very config vLLM's file of Section 9 uses at its smallest key",
        ),
        f"The oracle is {report.oracle_speedup(all_shapes, table):.3f} times faster than the expert in geometric mean "
        f"over the {len(all_shapes)} shapes ({report.oracle_speedup(train, table):.3f} on the training half, "
        f"{report.oracle_speedup(test, table):.3f} on the test half)",
        f"Only {len(big_gains)} of the {len(all_shapes)} shapes gain more than 5%",
        f"carry {top5 / log_total:.0%} of the log-gain, led by {big_gains[0][1].name} at M = {big_gains[0][1].M} "
        f"({big_gains[0][0]:.2f}x)",
        "Where the expert loses more than 5%",
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
    q += [
        _holds(
            narrow_loses[-1] == 512
            and all(m in narrow_loses for m in shapes.LECTURE_M if m <= 512)
            and all(s.name == "70B/8 qkv" for s in narrow),
            f"70B/8 qkv (N = {shapes.LAYERS['70B/8 qkv'][0]}) loses at every M up to 512, with "
            f"{min(narrow_blocks)} to {max(narrow_blocks)} blocks for {h100.sms} SMs; its shapes carry "
            f"{share_narrow:.0%} of the oracle's log-gain",
        ),
        f"at M = 256 and 512 the expert already uses the 128x256 prefill tile, and the wide layers then launch only "
        f"{min(wide_blocks)} to {max(wide_blocks)} blocks (8B down at M = 256: {gains[down256]:.2f}x); those shapes "
        f"carry another {share_wide:.0%}",
        "`if N <= 2048 and M <= 512: the expert's config with split_k = 4`",
        f"Added to the expert it gives {rule_gain:.3f}x over the expert on all {len(all_shapes)} shapes, "
        f"{math.log(rule_gain) * len(all_shapes) / sum(math.log(gains[s]) for s in narrow):.0%} of what the narrow "
        f"layer's shapes offer",
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
    q += [
        f"At decode the oracle gets from {dmin.closeness:.1%} ({dmin.shape.name}) to {dmax.closeness:.1%} "
        f"({dmax.shape.name}) of the roofline; at prefill from {pmin.closeness:.1%} ({pmin.shape.name} at "
        f"M = {pmin.shape.M}) to {pmax.closeness:.1%}",
        f"By regime, over all {len(all_shapes)} shapes, the geometric means are decode {regimes['decode']:.0%}, "
        f"mid {regimes['mid']:.0%} and prefill "
        f"{regimes['prefill']:.0%}",
        f"70B/8 o streams {weights['70B/8 o']:.1f} MB of weights, 8B gate_up {weights['8B gate_up']:.0f} MB",
        f"8B gate_up: {table.roofline(o_dec['8B gate_up']) / oc['8B gate_up'].time_us:.0%} "
        f"of its roofline at M = 1, against "
        f"{table.roofline(o_dec['70B/8 o']) / oc['70B/8 o'].time_us:.0%} for 70B/8 o",
        _holds(
            abs(fixed_dec["70B/8 o"] - fixed_dec["8B gate_up"]) < 0.1,
            f"about the same fixed time, {fixed_dec['70B/8 o']:.1f} us of launch, ramp-up and drain",
        ),
        f"For 70B/8 o that is {fixed_dec['70B/8 o'] / oc['70B/8 o'].time_us:.0%} of its {oc['70B/8 o'].time_us:.1f} "
        f"us, against a roofline of only {table.roofline(o_dec['70B/8 o']):.1f} us; for 8B gate_up it is "
        f"{fixed_dec['8B gate_up'] / oc['8B gate_up'].time_us:.0%} of {oc['8B gate_up'].time_us:.1f} us",
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
    q += [
        f"holds {len(rows_all)} published timings of single BF16 and FP16 GEMMs",
        _holds(
            gpus_used == ["A100", "B200", "H100"] and all(r["why_not_used"] for r in rows_all if r["use"] == "no"),
            f"{s['n']} of them, on H100, A100 and B200, are the **validation set**",
        ),
        _holds(
            all(
                abs(
                    validate.best_efficiency(get_gpu(g))
                    - float([r for r in rows_all if r["id"] == i][0]["measured_tflops"]) * 1e12 / get_gpu(g).bf16_flops
                )
                < 2e-3
                for g, i in best_rows.items()
            ),
            "(a shape search: rows G003, G001 and G005)",
        ),
        f"The model's H100 sustains {cal['H100']['sustained share']:.1%} of its {h100.bf16_flops / 1e12:.0f} TFLOP/s "
        f"with the best tile, which after ramp-up and the last wave makes {cal['H100']['best square GEMM']:.1%} on its "
        f"best square GEMM; it streams at {cal['H100']['achievable TB/s']:.3f} TB/s "
        f"({_pct(cal['H100']['achievable share'])}), waits {cal['H100']['loaded latency us']:.3f} us per load and "
        f"launches in {cal['H100']['launch us']:.1f} us",
        _holds(
            "1.62 TB/s" in a100.calibration_source and "assumed" in a100.calibration_source,
            f"The A100's bandwidth share ({_pct(a100.hbm_achievable_share)}) is sourced, an elementwise kernel's "
            f"measured rate, and its {a100.launch_s * 1e6:.1f} us launch assumed",
        ),
        f"{within} of the {s['n']} sit inside the grey band, within 1.25 times of the diagonal",
        f"The model is {s['geomean_error']:.1%} off on average",
        _holds(
            s["geomean_error"] < validate.TARGET_GEOMEAN_ERROR and s["worst"]["off_by"] < validate.TARGET_WORST_RATIO,
            f"over the {s['n']} timings, and no timing is off by more than {s['worst']['off_by']:.2f}x: inside the "
            f"pack's targets of {validate.TARGET_GEOMEAN_ERROR:.0%} and {validate.TARGET_WORST_RATIO:.2f}x",
        ),
        _holds(
            min(s["by_regime"], key=lambda k: s["by_regime"][k]["geomean_error"]) == "decode",
            f"Decode is the easiest regime ({s['by_regime']['decode']['geomean_error']:.1%})",
        ),
        f"Prefill ({s['by_regime']['prefill']['geomean_error']:.1%}) and mid "
        f"({s['by_regime']['mid']['geomean_error']:.1%}) hold the misses",
        _holds(
            max((r for r in errs.values() if r["by"] == "timing"), key=lambda r: r["geomean_error"])["group"]
            == "per_call",
            f"are the hardest to predict ({errs['timing', 'per_call']['geomean_error']:.1%})",
        ),
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
    q += [
        _holds(
            list(worst)[:2] == ["G022", "G066"] and g22.ratio < 1 and g22.measurement.shape.M == 2688,
            f"**G022, 2688³ on H100: the model is too fast ({g22.ratio:.2f}x).**",
        ),
        f"drops from {before:.0f} TFLOP/s at 2560³ to {note22['measured_tflops']:.0f} TFLOP/s at 2688³",
        f"2688 is {2688 // 128} tiles of 128,",
        f"({tiles22} tiles of 128 x 128 are {tiles22 / h100.sms:.2f} waves)",
        _holds(
            g22.schedule == "stream_k",
            f"it predicts {g22.model_us:.1f} us where cuBLAS took {g22.measurement.measured_us:.1f} us",
        ),
        f"**G066, 1152x1024x24576 on B200 ({g66.ratio:.2f}x).**",
        _holds(g66.schedule == "stream_k", f"the {k66.blocks} tiles' long K loops evenly over all {b200.sms} SMs"),
        f"reached {[r for r in rows_all if r['id'] == 'G066'][0]['measured_tflops']:.0f} TFLOP/s, "
        f"{[r for r in rows_all if r['id'] == 'G066'][0]['measured_tflops'] * 1e12 / b200.bf16_flops:.0%} of the "
        f"B200's peak",
        _holds(
            g16.ratio > 1 and g11.ratio > 1 and g16.measurement.shape.M == 512,
            f"the model is too slow ({min(g16.ratio, g11.ratio):.2f}x).** For 512³ on H100 the model's kernel "
            f"takes {g16.kernel_us:.2f} us, and the CUDA events around each call add a fitted "
            f"{validate.PER_CALL_OVERHEAD_US:.2f} us: {share16:.0%} of the prediction is the benchmark's own "
            f"overhead ({share11:.0%} for G011)",
        ),
        f"**G026 and G024, 4096³ on A100 ({min(worst['G026'].ratio, worst['G024'].ratio):.2f}x).**",
        _holds(
            a_rows["G026"]["dtype"] == "bf16" and a_rows["G024"]["dtype"] == "fp16",
            f"reached {a_rows['G026']['measured_tflops']:.1f} and {a_rows['G024']['measured_tflops']:.1f} "
            f"TFLOP/s, {a_rows['G024']['measured_tflops'] * 1e12 / a100.bf16_flops:.0%} of the A100's peak, where "
            f"a 2025 stack's shape search (G001) reached "
            f"{a_rows['G001']['measured_tflops'] * 1e12 / a100.bf16_flops:.1%}",
        ),
    ]
    # what the timing method adds
    g17 = rows["G017"]
    timed = validate.as_timed(g17)
    q += [
        f"For {g17.shape.M}³ on H100 the model's kernel runs {timed['trace']:.2f} us on the GPU",
        f"Inside a CUDA graph a benchmark sees {timed['graph']:.2f} us, the kernel plus its "
        f"{h100.launch_s * 1e6:.1f} us launch",
        f"and L2 flushed before it, {timed['per_call']:.2f} us",
        _holds(
            timed["back_to_back"] == validate.EAGER_FLOOR_US,
            f"Back to back from eager PyTorch, {timed['back_to_back']:.1f} us: the host cannot issue eager "
            f"*torch.mm* calls faster than one per {validate.EAGER_FLOOR_US:.1f} us",
        ),
        _holds(
            g17.measured_us > rows["G033"].measured_us and timed["per_call"] > timed["back_to_back"],
            f"{g17.measured_us:.2f} us per call (G017) and {rows['G033'].measured_us:.2f} us back to back (G033)",
        ),
        _holds(
            "256x144" in [r for r in rows_all if r["id"] == "G060"][0]["library"],
            "G060's best cuBLASLt tile is 256x144",
        ),
    ]
    # Think! 9
    base_ranks = {(r.M, r.gemm): r for r in vllm.vllm_ranks(table)}
    fast_ranks = {(r.M, r.gemm): r for r in solutions.vllm_ranks_at(0.5e-6)}
    slow_ranks = {(r.M, r.gemm): r for r in solutions.vllm_ranks_at(1.2e-6)}
    q += [
        f"The benchmark overheads ({validate.PER_CALL_OVERHEAD_US:.2f} us per call, the eager floor)",
        f"every config pays the same {h100.launch_s * 1e6:.1f} us launch",
        f"the {_pct(cost.MMA_FALLBACK)} wgmma fallback",
        f"moves vLLM's M = 256 entry from rank {fast_ranks[256, 'gate/up'].rank} to rank "
        f"{slow_ranks[256, 'gate/up'].rank} between 0.5 and 1.2 us",
    ]

    # ----- Section 9
    ranks = vllm.vllm_ranks(table)
    worst_rank = max(ranks, key=lambda r: r.top_share)
    n_launch = int(table.launchable.sum())
    prefill_ranks = [r for r in ranks if r.key >= 5120]
    mid = [r for r in ranks if r.key in (256, 512, 2048)]
    mid256 = [r for r in mid if r.M == 256]
    q += [
        f"keeps its {len(vllm.tuned_configs())} entries with their provenance",
        f"gate/up, M x {vllm.HIDDEN} -> {2 * vllm.FILE_N}, and down, M x {vllm.FILE_N} -> {vllm.HIDDEN}",
        _holds(
            8192 not in vllm.tuned_configs() and vllm.chosen_key(8192, list(vllm.tuned_configs())) == 9216,
            "there is no 8192 key, so 8192 tokens use the 9216 entry",
        ),
        f"The hidden size, {vllm.HIDDEN}, is not in the file name",
        f"rank among the model's {n_launch} launchable configs",
        _holds(
            all(r.top_share <= 0.02 for r in ranks),
            f"vLLM's configs rank in the model's top 2% at every M: the lowest is rank {worst_rank.rank} of "
            f"{n_launch} ({worst_rank.top_share:.1%}, {worst_rank.gemm} at M = {worst_rank.M})",
        ),
        _holds(all(r.rank == 1 for r in ranks if r.M == 1), "At M = 1 vLLM's decode config is the model's best"),
        _holds(
            all(r.rank == 6 and r.slowdown <= 1.01 for r in prefill_ranks),
            "the prefill entries (the 5120 and 9216 keys) rank 6th, within 1% of the model's best",
        ),
        _holds(
            all(r.config.num_warps == 4 and (r.config.block_m, r.config.block_n) == (128, 128) for r in mid),
            f"at the 256, 512 and 2048 keys vLLM runs a 128x128 tile with 4 warps, which the model puts "
            f"{min(r.slowdown for r in mid) - 1:.0%} to {max(r.slowdown for r in mid) - 1:.0%} behind its best",
        ),
        _holds(
            all(
                r.bound == "latency"
                and r.config.num_stages == 3
                and r.oracle.num_warps == 8
                and r.oracle.num_stages == 4
                for r in mid256
            ),
            "At M = 256 it calls that tile latency-bound with 3 stages and wants 8 warps and 4 stages",
        ),
        _holds(
            all(
                r.bound == "sm_load" and r.oracle.num_warps == 8 and {r.oracle.block_m, r.oracle.block_n} == {128, 256}
                for r in mid
                if r.M in (512, 2048)
            ),
            "at 512 and 2048 it calls it bound by what each SM can load and wants a 128x256 or 256x128 tile with "
            "8 warps",
        ),
        # Think! 10
        _holds(
            worst_rank.M == 256 and worst_rank.config == GemmConfig(128, 128, 64, 4, 3, 1),
            f"The 256 entry on gate/up: 128x128x64 with 4 warps and 3 stages, rank {worst_rank.rank}, "
            f"{worst_rank.slowdown:.2f} times the model's best",
        ),
        "with 3 stages each K step waits half a load latency",
        f"loaded latency ({h100.load_latency_s * 1e6:.3f} us, fitted)",
        _holds(
            fast_ranks[256, "gate/up"].slowdown < 1.005,
            f"at 0.5 us the same config ranks {fast_ranks[256, 'gate/up'].rank}th and is as fast as the model's "
            f"best, at 1.2 us it falls to {slow_ranks[256, 'gate/up'].rank}rd",
        ),
        _holds(worst_rank.oracle == GemmConfig(128, 128, 64, 8, 4, 1), "(128x128x64, 8 warps, 4 stages)"),
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
    q += [
        _holds(
            fastest == 8,
            f"split_k = 8: {panel_ks[8]:.2f} us, {panel_ks[8] / table.oracle(qkv16)[1]:.2f} times "
            f"the oracle's {table.oracle(qkv16)[1]:.2f} us (split_k = 1 takes {panel_ks[1]:.2f} us, "
            f"2 takes {panel_ks[2]:.2f} us, 4 takes {panel_ks[4]:.2f} us)",
        ),
        "With 3 stages each K step waits half a load latency",
        _holds(
            min(req) > l40s.smem_per_block,
            f"the decode config needs {req[0]:,} B, the mid one {req[1]:,} B and the prefill one {req[2]:,} B, and "
            f"an L40S block gets at most {l40s.smem_per_block:,} B",
        ),
        f"At M = {first} (the slider moves in steps of",
        f"From there up it is the best cell at {len(hits)} of the {len(above)} slider positions",
        _holds(
            best_cell(gate[2048]) == (256, 128),
            f"at M = 2048 the 256x128 cell beats it by {g2048[128, 256] / g2048[256, 128] - 1:.1%} "
            f"({g2048[256, 128]:.1f} against {g2048[128, 256]:.1f} us)",
        ),
    ]

    # ----- Summary
    q += [
        "big tiles, 8 warps and enough stages",
        f"Held against {s['n']} published timings the model is {s['geomean_error']:.1%} off on average and never "
        f"more than {s['worst']['off_by']:.2f}x",
        "configs rank in its top 2%",
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
    q += [
        f"gives {tr:.3f} on the training shapes and {te:.3f} on the test shapes, against the oracle's {o_tr:.3f} and "
        f"{o_te:.3f}: four rules capture {math.log(tr) / math.log(o_tr):.0%} of the oracle's log-gain",
        _holds(
            all(solutions.choose(x.M, x.N, x.K).block_m == 128 for x in wide_mid),
            f"a 128x128 tile with 8 warps at M = 256 and 512 recovers "
            f"{sum(math.log(r) for r in second) / sum(math.log(gains[x]) for x in wide_mid):.0%} of what the "
            f"second group's shapes offer",
        ),
        _holds(
            {x.M for x in lost} == {256, 512} and all(gains[x] < 1.01 for x in lost),
            f"it loses to the expert on {len(lost)} shapes at M = 256 and 512, by up to {max(losses):.2f} times, "
            f"where the expert's 128x256 tile is already as fast as the oracle",
        ),
    ]
    h_bm, a_bm = solutions.oracle_block_m("H100"), solutions.oracle_block_m("A100")
    gate24 = shapes.layer_shape("8B gate_up", 24)
    q += [
        _holds(
            h_bm == {16: 16, 24: 64, 48: 64, 64: 64} and a_bm == {16: 16, 24: 32, 48: 64, 64: 64},
            "On H100 the oracle's BLOCK_M is 16 at M = 16 and 64 from M = 24 on; on A100 it follows M: 16 at "
            "M = 16, 32 at M = 24 and 64 from M = 48 on",
        ),
        f"At M = 24 the H100 oracle pads {_pct(waste(24, 64))} of its math rather than use a 32-row tile",
        f"a tile under 64 rows falls back to {_pct(cost.MMA_FALLBACK)} of the tensor-core speed",
        _holds(
            cost.gemm_time(table.oracle(gate24)[0], gate24, h100).bound == "dram",
            "At M = 24 the shape is still DRAM-bound",
        ),
        f"(the best small tile is {solutions.small_tile_penalty('H100', M=24) - 1:.1%} slower); at M = 48 the best "
        f"tile under 64 rows is {solutions.small_tile_penalty('H100', M=48) - 1:.1%} slower than the oracle on H100 "
        f"and {solutions.small_tile_penalty('A100', M=48) - 1:.1%} on A100",
    ]
    base, fast, slow = base_ranks[256, "gate/up"], fast_ranks[256, "gate/up"], slow_ranks[256, "gate/up"]
    q += [
        f"The H100's loaded latency ({h100.load_latency_s * 1e6:.3f} us) is a fitted constant",
        _holds(
            max(base_ranks, key=lambda k: abs(slow_ranks[k].rank - fast_ranks[k].rank))[0] == 256,
            f"The 256 entry moves most: on gate/up it ranks {base.rank}nd with the fitted latency, {fast.rank}th at "
            f"0.5 us (as fast as the model's "
            f"best) and {slow.rank}rd at 1.2 us ({slow.slowdown:.2f} times the best)",
        ),
        "at M = 256 the tensor cores are not busy enough",
        _holds(base.config.num_stages == 3, "It has 3 stages, so each K step waits half a latency"),
        _holds(
            all(r.rank <= 9 for runs in (fast_ranks, slow_ranks) for (m, _), r in runs.items() if m <= 16),
            "The decode entries stay in the top 9 at both latencies",
        ),
        f"A constant that moves a rank from {fast.rank} to {slow.rank}",
    ]
    errors = solutions.error_without_timing(found)
    worst_kernel = max(
        max(c.kernel_us / c.measurement.measured_us, c.measurement.measured_us / c.kernel_us) for c in found
    )
    q += [
        _holds(
            errors["all"][1] > errors["all"][0] and worst_kernel > validate.TARGET_WORST_RATIO > s["worst"]["off_by"],
            f"the error grows from {errors['all'][0]:.1%} to {errors['all'][1]:.1%} overall, and the worst row goes "
            f"from {s['worst']['off_by']:.2f}x to {worst_kernel:.2f}x, past the {validate.TARGET_WORST_RATIO:.2f}x "
            "target",
        ),
        _holds(
            max(errors, key=lambda k: errors[k][1] - errors[k][0]) == "per_call",
            f"from {errors['per_call'][0]:.1%} to {errors['per_call'][1]:.1%}: their events add "
            f"{validate.PER_CALL_OVERHEAD_US:.2f} us",
        ),
        f"Back-to-back rows go from {errors['back_to_back'][0]:.1%} to {errors['back_to_back'][1]:.1%}; the "
        f"CUDA-graph rows stay at {errors['graph'][0]:.1%}",
        _holds(
            errors["graph"][0] == errors["graph"][1] and errors["trace"][1] < errors["trace"][0],
            f"from {errors['trace'][0]:.1%} to {errors['trace'][1]:.1%}",
        ),
    ]

    # ----- References and glossary
    q += [
        "`pct_achievable_mem_bw` of 0.92 and a kernel launch overhead of 2 us",  # quoted from the file at its commit
        f"the hidden size {vllm.HIDDEN} of Jamba-1.5-Large",
        f"the pack's \"decode\" regime is M up to {decode_hi}, memory-bound |",
        f"the pack's \"prefill\" regime is M above {mid_hi} |",
        f"one of the GPU's cores ({h100.sms} on H100)",
        _holds(
            all((get_gpu(g).mma_min_rows, get_gpu(g).mma_min_warps) == (1, 1) for g in ("A100", "L40S"))
            and get_gpu("H200").mma_min_warps == h100.mma_min_warps
            and get_gpu("B200").mma_min_warps == 1,
            f"the small-tile MMA rule: {h100.mma_min_rows} rows and {h100.mma_min_warps} warps on Hopper, "
            f"{get_gpu('B200').mma_min_rows} rows on Blackwell, none on A100 and L40S",
        ),
        "| warp | 32 threads that issue instructions together |",
        "full tensor-core speed only with 64-row tiles and 4-warp groups",
    ]
    # ----- comparisons without a number of their own (tests/test_comparison_claims.py)
    q += [
        _holds(
            l40s.smem_per_block < h100.smem_per_block / 2,
            "The L40S has less than half of Hopper's shared memory per block",
        ),
        _holds(
            all(table.oracle(x)[1] >= table.roofline(x) for x in all_shapes),
            "On the left the dots run parallel to the sloped roof, below it",
        ),
        _holds(
            measured < waves_only[1] / waves_only[0],
            "The measured dips are shallower than the model's data-parallel ones",
        ),
        _holds(share_narrow + share_wide > 0.5, "Most of the big losses fall into two groups"),
        _holds(g16.ratio > 1 and g11.ratio > 1, "the benchmarks added less than that"),
        _holds(o_tr > 1 and o_te > 1, "The oracle beats a sane M-only expert"),
    ]
    return q
