"""Notebook 06's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`quotes()` returns each phrase of the markdown that states a number, built from the pack's computed values; a claim
without a number of its own ("on every seed", "lower for every one of them") is checked with `_holds` before its phrase
is returned.
"""

from __future__ import annotations

import functools

import numpy as np

from toyhw.course import feedback_tables
from toyhw.evolve.experiments import ablations, targeting
from toyhw.gemm import cost as gemm_cost
from toyhw.gemm.time_table import shared_table
from prose.phrasing import holds as _holds, pct as _pct, value_range as _range
from exercise_cells import NOTEBOOKS, load_solution

solutions = load_solution(NOTEBOOKS / "06_using_feedback.ipynb")

SEED, BUDGET = 0, 300
SEEDS = ablations.SEEDS

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, how the ratios and the mock are built, papers.
NOT_RESULTS = [
    "2. compare the five shapes each ratio says have the most to gain",
    "3. measure how much of the target draw each weighting sends to **stuck** shapes",
    "For each training shape the evaluator knows the current program's time",
    "Two ratios, both at most one",
    "* `vs_best = best seen / time`",
    "A shape is **stuck** when `vs_best > 0.95`",
    "Why can `vs_best` never point at a config nobody has tried yet?",
    "Because its reference is a measurement",
    "A config nobody proposed has no time",
    "In return every `vs_best` below one is **actionable**",
    "Left, the five shapes with the lowest `vs_roofline`",
    "One run is one sample; the same numbers for every seed and two budgets:",
    "No config removes a launch or fills idle SMs",
    "Best-seen feedback is actionable advice",
    "For a decode shape, which terms of the breakdown",
    "The same loop with the three ways to read the feedback",
    "Best-seen feedback does two things in this mock",
    "Roofline feedback is a bound, not a config",
    "`fb_worst3` only ever targets the three shapes with the lowest `vs_best`.",
    "Once the parent is at the best config seen on a shape",
    "It runs dry when fewer than three shapes have a known improvement",
    "Does that hold for every seed you try?",
    "* `vs_roofline` measures distance to a bound",
    "* A real LLM has no fixed rule for reading feedback",
    "Each run is the same as `ablations.run_one`'s",
    "The observer only watches: the run is the one behind notebook 04's curves.",  # what the loop's observer is
    "The check recomputes every row.",  # what Exercise 2's check does
    "Which training shapes does the oracle leave below 0.6 of their roofline",
    "Ouyang et al. *KernelBench: Can LLMs Write Efficient GPU Kernels?*",
    "*H100 Tensor Core GPU datasheet* and *DGX B200 datasheet*",
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "has the lowest vs_best, 0.728",
    "Its `vs_best` is 1.000: nothing measured beats",
    "The best any config can do is the **oracle**",
    "Over seeds 0-4 it grows on 4 seeds and shrinks on 1",
]

PARAMETERS = [
    "(seed 0, 300 proposed programs)",  # the demo's run (SEED, BUDGET)
    "on seeds 0-4 — the curves of notebook 04",
    "Sections 1-3 read seed 0 after 300 programs; the panel starts after 1000 (seed 0, 1000 programs).",
    "For seeds 0-4 at 300 programs,",  # the panel's questions
    "after 100, 200,\n300, 500, 700 and 1000 programs of seed 0",  # Exercise 2's budgets
    "over the first 300 proposals of seeds 0-4",
    "on seed 0 at 300 programs",  # Exercise 1's check, then its whole question
    "Then compare the four variants on seeds 0-4.",
    "With `budget=1000`",
    "the five shapes with the lowest `vs_roofline`; right, the five",
    "below 0.6 of their roofline",  # Exercise 3's threshold
    "after 300 and after 1000 programs",
    "over seeds 0-4 at 300 and 1000 programs",
    "If the LLM spends its next ten proposals on it",
    "the\nten proposals can only",
]


@functools.lru_cache(maxsize=None)
def _in_loop(budget: int):
    return solutions.stuck_target_shares(budget=budget)


def quotes() -> list[str]:
    ctx = ablations.context()
    table = ctx.table
    gpu = table.gpu
    t = targeting.targeting(SEED, BUDGET)
    n = len(t.rows)
    stuck = [r for r in t.rows if r.vs_best > targeting.STUCK]
    free = sorted((r for r in t.rows if r.vs_best <= targeting.STUCK), key=lambda r: r.vs_best)
    first = t.top_roofline[0]
    lowest = free[0]
    stuck_top = [r for r in t.top_roofline if r.vs_best > targeting.STUCK]
    near = {
        (s, b): [r for r in targeting.targeting(s, b).rows if 0.945 <= r.vs_best < 0.955]
        for s, b in ((0, 300), (3, 1000))
    }
    shown_stuck = next(r for r in near[(0, 300)] if r.vs_best > targeting.STUCK)
    shown_free = next(r for r in near[(3, 1000)] if r.vs_best <= targeting.STUCK)
    oracle_cfg, oracle_us = table.oracle(first.shape)
    gain = first.time / oracle_us
    weight = 1 / first.vs_roofline - 1 + 0.05
    shares = {b: {s: targeting.targeting(s, b).share_on_stuck for s in SEEDS} for b in (300, 1000)}
    roof = {b: [shares[b][s]["roofline"] for s in SEEDS] for b in shares}
    best = {b: [shares[b][s]["best"] for s in SEEDS] for b in shares}
    gaps = {b: [r - q for r, q in zip(roof[b], best[b])] for b in shares}
    n_stuck = {b: [targeting.targeting(s, b).n_stuck for s in SEEDS] for b in (300, 1000)}
    grows = sum(b > a for a, b in zip(n_stuck[300], n_stuck[1000]))
    shrinks = sum(b < a for a, b in zip(n_stuck[300], n_stuck[1000]))
    top_stuck = [sum(r.vs_best > targeting.STUCK for r in targeting.targeting(s, 300).top_roofline) for s in SEEDS]
    all_five = [
        (s, b)
        for b in (300, 1000)
        for s in SEEDS
        if all(r.vs_best > targeting.STUCK for r in targeting.targeting(s, b).top_roofline)
    ]
    # Section 4: the three stuck shapes farthest from the roofline, and the decode shapes
    far = sorted(stuck, key=lambda r: r.vs_roofline)[:3]
    costs = [(r, *table.oracle(r.shape)) for r in far]
    breakdown = [(r, cfg, us, gemm_cost.gemm_time(cfg, r.shape, gpu)) for r, cfg, us in costs]

    def fixed(c) -> float:
        return c.launch_us + c.fill_us + c.reduction_us

    decode = [r for r in t.rows if r.shape.M <= 16]
    stuck_decode = [r for r in decode if r.vs_best > targeting.STUCK]
    dec = [
        (
            table.roofline(r.shape) / table.oracle(r.shape)[1],
            fixed(gemm_cost.gemm_time(*table.oracle(r.shape)[:1], r.shape, gpu)) / table.oracle(r.shape)[1],
            gemm_cost.gemm_time(table.oracle(r.shape)[0], r.shape, gpu).bound,
        )
        for r in stuck_decode
    ]
    # Think! 3 and Exercise 4: the B200
    b200 = shared_table("B200")
    reach = solutions.decode_reach_by_gpu()
    o4 = reach.set_index("shape").loc["70B/8 o M=4"]
    g1 = reach.set_index("shape").loc["8B gate_up M=1"]
    # the pack's own reading of demo 2 (feedback_tables.targeting_observations): the prose restates it, so each phrase
    # below that it covers must agree with it
    obs = feedback_tables.targeting_observations(t, table)
    # Section 5
    study = ablations.ablation_study(["full", "fb_roofline", "no_feedback", "fb_worst3"])
    fin = {v: np.array([r.final for r in study.runs[v]]) for v in study.runs}
    med = {v: float(np.median(fin[v])) for v in fin}
    at50 = {v: study.median_at(v, 50) for v in study.runs}
    loop300, loop1000 = _in_loop(300), _in_loop(1000)
    by_budget = solutions.stuck_share_by_budget()
    far_frame = solutions.far_from_roofline()
    focus = load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb").focus_report()  # notebook 04's Exercise 3
    layers = far_frame["shape"].str.rsplit(" M=", n=1).str[0].value_counts()

    return [
        # the panel: the seeds it runs when it is made (toyhw.panels.evolution.feedback_panel)
        f"Seeds {ablations.SEEDS[0]}-{ablations.SEEDS[-1]} were run",
        # introduction: notebook 04's result, recomputed here (medians over seeds 0-4 after 1000 programs)
        _holds(
            med["full"] > med["fb_roofline"] and med["full"] > med["no_feedback"],
            "The full method ended above the same loop with",
        ),
        f"one of the {n} GEMM shapes the evaluator scores on",
        # Section 1
        f"the\nprogram is within about {1 - targeting.STUCK:.0%} of the best time ever seen there",
        f"After {BUDGET} programs, {len(stuck)} of the {n} training shapes are stuck.",
        _holds(
            first.vs_best > targeting.STUCK and first is sorted(t.rows, key=lambda r: r.vs_roofline)[0],
            f"`{first.shape.label()}` is the farthest from its roofline (vs_roofline {first.vs_roofline:.3f}) and yet "
            f"stuck (vs_best {first.vs_best:.3f}): no config measured so far is faster there.",
        ),
        f"Among the {n - len(stuck)} shapes that are not stuck, `{lowest.shape.label()}` has the lowest vs_best, "
        f"{lowest.vs_best:.3f}: a config that ran {1 / lowest.vs_best:.2f}× faster there is known "
        f"(`{lowest.best_config.short()}`).",
        f"when nothing tried beats the current\nprogram it reads 1 however far the roofline is, as for "
        f"`{first.shape.label()}` above",
        # Section 2
        _holds(
            f"share {t.overlap_top5} shape(s). Of roofline's top 5, {len(stuck_top)} are already at the best config "
            f"seen ({stuck_top[0].shape.label()}, {stuck_top[1].shape.label()})" in obs[1],
            f"The two lists share {t.overlap_top5} shapes. Of roofline's top five, {len(stuck_top)} are stuck "
            f"(`{stuck_top[0].shape.label()}` and `{stuck_top[1].shape.label()}`)",
        ),
        _holds(
            all(r.vs_best <= targeting.STUCK for r in t.top_best),
            "All five shapes of best-seen's list have a known improvement",
        ),
        # "almost every": under 10% of fb_worst3's first 300 proposals, on every seed, aim at a stuck shape
        _holds(
            float(_in_loop(300).loc["fb_worst3"].max()) < 0.1 and targeting.known_improvement(targeting.STUCK),
            f"So early in a run almost every proposal aims at a known improvement (the best time seen more than "
            f"{1 - targeting.STUCK:.0%}\nfaster than the parent's",
        ),
        f"a `vs_best` of {shown_stuck.vs_best:.4f} (stuck) and one of {shown_free.vs_best:.4f} (not\nstuck) would both "
        f"read {shown_free.vs_best:.2f}",
        f"`{shown_stuck.shape.label()}` has vs_best {shown_stuck.vs_best:.4f} here and is stuck; after 1000 programs of "
        f"seed 3, `{shown_free.shape.label()}` has {shown_free.vs_best:.4f} and is not.",
        # Think! 2
        f"Its `vs_best` is {first.vs_best:.3f}",
        f"{oracle_us:.1f} µs against the program's {first.time:.1f} µs, {gain:.2f}× faster — and even that\nreaches "
        f"only {table.roofline(first.shape) / oracle_us:.2f} of the roofline, not 1.",
        f"a geometric mean over the {n} training shapes, so one shape\nthat gets {gain:.2f}× faster raises it by "
        f"$1.22^{{1/44}}$, a factor of {gain ** (1 / n):.4f}.",
        _holds(f"{gain:.2f}" == "1.22" and n == 44, "$1.22^{1/44}$"),
        f"The roofline suggested up to {1 / first.vs_roofline:.2f}× (1 / {first.vs_roofline:.3f}).",
        # Section 3
        _holds(
            obs[0].startswith(f"{len(stuck)} of {n} training shapes have no known improvement after {BUDGET} programs")
            and f"roofline weighting gives them {_pct(t.share_on_stuck['roofline'])} of one program's target draw, "
            f"best-seen weighting {_pct(t.share_on_stuck['best'])}."
            in obs[0],
            f"For this run, roofline weighting sends {_pct(t.share_on_stuck['roofline'])} of the draw to the "
            f"{len(stuck)} stuck shapes, best-seen weighting {_pct(t.share_on_stuck['best'])}.",
        ),
        f"a stuck shape at {first.vs_roofline:.2f} of its roofline gets about {weight:.0f}",
        _holds(
            all(g > 0 for b in gaps for g in gaps[b]),
            f"Roofline weighting puts the larger share on stuck shapes in all {2 * len(SEEDS)} rows: "
            f"{_range(roof[300])} against {_range(best[300])} after 300 programs, {_range(roof[1000])} against "
            f"{_range(best[1000])} after 1000.",
        ),
        _holds(
            all(g1000 < g300 for g300, g1000 in zip(gaps[300], gaps[1000]))
            and all(b1000 > b300 for b300, b1000 in zip(best[300], best[1000])),
            "The gap shrinks with the budget on every seed, because best-seen weighting too runs out of known "
            "improvements: its share rises on every seed.",
        ),
        # Section 4
        f"too few **blocks** (a block is one tile's work, run by\none SM) to keep the H100's {gpu.sms} SMs busy",
        f"`{far[0].shape.label()}`: even the oracle reaches only {table.roofline(far[0].shape) / breakdown[0][2]:.2f} of "
        f"the roofline ({breakdown[0][2]:.1f} µs against {table.roofline(far[0].shape):.1f} µs). It is "
        f"{breakdown[0][3].bound}-bound with {breakdown[0][3].blocks} blocks for {gpu.sms} SMs, so "
        f"{gpu.sms - breakdown[0][3].blocks} SMs have nothing to do; launch, fill and drain and split-K's reduction add "
        f"{fixed(breakdown[0][3]):.1f} µs that the roofline does not count.",
        _holds(
            breakdown[1][3].bound == "dram",
            f"`{far[1].shape.label()}`: {table.roofline(far[1].shape) / breakdown[1][2]:.2f} of the roofline; "
            f"DRAM-bound, and the fixed costs are {fixed(breakdown[1][3]):.1f} of its {breakdown[1][2]:.1f} µs.",
        ),
        _holds(
            breakdown[2][3].bound == "sm_load",
            f"`{far[2].shape.label()}`: {table.roofline(far[2].shape) / breakdown[2][2]:.2f} of the roofline; bound "
            f"by the SMs' own loads (`sm_load`: each SM pulls its tiles through its share of the bandwidth) with "
            f"{breakdown[2][3].blocks} blocks for {gpu.sms} SMs.",
        ),
        _holds(
            all(b == "dram" for _, _, b in dec)
            and obs[2].startswith(
                f"{len(stuck_decode)} of the {len(decode)} decode shapes (M <= 16) are stuck. The "
                f"best config reaches {min(x for x, _, _ in dec):.2f}-{max(x for x, _, _ in dec):.2f}"
                f" of their roofline"
            )
            and f"are {_range([f for _, f, _ in dec])} of the best time; {len(stuck_decode)} of them are dram-bound"
            in obs[2]
            and all(
                f"{r.shape.label()}: even the oracle reaches only "
                f"{table.roofline(r.shape) / us:.2f} of the roofline" in obs[3]
                for r, _, us, _ in breakdown
            ),
            f"{len(stuck_decode)} of the {len(decode)} decode shapes are stuck, their best config reaches "
            f"{min(x for x, _, _ in dec):.2f}-{max(x for x, _, _ in dec):.2f} of the roofline, the fixed costs are "
            f"{_range([f for _, f, _ in dec])} of its time, and all {len(stuck_decode)} are DRAM-bound.",
        ),
        # Think! 3
        f"the launch does not: {b200.gpu.launch_s * 1e6:.1f} µs on the B200 against {gpu.launch_s * 1e6:.1f} µs on "
        f"the H100.",
        _holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()),
            f"`vs_roofline` *falls* for all {len(reach)} stuck decode shapes, for `70B/8 o M=4` from "
            f"{o4['H100 vs_roofline']:.2f} to {o4['B200 vs_roofline']:.2f} and for `8B gate_up M=1` from "
            f"{g1['H100 vs_roofline']:.2f} to {g1['B200 vs_roofline']:.2f} (Exercise 4 lists all).",
        ),
        _holds(
            o4["H100 fixed share"] == o4["B200 fixed share"],
            f"The roofline moves with the datasheet — {b200.gpu.hbm_bytes_per_s / 1e12:.1f} TB/s against "
            f"{gpu.hbm_bytes_per_s / 1e12:.2f} TB/s — while the model's B200 streams at "
            f"{_pct(b200.gpu.hbm_achievable_share)} of its datasheet bandwidth (the H100: "
            f"{_pct(gpu.hbm_achievable_share)}), and the fixed costs keep their share of the time "
            f"({o4['H100 fixed share']:.2f} of `70B/8 o M=4` on both GPUs).",
        ),
        # Section 5
        _holds(
            fin["fb_roofline"].max() < fin["full"].min() and fin["no_feedback"].max() < fin["full"].min(),
            f"After 1000 programs the full method's median is {med['full']:.3f}, `fb_roofline` ends at "
            f"{med['fb_roofline']:.3f} and `no_feedback` at {med['no_feedback']:.3f}; no seed of either reaches "
            f"full's lowest seed ({fin['full'].min():.3f}): their best seeds end at {fin['fb_roofline'].max():.3f} "
            f"and {fin['no_feedback'].max():.3f}.",
        ),
        _holds(
            min(at50, key=at50.get) == "fb_worst3"
            and max(med, key=med.get) == "fb_worst3"
            and fin["fb_worst3"].min() <= fin["full"].max(),
            f"it is last after 50 programs ({at50['fb_worst3']:.3f} against {at50['full']:.3f} for full) and first "
            f"after 1000 ({med['fb_worst3']:.3f}; its seeds end between {fin['fb_worst3'].min():.3f} and "
            f"{fin['fb_worst3'].max():.3f}, overlapping full's {fin['full'].min():.3f}-{fin['full'].max():.3f}).",
        ),
        # Think! 4
        f"in the first 300 proposals only {_range(loop300.loc['fb_worst3'])} of `fb_worst3`'s targets are stuck for "
        f"their parent, against {_range(loop300.loc['full'])} for full, {_range(loop300.loc['fb_roofline'])} for "
        f"`fb_roofline` and {_range(loop300.loc['no_feedback'])} for `no_feedback`.",
        _holds(
            sorted(loop1000.loc["fb_worst3"].nlargest(2).index) == ["seed 0", "seed 4"],
            f"After 1000 programs that share rises to {_pct(loop1000.loc['fb_worst3', 'seed 0'])} and "
            f"{_pct(loop1000.loc['fb_worst3', 'seed 4'])} on seeds 0 and 4.",
        ),
        # demo answers
        f"At seed 0 it grows from {n_stuck[300][0]} to {n_stuck[1000][0]} stuck shapes, but not steadily: Exercise 2 "
        f"finds {by_budget.loc[100, 'stuck shapes']} after 100 programs and {by_budget.loc[500, 'stuck shapes']} after "
        f"500. Over seeds 0-4 it grows on {grows} seeds and shrinks on {shrinks}",
        _holds(
            all_five == [(2, 1000)] and targeting.targeting(2, 1000).overlap_top5 == 0,
            f"At 300 programs {', '.join(map(str, top_stuck[:-1]))} and {top_stuck[-1]} of roofline's top five are "
            f"stuck for seeds 0-4; all five are at seed 2 after 1000 programs, where the two top-5 lists share no "
            f"shape at all.",
        ),
        # Summary
        _holds(
            all(g > 0 for b in gaps for g in gaps[b]),
            f"on every seed, after 300 and after 1000 programs ({_range(roof[300] + roof[1000])} against "
            f"{_range(best[300] + best[1000])})",
        ),
        # Exercise 1
        f"a right answer gives {_pct(loop300.loc['full', 'seed 0'])} for `full`, where the weights on its best program "
        f"said {_pct(t.share_on_stuck['best'])}.",
        _holds(
            all(
                loop300.loc["fb_worst3", c]
                < loop300.loc["full", c]
                < loop300.loc["fb_roofline", c]
                < loop300.loc["no_feedback", c]
                for c in loop300.columns
            ),
            f"`full` {_range(loop300.loc['full'])}, `fb_roofline` {_range(loop300.loc['fb_roofline'])}, "
            f"`fb_worst3` {_range(loop300.loc['fb_worst3'])}, `no_feedback` {_range(loop300.loc['no_feedback'])}.",
        ),
        _holds(
            loop1000.loc["fb_roofline", "seed 3"] < loop1000.loc["full", "seed 3"],
            f"(seed 3: {_pct(loop1000.loc['fb_roofline', 'seed 3'])} against {_pct(loop1000.loc['full', 'seed 3'])})",
        ),
        f"`fb_worst3` reaches {_pct(loop1000.loc['fb_worst3', 'seed 0'])} and "
        f"{_pct(loop1000.loc['fb_worst3', 'seed 4'])} on seeds 0 and 4 (Think! 4)",
        # Exercise 2
        "the stuck shapes go "
        + ", ".join(str(v) for v in by_budget["stuck shapes"].iloc[:-1])
        + f" and {by_budget['stuck shapes'].iloc[-1]}; roofline weighting's share "
        + ", ".join(_pct(v) for v in by_budget["roofline"].iloc[:-1])
        + f" and {_pct(by_budget['roofline'].iloc[-1])}; "
        + "best-seen's "
        + ", ".join(_pct(v) for v in by_budget["best seen"].iloc[:-1])
        + f" and {_pct(by_budget['best seen'].iloc[-1])}.",
        _holds(
            bool((by_budget["roofline"] > by_budget["best seen"]).all()),
            "Roofline's share is above best-seen's at every budget.",
        ),
        # Exercise 3
        f"The solution's `far_from_roofline()` lists {len(far_frame)} of the {n} training shapes, from "
        f"`{far_frame.iloc[0]['shape']}` ({far_frame.iloc[0]['oracle vs_roofline']:.2f}) up. "
        f"{(far_frame['bound'] == 'dram').sum()} of them are DRAM-bound, and the fixed costs (launch, fill and drain, "
        f"split-K's reduction) are named as a reason for {far_frame['why'].str.contains('launch').sum()}.",
        _holds(
            list(layers.index[:2]) == ["70B/8 qkv", "70B/8 o"],
            f"{layers['70B/8 qkv']} of the {len(far_frame)} are `70B/8 qkv` shapes (`N = 1280`) and "
            f"{layers['70B/8 o']} are `70B/8 o` shapes (`K = 1024`).",
        ),
        # Exercise 4
        _holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()),
            f"on the H100 the oracle reaches {reach['H100 vs_roofline'].min():.2f}-{reach['H100 vs_roofline'].max():.2f} "
            f"of the roofline on the {len(reach)} stuck decode shapes, on the B200 only "
            f"{reach['B200 vs_roofline'].min():.2f}-{reach['B200 vs_roofline'].max():.2f}, lower for every one of "
            f"them.",
        ),
        _holds(
            round((reach["B200 fixed share"] - reach["H100 fixed share"]).abs().max(), 2) <= 0.01,  # as printed
            f"The fixed share barely moves (at most "
            f"{(reach['B200 fixed share'] - reach['H100 fixed share']).abs().max():.2f} on any shape)",
        ),
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        _holds(bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()), "but the roofline shrinks more"),
        _holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()),
            "A faster GPU moves the bound further than the kernel",
        ),
        _holds(
            all(g > 0 for b in gaps for g in gaps[b]),
            "roofline weighting puts the larger share of the draw on stuck shapes every time",
        ),
        # "ends first" among Section 5's four variants; "nearly always": at least 99% of fb_worst3's proposals, on every
        # seed, aim at a shape with a known faster config (notebook 04's Exercise 3; the sentence said "always", and
        # 0.2%-0.6% of them do not)
        _holds(
            max(med, key=med.get) == "fb_worst3"
            and focus.loc["fb_worst3"]["faster config known"].min() > 0.99
            and focus.loc["fb_worst3"]["faster config known"].min() < 1,
            "ends first, because its three nearly always\n  have a faster config to adopt",
        ),
        _holds(
            all(
                loop300.loc["fb_worst3", c]
                < loop300.loc["full", c]
                < loop300.loc["fb_roofline", c]
                < loop300.loc["no_feedback", c]
                for c in loop300.columns
            ),
            "The order is the same on every seed",
        ),
        _holds(
            list(by_budget["stuck shapes"])
            not in (sorted(by_budget["stuck shapes"]), sorted(by_budget["stuck shapes"], reverse=True)),
            "The number of stuck shapes is not monotone",
        ),
        # "close": within 0.8 of the roofline
        _holds(
            2 * sum(table.roofline(r.shape) / table.oracle(r.shape)[1] < 0.8 for r in stuck) > len(stuck),
            "on most stuck shapes not even the best config comes\nclose to it",
        ),
        # Glossary
        f"one of the {n} GEMM shapes the evaluator runs a program on to score it",
        f"块太少占不满 {gpu.sms} 个 SM",
    ]
