"""Notebook 06's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

import functools

import numpy as np

from toyhw.course import feedback_tables
from toyhw.evolve.experiments import ablations, targeting
from toyhw.gemm import cost as gemm_cost
from toyhw.gemm.time_table import shared_table
from claims import Claim, holds, said
from claims.formats import pct as _pct, value_range as _range
from exercise_cells import NOTEBOOKS, load_solution

solutions = load_solution(NOTEBOOKS / "06_using_feedback.ipynb")

SEED, BUDGET = 0, 300
SEEDS = ablations.SEEDS


@functools.lru_cache(maxsize=None)
def _in_loop(budget: int):
    return solutions.stuck_target_shares(budget=budget)


# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset({"nb06-03", "nb06-06", "nb06-12", "nb06-20", "nb06-24", "nb06-references"})
NOT_RESULTS = {
    "nb06-00": ("compare the five", "measure how much"),
    "nb06-05": ("Why can `vs_best`", "Because its reference", "A config nobody proposed", "In return every `vs_best`"),
    "nb06-19": ("No config removes", "Best-seen feedback is", "For a decode shape"),
    "nb06-23": (
        "Best-seen feedback does",
        "Roofline feedback is",
        "only ever targets",
        "Once the parent is",
        "It runs dry when",
    ),
    "nb06-summary": ("* `vs_roofline` measures", "* A real LLM has"),
    "nb06-ex1": ("The observer only", "Each run is the same"),
    "nb06-ex2": ("The check recomputes",),
    "nb06-ex3": ("Which training shapes",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS: frozenset[str] = frozenset()
QUOTED = {
    "nb06-05": ("shapes that are not",),
    "nb06-08": ("Its `vs_best` is", "The best any config"),
    "nb06-27": ("seeds and shrinks",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb06-01-about", "input", seed_0="0", proposed_300="300"),
    *said("nb06-20", "input", seeds_0="0", seeds_4="4"),
    *said("nb06-24", "input", programs_300="300", after_1000="1000"),
    *said(
        "nb06-ex2",
        "input",
        after_100="100",
        after_200="200",
        after_300="300",
        after_500="500",
        programs_700="700",
        programs_1000="1000",
        seed_0="0",
    ),
    *said("nb06-ex1", "input", programs_300="300"),
    *said("nb06-ex3", "input", their_0_6="0.6"),
]


def claims() -> list[Claim]:
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

    # the names the prose states beside its numbers (words, not numbers): each one a check of its value
    qkv512, qkv128 = "70B/8 qkv M=512", "70B/8 qkv M=128"
    names = [
        holds(
            first.shape.label() == qkv512 and lowest.shape.label() == "70B/8 qkv M=16", "first_and_lowest", "nb06-05"
        ),
        holds(lowest.best_config.short() == "32x32x128 w4 s4 k8", "lowest_best_config", "nb06-05"),
        holds([r.shape.label() for r in stuck_top[:2]] == [qkv512, qkv128], "stuck_top_shapes", "nb06-08"),
        holds(
            (shown_stuck.shape.label(), shown_free.shape.label()) == ("8B o M=64", "8B down M=24"),
            "shown_shapes",
            "nb06-08",
        ),
        holds([r.shape.label() for r in far] == [qkv512, qkv128, "8B o M=256"], "far_shapes", "nb06-19"),
        holds(breakdown[0][3].bound == "compute", "far_0_bound", "nb06-19"),
        holds(far_frame.iloc[0]["shape"] == qkv512, "far_frame_first", "nb06-ex3"),
    ]
    return [
        *INPUTS,
        *names,
        *said("nb06-24", study_seed_first=f'{ablations.SEEDS[0]}', study_seed_last=f'{ablations.SEEDS[-1]}'),
        holds(
            med["full"] > med["fb_roofline"] and med["full"] > med["no_feedback"],
            "full_method_ended_above_same",
            "nb06-00",
        ),
        *said(("nb06-00", "nb06-05", "nb06-08", "nb06-ex3", "nb06-glossary"), n_shapes=f'{n}'),
        *said(("nb06-03", "nb06-23"), stuck_margin=f'{1 - targeting.STUCK:.0%}'),
        *said("nb06-05", budget=f'{BUDGET}'),
        *said(("nb06-05", "nb06-12"), n_stuck=f'{len(stuck)}'),
        holds(
            first.vs_best > targeting.STUCK and first is sorted(t.rows, key=lambda r: r.vs_roofline)[0],
            "b_qkv_m_farthest_roofline",
            "nb06-05",
        ),
        *said(
            ("nb06-05", "nb06-08"), first_vs_roofline=f'{first.vs_roofline:.3f}', first_vs_best=f'{first.vs_best:.3f}'
        ),
        *said(
            "nb06-05",
            n_not_stuck=f'{n - len(stuck)}',
            lowest_vs_best=f'{lowest.vs_best:.3f}',
            lowest_headroom=f"{1 / lowest.vs_best:.2f}×",
        ),
        *said("nb06-05", "input", however_1="1"),
        holds(
            f"share {t.overlap_top5} shape(s). Of roofline's top 5, {len(stuck_top)} are already at the best config "
            f"seen ({stuck_top[0].shape.label()}, {stuck_top[1].shape.label()})" in obs[1],
            "two_lists_share_shapes_roofline",
            "nb06-08",
        ),
        *said("nb06-08", t_overlap_top5=f'{t.overlap_top5}', n_stuck_top=f'{len(stuck_top)}'),
        holds(all(r.vs_best <= targeting.STUCK for r in t.top_best), "all_five_shapes_best_seen", "nb06-08"),
        holds(
            float(_in_loop(300).loc["fb_worst3"].max()) < 0.1 and targeting.known_improvement(targeting.STUCK),
            "so_early_run_almost_every",
            "nb06-23",
        ),
        *said(
            ("nb06-06", "nb06-08"),
            shown_stuck_vs_best=f'{shown_stuck.vs_best:.4f}',
            shown_free_vs_best=f'{shown_free.vs_best:.4f}',
        ),
        *said("nb06-06", shown_free_vs_best_rounded=f'{shown_free.vs_best:.2f}'),
        *said("nb06-08", "input", programs_1000="1000"),
        *said(
            "nb06-08",
            oracle_us=f'{oracle_us:.1f}',
            first_time=f'{first.time:.1f}',
            gain=f"{gain:.2f}×",
            first_vs_roofline_oracle=f'{table.roofline(first.shape) / oracle_us:.2f}',
        ),
        *said("nb06-08", "input", not_1="1"),
        *said("nb06-08", gain_per_shape=f'{gain ** (1 / n):.4f}'),
        holds(f"{gain:.2f}" == "1.22" and n == 44, "top5_overlap", "nb06-08"),
        *said("nb06-08", first_roofline_headroom=f"{1 / first.vs_roofline:.2f}×"),
        holds(
            obs[0].startswith(f"{len(stuck)} of {n} training shapes have no known improvement after {BUDGET} programs")
            and f"roofline weighting gives them {_pct(t.share_on_stuck['roofline'])} of one program's target draw, "
            f"best-seen weighting {_pct(t.share_on_stuck['best'])}."
            in obs[0],
            "run_roofline_weighting_sends_draw",
            "nb06-12",
        ),
        *said("nb06-12", t_share_on_stuck_roofline=f"{_pct(t.share_on_stuck['roofline'])}"),
        *said(("nb06-12", "nb06-ex1"), t_share_on_stuck_best=f"{_pct(t.share_on_stuck['best'])}"),
        *said("nb06-12", first_vs_roofline_rounded=f'{first.vs_roofline:.2f}', weight=f'{weight:.0f}'),
        holds(all(g > 0 for b in gaps for g in gaps[b]), "roofline_weighting_puts_larger_share", "nb06-14"),
        *said(
            "nb06-14",
            n_seeds=f'{2 * len(SEEDS)}',
            roofline_stuck_share_300=f'{_range(roof[300])}',
            best_stuck_share_300=f'{_range(best[300])}',
            roofline_stuck_share_1000=f'{_range(roof[1000])}',
            best_stuck_share_1000=f'{_range(best[1000])}',
        ),
        *said("nb06-14", "input", programs_300="300", after_1000="1000"),
        holds(
            all(g1000 < g300 for g300, g1000 in zip(gaps[300], gaps[1000]))
            and all(b1000 > b300 for b300, b1000 in zip(best[300], best[1000])),
            "gap_shrinks_budget_every_seed",
            "nb06-14",
        ),
        *said(("nb06-15", "nb06-19", "nb06-glossary"), h100_sms=f'{gpu.sms}'),
        *said(
            "nb06-19",
            far_0_vs_roofline=f'{table.roofline(far[0].shape) / breakdown[0][2]:.2f}',
            breakdown_0_2=f'{breakdown[0][2]:.1f}',
            far_0_roofline_us=f'{table.roofline(far[0].shape):.1f}',
            breakdown_0_3_blocks=f'{breakdown[0][3].blocks}',
            idle_sms=f'{gpu.sms - breakdown[0][3].blocks}',
            first_far_fixed_us=f'{fixed(breakdown[0][3]):.1f}',
        ),
        holds(breakdown[1][3].bound == "dram", "b_qkv_m_roofline_dram", "nb06-19"),
        *said(
            "nb06-19",
            far_1_vs_roofline=f'{table.roofline(far[1].shape) / breakdown[1][2]:.2f}',
            second_far_fixed_us=f'{fixed(breakdown[1][3]):.1f}',
            breakdown_1_2=f'{breakdown[1][2]:.1f}',
        ),
        holds(breakdown[2][3].bound == "sm_load", "b_o_m_roofline_bound", "nb06-19"),
        *said(
            "nb06-19",
            far_2_vs_roofline=f'{table.roofline(far[2].shape) / breakdown[2][2]:.2f}',
            breakdown_2_3_blocks=f'{breakdown[2][3].blocks}',
        ),
        holds(
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
            "decode_shapes_stuck_their_best",
            "nb06-19",
        ),
        *said(
            "nb06-19",
            n_stuck_decode=f'{len(stuck_decode)}',
            n_decode=f'{len(decode)}',
            min_dec=f'{min((x for x, _, _ in dec)):.2f}',
            max_dec=f'{max((x for x, _, _ in dec)):.2f}',
            decode_fixed_share_range=f'{_range([f for _, f, _ in dec])}',
        ),
        *said(
            "nb06-19",
            b200_launch_us=f'{b200.gpu.launch_s * 1000000.0:.1f}',
            h100_launch_us=f'{gpu.launch_s * 1000000.0:.1f}',
        ),
        holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()),
            "vs_roofline_falls_all_stuck_decode",
            "nb06-19",
        ),
        *said(("nb06-19", "nb06-ex4"), n_reach=f'{len(reach)}'),
        *said(
            "nb06-19",
            o4_h100_vs_roofline=f"{o4['H100 vs_roofline']:.2f}",
            o4_b200_vs_roofline=f"{o4['B200 vs_roofline']:.2f}",
            g1_h100_vs_roofline=f"{g1['H100 vs_roofline']:.2f}",
            g1_b200_vs_roofline=f"{g1['B200 vs_roofline']:.2f}",
        ),
        holds(o4["H100 fixed share"] == o4["B200 fixed share"], "roofline_moves_datasheet_tb_s", "nb06-19"),
        *said(
            "nb06-19",
            b200_hbm_tb_per_s=f'{b200.gpu.hbm_bytes_per_s / 1000000000000.0:.1f}',
            h100_hbm_tb_per_s=f'{gpu.hbm_bytes_per_s / 1000000000000.0:.2f}',
            b200_hbm_share=f'{_pct(b200.gpu.hbm_achievable_share)}',
            h100_hbm_share=f'{_pct(gpu.hbm_achievable_share)}',
            o4_h100_fixed_share=f"{o4['H100 fixed share']:.2f}",
        ),
        holds(
            fin["fb_roofline"].max() < fin["full"].min() and fin["no_feedback"].max() < fin["full"].min(),
            "after_programs_full_method_s",
            "nb06-23",
        ),
        *said("nb06-23", "input", programs_1000="1000"),
        *said(
            "nb06-23",
            med_full=f"{med['full']:.3f}",
            med_fb_roofline=f"{med['fb_roofline']:.3f}",
            med_no_feedback=f"{med['no_feedback']:.3f}",
            fin_full_min=f"{fin['full'].min():.3f}",
            fin_fb_roofline_max=f"{fin['fb_roofline'].max():.3f}",
            fin_no_feedback_max=f"{fin['no_feedback'].max():.3f}",
        ),
        holds(
            min(at50, key=at50.get) == "fb_worst3"
            and max(med, key=med.get) == "fb_worst3"
            and fin["fb_worst3"].min() <= fin["full"].max(),
            "last_after_programs_against_full",
            "nb06-23",
        ),
        *said("nb06-23", "input", programs_50="50"),
        *said(
            "nb06-23",
            at50_fb_worst3=f"{at50['fb_worst3']:.3f}",
            at50_full=f"{at50['full']:.3f}",
            med_fb_worst3=f"{med['fb_worst3']:.3f}",
            fin_fb_worst3_min=f"{fin['fb_worst3'].min():.3f}",
            fin_fb_worst3_max=f"{fin['fb_worst3'].max():.3f}",
            fin_full_max=f"{fin['full'].max():.3f}",
        ),
        *said("nb06-23", "input", proposals_300="300"),
        *said(
            ("nb06-23", "nb06-ex1"),
            loop300_fb_worst3=f"{_range(loop300.loc['fb_worst3'])}",
            loop300_full=f"{_range(loop300.loc['full'])}",
            loop300_fb_roofline=f"{_range(loop300.loc['fb_roofline'])}",
            loop300_no_feedback=f"{_range(loop300.loc['no_feedback'])}",
        ),
        holds(
            sorted(loop1000.loc["fb_worst3"].nlargest(2).index) == ["seed 0", "seed 4"],
            "after_programs_share_rises_seeds",
            "nb06-23",
        ),
        *said(
            ("nb06-23", "nb06-ex1"),
            loop1000_loc_fb_worst3_seed_0=f"{_pct(loop1000.loc['fb_worst3', 'seed 0'])}",
            loop1000_loc_fb_worst3_seed_4=f"{_pct(loop1000.loc['fb_worst3', 'seed 4'])}",
        ),
        *said("nb06-23", "input", seeds_0="0", seeds_4="4"),
        *said("nb06-27", "input", grows_0="0", programs_100="100", after_500="500"),
        *said(
            "nb06-27",
            n_stuck_300_0=f'{n_stuck[300][0]}',
            n_stuck_1000_0=f'{n_stuck[1000][0]}',
            stuck_at_100=f"{by_budget.loc[100, 'stuck shapes']}",
            stuck_at_500=f"{by_budget.loc[500, 'stuck shapes']}",
            grows=f'{grows}',
            shrinks=f'{shrinks}',
        ),
        holds(
            all_five == [(2, 1000)] and targeting.targeting(2, 1000).overlap_top5 == 0,
            "programs_roofline_s_top_five",
            "nb06-27",
        ),
        *said("nb06-27", "input", programs_300="300", programs_1000="1000"),
        *said("nb06-27", top_stuck=f"{', '.join(map(str, top_stuck[:-1]))}", top_stuck_last=f'{top_stuck[-1]}'),
        holds(all(g > 0 for b in gaps for g in gaps[b]), "every_seed_after_after_programs", "nb06-summary"),
        *said("nb06-summary", "input", after_300="300", programs_1000="1000"),
        *said(
            "nb06-summary",
            roofline_stuck_share_all=f'{_range(roof[300] + roof[1000])}',
            best_stuck_share_all=f'{_range(best[300] + best[1000])}',
        ),
        *said("nb06-ex1", loop300_loc_full_seed_0=f"{_pct(loop300.loc['full', 'seed 0'])}"),
        holds(
            all(
                loop300.loc["fb_worst3", c]
                < loop300.loc["full", c]
                < loop300.loc["fb_roofline", c]
                < loop300.loc["no_feedback", c]
                for c in loop300.columns
            ),
            "full_fb_roofline_fb_worst_no_feedback",
            "nb06-ex1",
        ),
        holds(loop1000.loc["fb_roofline", "seed 3"] < loop1000.loc["full", "seed 3"], "seed_against", "nb06-ex1"),
        *said("nb06-ex1", "input", seed_3="3"),
        *said(
            "nb06-ex1",
            loop1000_loc_fb_roofline_seed_3=f"{_pct(loop1000.loc['fb_roofline', 'seed 3'])}",
            loop1000_loc_full_seed_3=f"{_pct(loop1000.loc['full', 'seed 3'])}",
        ),
        *said("nb06-ex1", "input", programs_0="0", seeds_4="4"),
        *said(
            "nb06-ex2",
            stuck_by_budget=', '.join((str(v) for v in by_budget['stuck shapes'].iloc[:-1])),
            stuck_by_budget_last=f"{by_budget['stuck shapes'].iloc[-1]}",
            roofline_share_by_budget=', '.join((_pct(v) for v in by_budget['roofline'].iloc[:-1])),
            roofline_share_by_budget_last=f"{_pct(by_budget['roofline'].iloc[-1])}",
            best_share_by_budget=', '.join((_pct(v) for v in by_budget['best seen'].iloc[:-1])),
            best_share_by_budget_last=f"{_pct(by_budget['best seen'].iloc[-1])}",
        ),
        holds(bool((by_budget["roofline"] > by_budget["best seen"]).all()), "roofline_s_share_above_best", "nb06-ex2"),
        *said(
            "nb06-ex3",
            n_far_frame=f'{len(far_frame)}',
            far_frame_iloc_0_oracle_vs_roofline=f"{far_frame.iloc[0]['oracle vs_roofline']:.2f}",
            far_frame_bound_dram_sum=f"{(far_frame['bound'] == 'dram').sum()}",
            n_far_launch_bound=f"{far_frame['why'].str.contains('launch').sum()}",
        ),
        holds(list(layers.index[:2]) == ["70B/8 qkv", "70B/8 o"], "qkv_shapes_far", "nb06-ex3"),
        *said(
            "nb06-ex3", layers_n_70b_over_8_qkv=f"{layers['70B/8 qkv']}", layers_n_70b_over_8_o=f"{layers['70B/8 o']}"
        ),
        holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()),
            "h_oracle_reaches_roofline_stuck",
            "nb06-ex4",
        ),
        *said(
            "nb06-ex4",
            reach_h100_vs_roofline_min=f"{reach['H100 vs_roofline'].min():.2f}",
            reach_h100_vs_roofline_max=f"{reach['H100 vs_roofline'].max():.2f}",
            reach_b200_vs_roofline_min=f"{reach['B200 vs_roofline'].min():.2f}",
            reach_b200_vs_roofline_max=f"{reach['B200 vs_roofline'].max():.2f}",
        ),
        holds(
            round((reach["B200 fixed share"] - reach["H100 fixed share"]).abs().max(), 2) <= 0.01,
            "fixed_share_barely_moves_most",
            "nb06-ex4",
        ),
        *said(
            "nb06-ex4", fixed_share_move=f"{(reach['B200 fixed share'] - reach['H100 fixed share']).abs().max():.2f}"
        ),
        holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()), "but_roofline_shrinks_more", "nb06-ex4"
        ),
        holds(
            bool((reach["B200 vs_roofline"] < reach["H100 vs_roofline"]).all()),
            "faster_gpu_moves_bound_further",
            "nb06-19",
        ),
        holds(all(g > 0 for b in gaps for g in gaps[b]), "roofline_weighting_puts_larger_share_2", "nb06-27"),
        holds(
            max(med, key=med.get) == "fb_worst3"
            and focus.loc["fb_worst3"]["faster config known"].min() > 0.99
            and focus.loc["fb_worst3"]["faster config known"].min() < 1,
            "ends_first_because_three_nearly",
            "nb06-summary",
        ),
        holds(
            all(
                loop300.loc["fb_worst3", c]
                < loop300.loc["full", c]
                < loop300.loc["fb_roofline", c]
                < loop300.loc["no_feedback", c]
                for c in loop300.columns
            ),
            "order_same_every_seed",
            "nb06-ex1",
        ),
        holds(
            list(by_budget["stuck shapes"])
            not in (sorted(by_budget["stuck shapes"]), sorted(by_budget["stuck shapes"], reverse=True)),
            "number_stuck_shapes_not_monotone",
            "nb06-ex2",
        ),
        holds(
            2 * sum(table.roofline(r.shape) / table.oracle(r.shape)[1] < 0.8 for r in stuck) > len(stuck),
            "most_stuck_shapes_not_even",
            "nb06-19",
        ),
    ]
