"""Notebook 05's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

import functools
import inspect
import random
from pathlib import Path

import numpy as np
import pandas as pd

from toyhw.course.checks import nb05 as checks
from toyhw.course import loop_tables, prompt_view, proposal_trace
from toyhw.evolve import (
    database,
    evaluator as evaluator_lib,
    knowledge,
)
from toyhw.evolve.experiments import ablations
from toyhw.evolve.database import Database, Entry
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.config import DEFAULT
from toyhw.evolve.llm import FIXED_MIX, MockLLM
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import expert_program
from exercise_cells import load_solution
from claims import Claim, holds, said
from claims.formats import f3 as _f3, p1 as _p1

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_inside_the_loop.ipynb"


@functools.lru_cache(maxsize=None)
def solutions():
    """The notebook's solution file, run as a module: its exercises' answers are the numbers the Answer blocks quote."""
    return load_solution(NOTEBOOK)


PROMPT_VARIANTS = ["full", "fb_roofline", "fb_worst3", "no_feedback", "small_llm", "no_borrow", "no_full_file"]

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset({"nb05-00", "nb05-08", "nb05-13", "nb05-35", "nb05-37", "nb05-44", "nb05-53"})
NOT_RESULTS = {
    "nb05-12": ("Without it a shape", "It is a small exploration"),
    "nb05-25": ("A borrowed rule has", "A generalizing edit"),
    "nb05-28": ("The **inspirations** are",),
    "nb05-32": ("The bound keeps the", "Two more rules —"),
    "nb05-34": ("A program better", "Islands keep populations"),
    "nb05-43": ("The bar follows the",),
    "nb05-50": ("Each prompt below",),
    "nb05-summary": ("* The database keeps", "* The **prompt**"),
    "nb05-ex2": ("For every program", "Set `beat_parent` to", "With a sparser stage"),
    "nb05-ex3": ("`prompt_view.prompt_at` returns a",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS = frozenset({"nb05-06", "nb05-21"})
QUOTED = {
    "nb05-12": ("For this parent that",),
    "nb05-43": ("proposals were cut", "In the traced run"),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb05-01-example", "input", proposals_100="100", seed_0="0"),
    *said("nb05-17", "input", proposals_2000="2,000"),
    *said("nb05-21", "input", proposals_0="0", proposals_1000="1000"),
    *said("nb05-30", "input", islands_2="2", capacity_6="6"),
    *said("nb05-30", "input", programs_9="9"),
    *said("nb05-44", "input", same_100="100"),
    *said("nb05-50", "input", own_100="100", seed_0="0"),
    *said("nb05-10", "input", draws_20000="20,000"),
    *said("nb05-ex1", "input", draws_20000="20,000"),
    *said("nb05-ex1", "input", parent_25="25"),
    *said("nb05-ex2", "input", seed_0="0"),
    *said("nb05-ex3", "input", proposals_0="0"),
]


def claims() -> list[Claim]:
    ctx = ablations.context()
    n = len(ctx.train)
    # the running example, as the notebook builds it
    ev = Evaluator(ctx.train, ctx.table)
    run = evolve(ev, 100, seed=0)
    parent = run.db.best()
    feedback = ev.feedback(parent.times)
    stuck = feedback.vs_best == 1
    weights = 1 / feedback.vs_best - 1 + 0.05
    targets = loop_tables.target_frame(feedback, top=n)
    top = targets.index[0]
    rng = random.Random(0)
    drawn = [feedback.shapes[MockLLM().target(feedback, rng)].label() for _ in range(20000)]
    measured_top = drawn.count(top) / len(drawn)

    # Section 2
    inspirations = [
        e for e in (max(pop, key=lambda e: e.score) for pop in run.db.islands) if e.program != parent.program
    ]
    full = loop_tables.proposal_frame(MockLLM(), parent, inspirations, feedback, ev, n=2000)
    small = loop_tables.proposal_frame(MockLLM(knowledge=False), parent, inspirations, feedback, ev, n=2000)
    could = full[full["faster config known"] & (full["operator"] != "borrow")]
    by_op = full.groupby("operator")[["can launch"]].mean()["can launch"]
    trace = proposal_trace.trace("full", 0, 1000)
    steps = loop_tables.trace_frame(trace)
    counts = steps.groupby("operator")["status"].value_counts().unstack(fill_value=0)
    per_op = counts.sum(axis=1)
    bad = counts["bad branch"] / per_op
    beat = steps.groupby("operator")["beat its parent"].mean()
    run_could = steps[steps["could adopt"]]
    example = next(s for s in trace.steps if s.operator == "generalize" and s.description.startswith("split"))
    mix = trace.result.mix

    # Section 3
    db = Database(Entry(0, expert_program(), 1.0, None, None, "the expert", 0), n_islands=2, capacity=6)
    log = []
    for s in [s for s in trace.steps if s.status == "ok"][:9]:
        log.append((s.step, db.add(Entry(s.step, s.program, s.score, None, s.parent_id, s.description, s.step), 0)))
    refused = [step for step, kept in log if not kept]
    copy_refused = not db.add(Entry(999, db.islands[0][0].program, 2.0, None, None, "a copy", 999), 0)
    before = [list(island) for island in db.islands]
    db.migrate()
    moved = [e for e in db.islands[1] if all(e is not x for x in before[1])]
    tournament = inspect.signature(database.Database).parameters["tournament"].default
    n_islands, migrate_every = DEFAULT.n_islands, DEFAULT.migrate_every
    n_insp = inspect.signature(database.Database.sample).parameters["n_inspirations"].default
    per = DEFAULT.capacity // n_islands
    sol = solutions()
    shares = pd.DataFrame(
        {k: {"formula": checks.best_share_formula(k, per), "measured": sol.best_share(k)} for k in checks.TOURNAMENTS}
    ).T

    # Section 4
    every, ratio = evaluator_lib.CASCADE_EVERY, evaluator_lib.CASCADE_RATIO
    stage1 = ctx.train[::every]
    regimes = {r: sum(knowledge.size_class(s.M) == r for s in stage1) for r in ("decode", "mid", "prefill")}
    regimes_all = {r: sum(knowledge.size_class(s.M) == r for s in ctx.train) for r in ("decode", "mid", "prefill")}
    cut = [s for s in trace.steps if s.status == "cascade"]
    first_cut = cut[0]
    first_pass = next(s for s in trace.steps if s.status == "ok" and s.step > first_cut.step)
    saved = sum(n - s.runs for s in cut)
    statuses = trace.result.statuses
    without = trace.result.kernel_runs + saved
    bars = [s.bar for s in trace.steps if s.bar is not None]
    stage1_of = {0: 1.0, **{s.step: s.stage1 for s in trace.steps if s.status == "ok"}}
    parent_below = [s for s in cut if stage1_of[s.parent_id] < s.bar]
    same_as_parent = [s for s in cut if abs(s.stage1 - stage1_of[s.parent_id]) < 1e-12]
    misses = {
        "cut": len(sol.cut_programs),
        "runs saved": sum(n - s.runs for s in sol.cut_programs),
        "would beat their parent": sol.beat_parent,
        "would beat the best so far": sol.beat_best,
        "best of them": max(sol.full_scores),
    }

    # Section 5
    view = prompt_view.prompt_at("full", 0, 100)
    parts = dict(view.prompt.parts)
    views = [prompt_view.prompt_at(v, 0, 100) for v in PROMPT_VARIANTS]
    frame = loop_tables.prompt_frame(views)
    lineage_steps = [s.step for s in ablations.run_one("full", 0, 1000).lineage]
    study = ablations.ablation_study(["full", "no_feedback"])
    med = {v: float(np.median([r.final for r in study.runs[v]])) for v in study.runs}
    growth = sol.growth

    out = [
        *said(("nb05-06", "nb05-12", "nb05-10", "nb05-summary"), stuck_sum=f'{int(stuck.sum())}'),
        *said(("nb05-06", "nb05-12", "nb05-10", "nb05-35", "nb05-37", "nb05-43"), n_shapes=f'{n}'),
        holds(weights[stuck].sum() / weights.sum() > 0.5, "stuck_share", "nb05-10", "nb05-12", "nb05-summary"),
        *said(
            ("nb05-10", "nb05-12", "nb05-summary"), stuck_weight_share=f'{_p1(weights[stuck].sum() / weights.sum())}'
        ),
        *said(
            "nb05-10",
            first_target_vs_best=f"{targets.iloc[0]['vs_best']:.3f}",
            first_target_weight=f"{_p1(targets.iloc[0]['weighted vs_best'])}",
        ),
        *said("nb05-10", feedback_vs_roofline_max=f'{feedback.vs_roofline.max():.2f}'),
        holds(targets["weighted vs_roofline"].idxmax() == top, "top_roof", "nb05-10"),
        *said("nb05-10", top_roofline_weight=f"{_p1(targets.loc[top, 'weighted vs_roofline'])}"),
        *said("nb05-10", "input", weight_1="1"),
        *said("nb05-10", one_shape_share=f'{_p1(1 / n)}'),
        *said("nb05-10", n_shapes_minus_3=f'{n - 3}'),
        holds(bool(np.allclose(weights[stuck], 0.05)), "each_stuck", "nb05-10"),
        *said("nb05-10", floor_weight_share=f'{_p1(0.05 / weights.sum())}'),
        *said("nb05-12", measured_top=f'{_p1(measured_top)}'),
        *said("nb05-12", "input", draws_20000="20,000"),
        holds(set(small["fields changed"]) == {1}, "fields", "nb05-19"),
        *said("nb05-19", full_fields_changed_mean=f"{full['fields changed'].mean():.2f}"),
        holds(full["faster there"].mean() > small["faster there"].mean(), "faster_there", "nb05-19"),
        *said(
            "nb05-19",
            full_faster_there_mean=f"{_p1(full['faster there'].mean())}",
            small_faster_there_mean=f"{_p1(small['faster there'].mean())}",
        ),
        *said(
            "nb05-19",
            rest_full_can_launch_mean=f"{_p1(1 - full['can launch'].mean())}",
            rest_small_can_launch_mean=f"{_p1(1 - small['can launch'].mean())}",
        ),
        holds(0.4 < could["adopted"].mean() < 0.6 and full["adopted"].mean() < 0.5, "adopt_parent", "nb05-21"),
        *said(
            "nb05-21",
            full_adopted_mean=f"{_p1(full['adopted'].mean())}",
            could_adopted_mean=f"{_p1(could['adopted'].mean())}",
            n_could=f'{len(could)}',
        ),
        *said("nb05-21", full_faster_config_known_mean=f"{_p1(full['faster config known'].mean())}"),
        holds(0.4 < run_could["adopted"].mean() < 0.6, "adopt_run", "nb05-23"),
        *said(
            "nb05-23",
            steps_adopted_mean=f"{_p1(steps['adopted'].mean())}",
            run_could_adopted_mean=f"{_p1(run_could['adopted'].mean())}",
            n_run_could=f'{len(run_could)}',
        ),
        holds(by_op["generalize"] < min(by_op["retune"], by_op["specialize"]), "gen_launch", "nb05-25"),
        *said(
            "nb05-25",
            by_op_generalize=f"{_p1(by_op['generalize'])}",
            by_op_retune=f"{_p1(by_op['retune'])}",
            by_op_specialize=f"{_p1(by_op['specialize'])}",
        ),
        holds(bad["generalize"] > 2 * max(bad["retune"], bad["specialize"]), "gen_run", "nb05-23"),
        *said(
            "nb05-23",
            generalize_bad_branches=f"{counts.loc['generalize', 'bad branch']}",
            per_op_generalize=f"{per_op['generalize']}",
            bad_generalize=f"{_p1(bad['generalize'])}",
            bad_retune=f"{_p1(bad['retune'])}",
            bad_specialize=f"{_p1(bad['specialize'])}",
        ),
        holds(counts.loc["borrow", "bad branch"] == 0, "borrow", "nb05-25"),
        *said("nb05-25", per_op_borrow=f"{per_op['borrow']}", beat_borrow=f"{_p1(beat['borrow'])}"),
        holds(beat["borrow"] > 3 * beat.drop("borrow").max(), "borrow_others", "nb05-25"),
        *said("nb05-25", beat_drop_borrow_max=f"{_p1(beat.drop('borrow').max())}"),
        *said("nb05-25", fixed_mix_borrow=f"{FIXED_MIX['borrow']:.0%}", mix_borrow=f"{mix['borrow']:.0%}"),
        *said("nb05-23", example_step=f'{example.step}'),
        holds(log[:2] == [(log[0][0], True), (log[1][0], True)] and len(refused) == 3, "db_log", "nb05-32"),
        *said("nb05-32", n_refused=f'{len(refused)}'),
        holds(copy_refused, "copy", "nb05-34"),
        holds(len(moved) == 1 and len(db.islands[0]) == 3, "migrate", "nb05-34"),
        *said(("nb05-28", "nb05-glossary"), tournament=f'{tournament}'),
        holds(
            inspect.signature(sol.best_share).parameters["island"].default == per == checks.ISLAND,
            "best_share",
            "nb05-28",
        ),
        *said("nb05-28", programs_per_island=f'{per}', tournament_share=f"{_p1(shares.loc[tournament, 'formula'])}"),
        *said("nb05-28", n_insp=f'{n_insp - 1}'),
        *said(("nb05-28", "nb05-34"), n_islands=f'{n_islands - 1}'),
        *said("nb05-34", migrate_every=f'{migrate_every}'),
        *said("nb05-34", "input", migrate_1="1"),
        *said("nb05-35", stage1_every=f'{every}', n_stage1=f'{len(stage1)}'),
        *said("nb05-35", stage1_ratio=f'{ratio}'),
        *said(("nb05-35", "nb05-43"), n_stage2=f'{n - len(stage1)}'),
        *said(
            "nb05-37",
            regimes_decode=f"{regimes['decode']}",
            regimes_mid=f"{regimes['mid']}",
            regimes_prefill=f"{regimes['prefill']}",
            regimes_all_decode=f"{regimes_all['decode']}",
            regimes_all_mid=f"{regimes_all['mid']}",
            regimes_all_prefill=f"{regimes_all['prefill']}",
        ),
        holds(bars == sorted(bars), "bar_range", "nb05-39"),
        *said("nb05-39", bars_0=f'{bars[0]:.3f}', bars_last=f'{bars[-1]:.3f}'),
        *said(
            "nb05-41",
            first_cut_step=f'{first_cut.step}',
            first_cut_stage1=f'{first_cut.stage1:.3f}',
            first_cut_bar=f'{first_cut.bar:.3f}',
        ),
        *said(
            "nb05-41",
            first_pass_step=f'{first_pass.step}',
            first_pass_stage1=f'{first_pass.stage1:.3f}',
            first_pass_bar=f'{first_pass.bar:.3f}',
        ),
        *said(
            "nb05-43",
            statuses_cascade=f"{statuses['cascade']}",
            trace_budget=f'{trace.budget}',
            statuses_bad_branch=f"{statuses['bad branch']}",
            statuses_ok=f"{statuses['ok']}",
        ),
        *said("nb05-43", runs_saved=f'{saved:,}'),
        *said(
            ("nb05-43", "nb05-summary"),
            trace_result_kernel_runs=f'{trace.result.kernel_runs:,}',
            runs_without_cascade=f'{without:,}',
            runs_saved_share=f'{saved / without:.1%}',
        ),
        *said("nb05-43", bad_branch_runs_saved=f"{statuses['bad branch'] * n:,}"),
        holds(0.2 < statuses["cascade"] / trace.budget < 0.3, "cut_share", "nb05-summary"),
        *said("nb05-summary", cut_share_of_budget=f"{statuses['cascade'] / trace.budget:.0%}"),
        *said("nb05-43", n_parent_below=f'{len(parent_below)}', n_cut=f'{len(cut)}'),
        *said("nb05-43", n_same_as_parent=f'{len(same_as_parent)}'),
        *said("nb05-46", view_chars=f'{view.chars:,}', view_tokens=f'{view.tokens:,}'),
        holds(max(parts, key=lambda k: len(parts[k])) == "feedback", "feedback_share", "nb05-46"),
        *said(
            "nb05-46",
            n_parts_feedback=f"{len(parts['feedback']):,}",
            feedback_share_of_prompt=f"{len(parts['feedback']) / view.chars:.0%}",
        ),
        *said("nb05-50", view_parent_score=f'{view.parent_score:.3f}', view_child_score=f'{view.child_score:.3f}'),
        holds(view.step in lineage_steps, "lineage", "nb05-50"),
        holds(
            frame.loc["no_feedback", "feedback"] == 0
            and frame.loc["small_llm", "knowledge"] == 0
            and frame.loc["no_borrow", "inspirations"] == 0,
            "nofb",
            "nb05-53",
        ),
        *said(
            "nb05-53",
            no_feedback_prompt_chars=f"{frame.loc['no_feedback', 'characters']:,}",
            full_prompt_chars=f"{frame.loc['full', 'characters']:,}",
        ),
        *said("nb05-53", fb_worst3_feedback_chars=f"{frame.loc['fb_worst3', 'feedback']:,}"),
        *said("nb05-53", med_no_feedback=f"{_f3(med['no_feedback'])}", med_full=f"{_f3(med['full'])}"),
        *said(
            "nb05-summary",
            growth_iloc_0_characters=f"{growth.iloc[0]['characters']:,}",
            growth_iloc_last_characters=f"{growth.iloc[-1]['characters']:,}",
        ),
        holds(bool(np.allclose(shares["measured"], shares["formula"], atol=0.01)), "e1", "nb05-ex1"),
        *said(
            "nb05-ex1",
            formula_shares=', '.join((f"{shares.loc[k, 'formula']:.1%}" for k in shares.index[:-1])),
            formula_share_last=f"{shares.iloc[-1]['formula']:.1%}",
            tournament_sizes=', '.join(map(str, shares.index[:-1])),
            tournament_size_last=f'{shares.index[-1]}',
        ),
        *said("nb05-ex2", misses_cut=f"{misses['cut']}", misses_runs_saved=f"{misses['runs saved']:,}"),
        holds(misses["would beat the best so far"] == 0, "e2_beat", "nb05-ex2"),
        *said("nb05-ex2", misses_would_beat_their_parent=f"{misses['would beat their parent']}"),
        *said("nb05-ex2", misses_best_of_them=f"{misses['best of them']:.3f}"),
        *said(
            "nb05-ex3",
            growth_loc_1_tokens_est=f"{growth.loc[1, 'tokens (est.)']:,}",
            growth_loc_10_tokens_est=f"{growth.loc[10, 'tokens (est.)']:,}",
            growth_loc_100_tokens_est=f"{growth.loc[100, 'tokens (est.)']:,}",
            growth_loc_1000_tokens_est=f"{growth.loc[1000, 'tokens (est.)']:,}",
        ),
        *said("nb05-ex3", "input", proposals_1="1", proposals_10="10", part_100="100", proposals_1000="1000"),
        holds(
            growth["feedback"].iloc[-1] - growth["feedback"].iloc[0]
            < growth["parent"].iloc[-1] - growth["parent"].iloc[0]
            < growth["inspirations"].iloc[-1] - growth["inspirations"].iloc[0],
            "e3_parts",
            "nb05-ex3",
        ),
        *said(
            "nb05-ex3",
            growth_iloc_0_parent_branches=f"{growth.iloc[0]['parent branches']}",
            growth_iloc_last_parent_branches=f"{growth.iloc[-1]['parent branches']}",
        ),
        *said(
            "nb05-ex3",
            growth_iloc_0_inspirations=f"{growth.iloc[0]['inspirations']:,}",
            growth_iloc_last_inspirations=f"{growth.iloc[-1]['inspirations']:,}",
        ),
        holds(1 - full["faster config known"].mean() > 0.5, "c_unknown", "nb05-10"),
        holds(could["adopted"].mean() < 0.5 and run_could["adopted"].mean() < 0.5, "c_adopt", "nb05-19"),
        holds(beat["borrow"] > 0.5, "c_borrow", "nb05-34"),
        holds(full["faster there"].mean() > small["faster there"].mean(), "c_knowledge", "nb05-summary"),
        holds(bad.idxmax() == "generalize" and beat["borrow"] > 0.5, "c_gen_borrow", "nb05-summary"),
        holds(shares.loc[tournament, "formula"] < 0.5, "c_tournament", "nb05-43"),
        holds(list(shares["formula"]) == sorted(shares["formula"]) and shares.index[0] == 1, "c_larger", "nb05-ex1"),
        holds(misses["would beat the best so far"] == 0, "c_never_best", "nb05-ex2"),
        holds(
            list(growth["characters"]) == sorted(growth["characters"])
            and (growth["parent"] + growth["inspirations"]).iloc[-1] / growth["characters"].iloc[-1]
            > (growth["parent"] + growth["inspirations"]).iloc[0] / growth["characters"].iloc[0],
            "c_growth",
            "nb05-ex3",
        ),
        holds(
            frame.loc["no_feedback", "feedback"] == 0
            and frame.loc["small_llm", "knowledge"] == 0
            and frame.loc["no_borrow", "inspirations"] == 0
            and frame.loc["fb_worst3", "feedback"] < frame.loc["full", "feedback"],
            "c_variants",
            "nb05-50",
        ),
    ]
    # the names the prose states beside its numbers (words, not numbers): each one a check of its value
    out += [
        holds(str(top) == "70B/8 qkv M=128", "top_target", "nb05-10"),
        holds(moved[0].id == 29, "first_migrant", "nb05-34"),
    ]
    return INPUTS + out
