"""The lecturer's guide's numbers (docs/lecturer_guide.md), recomputed from toyhw (see tests/test_guide.py).

As the notebooks' modules did before their numbers became claims (tests/claims/): `phrases()` maps a name to each
phrase of the guide that states a number, built from the pack's computed values (an f-string over toyhw's results);
`quotes()` returns them. A claim without a number of its own ("on every seed", "first") is checked with `_holds`
before its phrase is returned.
`PARAMETERS` are phrases that restate an input (a seed, a budget, the length of a lecture slot) or a number one of the
two lecture scripts states; they must appear in the guide too.

The timing plan is computed from the notebooks' own "*Estimated timing to here*" lines (`timings`), so a notebook
whose timing changes changes the guide's minutes, and the test fails until the guide follows.
"""

from __future__ import annotations

import functools
import inspect
from collections import Counter

import numpy as np

from toyhw import data, metrics
from toyhw.course import evolve_tables as tables, kernel_tables as tables_k, proposal_trace
from toyhw.evolve import variants
from toyhw.evolve.experiments import ablations, branch_check, targeting
from toyhw.gemm import cost as gemm_cost, report as gemm_report, shapes as gemm_shapes, validate
from toyhw.kernels import failures, knobs, study
from prose.phrasing import (
    holds as _holds,
    f2 as _f2,
    f3 as _f3,
    pct as _pct,
    value_range as _range,
    ordinal as _ordinal,
)
from prose.study_figures import study_figures
from exercise_cells import NOTEBOOKS, load_solution
from prose import guide_app  # section 3, the app's time to ready: its figures are benchmarks/app_ready.json's
from prose import guide_hub  # section 6, a class on one server: its figures are benchmarks/hub.json's
from prose import guide_board  # section 3, the class leaderboard: the fixed rows' scores (toyhw.course.board)
from prose import timing
from prose.timing import Slot

SEED, N = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
MODES = ["resample", "scalar", "explain", "suggest"]
ROUNDS = (5, 10, 20, 50)
LECTURE_10_MINUTES, LECTURE_14_MINUTES = 60, 100  # the two lecture slots the guide plans for
BOARD_MINUTES = 10  # the class leaderboard's slot in lecture 14 (issue 36)

# Numbers the lecture scripts state that the pack does not compute; each is quoted as the script's claim.
SCRIPT_KERNELBENCH_SHARE = 20  # lecture-10 script, main()'s observations: "fewer than 20% of the tasks"
SCRIPT_L10_SECONDS = 1  # lecture-10 script's header: "run time: about 1 second (standard library only)"
SCRIPT_L14_SECONDS = 50  # lecture-14 script's header: "about 50 seconds"
SCRIPT_NOISE = 0.02  # lecture-14 script, demo 1: "a 0.02 difference between 5-seed medians"
KERNELBENCH_LEVEL_TASKS = (100, 100, 50)  # KernelBench's tasks per level (arXiv 2502.10517v1, section 3.2)

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: setup, questions, what the
# lecture scripts say, practical advice, and restatements of a notebook's result that its own module checks.
NOT_RESULTS = [
    "Each lecture keeps at least 10% of its minutes free",  # tests/test_guide.py holds the plan to its slack
    "Neither ships with the pack",
    "Same budget of rounds, more informative feedback.",
    "its misses are tasks where the remaining gain is in knobs",  # notebook 02's Think! 3, checked by claims/nb02.py
    "best-seen feedback is actionable advice with the answer attached",
    "how a real LLM reads feedback is where the simulation is least like",
    "Notebook 04's setup cell computes the whole study",
    "which single risky choice, never made, rescues the most failing kernels?",
    "which mode plateaus below the ceiling at fast_1.5, and why?",
    "- Notebook 02, the race demo's question 2",
    "`make present NB=02` serves notebook 02 as a code-free app",
    "In class, `python -m toyhw evolve --replay run.jsonl`",
    "The GEMM model was recalibrated against published timings",
    "The lecture-14 script expects watching only the worst three shapes",
    "The script says the shapes far behind are \"often the same\"",
    "The lecture-14 script prints each variant's score on the test shapes",
    "- **\"More informative feedback, cheaper search\"** (L10-12)",
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "On the toy's 200 tasks, 27.0% do not build",
    "Notebook 03 opens that model",
    "The evaluator also never sees the held-out shapes",
]

PARAMETERS = [
    f"about {LECTURE_10_MINUTES} minutes",
    f"about {LECTURE_14_MINUTES} minutes",
    "seeds 0-4",
    "after 300 programs",
    "the budget at 100",
    f"after {', '.join(map(str, ablations.MARKS[:-1]))} and {ablations.MARKS[-1]} programs",  # demo 1's marks
    "1000 proposed programs",
    "the first 300 proposals",
    "seed 0",
    f"fewer than {SCRIPT_KERNELBENCH_SHARE}% of the tasks",
    f"about {SCRIPT_L10_SECONDS} second",
    f"about {SCRIPT_L14_SECONDS} seconds",
    f"a {SCRIPT_NOISE} difference between five-seed medians",
    f"{KERNELBENCH_LEVEL_TASKS[0]}, {KERNELBENCH_LEVEL_TASKS[1]} and {KERNELBENCH_LEVEL_TASKS[2]} tasks",
    "200 tasks",
    "5, 10, 20 and 50 rounds",
    "10 rounds",
    "50 rounds",
    "9 variants",
    "100 new shapes",
    "44 training shapes",
    "p = 1.5",
]


# ----- the timing plan, read from the notebooks (tests/prose/timing.py)

# (notebook, part, from, to) per slot of the plan, or a live question or exercise with its minutes; "start" includes
# the setup cell, "end" the summary. Every question the guide lists under "Questions that work in a room" is a slot.
LECTURE_10 = (
    Slot("01", "Setup and Section 1: the toy kernel, its knobs and hidden traits", "start", "Section 2"),
    Slot("01", "Section 2: fast_p", "Section 2", "Section 3"),
    Slot("01", "Think! 2, a show of hands: should a tie count?", question="Think! 2", minutes=2),
    Slot("01", "Section 3: 200 one-shot kernels and why they fail", "Section 3", "Section 4"),
    Slot("01", "Think! 3, a vote among the three bars", question="Think! 3", minutes=2),
    Slot("02", "Setup and Section 1: the loop", "start", "Section 2"),
    Slot("02", "Section 2: lecture 10's table", "Section 2", "Section 3"),
    Slot(
        "02", "Think! 2: guess the chance that one random knob change repairs a kernel", question="Think! 2", minutes=2
    ),
    Slot("02", "Section 3: fast_p against rounds and the ceiling", "Section 3", "Section 4"),
    Slot("02", "Think! 3: which mode plateaus below the ceiling, and why", question="Think! 3", minutes=3),
    Slot("02", "Section 5: your own proposer, the race demo, the summary", "Section 5", "end"),
    Slot(
        "02",
        "the race demo's question 2: at p = 1.5, where does `suggest` fall behind `explain`?",
        start="Section 5",
        question="demo question 2",
        minutes=1,
    ),
)
LECTURE_14 = (
    Slot("03", "Section 2: the roofline chart (recap of the pre-reading)", "Section 2", "Section 3"),
    Slot("03", "Section 6: the best config per regime and the expert's headroom", "Section 6", "Section 7"),
    Slot("04", "Setup and Sections 1-4: the program, the loop, the table, the curves", "start", "Section 5"),
    Slot(
        "04",
        "Think! 2: why can `no_evolution` not collect the best configs into one program?",
        question="Think! 2",
        minutes=2,
    ),
    Slot(
        "04",
        "Think! 4: at which budget would you conclude that feedback does not matter?",
        question="Think! 4",
        minutes=2,
    ),
    Slot("05", "Setup and Section 1: picking a target shape", "start", "Section 2"),
    Slot("05", "Think! 1: why add 0.05 to every weight?", question="Think! 1", minutes=2),
    Slot(
        "06",
        "Setup and Sections 1-4: two ratios, two top fives, where the target draw points, why",
        "start",
        "Section 5",
    ),
    Slot("07", "Setup and Sections 1-2: a bad branch by hand, the table", "start", "Section 3"),
    Slot(
        "07",
        "Think! 1: which shapes would the evaluator need to catch the bad branch itself?",
        question="Think! 1",
        minutes=2,
    ),
    Slot(
        "07",
        "the class leaderboard: students submit heuristics, scored on held-out shapes",
        activity="The class leaderboard",
        minutes=BOARD_MINUTES,
    ),
)


def plan_rows(plan) -> list[str]:
    """The plan's table rows as the guide prints them (clock, notebook, part, minutes, words, words a minute)."""
    return timing.rows(plan)


def plan_total(plan) -> int:
    return timing.planned(plan)


def span(number: str, start: str, stop: str) -> int:
    """The minutes from heading `start` to heading `stop` of notebook `number` (timing.minute)."""
    return timing.minute(number, stop) - timing.minute(number, start)


# ----- the map's and the known differences' numbers


@functools.lru_cache(maxsize=None)
def phrases() -> dict[str, str]:
    P: dict[str, str] = {}

    # ---------- lecture 10
    report = study.one_shot(SEED, N)
    shares = report.status_shares()
    fast = report.fast()
    table = study.feedback_table(SEED, N, MODES, rounds=ROUNDS)
    cell = {m: {r: {p: _f2(v) for p, v in row.items()} for r, row in rows.items()} for m, rows in table.items()}
    failing = [k for k in report.kernels if not k.feedback.ok]
    chance = [failures.one_knob_repair_chance(k.task, k.config) for k in failing]
    sweep = load_solution(NOTEBOOKS / "02_feedback_loops.ipynb").advice_sweep()
    kb = {r["toy_mode"]: r for r in data.kernelbench_rows()}
    fig2 = {r["model"]: r for r in data.kernelbench_one_shot_rows()}
    figures = data.paper_figures()
    drops = {m: float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES}  # between the printed cells
    curve = report.fast(metrics.KERNELBENCH_PS)

    tasks = study.tasks(SEED, N)
    P["best_tiles"] = "the best tile (" + " or ".join(map(str, sorted({t.best_tile for t in tasks}))) + ")"
    P["fail_tile"] = f"tile {max(knobs.KNOBS['tile'])} with shared memory fails to compile or launch"
    P["baseline_script"] = f"a default config (tile {knobs.DEFAULT.tile}, nothing else on) × {knobs.BASELINE_FACTOR}"
    P["knobs"] = ", ".join(f"`{k}` {{{', '.join(map(str, v))}}}" for k, v in knobs.KNOBS.items())
    P["sizes"] = "n in {" + ", ".join(map(str, knobs.PROBLEM_SIZES)) + "}"
    P["baseline"] = (
        f"the default kernel's time (tile {knobs.DEFAULT.tile}, nothing else switched on) × {knobs.BASELINE_FACTOR}"
    )
    P["costs"] = "fusion × 0.55, shared memory × 0.7 when the tile is at least 16, vector width × (1 − 0.15 log2 vec)"
    _holds(
        "memory *= 0.55" in _source(knobs.run_kernel)
        and "memory *= 0.7" in _source(knobs.run_kernel)
        and "0.15 * math.log2(config.vec)" in _source(knobs.run_kernel),
        P["costs"],
    )
    P["oneshot"] = (
        f"{shares['compile_error']:.1%} do not build, {shares['wrong']:.1%} give wrong results, "
        f"{shares['ok']:.1%} are correct"
    )
    P["oneshot_fast"] = f"fast_0 = {_f3(fast[0.0])}, fast_1 = {_f3(fast[1.0])}, fast_1.5 = {_f3(fast[1.5])}"
    risky = tables_k.risky_choice_frame(report)
    P["vote"] = _holds(
        risky["correct without it"].idxmax() == risky["reported first"].idxmax(),
        f"the longest bar is the answer but rescues fewer kernels than it counts: "
        f"{risky['correct without it'].max()} of its {risky['reported first'].max()}",
    )
    P["oneshot_fail"] = f"{1 - shares['ok']:.1%} of the one-shot kernels fail"
    P["table_cells"] = (
        f"from {cell['scalar'][5][1.0]} / {cell['scalar'][5][1.5]} (`scalar`, 5 rounds) to "
        f"{cell['suggest'][50][1.0]} / {cell['suggest'][50][1.5]} (`suggest`, 50 rounds)"
    )
    P["scalar_behind"] = _holds(
        [r for r in ROUNDS if table["scalar"][r][1.0] < table["resample"][r][1.0]] == [5, 10, 20],
        f"`scalar` is behind `resample` at 5, 10 and 20 rounds ({cell['scalar'][5][1.0]}, {cell['scalar'][10][1.0]}, "
        f"{cell['scalar'][20][1.0]} against {cell['resample'][5][1.0]}, {cell['resample'][10][1.0]}, "
        f"{cell['resample'][20][1.0]}) and level at 50 ({cell['scalar'][50][1.0]})",
    )
    P["repair"] = f"one random knob change repairs a failed one-shot kernel {np.mean(chance):.1%} of the time"
    P["explain_fast1"] = _holds(
        all(table["explain"][r][1.0] > max(table["scalar"][r][1.0], table["resample"][r][1.0]) for r in ROUNDS),
        f"`explain` is above both at every round count: {cell['explain'][5][1.0]}, {cell['explain'][10][1.0]}, "
        f"{cell['explain'][20][1.0]}, {cell['explain'][50][1.0]}",
    )
    P["explain_fast15"] = _holds(
        all(table["explain"][r][1.5] == max(table[m][r][1.5] for m in MODES) for r in (10, 20, 50))
        and table["explain"][5][1.5] < max(table[m][5][1.5] for m in MODES),
        f"`explain` has the highest fast_1.5 at 10, 20 and 50 rounds ({cell['explain'][10][1.5]}, "
        f"{cell['explain'][20][1.5]}, {cell['explain'][50][1.5]}), not at 5 ({cell['explain'][5][1.5]} against "
        f"{cell['resample'][5][1.5]} for `resample`)",
    )
    others50 = max(table["scalar"][50][1.0], table["resample"][50][1.0])
    P["explain_clearly"] = _holds(
        table["explain"][50][1.0] > others50
        and table["scalar"][50][1.0] == table["resample"][50][1.0]
        and round((table["explain"][50][1.0] - others50) * N) <= 0.02 * N,  # "clearly" fails: 2% of the tasks or fewer
        f"\"clearly\" does not at 50 rounds, where `explain`'s fast_1 of {_f3(table['explain'][50][1.0])} leads the "
        f"others' {_f3(others50)} by {round((table['explain'][50][1.0] - others50) * N)} tasks of {N}",
    )
    P["suggest_early"] = _holds(
        table["suggest"][10][1.0] == max(table[m][10][1.0] for m in MODES),
        f"`suggest` has the highest fast_1 after 10 rounds ({cell['suggest'][10][1.0]})",
    )
    P["suggest_late"] = _holds(
        [r for r in ROUNDS if table["suggest"][r][1.5] < table["explain"][r][1.5]] == [10, 20, 50],
        f"at fast_1.5 `suggest` is behind `explain` from 10 rounds on and ends at {cell['suggest'][50][1.5]} against "
        f"{cell['explain'][50][1.5]}",
    )
    P["sweep"] = _holds(
        max(abs(v - sweep[0.0]) for q, v in sweep.items() if q < 1) <= 0.015 + 1e-12,
        f"every q below 1 stays within 0.015 of `explain` ({_f3(sweep[0.0])}); only q = 1, "
        f"`suggest`, loses ({_f3(sweep[1.0])})",
    )
    P["asi"] = (
        f"{figures['asi_llm_iterations']:g} iterations of the LLM optimizer beat OpenTuner after "
        f"{figures['asi_opentuner_iterations']:g}"
    )
    P["kb_r1"] = (
        f"DeepSeek-R1 on Level {figures['kernelbench_table1_level']:g}: {kb['one_shot']['deepseek_r1']}% "
        f"single attempt, {kb['suggest']['deepseek_r1']}% with execution and profiler feedback"
    )
    P["kb_levels"] = (
        f"DeepSeek-R1 {fig2['DeepSeek-R1']['level_1']}%, OpenAI o1 {fig2['OpenAI o1']['level_1']}% at "
        f"Level 1, but {fig2['DeepSeek-R1']['level_2']}% and {fig2['OpenAI o1']['level_2']}% at Level 2"
    )
    total_tasks = sum(KERNELBENCH_LEVEL_TASKS)

    def over_all(model: str) -> float:
        row = fig2[model]
        return sum(row[lvl] * n for lvl, n in zip(data.KERNELBENCH_LEVELS, KERNELBENCH_LEVEL_TASKS)) / total_tasks

    P["kb_all"] = _holds(
        max(over_all("DeepSeek-R1"), over_all("OpenAI o1")) < SCRIPT_KERNELBENCH_SHARE,
        f"over all {total_tasks} tasks DeepSeek-R1 reaches {over_all('DeepSeek-R1'):.1f}% and o1 "
        f"{over_all('OpenAI o1'):.1f}%",
    )
    P["kb_weak"] = _holds(
        kb["suggest"]["llama_3_1_70b"] < kb["explain"]["llama_3_1_70b"],
        f"Llama-3.1-70B goes from {kb['explain']['llama_3_1_70b']}% with execution feedback to "
        f"{kb['suggest']['llama_3_1_70b']}% with the profiler added, and DeepSeek-V3 does better "
        "with "
        f"repeated sampling ({kb['resample']['deepseek_v3']}%) than with any refinement",
    )
    P["kb_v3"] = _holds(
        kb["suggest"]["deepseek_v3"] > kb["explain"]["deepseek_v3"]
        and kb["suggest"]["llama_3_1_70b"] < kb["explain"]["llama_3_1_70b"],
        f"DeepSeek-V3 from {kb['explain']['deepseek_v3']}% to {kb['suggest']['deepseek_v3']}%",
    )
    P["kb_profiler"] = _holds(
        all(kb["suggest"][m] > kb["explain"][m] for m in ("deepseek_r1", "deepseek_v3"))
        and kb["suggest"]["llama_3_1_70b"] < kb["explain"]["llama_3_1_70b"]
        and kb["resample"]["deepseek_v3"] > kb["suggest"]["deepseek_v3"],
        f"adding the profiler to execution feedback helps DeepSeek-R1 ({kb['explain']['deepseek_r1']}% to "
        f"{kb['suggest']['deepseek_r1']}%) and, by {kb['suggest']['deepseek_v3'] - kb['explain']['deepseek_v3']} "
        f"point, DeepSeek-V3 ({kb['explain']['deepseek_v3']}% to {kb['suggest']['deepseek_v3']}%); only Llama-3.1-70B "
        f"drops ({kb['explain']['llama_3_1_70b']}% to {kb['suggest']['llama_3_1_70b']}%), and DeepSeek-V3 does better "
        "still with repeated sampling",
    )
    P["kb_strong"] = (
        f"DeepSeek-R1 gains from {kb['explain']['deepseek_r1']}% to {kb['suggest']['deepseek_r1']}% "
        "with the profiler added"
    )
    P["drops"] = f"at 50 rounds every mode loses {_f2(min(drops.values()))} to {_f2(max(drops.values()))}"
    P["curve"] = _holds(
        list(curve.values()) == sorted(curve.values(), reverse=True),
        f"one-shot fast_p falls from {_f2(curve[0.0])} at p = 0 to {_f2(curve[2.0])} at p = 2",
    )
    P["not_monotone"] = _holds(
        table["suggest"][50][1.5] < table["explain"][50][1.5] and table["scalar"][5][1.0] < table["resample"][5][1.0],
        f"`scalar` trails `resample` ({cell['scalar'][5][1.0]} against {cell['resample'][5][1.0]} at 5 rounds) and "
        f"the most informative mode, `suggest`, ends below `explain` at fast_1.5 ({cell['suggest'][50][1.5]} against "
        f"{cell['explain'][50][1.5]})",
    )

    # ---------- lecture 14
    ctx = ablations.context()
    figures = study_figures()
    st, runs, final = figures.study, figures.study.runs, figures.final
    med, test, share, kruns, pos = figures.med, figures.test, figures.share, figures.kernel_runs, figures.pos
    at = figures.at
    lo, hi = final["full"].min(), final["full"].max()
    lecture = list(variants.LECTURE_VARIANTS)
    ranks = tables.rank_frame(st)
    tests = {n: [r.test for r in runs[n]] for n in runs}
    pairs = [(a, b) for i, a in enumerate(runs) for b in list(runs)[i + 1 :]]
    overlapping = [(a, b) for a, b in pairs if max(tests[a]) >= min(tests[b]) and max(tests[b]) >= min(tests[a])]

    P["variants"] = f"{len(lecture)} variants of the lecture-14 script plus {len(runs) - len(lecture)} analogues"
    P["oracle"] = f"train {_f3(ctx.oracle_train)}, test {_f3(ctx.oracle_test)}"
    P["full"] = f"`full` ends at {_f3(med['full'])} ({_pct(share['full'])} of the headroom)"
    P["noevo"] = _holds(
        min(lecture, key=med.get) == "no_evolution" and min(med, key=med.get) == "no_full_file",
        f"`no_evolution` ends at {_f3(med['no_evolution'])}, the lowest of the script's nine; only the "
        f"pack's `no_full_file` analogue is lower ({_f3(med['no_full_file'])})",
    )
    P["small"] = _holds(
        final["small_llm"].max() < lo,
        f"`small_llm` ends at {_f3(med['small_llm'])}, every seed (at most "
        f"{_f3(final['small_llm'].max())}) below every seed of `full`",
    )
    P["fb"] = _holds(
        pos["fb_roofline"] == "below" and pos["no_feedback"] == "below",
        f"`fb_roofline` {_f3(med['fb_roofline'])} and `no_feedback` {_f3(med['no_feedback'])}, both "
        f"below full's seed spread",
    )
    nine = sorted(lecture, key=lambda n: -med[n])
    P["worst3"] = _holds(
        pos["fb_worst3"] == "above" and med["fb_worst3"] > med["no_feedback"],
        f"`fb_worst3` ends at {_f3(med['fb_worst3'])}, {_ordinal(nine.index('fb_worst3') + 1)} of the "
        f"script's nine (behind `{nine[0]}`) and above full's "
        f"seed spread; its seeds end at "
        f"{_f3(final['fb_worst3'].min())}-{_f3(final['fb_worst3'].max())}"
        f" and {int(np.sum(final['fb_worst3'] > hi))} of its five beat full's best seed",
    )
    P["worst3_50"] = _holds(
        min(runs, key=lambda n: at(n, 50) if n in ("full", "fb_roofline", "no_feedback", "fb_worst3") else 9)
        == "fb_worst3",
        f"after 50 programs it is last of the four feedback settings ({_f3(at('fb_worst3', 50))} "
        f"against {_f3(at('full', 50))} for `full`)",
    )
    P["plumb"] = _holds(
        pos["no_borrow"] == "within" and pos["one_island"] == "within",
        f"`no_borrow` {_f3(med['no_borrow'])} and `one_island` {_f3(med['one_island'])}, within full's seed spread",
    )
    P["nocascade"] = _holds(
        pos["no_cascade"] == "above" and final["no_cascade"].min() <= hi,
        f"`no_cascade` ends at {_f3(med['no_cascade'])}, above full's seed spread (its lowest "
        "seed, "
        f"{_f3(final['no_cascade'].min())}, is inside it)",
    )
    savings = load_solution(
        NOTEBOOKS / "08_appendix_cost_and_scale.ipynb"
    ).cascade_savings()  # notebook 08's Exercise 1
    trace = proposal_trace.trace("full", 0, ablations.BUDGET)
    cut = sum(1 for s in trace.steps if s.status == "cascade")
    saved = sum(len(ctx.train) - s.runs for s in trace.steps if s.status == "cascade")
    P["cascade"] = (
        f"the cascade saves {1 - kruns['full'] / kruns['no_cascade']:.0%} of the kernel runs (medians "
        f"{kruns['full']:,} against {kruns['no_cascade']:,}); {_range(savings['saved'])} seed by seed"
    )
    P["cascade_run"] = (
        f"in seed 0's run it cut {cut} of the {ablations.BUDGET} proposals after stage one and saved "
        f"{saved:,} kernel runs"
    )
    four = ["full", "no_feedback", "small_llm", "no_evolution"]
    gap4 = {b: max(at(n, b) for n in four) - min(at(n, b) for n in four) for b in (100, ablations.BUDGET)}
    gap_all = {b: max(at(n, b) for n in runs) - min(at(n, b) for n in runs) for b in (100, ablations.BUDGET)}
    P["at100"] = _holds(
        gap4[ablations.BUDGET] > gap4[100],
        f"after 100 programs `full` {_f3(at('full', 100))}, `no_feedback` {_f3(at('no_feedback', 100))}"
        f", `small_llm` {_f3(at('small_llm', 100))}, `no_evolution` {_f3(at('no_evolution', 100))}: "
        f"{_f3(gap4[100])} apart, against {_f3(gap4[ablations.BUDGET])} after {ablations.BUDGET}",
    )
    P["gaps"] = (
        f"between the best and worst median of the whole table, {_f3(gap_all[100])} after 100 programs and "
        f"{_f3(gap_all[ablations.BUDGET])} after {ablations.BUDGET}"
    )
    P["ranks"] = _holds(
        ranks.loc["no_feedback", "test rank"] == 1,
        f"`no_feedback` is {_ordinal(ranks.loc['no_feedback', 'training rank'])} of {len(runs)} on the "
        f"training shapes and first on the held-out ones ({_f3(test['no_feedback'])}); `one_island` "
        f"drops from {_ordinal(ranks.loc['one_island', 'training rank'])} to "
        f"{_ordinal(ranks.loc['one_island', 'test rank'])}, `no_cascade` from "
        f"{_ordinal(ranks.loc['no_cascade', 'training rank'])} to "
        f"{_ordinal(ranks.loc['no_cascade', 'test rank'])}",
    )
    P["rank_pairs"] = f"the held-out ranges of {len(overlapping)} of the {len(pairs)} pairs of variants overlap"
    P["heldout_share"] = (
        f"`full` captures {_pct(share['full'])} of the headroom on the training shapes but "
        f"{_pct(ablations.headroom_share(test['full'], ctx.oracle_test))} on the held-out shapes"
    )
    full_tests = tests["full"]
    P["heldout_full"] = f"full's own seeds range from {_f3(min(full_tests))} to {_f3(max(full_tests))} there"
    order_seeds = {
        k: sorted(["full", "no_borrow", "one_island", "no_cascade"], key=lambda n: -float(np.median(final[n][:k])))
        for k in (1, 3, 5)
    }
    P["order"] = _holds(
        len({tuple(v) for v in order_seeds.values()}) == 3,
        "the order of `full`, `no_borrow`, `one_island` and `no_cascade` changes with 1, 3 and 5 seeds",
    )

    # demo 2
    tg = {(s, b): targeting.targeting(s, b) for s in ablations.SEEDS for b in (300, 1000)}
    t0 = tg[(0, 300)]
    P["demo2"] = (
        f"{t0.n_stuck} of the {len(t0.rows)} training shapes are stuck; roofline weighting sends "
        f"{_pct(t0.share_on_stuck['roofline'])} of the draw to them, best-seen weighting "
        f"{_pct(t0.share_on_stuck['best'])}"
    )
    ov = {b: [tg[(s, b)].overlap_top5 for s in ablations.SEEDS] for b in (300, 1000)}
    P["overlap"] = _holds(
        2 * sum(ov[300]) < 5 * len(ablations.SEEDS) and 2 * sum(ov[1000]) < 5 * len(ablations.SEEDS),
        f"the two top-5 lists share {', '.join(map(str, ov[300][:-1]))} and {ov[300][-1]} shapes on "
        f"seeds 0-4 after 300 programs ({sum(ov[300])} of {5 * len(ablations.SEEDS)} places), and "
        f"{', '.join(map(str, ov[1000][:-1]))} and {ov[1000][-1]} after 1000",
    )
    P["overlap_script"] = _holds(
        2 * ov[300][0] > 5 and 2 * sum(ov[300]) < 5 * len(ablations.SEEDS),
        f"the script's own setting (seed 0, 300 programs) the lists share {ov[300][0]} of 5 shapes",
    )
    P["overlap_max"] = _holds(
        max(ov[300]) == 3 and min(ov[1000]) == 0,
        f"never more than {max(ov[300])} of five after 300 programs, none at all on seed 2 after 1000",
    )
    top_first = [tg[(s, 300)].top_roofline[0].shape.label() for s in ablations.SEEDS]
    common_first = Counter(top_first).most_common(1)[0]
    P["overlap_why"] = _holds(
        common_first[1] == len(ablations.SEEDS), f"roofline's first shape is `{common_first[0]}` on every seed"
    )
    roof = {b: [tg[(s, b)].share_on_stuck["roofline"] for s in ablations.SEEDS] for b in (300, 1000)}
    best = {b: [tg[(s, b)].share_on_stuck["best"] for s in ablations.SEEDS] for b in (300, 1000)}
    gaps_w = {b: [r - q for r, q in zip(roof[b], best[b])] for b in (300, 1000)}
    P["weights"] = _holds(
        all(g > 0 for b in gaps_w for g in gaps_w[b]),
        f"roofline weighting puts the larger share on stuck shapes in all "
        f"{2 * len(ablations.SEEDS)} rows: {_range(roof[300])} against {_range(best[300])} after 300 "
        f"programs, {_range(roof[1000])} against {_range(best[1000])} after 1000",
    )
    P["weights_budget"] = _holds(
        all(g1 < g0 for g0, g1 in zip(gaps_w[300], gaps_w[1000])),
        "the gap between the two shrinks from 300 to 1000 programs on every seed",
    )
    nb06 = load_solution(NOTEBOOKS / "06_using_feedback.ipynb")  # notebook 06's Exercise 1
    loop300, loop1000 = nb06.stuck_target_shares(budget=300), nb06.stuck_target_shares(budget=1000)
    P["runs300"] = _holds(
        all(loop300.loc["fb_roofline", c] > loop300.loc["full", c] for c in loop300.columns),
        f"over the first 300 proposals of real runs, {_range(loop300.loc['fb_roofline'])} of "
        f"`fb_roofline`'s targets are stuck for their parent against "
        f"{_range(loop300.loc['full'])} of `full`'s, higher on every seed",
    )
    P["runs300_seed0"] = (
        f"seed 0's run of `full` aims {_pct(loop300.loc['full', 'seed 0'])} of its first 300 "
        f"proposals at shapes stuck for their parent, where the weights on its best program say "
        f"{_pct(t0.share_on_stuck['best'])}"
    )
    flipped = [c for c in loop1000.columns if loop1000.loc["fb_roofline", c] < loop1000.loc["full", c]]
    P["runs1000"] = _holds(
        flipped == ["seed 3"],
        f"over 1000 proposals it no longer holds on every seed: on seed 3 `fb_roofline` aims "
        f"{_pct(loop1000.loc['fb_roofline', 'seed 3'])} at stuck shapes and `full` "
        f"{_pct(loop1000.loc['full', 'seed 3'])}",
    )
    # the stuck shapes farthest from the roofline
    table_h = ctx.table
    stuck_top = {s: [r for r in tg[(s, 300)].top_roofline if r.vs_best > targeting.STUCK] for s in ablations.SEEDS}
    all_top = [r for s in ablations.SEEDS for r in stuck_top[s]]
    regime = Counter(gemm_report.regime(r.shape.M) for r in all_top)
    farthest = {
        s: sorted((r for r in tg[(s, 300)].rows if r.vs_best > targeting.STUCK), key=lambda r: r.vs_roofline)[0]
        for s in ablations.SEEDS
    }
    far_mid = [s for s in ablations.SEEDS if gemm_report.regime(farthest[s].shape.M) == "mid"]
    P["far_top"] = _holds(
        set(regime) == {"mid", "decode"} and regime["mid"] > regime["decode"],
        f"over seeds 0-4 after 300 programs, {len(all_top)} of the {5 * len(ablations.SEEDS)} places "
        f"of roofline's top fives hold a stuck shape: {regime['mid']} mid-M shapes and "
        f"{regime['decode']} decode shapes",
    )
    P["far_first"] = _holds(
        far_mid == [0, 1, 2, 3] and farthest[4].shape.M <= 16,
        f"the stuck shape farthest from its roofline is `{farthest[0].shape.label()}` on seeds 0-3 "
        f"and a decode shape, `{farthest[4].shape.label()}`, on seed 4",
    )
    r0 = farthest[0]
    cfg, us = table_h.oracle(r0.shape)
    c0 = gemm_cost.gemm_time(cfg, r0.shape, table_h.gpu)
    P["far_seed0"] = (
        f"`{r0.shape.label()}` (vs_roofline {_f2(r0.vs_roofline)}): even the oracle reaches only "
        f"{_f2(table_h.roofline(r0.shape) / us)} of the roofline, {c0.bound}-bound with {c0.blocks} "
        "blocks "
        f"for {table_h.gpu.sms} SMs, and the launch, fill and drain and split-K's reduction take "
        f"{c0.launch_us + c0.fill_us + c0.reduction_us:.1f} of its {us:.1f} µs"
    )
    decode = [r for r in t0.rows if r.shape.M <= 16]
    stuck_decode = [r for r in decode if r.vs_best > targeting.STUCK]
    reach = [table_h.roofline(r.shape) / table_h.oracle(r.shape)[1] for r in stuck_decode]
    P["sms_script"] = f"too few blocks for {table_h.gpu.sms} SMs"
    narrow = {s.N for s in ctx.train if s.name == "70B/8 qkv"}
    P["narrow"] = f"`70B/8 qkv` layer (N = {narrow.pop()})"
    first = t0.top_roofline[0]
    gain = first.time / table_h.oracle(first.shape)[1]
    P["t2_factor"] = f"a factor of about {gain ** (1 / len(ctx.train)):.4f} on the score"
    P["far_decode"] = (
        f"{len(stuck_decode)} of the {len(decode)} decode shapes are stuck too, and their best config "
        f"reaches {_f2(min(reach))}-{_f2(max(reach))} of the roofline"
    )
    # fb_worst3's focus (notebook 04, Exercise 3)
    focus = load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb").focus_report()  # notebook 04's Exercise 3
    ff, fw = focus.loc["full"], focus.loc["fb_worst3"]

    def spanf(frame, column, fmt=lambda x: f"{x:.1%}") -> str:
        return f"{fmt(frame[column].min())} to {fmt(frame[column].max())}"

    P["focus_shapes"] = _holds(
        set(ff["shapes targeted"]) == {len(ctx.train)},
        f"`fb_worst3` works on {spanf(fw, 'shapes targeted', str)} shapes over a run and "
        f"{spanf(fw, 'in the last quarter', str)} in its last quarter, `full` on all "
        f"{len(ctx.train)}",
    )
    P["focus_known"] = _holds(
        fw["faster config known"].min() > ff["faster config known"].max(),
        f"{spanf(fw, 'faster config known')} of `fb_worst3`'s proposals aim at a shape with a "
        f"faster config to adopt, against {spanf(ff, 'faster config known')} of `full`'s",
    )
    P["focus_improvement"] = _holds(
        fw["known improvement"].min() > ff["known improvement"].max(),
        f"counted as known improvements (the best time seen more than {1 - targeting.STUCK:.0%} faster, `vs_best <= "
        f"{targeting.STUCK}`, the pack's one meaning), {spanf(fw, 'known improvement')} against "
        f"{spanf(ff, 'known improvement')}",
    )
    P["focus_beat"] = _holds(
        fw["child beat its parent"].min() > ff["child beat its parent"].max(),
        f"{spanf(fw, 'child beat its parent')} of its children beat their parent, against "
        f"{spanf(ff, 'child beat its parent')}",
    )
    # demo 3
    demo3 = branch_check.branches()
    off, on = demo3["unchecked"], demo3["checked"]
    P["demo3"] = (
        f"{sum(r.added_bad_branch for r in off)} programs with a bad branch entered the databases, "
        f"{sum(r.db_bad_branch for r in off)} are in the final ones, in "
        f"{sum(r.best_has_bad_branch for r in off)}"
        f" of {len(off)} seeds the best program carries one"
    )
    P["demo3_crash"] = f"{sum(r.crash_new_shapes for r in off)} programs of the final databases fail on some new shape"
    P["demo3_on"] = _holds(
        sum(r.added_bad_branch for r in on) == 0 and sum(r.crash_new_shapes for r in on) == 0,
        "with the check, none is added and nothing crashes",
    )
    qkv = {r["name"]: r for r in data.layer_rows()}
    P["405b"] = (
        f"`405B/8 qkv` with N = {qkv['405B/8 qkv']['n']} (sixteen key-value heads); the published layout, "
        f"eight heads, gives N = {qkv['405B/8 qkv 8kv']['n']}"
    )
    P["new"] = f"the {len(ctx.new)} new shapes"
    # notebook 03 and the story
    all_shapes = gemm_shapes.all_shapes()
    P["gemm_headline"] = (
        f"the oracle is {gemm_report.oracle_speedup(all_shapes, table_h):.3f} times faster than "
        f"the expert on the {len(all_shapes)} shapes"
    )
    found = validate.checks()
    P["validation"] = (
        f"{validate.geomean_error(found):.1%} off on average over the {len(found)} published timings it is held against"
    )
    sweep14 = load_solution(NOTEBOOKS / "04_alphaevolve_ablations.ipynb").adoption_sweep()  # notebook 04's Exercise 2
    P["adopt"] = _holds(
        list(sweep14["median"]) == sorted(sweep14["median"]),
        f"medians {_f3(sweep14.loc[0.1, 'median'])}, {_f3(sweep14.loc[0.5, 'median'])} and "
        f"{_f3(sweep14.loc[0.9, 'median'])} for `p_adopt` 0.1, 0.5 and 0.9",
    )
    # comparisons without a number of their own (tests/test_comparison_claims.py)
    ceiling15 = metrics.fast_p(study.best_possible_speedups(SEED, N), 1.5)
    P["c_scalar"] = _holds(
        table["scalar"][5][1.0] < table["resample"][5][1.0] and np.mean(chance) < shares["ok"],
        "Scalar feedback is worse than starting over early on",
    )
    P["c_suggest"] = _holds(
        table["suggest"][50][1.5] < ceiling15
        and max(abs(v - sweep[0.0]) for q, v in sweep.items() if q < 1) <= 0.015 + 1e-12,
        "stops `suggest` below the ceiling; a little freedom to ignore it is enough",
    )
    # "nearly always" / "almost never": at least 99% of fb_worst3's proposals, on every seed, aim at a shape with a
    # known faster config (the guide said "never"; 0.2%-0.6% of them do not)
    P["c_worst3"] = _holds(
        fw["faster config known"].min() > 0.99, "its three targets nearly always have a faster config to adopt"
    )
    P["c_worst3_never"] = _holds(
        fw["faster config known"].min() > 0.99,
        "but it almost never aims at a shape where no faster config has been seen",
    )
    P["c_noise"] = _holds(2 * len(overlapping) > len(pairs), "so most held-out differences are noise")
    # "much less": the held-out share of the headroom under three quarters of the training share
    P["c_keep"] = _holds(
        2 * sum(ablations.headroom_share(test[n], ctx.oracle_test) < 0.75 * share[n] for n in runs) > len(runs),
        "Most variants keep much less of their gain",
    )
    P["c_levels"] = _holds(
        any(
            fig2[m][lvl] >= SCRIPT_KERNELBENCH_SHARE
            for m in ("DeepSeek-R1", "OpenAI o1")
            for lvl in data.KERNELBENCH_LEVELS
        ),
        "per level it does not hold",
    )
    return P


def _source(fn) -> str:
    return inspect.getsource(fn)


def quotes() -> list[str]:
    return (
        list(phrases().values())
        + plan_rows(LECTURE_10)
        + plan_rows(LECTURE_14)
        + list(plan_phrases().values())
        + guide_hub.quotes()
        + guide_app.quotes()
        + guide_board.quotes()
    )


@functools.lru_cache(maxsize=None)
def plan_phrases() -> dict[str, str]:
    """Return the timing plan's sums, its slack, its reading load and the notebooks' totals as phrases."""
    l10, l14 = plan_total(LECTURE_10), plan_total(LECTURE_14)
    tot = {n: timing.total(n) for n in ("01", "02", "03", "04", "05", "06", "07", "08")}
    heaviest = max(timing.heaviest(LECTURE_10)[1], timing.heaviest(LECTURE_14)[1])

    def free(planned: int, minutes: int) -> str:
        return _holds(
            planned <= (1 - timing.SLACK) * minutes,
            f"the slots above add up to {planned} minutes, leaving {minutes - planned} of the {minutes} "
            f"({(minutes - planned) / minutes:.0%}) free",
        )

    return {
        "slack": f"at least {timing.SLACK:.0%} of its minutes free",
        "limit": _holds(
            heaviest <= timing.READING_LIMIT,
            f"about {timing.READING_LIMIT} words a minute while the lecturer talks; no slot asks for "
            f"more (the heaviest, {heaviest:.0f})",
        ),
        "l10_notebooks": f"Notebook 01 takes {tot['01']} minutes on its own estimate and notebook 02 {tot['02']}",
        "l10_reading": (
            f"notebook 01's Section 4 ({span('01', 'Section 4', 'Section 5')} minutes, fast_p as a curve) "
            f"and Section 5 ({span('01', 'Section 5', 'end')} minutes, single tasks and the two demos) "
            f"and notebook 02's Section 4 ({span('02', 'Section 4', 'Section 5')} minutes, the same shape "
            f"in KernelBench)"
        ),
        "l10_total": free(l10, LECTURE_10_MINUTES),
        "l14_total": free(l14, LECTURE_14_MINUTES),
        "l14_all": (
            f"notebooks 03-07 at their own estimates take {tot['03']} + {tot['04']} + {tot['05']} + "
            f"{tot['06']} + {tot['07']} = {sum(tot[n] for n in ('03', '04', '05', '06', '07'))} minutes"
        ),
        "nb03": f"notebook 03 ({tot['03']} minutes)",
        "nb08": f"notebook 08 ({tot['08']} minutes)",
        "nb04_s5": (
            f"Section 5 ({span('04', 'Section 5', 'Interactive demo')} minutes) and the demo "
            f"({span('04', 'Interactive demo', 'end')})"
        ),
        "nb05_s235": (
            f"Sections 2, 3 and 4 ({span('05', 'Section 2', 'Section 3')}, "
            f"{span('05', 'Section 3', 'Section 4')} and {span('05', 'Section 4', 'Section 5')} minutes) and "
            f"Section 5 ({span('05', 'Section 5', 'end')} minutes)"
        ),
        "nb07_s34": f"Sections 3 and 4 and the demo ({tot['07'] - timing.minute('07', 'Section 3')} minutes)",
        "nb01_s5": f"Section 5 ({span('01', 'Section 5', 'end')} minutes)",
        "nb02_s4": f"Section 4 ({span('02', 'Section 4', 'Section 5')} minutes)",
        "nb03_s57": (
            f"Sections 5 and 7 ({span('03', 'Section 5', 'Section 6')} and "
            f"{span('03', 'Section 7', 'Section 8')} minutes)"
        ),
    }


# Section 6 (a class on one server) keeps its parameters and exemptions beside its phrases.
PARAMETERS += guide_hub.PARAMETERS + guide_board.PARAMETERS
NOT_RESULTS += guide_hub.NOT_RESULTS + guide_board.NOT_RESULTS
QUOTED += guide_hub.QUOTED + guide_board.QUOTED
