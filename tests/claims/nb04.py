"""Notebook 04's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

import functools
import inspect
from collections import Counter

import numpy as np

from toyhw import data
from toyhw.course import evolve_tables as tables, proposal_trace
from toyhw.evolve import database, evaluator as evaluator_lib
from toyhw.evolve.experiments import ablations, targeting
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.shape_times import ShapeTimes
from toyhw.evolve.config import DEFAULT
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import expert_program, firing_rule
from exercise_cells import NOTEBOOKS, load_solution
from prose.study_figures import study_figures
from claims import Claim, holds, said
from claims.formats import f3 as _f3, pct as _pct


def first_of_the_rest(budgets: range, condition) -> int:
    """Return the first budget from which `condition` holds at every budget to the end (one pass from the end)."""
    first = None
    for b in reversed(budgets):
        if not condition(b):
            break
        first = b
    if first is None:
        raise ValueError("the condition does not hold at the last budget")
    return first


@functools.lru_cache(maxsize=None)
def solutions():
    """notebooks/solutions/04_alphaevolve_ablations.py, run as a module: the numbers its exercises' Answers quote."""
    return load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb")


SHOWN = ["full", "fb_roofline", "no_feedback", "small_llm", "no_evolution"]

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset(
    {
        "nb04-00",
        "nb04-01-study",
        "nb04-04",
        "nb04-06",
        "nb04-09",
        "nb04-15",
        "nb04-16",
        "nb04-20",
        "nb04-32",
        "nb04-ex4",
    }
)
NOT_RESULTS = {
    "nb04-13": ("It picks a **target", "Each variant switches"),
    "nb04-18": ("A median outside",),
    "nb04-25": ("A method that gains",),
    "nb04-31": ("edits are borrowed",),
    "nb04-ex1": ("Does the gap between", "Run both on five"),
    "nb04-ex2": ("Does adopting the",),
    "nb04-ex3": ("targets only the", "Trace a run of each", "Why does the focus", "Once the parent catches"),
    "nb04-ex5": ("`ctx.table.configs` lists every", "A rule list fitted"),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS = frozenset({"nb04-08", "nb04-31"})
QUOTED = {
    "nb04-18": ("**Within the seed",),
    "nb04-25": ("`no_feedback`'s median lies",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb04-11", "input", seed_0="0", programs_1000="1000"),
    *said("nb04-32", "input", budget_100="100"),
    *said("nb04-32", "input", cascade_1="1", seeds_3="3", seeds_5="5"),
    *said("nb04-ex1", "input", seeds_10="10", seeds_14="14"),
    *said("nb04-ex1", "input", medians_300="300"),
    *said("nb04-ex3", "input", seed_0="0", seeds_4="4"),
    *said("nb04-22", "input", seed_0="0"),
    *said("nb04-26", "input", seed_0="0"),
    *said("nb04-ex1", "input", within_0_0005="0.0005"),
    *said("nb04-ex2", "input", within_0_0005="0.0005"),
    *said("nb04-ex4", "input", within_0_0005="0.0005"),
    *said("nb04-ex3", "input", within_0_005="0.005"),
    *said("nb04-ex2", "input", seed_0="0", column_4="4"),
]


def claims() -> list[Claim]:
    ctx = ablations.context()
    figures = study_figures()
    study, runs, hist, final = figures.study, figures.study.runs, figures.hist, figures.final
    med, test, share, kernel_runs, pos = figures.med, figures.test, figures.share, figures.kernel_runs, figures.pos
    at = figures.at  # the median after b programs
    lo, hi = final["full"].min(), final["full"].max()
    table_rows = {r["variant"]: r for r in ablations.lecture_table(study)}
    seeds = ablations.SEEDS

    # Section 1 / Think! 1
    data_train = ShapeTimes(ctx.train, ctx.table)
    oracle_configs = [ctx.table.configs[i] for i in data_train.times.argmin(axis=1)]
    split = [(s, c) for s, c in zip(ctx.train, oracle_configs) if c.split_k > 1]
    m_values = sorted({s.M for s in ctx.train})
    differ = [m for m in m_values if len({c for s, c in zip(ctx.train, oracle_configs) if s.M == m}) > 1]
    m_only = solutions().best_m_only_program()
    m_only_train = geomean_speedup(m_only, ctx.train, ctx.table)
    m_only_test = geomean_speedup(m_only, ctx.test, ctx.table)
    m_only_new = geomean_speedup(m_only, ctx.new, ctx.table)
    best = ablations.run_one("full", 0, ablations.BUDGET)
    rules = best.best.rules
    nk = [r for r in rules if any(b is not None for b in (r.n_min, r.n_max, r.k_min, r.k_max))]
    fires_train = Counter(firing_rule(best.best, s.M, s.N, s.K) for s in ctx.train)
    fires_test = Counter(firing_rule(best.best, s.M, s.N, s.K) for s in ctx.test)
    untrained = [i for i in range(len(rules)) if fires_train[i] == 0]
    untested = [i for i in range(len(rules)) if fires_test[i] == 0]
    expert_t = ShapeTimes(ctx.test, ctx.table)
    slow_train = int(np.sum(data_train.program_times(best.best) > data_train.program_times(expert_program())))
    slow_test = int(np.sum(expert_t.program_times(best.best) > expert_t.program_times(expert_program())))

    # Section 2
    capacity, migrate_every, n_islands = DEFAULT.capacity, DEFAULT.migrate_every, DEFAULT.n_islands
    tournament = inspect.signature(database.Database).parameters["tournament"].default
    counts = tables.database_counts(evolve(evaluator_lib.Evaluator(ctx.train, ctx.table), 1000, seed=0)).iloc[:, 0]
    noevo = tables.database_counts(proposal_trace.trace("no_evolution", 0, 1000).result).iloc[:, 0]

    # Section 3: held-out ranking
    ranks = tables.rank_frame(study)
    test_share = ablations.headroom_share(test["full"], ctx.oracle_test)
    keeps = [n for n in runs if ablations.headroom_share(test[n], ctx.oracle_test) >= share[n]]
    tests = {n: [r.test for r in runs[n]] for n in runs}
    pairs = [(a, b) for i, a in enumerate(runs) for b in list(runs)[i + 1 :]]
    overlapping = [(a, b) for a, b in pairs if max(tests[a]) >= min(tests[b]) and max(tests[b]) >= min(tests[a])]
    full_tests = [r.test for r in runs["full"]]

    # Section 4 / Think! 4
    full_low, full_high = hist["full"].min(axis=0), hist["full"].max(axis=0)  # full's seed spread at each budget

    def position(name: str, b: int) -> str:
        low, high, m = full_low[b - 1], full_high[b - 1], at(name, b)
        return "within" if low <= m <= high else "above" if m > high else "below"

    budgets = range(1, study.budget + 1)
    nofb_within = [b for b in budgets if position("no_feedback", b) == "within"]
    fbr_within = [b for b in budgets if position("fb_roofline", b) == "within"]
    nofb_below_from = first_of_the_rest(budgets, lambda b: position("no_feedback", b) == "below")
    gaps = {m: max(at(n, m) for n in runs) - min(at(n, m) for n in runs) for m in (100, study.budget)}

    # Section 5
    lineage = best.lineage
    worse = sum(b.score < a.score for a, b in zip(lineage, lineage[1:]))
    borrowed = [s for s in lineage if s.description.startswith("borrow")]
    borrowed_m16 = [s for s in borrowed if s.description.startswith("borrow `if M <= 16`")]

    # demo
    def apart(a: str, b: str, budget: int) -> bool:
        x, y = hist[a][:, budget - 1], hist[b][:, budget - 1]
        return x.max() < y.min() or y.max() < x.min()

    pairs100 = [(a, b) for i, a in enumerate(SHOWN) for b in SHOWN[i + 1 :] if apart(a, b, 100)]
    plumbing = ["full", "no_borrow", "one_island", "no_cascade"]
    order = {k: sorted(plumbing, key=lambda n: -float(np.median(final[n][:k]))) for k in (1, 3, 5)}
    nff_below = first_of_the_rest(budgets, lambda b: at("no_full_file", b) < at("small_llm", b))

    # exercises
    gap = solutions().ablation_gap()
    sweep = solutions().adoption_sweep()
    focus = solutions().focus_report()
    new = solutions().new_shape_scores(study)
    full_focus, worst_focus = focus.loc["full"], focus.loc["fb_worst3"]

    def span(frame, column, fmt=_pct) -> str:
        return f"{fmt(frame[column].min())} to {fmt(frame[column].max())}"

    figures = data.paper_figures()
    observations = " ".join(tables.ablation_observations(study))
    out = [
        *said("nb04-00", alphaevolve_kernel_speedup=f"{figures['alphaevolve_kernel_speedup_percent']}%"),
        *said(("nb04-01-study", "nb04-16"), study_seed_first=f'{seeds[0]}', study_seed_last=f'{seeds[-1]}'),
        *said("nb04-01-study", study_budget_programs=f'{ablations.BUDGET}'),
        *said(("nb04-06", "nb04-08", "nb04-22", "nb04-ex3"), n_ctx_train=f'{len(ctx.train)}'),
        *said("nb04-06", n_token_counts=f'{len({s.M for s in ctx.train})}'),
        *said(("nb04-06", "nb04-22"), n_ctx_test=f'{len(ctx.test)}'),
        *said("nb04-08", ctx_oracle_train=f'{_f3(ctx.oracle_train)}'),
        *said(("nb04-08", "nb04-22"), ctx_oracle_test=f'{_f3(ctx.oracle_test)}'),
        *said("nb04-08", oracle_headroom=f'{ctx.oracle_train - 1:.1%}'),
        *said("nb04-08", ctx_table_gpu_sms=f'{ctx.table.gpu.sms}'),
        holds(
            all(s.K >= 8192 for s, _ in split) and {s.name for s, _ in split} == {"8B down", "70B/8 qkv"},
            "split_k_on_wide_k",
            "nb04-08",
        ),
        *said("nb04-08", n_split=f'{len(split)}', split_min_k=f'{min((s.K for s, _ in split))}'),
        *said("nb04-08", n_differ=f'{len(differ)}', n_m_values=f'{len(m_values)}'),
        *said(
            ("nb04-08", "nb04-ex5"),
            m_only_train=f'{_f3(m_only_train)}',
            m_only_share=f'{_pct(ablations.headroom_share(m_only_train, ctx.oracle_train))}',
        ),
        *said(("nb04-08", "nb04-18"), med_full=f"{_f3(med['full'])}"),
        *said(("nb04-08", "nb04-18", "nb04-22", "nb04-ex5"), share_full=f"{_pct(share['full'])}"),
        *said(("nb04-08", "nb04-28"), n_rules_on_n_or_k=f'{len(nk)}'),
        *said(("nb04-08", "nb04-22", "nb04-28"), n_rules=f'{len(rules)}'),
        *said("nb04-08", "input", seed_0="0"),
        *said(("nb04-09", "nb04-glossary"), tournament=f'{tournament}'),
        *said("nb04-09", migrate_every=f'{migrate_every}'),
        *said(("nb04-11", "nb04-13", "nb04-glossary"), capacity=f'{capacity}'),
        *said(("nb04-11", "nb04-glossary"), capacity_per_island=f"{counts['capacity per island']}"),
        *said("nb04-11", n_islands=f'{n_islands}'),
        *said(
            "nb04-13",
            counts_entries_held=f"{counts['entries held']}",
            counts_distinct_entries=f"{counts['distinct entries']}",
            counts_migration_copies=f"{counts['migration copies']}",
        ),
        holds(counts["distinct entries"] == counts["distinct programs"], "db_dups", "nb04-13"),
        *said(
            "nb04-13",
            no_evolution_duplicates=f"{noevo['distinct entries'] - noevo['distinct programs']}",
            noevo_distinct_entries=f"{noevo['distinct entries']}",
        ),
        *said("nb04-13", n_added=f"{counts['added over the run']}"),
        holds(abs(at("no_evolution", 50) - med["no_evolution"]) < 0.001, "database_keeps_best", "nb04-15"),
        *said(("nb04-15", "nb04-25"), at_no_evolution_50=f"{_f3(at('no_evolution', 50))}"),
        *said("nb04-15", "input", programs_50="50"),
        *said(("nb04-15", "nb04-18", "nb04-25"), med_no_evolution=f"{_f3(med['no_evolution'])}"),
        *said(("nb04-15", "nb04-25", "nb04-35"), study_budget=f'{study.budget}'),
        *said(
            "nb04-15",
            no_evolution_rules=f"{table_rows['no_evolution']['rules']:.0f}",
            expert_rules=f'{expert_program().n_rules()}',
        ),
        *said("nb04-16", marks=f"{', '.join(map(str, ablations.MARKS[:-1]))}", marks_last=f'{ablations.MARKS[-1]}'),
        *said(("nb04-18", "nb04-31", "nb04-ex3"), full_final_min=f'{_f3(lo)}', full_final_max=f'{_f3(hi)}'),
        holds(sorted(med, key=med.get)[:3] == ["no_full_file", "no_evolution", "small_llm"], "s3_low", "nb04-18"),
        *said(
            ("nb04-18", "nb04-35"),
            med_no_full_file=f"{_f3(med['no_full_file'])}",
            med_small_llm=f"{_f3(med['small_llm'])}",
        ),
        *said(("nb04-18", "nb04-22"), share_no_full_file=f"{_pct(share['no_full_file'])}"),
        *said(
            "nb04-18",
            share_no_evolution=f"{_pct(share['no_evolution'])}",
            share_small_llm=f"{_pct(share['small_llm'])}",
        ),
        holds(final["small_llm"].max() < lo, "s3_small", "nb04-18"),
        *said("nb04-18", final_small_llm_max=f"{_f3(final['small_llm'].max())}"),
        holds(pos["fb_roofline"] == "below" and pos["no_feedback"] == "below", "s3_fb", "nb04-18"),
        *said("nb04-18", med_fb_roofline=f"{_f3(med['fb_roofline'])}", med_no_feedback=f"{_f3(med['no_feedback'])}"),
        holds(pos["fb_worst3"] == "above", "s3_worst3", "nb04-18"),
        *said(
            "nb04-18",
            med_fb_worst3=f"{_f3(med['fb_worst3'])}",
            n_worst3_above_full=f"{int(np.sum(final['fb_worst3'] > hi))}",
        ),
        *said(
            ("nb04-18", "nb04-ex3"),
            final_fb_worst3_min=f"{_f3(final['fb_worst3'].min())}",
            final_fb_worst3_max=f"{_f3(final['fb_worst3'].max())}",
        ),
        holds(
            pos["no_borrow"] == "within"
            and pos["one_island"] == "within"
            and "Medians within full's seed spread" in observations
            and "no_borrow, one_island; outside it" in observations,
            "s3_plumb_in",
            "nb04-18",
        ),
        *said(("nb04-18", "nb04-31"), med_no_borrow=f"{_f3(med['no_borrow'])}"),
        *said("nb04-18", med_one_island=f"{_f3(med['one_island'])}"),
        holds(pos["no_cascade"] == "above" and pos["no_meta_prompt"] == "above", "s3_plumb_out", "nb04-18"),
        *said("nb04-18", med_no_cascade=f"{_f3(med['no_cascade'])}"),
        holds(final["no_meta_prompt"].min() > hi, "s3_nmp", "nb04-18"),
        *said("nb04-18", final_no_meta_prompt_min=f"{_f3(final['no_meta_prompt'].min())}"),
        *said(
            "nb04-18",
            kernel_runs_no_cascade=f"{kernel_runs['no_cascade']:,}",
            kernel_runs_full=f"{kernel_runs['full']:,}",
        ),
        holds(final["no_cascade"].min() <= hi, "s3_nc_overlap", "nb04-18"),
        *said("nb04-18", final_no_cascade_min=f"{_f3(final['no_cascade'].min())}"),
        holds(ranks.loc["no_feedback", "test rank"] == 1, "ho_nofb", "nb04-22"),
        # ranks the prose spells out ("eighth", "from fifth to tenth"): words, so each is a check of its number
        holds(ranks.loc["no_feedback", "training rank"] == 8, "no_feedback_training_rank_8", "nb04-22"),
        holds(ranks.loc["one_island", "training rank"] == 5, "one_island_training_rank_5", "nb04-22"),
        holds(ranks.loc["one_island", "test rank"] == 10, "one_island_test_rank_10", "nb04-22"),
        holds(ranks.loc["no_cascade", "training rank"] == 2, "no_cascade_training_rank_2", "nb04-22"),
        holds(ranks.loc["no_cascade", "test rank"] == 7, "no_cascade_test_rank_7", "nb04-22"),
        *said("nb04-22", n_runs=f'{len(runs)}', test_no_feedback=f"{_f3(test['no_feedback'])}"),
        *said("nb04-22", min_full_tests=f'{_f3(min(full_tests))}', max_full_tests=f'{_f3(max(full_tests))}'),
        *said("nb04-22", test_share=f'{_pct(test_share)}'),
        holds(keeps == ["no_full_file"], "ho_keep", "nb04-22"),
        *said("nb04-22", full_test_share=f"{_pct(ablations.headroom_share(test['no_full_file'], ctx.oracle_test))}"),
        *said("nb04-22", n_overlapping=f'{len(overlapping)}', n_pairs=f'{len(pairs)}'),
        holds(ranks["training (median)"].iloc[0] == ranks["training (median)"].iloc[1], "ho_ties", "nb04-20"),
        holds(slow_test > slow_train, "t3_slow", "nb04-22"),
        *said("nb04-22", slow_train=f'{slow_train}'),
        *said("nb04-22", slow_test=f'{slow_test}'),
        holds(0 in untested, "t3_untested", "nb04-22"),
        *said("nb04-22", n_untested=f'{len(untested)}'),
        holds(rules[0].condition() == "M == 16 and N <= 1280" and fires_test[0] == 0, "t3_fires", "nb04-22"),
        *said("nb04-22", first_rule_fires=f'{fires_train[0]}'),
        *said(
            "nb04-22",
            no_feedback_rules=f"{table_rows['no_feedback']['rules']:.0f}",
            full_rules=f"{table_rows['full']['rules']:.0f}",
        ),
        holds(all(at("no_evolution", 50) > at(n, 50) for n in SHOWN if n != "no_evolution"), "s4_ne50", "nb04-25"),
        *said("nb04-25", "input", programs_50="50"),
        *said("nb04-25", at_full_50=f"{_f3(at('full', 50))}"),
        holds(abs(med["no_evolution"] - at("no_evolution", 50)) < 0.001, "s4_ne1000", "nb04-25"),
        holds(at("full", 100) > at("no_evolution", 100), "s4_full100", "nb04-25"),
        *said("nb04-25", "input", programs_100="100"),
        *said("nb04-25", at_full_100=f"{_f3(at('full', 100))}"),
        holds(gaps[study.budget] > gaps[100], "s4_gaps", "nb04-25"),
        *said("nb04-25", gaps_100=f'{_f3(gaps[100])}', gaps_study_budget=f'{_f3(gaps[study.budget])}'),
        *said(
            "nb04-25",
            n_nofb_within=f'{len(nofb_within)}',
            max_nofb_within=f'{max(nofb_within)}',
            nofb_below_from=f'{nofb_below_from}',
        ),
        *said("nb04-25", max_fbr_within=f'{max(fbr_within)}'),
        *said(
            "nb04-25",
            spread_at_50=f"{max((at(n, 50) for n in ('full', 'fb_roofline', 'no_feedback'))) - min((at(n, 50) for n in ('full', 'fb_roofline', 'no_feedback'))):.3f}",
            at_fb_roofline_50=f"{_f3(at('fb_roofline', 50))}",
            at_no_feedback_50=f"{_f3(at('no_feedback', 50))}",
        ),
        *said("nb04-28", best_rules=f'{best.rules}'),
        holds(len(untrained) == 2, "s5_untrained", "nb04-28"),
        *said("nb04-31", n_lineage=f'{len(lineage) - 1}'),
        *said("nb04-31", worse=f'{worse}'),
        *said("nb04-31", n_borrowed=f'{len(borrowed)}'),
        *said("nb04-31", n_borrowed_m16=f'{len(borrowed_m16)}'),
        holds(pairs100 == [("full", "small_llm")], "demo_pairs", "nb04-35"),
        *said(
            "nb04-35",
            full_100_min=f"{_f3(hist['full'][:, 99].min())}",
            small_llm_100_max=f"{_f3(hist['small_llm'][:, 99].max())}",
        ),
        holds(len({tuple(v) for v in order.values()}) == 3, "demo_order", "nb04-35"),
        *said(
            "nb04-35",
            plumbing_order='; '.join((f"{k} seed{('s' if k > 1 else '')}: {', '.join(order[k])}" for k in (1, 3, 5))),
        ),
        holds(
            all(
                final[a].max() >= final[b].min() and final[b].max() >= final[a].min()
                for a in ("full", "no_borrow", "one_island")
                for b in ("full", "no_borrow", "one_island")
            )
            and order[3][0] == order[5][0] == "no_cascade",
            "demo_trio",
            "nb04-35",
        ),
        holds(nff_below <= 50, "demo_nff", "nb04-35"),
        *said("nb04-35", nff_below=f'{nff_below}'),
        *said("nb04-summary", cascade_runs_saved=f"{1 - kernel_runs['full'] / kernel_runs['no_cascade']:.0%}"),
        holds(list(gap["gap"]) == sorted(gap["gap"]) and gap["gap"].min() > 0, "e1_gap", "nb04-ex1"),
        *said(
            "nb04-ex1",
            gap_first=f"{_f3(gap['gap'].iloc[0])}",
            gap_middle=f"{', '.join((_f3(g) for g in gap['gap'].iloc[1:-1]))}",
            gap_last=f"{_f3(gap['gap'].iloc[-1])}",
        ),
        *said("nb04-ex1", "input", medians_100="100"),
        *said(
            "nb04-ex1",
            gap_full_last=f"{_f3(gap['full'].iloc[-1])}",
            full_1000_share=f"{_pct(ablations.headroom_share(gap['full'].iloc[-1], ctx.oracle_train))}",
        ),
        *said(
            "nb04-ex1",
            gap_small_llm_third=f"{_f3(gap['small_llm'].iloc[-2])}",
            gap_small_llm_last=f"{_f3(gap['small_llm'].iloc[-1])}",
        ),
        *said("nb04-ex1", "input", programs_1000="1000"),
        *said(
            "nb04-ex2",
            adoption_0_1_median=f"{_f3(sweep.loc[0.1, 'median'])}",
            adoption_0_5_median=f"{_f3(sweep.loc[0.5, 'median'])}",
            adoption_0_9_median=f"{_f3(sweep.loc[0.9, 'median'])}",
        ),
        holds(
            sweep.loc[0.9, list(seeds)].min() > sweep.loc[0.5, list(seeds)].max()
            and sweep.loc[0.5, list(seeds)].min() > sweep.loc[0.1, list(seeds)].max(),
            "e2_every",
            "nb04-ex2",
        ),
        *said("nb04-ex2", "input", p_0_9="0.9", p_0_5="0.5", p_0_1="0.1"),
        holds(list(sweep.loc[0.5, list(seeds)]) == [round(r.final, 4) for r in runs["full"]], "e2_same", "nb04-ex2"),
        holds(set(full_focus["shapes targeted"]) == {len(ctx.train)}, "e3_shapes", "nb04-ex3"),
        *said(
            "nb04-ex3",
            worst3_shapes_targeted=f"{span(worst_focus, 'shapes targeted', str)}",
            worst3_in_last=f"{span(worst_focus, 'in the last quarter', str)}",
        ),
        holds(
            worst_focus["faster config known"].min() > full_focus["faster config known"].max(), "e3_known", "nb04-ex3"
        ),
        *said(
            "nb04-ex3",
            worst3_known_faster=f"{span(worst_focus, 'faster config known', lambda x: f'{x:.1%}')}",
            full_known_faster=f"{span(full_focus, 'faster config known', lambda x: f'{x:.1%}')}",
        ),
        holds(
            targeting.STUCK == 0.95 and worst_focus["known improvement"].min() > full_focus["known improvement"].max(),
            "e3_improvement",
            "nb04-ex3",
        ),
        *said(
            "nb04-ex3",
            stuck_share=f'{1 - targeting.STUCK:.0%}',
            worst3_known_improvement=f"{span(worst_focus, 'known improvement', lambda x: f'{x:.1%}')}",
            full_known_improvement=f"{span(full_focus, 'known improvement', lambda x: f'{x:.1%}')}",
        ),
        holds(worst_focus["adopted it"].min() > full_focus["adopted it"].max(), "e3_adopt", "nb04-ex3"),
        *said(
            "nb04-ex3",
            worst3_adopted=f"{span(worst_focus, 'adopted it', lambda x: f'{x:.1%}')}",
            full_adopted=f"{span(full_focus, 'adopted it', lambda x: f'{x:.1%}')}",
        ),
        holds(
            worst_focus["child beat its parent"].min() > full_focus["child beat its parent"].max(),
            "e3_beat",
            "nb04-ex3",
        ),
        *said(
            "nb04-ex3",
            worst3_child_beat=f"{span(worst_focus, 'child beat its parent', lambda x: f'{x:.1%}')}",
            full_child_beat=f"{span(full_focus, 'child beat its parent', lambda x: f'{x:.1%}')}",
        ),
        *said(("nb04-ex4", "nb04-ex5"), n_ctx_new=f'{len(ctx.new)}'),
        *said(
            ("nb04-ex4", "nb04-ex5"),
            new_shapes_full=f'{new.iloc[0, 0]:.3f}',
            new_shapes_full_median=f"{new.loc['full', 'new shapes (median)']:.3f}",
        ),
        holds(new.index[-1] == "no_cascade" and ranks.loc["no_cascade", "training rank"] == 2, "e4_nc", "nb04-ex4"),
        *said("nb04-ex4", new_shapes_second=f'{new.iloc[-1, 0]:.3f}'),
        holds(
            len({tuple(new.index), tuple(ranks.index), tuple(ranks.sort_values("test rank").index)}) == 3,
            "e4_third",
            "nb04-ex4",
        ),
        holds(ranks.loc["no_feedback", "test rank"] == 1, "e4_nofb", "nb04-ex4"),
        holds(list(new.index).index("full") + 1 == 2, "full_new_shapes_rank_2", "nb04-ex4"),
        holds(new.index[0] == "no_meta_prompt", "best_on_new_shapes", "nb04-ex4", "nb04-ex5"),
        holds(
            [f"if {rules[i].condition()}:" for i in untrained] == ["if M == 2 and N <= 1280:", "if 257 <= M <= 384:"],
            "untrained_rules",
            "nb04-28",
        ),
        holds(list(new.index).index("no_feedback") + 1 == 3, "no_feedback_new_shapes_rank_3", "nb04-ex4"),
        holds(m_only_test < test["full"], "e5_test", "nb04-ex5"),
        *said("nb04-ex5", m_only_test=f'{_f3(m_only_test)}', test_full=f"{_f3(test['full'])}"),
        holds(
            abs(m_only_new - new.iloc[0, 0]) < 0.0005 and m_only_new > new.loc["full", "new shapes (median)"],
            "e5_new",
            "nb04-ex5",
        ),
        *said("nb04-ex5", m_only_new=f'{_f3(m_only_new)}'),
        holds(
            counts["added over the run"] - counts["distinct entries"] > counts["added over the run"] / 2,
            "c_evicted",
            "nb04-13",
        ),
        holds(2 * len(overlapping) > len(pairs), "c_ho_noise", "nb04-22"),
        holds(
            ranks.loc["no_feedback", "test rank"] == 1
            and table_rows["no_feedback"]["rules"] < table_rows["full"]["rules"],
            "c_broader",
            "nb04-22",
        ),
        holds(worse > 0, "c_not_every", "nb04-28"),
        holds(
            all(final[n].max() < lo for n in ("no_evolution", "no_full_file", "small_llm")),
            "c_far_below",
            "nb04-summary",
        ),
        holds(
            pos["fb_roofline"] == "below" and pos["no_feedback"] == "below" and pos["fb_worst3"] == "above",
            "c_fb",
            "nb04-summary",
        ),
        holds(pos["no_borrow"] == "within" and pos["one_island"] == "within", "c_plumb", "nb04-summary"),
        holds(pos["no_cascade"] == "above", "c_nc", "nb04-summary"),
        holds(list(gap["gap"]) == sorted(gap["gap"]) and gap["gap"].min() > 0, "c_e1", "nb04-ex1"),
        *said("nb04-ex1", "input", seed_0="0", rule_count_4="4"),
        holds(list(sweep["median"]) == sorted(sweep["median"]), "c_e2", "nb04-ex2"),
        holds(pos["fb_worst3"] == "above", "c_e3", "nb04-ex3"),
        holds(max(nofb_within) <= 100, "c_hundred", "nb04-25"),
        holds(0.99 < worst_focus["faster config known"].min() < 1, "c_e3_never", "nb04-ex3"),
        holds(
            worst_focus["child beat its parent"].min() > full_focus["child beat its parent"].max(),
            "c_e3_pays",
            "nb04-ex3",
        ),
    ]
    return INPUTS + out
