"""Notebook 04's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`phrases()` maps a name to each phrase of the markdown that states a number, built from the pack's computed values;
`quotes()` returns them. A claim without a number of its own ("above full's seed spread", "never moves again") is
checked with `_holds` before its phrase is returned. "Within the seed spread" always means inside the reference's
min-max over the seeds (`tables.spread_position`), the range the seed table shows.
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
from prose.phrasing import holds as _holds, f3 as _f3, pct as _pct, ordinal as _ordinal


@functools.lru_cache(maxsize=None)
def solutions():
    """notebooks/solutions/04_alphaevolve_ablations.py, run as a module: the numbers its exercises' Answers quote."""
    return load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb")


SHOWN = ["full", "fb_roofline", "no_feedback", "small_llm", "no_evolution"]

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, the paper's description, how the mock LLM and the database are built, advice.
NOT_RESULTS = [
    "The lesson was *feedback is advice, not a command*",  # notebook 02's result, checked by tests/prose/nb02.py
    "remove one component at a time and watch the result get worse",
    "3. read the lecture's table: the score each variant reaches",
    "The point is the mechanism; every number below is computed by `toyhw`.",
    "Setup computes the full study",
    "It renders to Python source, and the source parses back to the same program",
    "The **headroom** is how far the oracle lies above the expert",
    "3. pick **inspirations**: the island's best programs",
    "6. keep the child on the island if the island has room",
    "Every 50 steps each island's best is copied to the next island",
    "It picks a **target shape** from the feedback",
    "Each variant switches one part off or changes it:",
    "Because every proposal edits the initial program, a child is the expert plus one edit",
    "Medians over seeds 0-4 of the best training score after",
    "A median outside that range differs from `full` by more than anything",
    "The *test shapes* column scores each run's best program",
    "A method that gains more per step shows it only once enough steps have stacked up",
    "each time from an inspiration that was faster than the parent",  # the mock's borrow rule (toyhw/evolve/llm.py)
    "Every run was computed once for the full budget and all five seeds",
    "Which limit costs more, and from which budget on?",
    "Does the gap between the full method and `small_llm` grow or shrink",
    "Run both on five new seeds (10-14)",
    "Does adopting the best config seen more often help?",
    "`fb_worst3` targets only the three shapes with the lowest `vs_best`.",
    "Once the parent catches up with a shape's best config",
    "Trace a run of each (`proposal_trace.trace(variant, seed, 1000)`",
    "Why does the focus not stall?",
    "Score the best program of each variant on the 100 new shapes",
    "The panel starts with Section 4's five variants and all five seeds",  # the panel's settings
    "`ctx.table.configs` lists every config the time table holds",  # Exercise 5's building blocks
    "A rule list fitted to M alone has no rules for particular layers",
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "no heuristic can be more than 15.7% faster than the expert",
    "**Within the seed spread** has one meaning in this notebook",
    "`no_feedback`'s median lies within full's min-max at 71 of the 1000 budgets",
    "3 of them made the program worse than its parent",
]

PARAMETERS = [
    "The final database of seed 0's run of 1000 programs:",  # the notebook's evolve(...) call
    "At the panel's start, a budget of 100",  # demo questions
    "with 1, 3 and 5 seeds",
    "on five new seeds (10-14) with a budget of 2000",  # Exercise 1's call
    "at 100, 300, 1000 and 2000 programs",
    "`MockLLM(p_adopt=p)` for p = 0.1, 0.5 and 0.9",  # Exercise 2's sweep
    "`proposal_trace.trace(variant, seed, 1000)`",  # Exercise 3
    "seeds 0-4",  # the study's seeds, ablations.SEEDS
    "Take seed 0's best program",  # the run Section 5 shows
    "The full method's best program on seed 0,",
    "cut at 100 programs: question 1's setting",  # the panel's start, the demo's first question
    "[solutions/04_alphaevolve_ablations.py]",  # the solution file's name
    "(within 0.0005)",  # the checks' tolerances (toyhw.course.checks.nb04)
    "(within 0.005)",
    "a column per seed 0-4",  # Exercise 2's frame
]


@functools.lru_cache(maxsize=None)
def phrases() -> dict[str, str]:
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
    def position(name: str, b: int) -> str:
        ref = hist["full"][:, b - 1]
        m = at(name, b)
        return "within" if ref.min() <= m <= ref.max() else "above" if m > ref.max() else "below"

    budgets = range(1, study.budget + 1)
    nofb_within = [b for b in budgets if position("no_feedback", b) == "within"]
    fbr_within = [b for b in budgets if position("fb_roofline", b) == "within"]
    nofb_below_from = min(b for b in budgets if all(position("no_feedback", c) == "below" for c in budgets if c >= b))
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
    nff_below = min(b for b in budgets if all(at("no_full_file", c) < at("small_llm", c) for c in budgets if c >= b))

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
    P = {
        # introduction
        "ae_speedup": f"an average kernel speedup of {figures['alphaevolve_kernel_speedup_percent']}%",
        "study_size": f"every variant × seeds {seeds[0]}-{seeds[-1]} × {ablations.BUDGET} proposed programs",
        # Section 1
        "n_shapes": f"the {len(ctx.train)} training shapes (Llama-3 layers at {len({s.M for s in ctx.train})} token "
        f"counts, split half and half; the other {len(ctx.test)} shapes are held out",
        "oracle": f"The oracle reaches {_f3(ctx.oracle_train)} on the training shapes and {_f3(ctx.oracle_test)} on the "
        f"held-out ones",
        "oracle_pct": f"no heuristic can be more than {ctx.oracle_train - 1:.1%} faster than the expert",
        # Think! 1
        "t1_sms": f"fill the {ctx.table.gpu.sms} SMs",
        "t1_split": _holds(
            all(s.K >= 8192 for s, _ in split) and {s.name for s, _ in split} == {"8B down", "70B/8 qkv"},
            f"The oracle uses split-K on {len(split)} of the {len(ctx.train)} training shapes, all "
            f"with K ≥ {min(s.K for s, _ in split)} (the 8B down projection and the 70B/8 qkv layer)",
        ),
        "t1_differ": f"for {len(differ)} of the {len(m_values)} token counts the oracle's configs differ between "
        f"layers",
        "t1_m_only": f"scores {_f3(m_only_train)}, {_pct(ablations.headroom_share(m_only_train, ctx.oracle_train))} of "
        f"the headroom",
        "t1_full": f"The full method ends at {_f3(med['full'])} ({_pct(share['full'])})",
        "t1_nk": f"{len(nk)} of the {len(rules)} rules of seed 0's best program",
        # Section 2
        "tournament": f"draw {tournament} programs of the island at random and keep the best",
        "migrate": f"Every {migrate_every} steps each island's best is copied to the next island",
        "capacity": f"a **capacity** of {capacity} programs, split evenly over the islands",
        "per_island": f"so {counts['capacity per island']} per island with {n_islands} islands",
        "db_held": f"Every island is full — {counts['entries held']} entries — but only {counts['distinct entries']} of "
        f"them are different entries: the other {counts['migration copies']} are migration copies",
        "db_dups": _holds(counts["distinct entries"] == counts["distinct programs"], "not once in this run"),
        "db_noevo": f"{noevo['distinct entries'] - noevo['distinct programs']} of its {noevo['distinct entries']} "
        f"entries repeat a program",
        "db_added": f"Over the run {counts['added over the run']} programs were admitted",
        "db_max": f"at most {capacity} entries at a time",
        # Think! 2
        "t2": _holds(
            abs(at("no_evolution", 50) - med["no_evolution"]) < 0.001,
            f"its median is {_f3(at('no_evolution', 50))} after 50 programs and "
            f"{_f3(med['no_evolution'])} after {study.budget},",
        ),
        "t2_rules": f"with {table_rows['no_evolution']['rules']:.0f} branches (the expert has "
        f"{expert_program().n_rules()})",
        # Section 3
        "s3_intro": f"Medians over seeds {seeds[0]}-{seeds[-1]} of the best training score after "
        f"{', '.join(map(str, ablations.MARKS[:-1]))} and {ablations.MARKS[-1]} proposed programs",
        "s3_def": f"the lowest and highest final score over full's seeds, {_f3(lo)}-{_f3(hi)} here",
        "s3_full": f"`full` ends at {_f3(med['full'])}, {_pct(share['full'])} of the headroom",
        "s3_low": _holds(
            sorted(med, key=med.get)[:3] == ["no_full_file", "no_evolution", "small_llm"],
            f"`no_full_file` {_f3(med['no_full_file'])} ({_pct(share['no_full_file'])}), "
            f"`no_evolution` {_f3(med['no_evolution'])} ({_pct(share['no_evolution'])}) and `small_llm` "
            f"{_f3(med['small_llm'])} ({_pct(share['small_llm'])})",
        ),
        "s3_small": _holds(
            final["small_llm"].max() < lo,
            f"every seed of `small_llm` (at most {_f3(final['small_llm'].max())}) ends below every seed of `full`",
        ),
        "s3_fb": _holds(
            pos["fb_roofline"] == "below" and pos["no_feedback"] == "below",
            f"`fb_roofline` ({_f3(med['fb_roofline'])}) and `no_feedback` ({_f3(med['no_feedback'])}) "
            f"end below full's seed spread",
        ),
        "s3_worst3": _holds(
            pos["fb_worst3"] == "above",
            f"`fb_worst3` ends above it, at {_f3(med['fb_worst3'])}; its own seeds spread from "
            f"{_f3(final['fb_worst3'].min())} to {_f3(final['fb_worst3'].max())}, and "
            f"{int(np.sum(final['fb_worst3'] > hi))} of its five beat full's best seed",
        ),
        # the pack's own reading of the table (tables.ablation_observations) says the same, with the same definition
        "s3_plumb_in": _holds(
            pos["no_borrow"] == "within"
            and pos["one_island"] == "within"
            and "Medians within full's seed spread" in observations
            and "no_borrow, one_island; outside it" in observations,
            f"`no_borrow` ({_f3(med['no_borrow'])}) and `one_island` ({_f3(med['one_island'])}) "
            f"end within full's seed spread",
        ),
        "s3_plumb_out": _holds(
            pos["no_cascade"] == "above" and pos["no_meta_prompt"] == "above",
            f"`no_cascade` and `no_meta_prompt` (both {_f3(med['no_cascade'])}) end above it",
        ),
        "s3_nmp": _holds(
            final["no_meta_prompt"].min() > hi,
            f"every seed of `no_meta_prompt` (from {_f3(final['no_meta_prompt'].min())}) ends above "
            f"every seed of `full`",
        ),
        "s3_cascade": f"{kernel_runs['no_cascade']:,} kernel runs (median) instead of {kernel_runs['full']:,}",
        "s3_nc_overlap": _holds(
            final["no_cascade"].min() <= hi,
            f"its lowest seed ({_f3(final['no_cascade'].min())}) is within full's spread",
        ),
        # held-out ranking
        "ho_nofb": _holds(
            ranks.loc["no_feedback", "test rank"] == 1,
            f"`no_feedback` is {_ordinal(ranks.loc['no_feedback', 'training rank'])} of "
            f"{len(runs)} on the training shapes but first on the held-out ones "
            f"({_f3(test['no_feedback'])})",
        ),
        "ho_oi": f"`one_island` drops from {_ordinal(ranks.loc['one_island', 'training rank'])} to "
        f"{_ordinal(ranks.loc['one_island', 'test rank'])}",
        "ho_nc": f"`no_cascade` from {_ordinal(ranks.loc['no_cascade', 'training rank'])} to "
        f"{_ordinal(ranks.loc['no_cascade', 'test rank'])}",
        "ho_spread": f"full's seeds range from {_f3(min(full_tests))} to {_f3(max(full_tests))} there",
        "ho_share": f"full captures {_pct(share['full'])} of the headroom on the training shapes but "
        f"{_pct(test_share)} of the held-out oracle's headroom (oracle {_f3(ctx.oracle_test)})",
        "ho_keep": _holds(
            keeps == ["no_full_file"],
            f"only `no_full_file`, which cannot add a rule, keeps its share "
            f"({_pct(share['no_full_file'])} and "
            f"{_pct(ablations.headroom_share(test['no_full_file'], ctx.oracle_test))})",
        ),
        "ho_pairs": f"the held-out ranges of {len(overlapping)} of the {len(pairs)} pairs of variants overlap",
        "ho_ties": _holds(
            ranks["training (median)"].iloc[0] == ranks["training (median)"].iloc[1],
            "the two leaders tie even at four decimals",
        ),
        # Think! 3
        "t3_slow": _holds(
            slow_test > slow_train, f"slower than the expert on {slow_train} of the {len(ctx.train)} training shapes"
        ),
        "t3_slow_test": f"on {slow_test} of the {len(ctx.test)} held-out shapes",
        "t3_untested": _holds(
            0 in untested, f"{len(untested)} of its {len(rules)} rules decide no held-out shape at all"
        ),
        "t3_fires": _holds(
            rules[0].condition() == "M == 16 and N <= 1280" and fires_test[0] == 0,
            f"it decides {fires_train[0]} training shape",
        ),
        "t3_nofb": f"ends with {table_rows['no_feedback']['rules']:.0f} branches against full's "
        f"{table_rows['full']['rules']:.0f}",
        # Section 4
        "s4_ne50": _holds(
            all(at("no_evolution", 50) > at(n, 50) for n in SHOWN if n != "no_evolution"),
            f"After 50 programs `no_evolution` ({_f3(at('no_evolution', 50))}) is ahead of every other "
            f"curve shown, full at {_f3(at('full', 50))}",
        ),
        "s4_ne1000": _holds(
            abs(med["no_evolution"] - at("no_evolution", 50)) < 0.001,
            f"its median is {_f3(med['no_evolution'])} at {study.budget} programs",
        ),
        "s4_full100": _holds(
            at("full", 100) > at("no_evolution", 100), f"By 100 programs full ({_f3(at('full', 100))}) has passed it"
        ),
        "s4_gaps": _holds(
            gaps[study.budget] > gaps[100],
            f"{_f3(gaps[100])} after 100 programs and {_f3(gaps[study.budget])} after {study.budget}",
        ),
        # Think! 4
        "t4_nofb": f"within full's min-max at {len(nofb_within)} of the {study.budget} budgets, the last at "
        f"{max(nofb_within)} programs; from {nofb_below_from} on it is below at every budget",
        "t4_fbr": f"`fb_roofline` stays within longer: the last time at {max(fbr_within)} programs",
        "t4_50": f"after 50 programs the three feedback settings' medians lie within "
        f"{max(at(n, 50) for n in ('full', 'fb_roofline', 'no_feedback')) - min(at(n, 50) for n in ('full', 'fb_roofline', 'no_feedback')):.3f} "
        f"of each other (full {_f3(at('full', 50))}, `fb_roofline` {_f3(at('fb_roofline', 50))}, "
        f"`no_feedback` {_f3(at('no_feedback', 50))})",
        # Section 5
        "s5_branches": f"It has {best.rules} branches: {len(rules)} `if` rules and the default",
        "s5_nk": f"{len(nk)} of the rules test N or K",
        "s5_untrained": _holds(
            len(untrained) == 2,
            "Two rules decide no training shape at all: "
            + " and ".join(f"`if {rules[i].condition()}:`" for i in untrained),
        ),
        "s5_edits": f"{len(lineage) - 1} edits lead from the expert to it",
        "s5_worse": f"{worse} of them made the program worse than its parent",
        # Think! 5
        "t5_borrowed": f"{len(borrowed)} of the {len(lineage) - 1} edits",
        "t5_m16": f"`if M <= 16` is borrowed {len(borrowed_m16)} times",
        "t5_noborrow": f"`no_borrow` ends within full's seed spread ({_f3(med['no_borrow'])} against "
        f"{_f3(lo)}-{_f3(hi)})",
        # demo
        "demo_pairs": _holds(pairs100 == [("full", "small_llm")], "Only one pair: `full` and `small_llm`"),
        "demo_100": f"(`full` from {_f3(hist['full'][:, 99].min())}, `small_llm` up to "
        f"{_f3(hist['small_llm'][:, 99].max())})",
        "demo_order": _holds(
            len({tuple(v) for v in order.values()}) == 3,
            "; ".join(f"{k} seed{'s' if k > 1 else ''}: {', '.join(order[k])}" for k in (1, 3, 5)),
        ),
        "demo_trio": _holds(
            all(
                final[a].max() >= final[b].min() and final[b].max() >= final[a].min()
                for a in ("full", "no_borrow", "one_island")
                for b in ("full", "no_borrow", "one_island")
            )
            and order[3][0] == order[5][0] == "no_cascade",
            "`full`, `no_borrow` and `one_island` have overlapping min-max ranges",
        ),
        "demo_nff": _holds(
            nff_below <= 50,
            f"from {nff_below} programs on `no_full_file`'s median is below `small_llm`'s at every budget",
        ),
        "demo_nff_1000": f"{_f3(med['no_full_file'])} against {_f3(med['small_llm'])} at {study.budget}",
        # Summary
        "sum_cascade": f"{1 - kernel_runs['full'] / kernel_runs['no_cascade']:.0%} of the kernel runs",
        # Exercise 1
        "e1_gap": _holds(
            list(gap["gap"]) == sorted(gap["gap"]) and gap["gap"].min() > 0,
            f"the gap grows from {_f3(gap['gap'].iloc[0])} after 100 programs to "
            f"{', '.join(_f3(g) for g in gap['gap'].iloc[1:-1])} and {_f3(gap['gap'].iloc[-1])} after "
            f"2000",
        ),
        "e1_full": f"the full method keeps climbing ({_f3(gap['full'].iloc[-1])} at 2000, "
        f"{_pct(ablations.headroom_share(gap['full'].iloc[-1], ctx.oracle_train))} of the headroom)",
        "e1_small": f"`small_llm` flattens ({_f3(gap['small_llm'].iloc[-2])} at 1000, "
        f"{_f3(gap['small_llm'].iloc[-1])} at 2000)",
        # Exercise 2
        "e2_medians": f"medians {_f3(sweep.loc[0.1, 'median'])}, {_f3(sweep.loc[0.5, 'median'])} and "
        f"{_f3(sweep.loc[0.9, 'median'])}",
        "e2_every": _holds(
            sweep.loc[0.9, list(seeds)].min() > sweep.loc[0.5, list(seeds)].max()
            and sweep.loc[0.5, list(seeds)].min() > sweep.loc[0.1, list(seeds)].max(),
            "every seed at 0.9 ends above every seed at 0.5, and every seed at 0.5 above every seed at 0.1",
        ),
        "e2_same": _holds(
            list(sweep.loc[0.5, list(seeds)]) == [round(r.final, 4) for r in runs["full"]],
            "The row for 0.5 is the table's `full` runs exactly",
        ),
        # Exercise 3
        "e3_shapes": _holds(
            set(full_focus["shapes targeted"]) == {len(ctx.train)},
            f"`full` works on all {len(ctx.train)} training shapes in every seed; `fb_worst3` on "
            f"{span(worst_focus, 'shapes targeted', str)} over the run and only "
            f"{span(worst_focus, 'in the last quarter', str)} in its last quarter",
        ),
        "e3_known": _holds(
            worst_focus["faster config known"].min() > full_focus["faster config known"].max(),
            f"{span(worst_focus, 'faster config known', lambda x: f'{x:.1%}')} of `fb_worst3`'s "
            f"proposals have one, against {span(full_focus, 'faster config known', lambda x: f'{x:.1%}')}"
            f" of `full`'s",
        ),
        "e3_improvement": _holds(
            targeting.STUCK == 0.95 and worst_focus["known improvement"].min() > full_focus["known improvement"].max(),
            f"a best time seen more than {1 - targeting.STUCK:.0%} faster than the parent's (`vs_best <= "
            f"{targeting.STUCK}`, the opposite of notebook 06's stuck), "
            f"{span(worst_focus, 'known improvement', lambda x: f'{x:.1%}')} of `fb_worst3`'s proposals aim at one, "
            f"against {span(full_focus, 'known improvement', lambda x: f'{x:.1%}')} of `full`'s",
        ),
        "e3_adopt": _holds(
            worst_focus["adopted it"].min() > full_focus["adopted it"].max(),
            f"it adopts that config in {span(worst_focus, 'adopted it', lambda x: f'{x:.1%}')} of its "
            f"proposals, `full` in {span(full_focus, 'adopted it', lambda x: f'{x:.1%}')}",
        ),
        "e3_beat": _holds(
            worst_focus["child beat its parent"].min() > full_focus["child beat its parent"].max(),
            f"{span(worst_focus, 'child beat its parent', lambda x: f'{x:.1%}')} of its children beat "
            f"their parent, against {span(full_focus, 'child beat its parent', lambda x: f'{x:.1%}')}",
        ),
        "e3_spread": f"({_f3(final['fb_worst3'].min())}-{_f3(final['fb_worst3'].max())} against {_f3(lo)}-{_f3(hi)})",
        # Exercise 4
        "e4_q": f"the {len(ctx.new)} new shapes of `ctx.new`",
        "e4_top": f"`{new.index[0]}` has the best median on the new shapes ({new.iloc[0, 0]:.3f}) and `full` is "
        f"{_ordinal(list(new.index).index('full') + 1)} ({new.loc['full', 'new shapes (median)']:.3f})",
        "e4_nc": _holds(
            new.index[-1] == "no_cascade" and ranks.loc["no_cascade", "training rank"] == 2,
            f"`no_cascade`, second on the training shapes, is last ({new.iloc[-1, 0]:.3f})",
        ),
        "e4_third": _holds(
            len({tuple(new.index), tuple(ranks.index), tuple(ranks.sort_values("test rank").index)}) == 3,
            "A third ranking, the same as neither of the other two",
        ),
        "e4_nofb": _holds(
            ranks.loc["no_feedback", "test rank"] == 1,
            f"`no_feedback`, first on the held-out shapes, is {_ordinal(list(new.index).index('no_feedback') + 1)}",
        ),
        # Exercise 5
        "e5_train": f"It scores {_f3(m_only_train)} on the training shapes — "
        f"{_pct(ablations.headroom_share(m_only_train, ctx.oracle_train))} of the headroom, against "
        f"full's {_pct(share['full'])}",
        "e5_test": _holds(m_only_test < test["full"], f"{_f3(m_only_test)} (full's median: {_f3(test['full'])})"),
        "e5_new": _holds(
            abs(m_only_new - new.iloc[0, 0]) < 0.0005 and m_only_new > new.loc["full", "new shapes (median)"],
            f"on the {len(ctx.new)} new shapes it scores {_f3(m_only_new)}, level with the best variant's median there "
            f"(`{new.index[0]}`, {new.iloc[0, 0]:.3f}) and above full's "
            f"({new.loc['full', 'new shapes (median)']:.3f})",
        ),
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        "c_evicted": _holds(
            counts["added over the run"] - counts["distinct entries"] > counts["added over the run"] / 2,
            "most of them evicted later by better ones",
        ),
        "c_ho_noise": _holds(2 * len(overlapping) > len(pairs), "so most held-out differences are within noise"),
        "c_broader": _holds(
            ranks.loc["no_feedback", "test rank"] == 1
            and table_rows["no_feedback"]["rules"] < table_rows["full"]["rules"],
            "A search that writes fewer, broader rules can rank higher on shapes it never saw",
        ),
        "c_not_every": _holds(worse > 0, "so not every step improves"),
        "c_far_below": _holds(
            all(final[n].max() < lo for n in ("no_evolution", "no_full_file", "small_llm")),
            "the search ends far below the full method",
        ),
        "c_fb": _holds(
            pos["fb_roofline"] == "below" and pos["no_feedback"] == "below" and pos["fb_worst3"] == "above",
            "`fb_roofline` and `no_feedback` end below the full method's seed spread, while focusing on the "
            "three shapes with the most known gain (`fb_worst3`) ends above it",
        ),
        "c_plumb": _holds(
            pos["no_borrow"] == "within" and pos["one_island"] == "within",
            "Islands and borrowing end within the full method's seed spread at this size",
        ),
        "c_nc": _holds(pos["no_cascade"] == "above", "`no_cascade` ends above the full method's spread"),
        "c_e1": _holds(
            list(gap["gap"]) == sorted(gap["gap"]) and gap["gap"].min() > 0,
            "The ordering found on seeds 0-4 holds on new seeds, and the difference between the methods is "
            "clearer after more programs",
        ),
        "c_e2": _holds(list(sweep["median"]) == sorted(sweep["median"]), "Here adopting more often helps"),
        "c_e3": _holds(pos["fb_worst3"] == "above", "yet it ends above the full method's seed spread"),
        "c_hundred": _holds(max(nofb_within) <= 100, "At about a hundred programs or fewer."),
        # "almost never": under 1% of fb_worst3's proposals, on every seed, aim at a shape with no known faster config
        # (the sentence said "never stop improving"; 0.2%-0.6% of them do)
        "c_e3_never": _holds(
            0.99 < worst_focus["faster config known"].min() < 1,
            "But its three shapes almost never run out of faster configs to adopt.",
        ),
        "c_e3_pays": _holds(
            worst_focus["child beat its parent"].min() > full_focus["child beat its parent"].max(),
            "which finds new best configs, but less often pays at once",
        ),
        # glossary
        "g_tournament": f"draw {tournament} programs of an island, keep the best",
        "g_capacity": f"{capacity} programs in all, {counts['capacity per island']} per island",
    }
    return P


def quotes() -> list[str]:
    return list(phrases().values())
