"""Notebook 05's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`phrases()` maps a name to each phrase of the markdown that states a number, built from the pack's computed values
with the notebook's own calls (the same run, parent, proposals and prompts); `quotes()` returns them. A claim without a
number of its own is checked with `_holds` before its phrase is returned.
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
from prose.phrasing import holds as _holds, f3 as _f3, p1 as _p1

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_inside_the_loop.ipynb"


@functools.lru_cache(maxsize=None)
def solutions():
    """The notebook's solution file, run as a module: its exercises' answers are the numbers the Answer blocks quote."""
    return load_solution(NOTEBOOK)


PROMPT_VARIANTS = ["full", "fb_roofline", "fb_worst3", "no_feedback", "small_llm", "no_borrow", "no_full_file"]

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, how the mock LLM, the database and the cascade are built.
NOT_RESULTS = [
    "This notebook opens the parts themselves, one per section",
    "2. how it edits a rule: **kernel knowledge** against single-field edits",
    "Everything is the pack's simulation: the \"LLM\" is",
    "Four rules, one per variant of notebook 04",
    "Build the weights for this parent by hand",
    "Without it a shape at `vs_best = 1` would have weight zero",
    "It is a small exploration bonus",  # notebook 04's Exercise 3, checked by tests/prose/nb04.py
    "Next the mock picks an **edit kind**",
    "A borrowed rule has already run",
    "A generalizing edit writes that config too",
    "The **inspirations** are the 2 best programs of the island",
    "The bound keeps the population small and good",
    "Two more rules — a program already on the island is refused",
    "A program better than everything else appears on `island 1`.",
    "Islands keep populations apart; inspirations let good rules leak",
    "The **cascade** runs it first on a cheap subset",
    "Every proposal of the traced run, with its stage-1 score",
    "The bar follows the best stage-1 score seen *so far*",
    "Here is the prompt of proposal 100 of the same run",
    "Each prompt below is taken at proposal 100 of its own run",
    "The task, the language, the knowledge, the parent's source",
    "`python -m toyhw prompt --variant small_llm --seed 0 --step 100` prints",
    "The mock draws the target uniformly (Section 1) and can never adopt",
    "* The database keeps a small, good population per island",
    "* The **prompt** a real system would send holds the task",
    "For every program the traced run of `full` (seed 0) cut after stage one",
    "With a sparser stage one, or a bar closer to the best, it could miss more.",
    "Set `beat_parent` to the number of cut programs",  # Exercise 2's instructions
    "`prompt_view.prompt_at` returns a view like Section 5's",  # Exercise 3's instructions
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "On 35 of the 44 training shapes `vs_best` equals `1`",
    "For this parent that would shut out 35 of the 44 training shapes",
    "Adopting needs a faster config to be known for the target",
    "249 of the 1000 proposals were cut after stage one",
    "In the traced run 29 of the 249 cut children",
]

PARAMETERS = [
    "the best program after 100 proposals of the full method with seed 0",  # the running example's run
    "Draw 2,000 proposals for the parent with each mock",  # proposal_frame(n=2000)
    "the run of seed 0 with 1000 proposals",  # proposal_trace.trace("full", 0, 1000)
    "2 islands and a capacity of 6 (three",  # the hand-built database
    "fed the first 9 programs",
    "the prompt of proposal 100 of the same run",  # prompt_at("full", 0, 100)
    "at proposal 100 of its own run with seed 0",
    "--step 100",
    "20,000 draws",
    "For `k` = 1, 2, 3 and 5",  # Exercise 1's question
    "a full island of 25 the parent",
    "the traced run of `full` (seed 0)",  # Exercise 2
    "with seed 0 at proposals 1, 10, 100 and 1000 —",  # Exercise 3's steps
]


@functools.lru_cache(maxsize=None)
def phrases() -> dict[str, str]:
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

    P = {
        # Section 1
        "stuck": f"{int(stuck.sum())} of the {n} training shapes",
        "stuck_share": _holds(
            weights[stuck].sum() / weights.sum() > 0.5,
            f"the {int(stuck.sum())} shapes with no known faster config get "
            f"{_p1(weights[stuck].sum() / weights.sum())} of the draws",
        ),
        "top": f"`{top}`, with the lowest `vs_best` ({targets.iloc[0]['vs_best']:.3f}), is drawn {_p1(targets.iloc[0]['weighted vs_best'])} of the time",
        "roof_max": f"the closest is at {feedback.vs_roofline.max():.2f}",
        "top_roof": _holds(
            targets["weighted vs_roofline"].idxmax() == top,
            f"under `fb_roofline` it is still the likeliest target but gets only "
            f"{_p1(targets.loc[top, 'weighted vs_roofline'])}",
        ),
        "uniform": f"under `no_feedback` every shape gets 1 in {n} ({_p1(1 / n)})",
        "worst3": f"under `fb_worst3` the three lowest get a third each and the other {n - 3} nothing",
        "each_stuck": _holds(
            bool(np.allclose(weights[stuck], 0.05)),
            f"each stuck shape keeps a weight of `0.05`, {_p1(0.05 / weights.sum())} of the draws",
        ),
        "measured": f"{_p1(measured_top)} of 20,000 draws",
        # Section 2
        "fields": _holds(
            set(small["fields changed"]) == {1},
            f"{full['fields changed'].mean():.2f} fields on average with kernel knowledge, exactly one without",
        ),
        "faster_there": _holds(
            full["faster there"].mean() > small["faster there"].mean(),
            f"{_p1(full['faster there'].mean())} of the knowledgeable proposals run faster on their "
            f"target than the parent does, {_p1(small['faster there'].mean())} of the single-field "
            "ones",
        ),
        "launch": f"{_p1(1 - full['can launch'].mean())} and {_p1(1 - small['can launch'].mean())} of them cannot "
        f"launch",
        "adopt_parent": _holds(
            0.4 < could["adopted"].mean() < 0.6 and full["adopted"].mean() < 0.5,
            f"{_p1(full['adopted'].mean())} of all proposals, {_p1(could['adopted'].mean())} of the "
            f"{len(could)} that could adopt",
        ),
        "known": f"a faster config is known for the target in {_p1(full['faster config known'].mean())} of the "
        f"proposals",
        "adopt_run": _holds(
            0.4 < run_could["adopted"].mean() < 0.6,
            f"{_p1(steps['adopted'].mean())} of the run's proposals adopt, {_p1(run_could['adopted'].mean())} "
            f"of the {len(run_could)} that could",
        ),
        "gen_launch": _holds(
            by_op["generalize"] < min(by_op["retune"], by_op["specialize"]),
            f"only {_p1(by_op['generalize'])} of the generalizing edits can launch, against "
            f"{_p1(by_op['retune'])} of the retunes and {_p1(by_op['specialize'])} of the new rules",
        ),
        "gen_run": _holds(
            bad["generalize"] > 2 * max(bad["retune"], bad["specialize"]),
            f"{counts.loc['generalize', 'bad branch']} of the run's {per_op['generalize']} generalizing edits "
            f"({_p1(bad['generalize'])}) fail the branch check, against {_p1(bad['retune'])} of the "
            f"retunes and {_p1(bad['specialize'])} of the new rules",
        ),
        "borrow": _holds(
            counts.loc["borrow", "bad branch"] == 0,
            f"the {per_op['borrow']} borrowed rules never fail the branch check and "
            f"{_p1(beat['borrow'])} of them beat their parent",
        ),
        "borrow_others": _holds(
            beat["borrow"] > 3 * beat.drop("borrow").max(),
            f"at most {_p1(beat.drop('borrow').max())} for the other kinds",
        ),
        "mix": f"borrowing's share of the proposals asked for rises from {FIXED_MIX['borrow']:.0%} to "
        f"{mix['borrow']:.0%} by the end of the run",
        "example_step": f"proposal {example.step}",
        # Section 3
        "db_log": _holds(
            log[:2] == [(log[0][0], True), (log[1][0], True)] and len(refused) == 3,
            f"{len(refused)} programs that score below the island's worst are refused",
        ),
        "copy": _holds(copy_refused, "The same program again is refused, even with a better score"),
        "migrate": _holds(
            len(moved) == 1 and len(db.islands[0]) == 3,
            f"`island 0`'s best (`#{moved[0].id}`) is copied into `island 1`",
        ),
        "tournament": f"draws {tournament} programs of the island with replacement",
        "best_share": _holds(
            inspect.signature(sol.best_share).parameters["island"].default == per == checks.ISLAND,
            f"on a full island of {per} the best is the parent {_p1(shares.loc[tournament, 'formula'])} of the time",
        ),
        "insp": f"the {n_insp - 1} best programs of the island other than the parent, and the best program of one of the "
        f"other {n_islands - 1} islands (drawn at random)",
        "ring": f"every {migrate_every} proposals island *i*'s best is offered to island *i* + 1",
        "hops": f"{n_islands - 1} migrations",
        "insp_chance": f"one of the other {n_islands - 1} islands (drawn at random)",
        # Section 4
        "stage1": f"every {every}th training shape, {len(stage1)} of the {n}",
        "bar_rule": f"at least {ratio} times the best stage-1 score seen so far",
        "rest": f"only then are the other {n - len(stage1)} shapes run",
        "regimes": f"{regimes['decode']} decode, {regimes['mid']} mid and {regimes['prefill']} prefill shapes, in the "
        f"proportions of all {n} ({regimes_all['decode']}, {regimes_all['mid']} and "
        f"{regimes_all['prefill']})",
        "bar_range": _holds(bars == sorted(bars), f"from {bars[0]:.3f} to {bars[-1]:.3f}"),
        "first_cut": f"Proposal {first_cut.step} scores {first_cut.stage1:.3f} on stage one against a bar of "
        f"{first_cut.bar:.3f}",
        "first_pass": f"Proposal {first_pass.step} scores {first_pass.stage1:.3f} against {first_pass.bar:.3f}",
        "counts": f"{statuses['cascade']} of the {trace.budget} proposals were cut after stage one, "
        f"{statuses['bad branch']} were rejected by the branch check and {statuses['ok']} ran on every shape",
        "saved": f"{saved:,} kernel runs saved ({statuses['cascade']} × {n - len(stage1)})",
        "spent": f"it spent {trace.result.kernel_runs:,} runs instead of {without:,}: {saved / without:.1%} fewer",
        "branch_saved": f"{statuses['bad branch']} × {n} = {statuses['bad branch'] * n:,} runs",
        "cut_share": _holds(
            0.2 < statuses["cascade"] / trace.budget < 0.3, f"{statuses['cascade'] / trace.budget:.0%} of the proposals"
        ),
        "t4_parent": f"{len(parent_below)} of the {len(cut)} cut children had a parent whose own stage-1 score was "
        f"already below the bar",
        "t4_same": f"{len(same_as_parent)} of them scored exactly their parent's stage-1 score",
        # Section 5
        "prompt_size": f"{view.chars:,} characters, about {view.tokens:,} tokens by the pack's estimate",
        "feedback_share": _holds(
            max(parts, key=lambda k: len(parts[k])) == "feedback",
            f"the feedback table is the largest part, {len(parts['feedback']):,} characters "
            f"({len(parts['feedback']) / view.chars:.0%})",
        ),
        "child": f"parent {view.parent_score:.3f}, child {view.child_score:.3f}",
        "lineage": _holds(view.step in lineage_steps, "one of the lineage's steps in notebook 04"),
        "nofb": _holds(
            frame.loc["no_feedback", "feedback"] == 0
            and frame.loc["small_llm", "knowledge"] == 0
            and frame.loc["no_borrow", "inspirations"] == 0,
            f"`no_feedback`'s prompt has no table and is {frame.loc['no_feedback', 'characters']:,} "
            f"characters long against {frame.loc['full', 'characters']:,}",
        ),
        "worst3_table": f"`fb_worst3`'s table has three rows ({frame.loc['fb_worst3', 'feedback']:,} characters)",
        "t5_result": f"`no_feedback` ends at {_f3(med['no_feedback'])} against {_f3(med['full'])} for `full`",
        "growth": f"from {growth.iloc[0]['characters']:,} characters at the first proposal to "
        f"{growth.iloc[-1]['characters']:,} at the last",
        # exercises
        "e1": _holds(
            bool(np.allclose(shares["measured"], shares["formula"], atol=0.01)),
            "the measured shares agree with the formula within one percentage point",
        ),
        "e1_values": ", ".join(f"{shares.loc[k, 'formula']:.1%}" for k in shares.index[:-1])
        + f" and {shares.iloc[-1]['formula']:.1%} for tournaments of "
        + ", ".join(map(str, shares.index[:-1]))
        + f" and {shares.index[-1]}",
        "e2": f"the cascade cut {misses['cut']} programs and saved {misses['runs saved']:,} kernel runs",
        "e2_beat": _holds(
            misses["would beat the best so far"] == 0,
            f"{misses['would beat their parent']} of them would have beaten their parent, none the best score so far",
        ),
        "e2_best": f"the best of them would have scored {misses['best of them']:.3f}",
        "e3": f"{growth.loc[1, 'tokens (est.)']:,} estimated tokens at proposal 1, "
        f"{growth.loc[10, 'tokens (est.)']:,} at 10, {growth.loc[100, 'tokens (est.)']:,} at 100 and "
        f"{growth.loc[1000, 'tokens (est.)']:,} at 1000",
        "e3_parts": _holds(
            growth["feedback"].iloc[-1] - growth["feedback"].iloc[0]
            < growth["parent"].iloc[-1] - growth["parent"].iloc[0]
            < growth["inspirations"].iloc[-1] - growth["inspirations"].iloc[0],
            f"the parent grows from {growth.iloc[0]['parent branches']} branches to "
            f"{growth.iloc[-1]['parent branches']},",
        ),
        "e3_insp": f"the inspirations from {growth.iloc[0]['inspirations']:,} characters to "
        f"{growth.iloc[-1]['inspirations']:,}",
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        "c_unknown": _holds(
            1 - full["faster config known"].mean() > 0.5,
            "More than half of `full`'s proposals for this parent go to shapes where nothing faster is known",
        ),
        "c_adopt": _holds(
            could["adopted"].mean() < 0.5 and run_could["adopted"].mean() < 0.5,
            "Adopting the best config seen (`p_adopt`) happens less often than one half",
        ),
        "c_borrow": _holds(beat["borrow"] > 0.5, "borrowed rules beat their parent most of the time"),
        "c_knowledge": _holds(
            full["faster there"].mean() > small["faster there"].mean(),
            "lands faster on its target more often than a single-field edit",
        ),
        "c_gen_borrow": _holds(
            bad.idxmax() == "generalize" and beat["borrow"] > 0.5,
            "fail the branch check most often; **borrowed** rules have already run, and most of them beat their parent",
        ),
        "c_tournament": _holds(
            shares.loc[tournament, "formula"] < 0.5, "A tournament often picks a parent that is not the island's best"
        ),
        "c_larger": _holds(
            list(shares["formula"]) == sorted(shares["formula"]) and shares.index[0] == 1,
            "A larger tournament exploits more",
        ),
        "c_never_best": _holds(misses["would beat the best so far"] == 0, "never a new best"),
        "c_growth": _holds(
            list(growth["characters"]) == sorted(growth["characters"])
            and (growth["parent"] + growth["inspirations"]).iloc[-1] / growth["characters"].iloc[-1]
            > (growth["parent"] + growth["inspirations"]).iloc[0] / growth["characters"].iloc[0],
            "A real model's cost per call grows with the search, and so does the share of the prompt "
            "that is code rather than measurements",
        ),
        "c_variants": _holds(
            frame.loc["no_feedback", "feedback"] == 0
            and frame.loc["small_llm", "knowledge"] == 0
            and frame.loc["no_borrow", "inspirations"] == 0
            and frame.loc["fb_worst3", "feedback"] < frame.loc["full", "feedback"],
            "Each variant's prompt differs exactly where the variant does",
        ),
        # glossary
        "g_tournament": f"draw {tournament} programs of an island with replacement, keep the best",
    }
    return P


def quotes() -> list[str]:
    return list(phrases().values())
