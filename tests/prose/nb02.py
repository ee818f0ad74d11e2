"""Notebook 02's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

`quotes()` returns each phrase of the markdown that states a number, built from the pack's computed values; a claim
without a number of its own ("above both at every round count", "never catches up") is checked with `_holds` before
its phrase is returned. The starting `my_proposer` is taken from the notebook's own cell, so its numbers follow it.
"""

from __future__ import annotations

import itertools
import json
import pathlib

import numpy as np

from toyhw import data, metrics
from toyhw.course import kernel_tables as tables
from toyhw.kernels import failures, knobs, optimize, study
from prose.phrasing import holds as _holds, f3 as _f3
from exercise_cells import NOTEBOOKS, load_solution

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions, instructions,
# questions, papers' figures, how the model is built.
NOT_RESULTS = [
    "The **budget** — the number of rounds",
    "Every task gets the same loop (`optimize.optimize`)",
    "So any difference between their rows in the table below",
    "Every failed run is a round of the budget",
    "Read it column by column",
    "Each point is its own run with that many rounds",
    "Because every round count has its own random streams",
    "which mode reaches the ceiling first, and which one plateaus below it?",
    "KernelBench's Table 1 (arXiv 2502.10517v1, section 5.1.3) gives real models",
    "so it gets *more* information than that row did",
    "The Agent-System Interface paper (Wei et al.",
    "Which rows of KernelBench's table would you expect to change most",
    "The starting point below runs as it is",
    "Improve it until it **beats every built-in mode",
    "so the advice never becomes a command",
    "Where does `suggest` fall behind `explain`, and does it ever catch up?",
    "does it win at 10 rounds?",
    "row gets less information than the toy's `scalar`",
    "* The Agent-System Interface turns raw output",
    "Which hidden traits make the other tasks impossible",
    "Compute-bound tasks cannot gain that much",
    "At fast_1.5 the ceiling is 0.490: for the other tasks no setting",  # the ceiling's definition
    "*KernelBench: Can LLMs Write Efficient GPU Kernels?*",
    "a check cell after it that says whether your answer holds",  # the exercises: instructions and what a check does
    "Group the tasks of `study.tasks(TASK_SEED, N_TASKS)`",
    "a right answer lands below `explain` and above `scalar`",  # what Exercise 5's check computes
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "lists the 19 tasks that some config speeds up",
]

SEED, N = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
MODES = ["resample", "scalar", "explain", "suggest"]
NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "notebooks" / "02_feedback_loops.ipynb"

PARAMETERS = [
    "on the 200 tasks after 5, 10, 20 and 50 rounds",  # the notebook's table call
    "after 10 rounds in the matching mode",  # kernelbench_frame(rounds=10)
    "**beats every built-in mode after 10\nrounds**",
    "Set p to 1.0 and max rounds to 100",  # demo questions
    "within 0.05 of `explain`?",
    "Set p to 1.5.",
    "does it win at\n10 rounds?",
    "(max rounds 50, p = 1, every mode selected)",
    "after 50 rounds against q",  # Exercise 2's sweep
    "after 5 rounds, and\nwhy does the difference vanish by 50 rounds?",
    "Race it after 10 rounds.",
    "`directed_proposer`: after\n10 rounds",
    "within 0.05\n   from 30 rounds on",
    "is 1.5× faster than PyTorch",  # the bar p = 1.5 the section's plot uses
    "best kernel after 50 rounds does not",
    "The starting point is behind after 10 rounds",
    "at 50 rounds its\nfast_1.5",
    "After 5 rounds (the solution file's",
    "more than 1.5×?",
    "After 10 rounds it reaches",
    "[solutions/02_feedback_loops.py](solutions/02_feedback_loops.py)",  # the exercises' link to the solution file
    "races `misreading_explain` for 10 rounds",
]


def _my_proposer():
    """Return the notebook's starting `my_proposer`, defined by its own cell's code."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    source = next("".join(c["source"]) for c in cells if "".join(c["source"]).startswith("def my_proposer"))
    namespace = {"knobs": knobs}
    exec(source.split("\n\n\n")[0], namespace)  # the def only, not the race below it
    return namespace["my_proposer"]


def _fast(mode, rounds: int) -> dict[float, float]:
    s = optimize.speedups_after(list(study.tasks(SEED, N)), rounds, mode)
    return {p: metrics.fast_p(s, p) for p in (1.0, 1.5)}


def quotes() -> list[str]:
    table = study.feedback_table(SEED, N, MODES, rounds=(5, 10, 20, 50))
    cell = {m: {r: {p: f"{v:.2f}" for p, v in row.items()} for r, row in rows.items()} for m, rows in table.items()}
    rounds = (5, 10, 20, 50)
    report = study.one_shot(SEED, N)
    failing = [k for k in report.kernels if not k.feedback.ok]
    chance = {k.index: failures.one_knob_repair_chance(k.task, k.config) for k in failing}
    n_rules = {k.index: len(failures.broken_rules(k.task, k.config)) for k in failing}
    single = [chance[i] for i in chance if n_rules[i] == 1]
    multi = [chance[i] for i in chance if n_rules[i] > 1]
    ceiling15 = metrics.fast_p(study.best_possible_speedups(SEED, N), 1.5)
    c15 = study.fastp_curves(MODES, p=1.5, max_rounds=100)
    c10 = study.fastp_curves(MODES, p=1.0, max_rounds=100)
    at15 = {m: dict(zip(*c15[m])) for m in MODES}
    at10 = {m: dict(zip(*c10[m])) for m in MODES}
    c200 = study.fastp_curves(["explain", "suggest"], p=1.5, max_rounds=200)
    at200 = {m: dict(zip(*c200[m])) for m in c200}
    reach = min(r for r, v in at15["explain"].items() if v == ceiling15)
    missed = failures.misses("suggest", 50, 1.5)
    tasks = study.tasks(SEED, N)
    compute = [m for m in missed if m.bottleneck == "compute"]
    memory_missed = [m for m in missed if m.bottleneck == "memory"]
    memory_stuck = {
        m.index: not tasks[m.index].fusable
        and m.best_config.vec == max(knobs.KNOBS["vec"])
        and m.best_config.shared == 1
        for m in memory_missed
    }
    memory_gain = {}
    for m in memory_missed:  # the best possible config of the task differs from suggest's best in one compute knob
        t = tasks[m.index]
        configs = [knobs.KernelConfig(*c) for c in itertools.product(*knobs.KNOBS.values())]
        best_c = min((c for c in configs if knobs.run_kernel(t, c).ok), key=lambda c: knobs.run_kernel(t, c).time)
        changed = [f for f in knobs.KNOBS if getattr(best_c, f) != getattr(m.best_config, f)]
        if len(changed) == 1 and changed[0] in ("tile", "unroll"):
            memory_gain[m.index] = (changed[0], getattr(best_c, changed[0]))
    at_best = [
        m
        for m in compute
        if m.best_config.tile == tasks[m.index].best_tile and m.best_config.unroll == max(knobs.KNOBS["unroll"])
    ]
    kb = {r["toy_mode"]: r for r in data.kernelbench_rows()}
    figures = data.paper_figures()
    solutions = load_solution(NOTEBOOKS / "02_feedback_loops.ipynb")
    mine = _fast(_my_proposer(), 10)
    directed10, directed50 = _fast(solutions.directed_proposer, 10), _fast(solutions.directed_proposer, 50)
    best10 = {p: max(table[m][10][p] for m in MODES) for p in (1.0, 1.5)}
    sweep = solutions.advice_sweep()
    vec5 = np.array(optimize.speedups_after(list(tasks), 5, solutions.vec_one_proposer))
    exp5 = np.array(optimize.speedups_after(list(tasks), 5, "explain"))
    vec50 = np.array(optimize.speedups_after(list(tasks), 50, solutions.vec_one_proposer))
    exp50 = np.array(optimize.speedups_after(list(tasks), 50, "explain"))
    differ = np.nonzero(vec5 != exp5)[0]
    ceiling = solutions.ceiling_by_trait()
    # Exercise 4: per (fusable, widest vector width, best tile), every task that clears 1.5x is more memory-bound than
    # every one that does not; the fusable width-1 overlap (one clears below one that fails) is a best-tile difference
    best_all = study.best_possible_speedups(SEED, N)
    groups: dict[tuple, list[tuple[float, bool]]] = {}
    for i, t in enumerate(tasks):
        widest = max(v for v in knobs.KNOBS["vec"] if t.n % v == 0)
        groups.setdefault((t.fusable, widest, t.best_tile), []).append((t.memory_bound, bool(best_all[i] > 1.5)))
    clean_by_tile = all(
        max((m for m, c in g if not c), default=0.0) < min((m for m, c in g if c), default=1.0) for g in groups.values()
    )
    width1 = [
        (round(t.memory_bound, 2), t.best_tile, bool(best_all[i] > 1.5))
        for i, t in enumerate(tasks)
        if t.fusable and max(v for v in knobs.KNOBS["vec"] if t.n % v == 0) == 1
    ]
    overlap1 = (
        min((r for r in width1 if r[2]), key=lambda r: r[0]),
        max((r for r in width1 if not r[2]), key=lambda r: r[0]),
    )
    unfusable_narrow = ceiling.loc[[(False, 1), (False, 2)]]
    misread = _fast(solutions.misreading_explain, 10)
    within = [r for r in at10["explain"] if abs(at10["explain"][r] - at10["resample"][r]) <= 0.05]
    first_within = min(r for r in within if all(r2 in within for r2 in at10["explain"] if r2 >= r))
    before_within = max(r for r in at10["explain"] if r < first_within)
    gap10 = {r: round(at10["explain"][r] - at10["resample"][r], 9) for r in at10["explain"]}
    behind = [r for r in at15["explain"] if at15["suggest"][r] < at15["explain"][r]]
    ahead = [r for r in at15["explain"] if at15["suggest"][r] > at15["explain"][r]]

    # the pack's own reading of the table (lecture 10's observations) states each of Section 2's four readings
    notes = tables.observations(table)
    return [
        _holds(
            len(notes) == 5
            and "0.58, 0.77, 0.87 vs 0.72, 0.81, 0.92" in notes[0]
            and "(5, 10, 20, 50)" in notes[1]
            and "after 5, 10 rounds" in notes[2]
            and "(at 50 rounds: 0.40 vs 0.49)" in notes[3]
            and "0.50 (explain), 0.59 (suggest)" in notes[4],
            "Read it column by column — each column is one budget",
        ),
        # Think! 1
        _holds(
            failures.failed_round_share("scalar", 10) > failures.failed_round_share("explain", 10),
            f"at 10 rounds, {failures.failed_round_share('scalar', 10):.1%} of all `scalar` runs fail, but\nonly "
            f"{failures.failed_round_share('explain', 10):.1%} of the `explain` runs",
        ),
        # Section 2
        _holds(
            all(table["explain"][r][1.0] > max(table["scalar"][r][1.0], table["resample"][r][1.0]) for r in rounds),
            f"at 10 rounds `explain` reaches {cell['explain'][10][1.0]}, against {cell['scalar'][10][1.0]} for "
            f"`scalar` and {cell['resample'][10][1.0]} for\n  `resample`, and it is above both at every round count",
        ),
        _holds(
            table["scalar"][5][1.0] < table["resample"][5][1.0],
            f"at 5 rounds {cell['scalar'][5][1.0]} against {cell['resample'][5][1.0]}",
        ),
        _holds(
            [r for r in rounds if table["scalar"][r][1.0] < table["resample"][r][1.0]] == [5, 10, 20]
            and cell["scalar"][50][1.0] == cell["resample"][50][1.0],
            f"`scalar` is behind at 5, 10 and 20 rounds and catches up only by 50, where both\n  cells read "
            f"{cell['scalar'][50][1.0]}",
        ),
        _holds(
            [r for r in rounds if table["suggest"][r][1.0] > table["explain"][r][1.0]] == [5, 10],
            f"`suggest` leads at fast_1 after 5 and 10 rounds ({cell['suggest'][5][1.0]} and "
            f"{cell['suggest'][10][1.0]})",
        ),
        _holds(
            [r for r in rounds if table["suggest"][r][1.5] < table["explain"][r][1.5]] == [10, 20, 50],
            f"it is behind `explain` from 10 rounds on and ends at {cell['suggest'][50][1.5]} against "
            f"{cell['explain'][50][1.5]} at 50 rounds",
        ),
        _holds(
            min(float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES) > 0,
            f"at 50 rounds the cells drop by "
            f"{min(float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES):.2f} to "
            f"{max(float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES):.2f}",
        ),
        # Think! 2
        f"Over notebook 01's {len(failing)} failing one-shot kernels",
        f"makes the kernel correct with probability {np.mean(list(chance.values())):.1%} on average",
        _holds(
            max(multi) == 0.0,
            f"For the {len(single)} kernels that break a single rule it is {np.mean(single):.1%}; "
            f"for the {len(multi)} that break two or more it is zero",
        ),
        f"correct {report.status_shares()['ok']:.1%} of the time",
        # Section 3
        f"the best of all {len(list(itertools.product(*knobs.KNOBS.values())))} configs",
        f"At fast_1.5 the ceiling is {_f3(ceiling15)}",
        _holds(reach == 50, "`explain` reaches the ceiling at 50 rounds"),
        f"({_f3(at15['suggest'][50])} after 50 rounds, which the table rounds to {cell['suggest'][50][1.5]}, and "
        f"{_f3(at15['suggest'][100])} after 100)",
        _holds(
            at15["resample"][100] < ceiling15 and at15["scalar"][100] < ceiling15,
            f"still below it after 100 rounds ({_f3(at15['resample'][100])} and {_f3(at15['scalar'][100])})",
        ),
        _holds(
            len({at15[m][1] for m in MODES}) == 1 and len({at10[m][1] for m in MODES}) == 1,
            f"All four curves start at the same point, {_f3(at15['explain'][1])} after 1 round",
        ),
        f"one-shot fast_1.5 of {_f3(report.fast()[1.5])} (at p = 1 the same holds: {_f3(at10['explain'][1])} after 1 "
        f"round\nagainst {_f3(report.fast()[1.0])} one-shot)",
        # Think! 3
        f"`explain` reaches the ceiling, {_f3(ceiling15)}, at 50 rounds",
        f"lists the {len(missed)} tasks that some config speeds up by more than 1.5×",
        _holds(
            len(at_best) == len(compute),
            f"The profiler calls {len(compute)} of those kernels compute-bound, and in "
            f"all {len(at_best)} the\ncompute knobs are already at their best (the task's best tile, unroll "
            f"{max(knobs.KNOBS['unroll'])})",
        ),
        _holds(failures.misses("explain", 50, 1.5) == (), "it\nmisses none of these tasks"),
        _holds(
            len(memory_missed) == len(missed) - len(compute) and all(memory_stuck.values()),
            f"The other {len(memory_missed)} of the {len(missed)}, tasks "
            f"{' and '.join(str(m.index) for m in memory_missed)}, are the mirror image",
        ),
        _holds(all(memory_stuck.values()), f"they use vector width {max(knobs.KNOBS['vec'])} and\nshared memory"),
        _holds(
            memory_gain == {23: ("unroll", 4), 110: ("tile", 16)},
            f"unroll {memory_gain[23][1]} for task\n23 and the best tile, {memory_gain[110][1]}, for task 110",
        ),
        # Section 4
        f"the same budget — {figures['kernelbench_table1_calls']} LLM calls per\nLevel "
        f"{figures['kernelbench_table1_level']} task",
        f"DeepSeek-R1 goes from {kb['one_shot']['deepseek_r1']}% (single attempt) to {kb['scalar']['deepseek_r1']}% "
        f"(previous\ngeneration), {kb['explain']['deepseek_r1']}% (+ execution feedback) and "
        f"{kb['suggest']['deepseek_r1']}% (+ profiler)",
        _holds(
            kb["one_shot"]["deepseek_r1"]
            < kb["scalar"]["deepseek_r1"]
            < kb["explain"]["deepseek_r1"]
            < kb["suggest"]["deepseek_r1"],
            "each richer kind of feedback helping",
        ),
        f"Llama-3.1-70B goes from {kb['one_shot']['llama_3_1_70b']}% to {kb['explain']['llama_3_1_70b']}% with "
        f"execution feedback but {kb['suggest']['llama_3_1_70b']}% with the\nprofiler added",
        _holds(
            kb["resample"]["deepseek_v3"] > max(kb[m]["deepseek_v3"] for m in ("scalar", "explain", "suggest")),
            f"DeepSeek-V3 does better with repeated sampling ({kb['resample']['deepseek_v3']}%) than with any "
            f"refinement ({min(kb[m]['deepseek_v3'] for m in ('scalar', 'explain', 'suggest'))}% to "
            f"{max(kb[m]['deepseek_v3'] for m in ('scalar', 'explain', 'suggest'))}%)",
        ),
        f"with {figures['asi_llm_iterations']} iterations its LLM\noptimizer beat OpenTuner even after "
        f"{figures['asi_opentuner_iterations']} iterations",
        # Think! 4
        f"\"w G+E\" ({kb['explain']['deepseek_r1']}%) and \"w G+E+P\" ({kb['suggest']['deepseek_r1']}%)",
        f"at 10 rounds\nthe table has `explain` at fast_1 = {cell['explain'][10][1.0]} and `scalar` at "
        f"{cell['scalar'][10][1.0]}",
        _holds(misread[1.0] > table["scalar"][10][1.0], f"lands at {misread[1.0]:.2f}: it loses some"),
        # Section 5
        _holds(
            mine[1.0] < best10[1.0] and mine[1.5] < best10[1.5],
            f"fast_1 = {_f3(mine[1.0])} against `suggest`'s {_f3(table['suggest'][10][1.0])}, fast_1.5 = "
            f"{_f3(mine[1.5])} against\n`explain`'s {_f3(table['explain'][10][1.5])}",
        ),
        _holds(
            directed10[1.0] > best10[1.0] and directed10[1.5] > best10[1.5],
            f"it reaches fast_1 = {_f3(directed10[1.0])} and fast_1.5 = {_f3(directed10[1.5])}, ahead of every "
            f"built-in mode (the best are `suggest` at\n{_f3(best10[1.0])} and `explain` at {_f3(best10[1.5])})",
        ),
        _holds(
            directed50[1.5] < table["explain"][50][1.5],
            f"fast_1.5 ({_f3(directed50[1.5])}) is below `explain`'s {_f3(table['explain'][50][1.5])}",
        ),
        # demo answers
        _holds(
            at10["resample"][1] == at10["explain"][1],
            f"starts level with `explain` ({_f3(at10['explain'][1])} each after 1 round",
        ),
        _holds(
            [r for r in at10["explain"] if 1 < r <= before_within and gap10[r] <= 0.05 + 1e-9] == [15]
            and abs(gap10[15] - 0.05) < 1e-9
            and min(r for r in at10["explain"] if r > 1) == 2,
            f"more than 0.05 at every round count from 2 to {before_within} but 15, where the gap is exactly "
            f"{gap10[15]:.2f} ({_f3(at10['resample'][15])} against {_f3(at10['explain'][15])}), and\n   at "
            f"{before_within} rounds still by {gap10[before_within]:.3f} ({_f3(at10['resample'][before_within])} "
            f"against {_f3(at10['explain'][before_within])})",
        ),
        _holds(
            at10["resample"][100] == at10["explain"][100] and before_within == 20 and first_within == 30,
            f"({_f3(at10['resample'][first_within])} against {_f3(at10['explain'][first_within])}); both reach "
            f"{_f3(at10['explain'][100])} at 100 rounds",
        ),
        _holds(
            ahead == [3, 5]
            and min(behind) == 7
            and all(r in behind for r in at15["explain"] if r >= 7)
            and at200["suggest"][200] < at200["explain"][200],
            f"`suggest` is ahead of `explain` at 3 and 5 rounds, falls behind from 7 rounds on and never catches up:\n"
            f"   {_f3(at15['suggest'][100])} against {_f3(at15['explain'][100])} at 100 rounds, "
            f"{_f3(at200['suggest'][200])} against {_f3(at200['explain'][200])} at 200",
        ),
        # Summary
        _holds(0.15 < np.mean(list(chance.values())) < 0.25, "about one time in five here"),
        # Exercise 2
        "gives fast_1.5 after 50 rounds of "
        + ", ".join(_f3(v) for v in list(sweep.values())[:-1])
        + f" and {_f3(list(sweep.values())[-1])} for the five",
        _holds(
            sweep[0.0] == table["explain"][50][1.5] and sweep[1.0] == table["suggest"][50][1.5], "(the table's cells)"
        ),
        _holds(
            max(abs(v - sweep[0.0]) for q, v in sweep.items() if q < 1) <= 0.015 + 1e-12,
            "Every q below 1 stays within 0.015 of `explain`",
        ),
        # Exercise 3
        _holds(
            all(tasks[i].n == 1002 and vec5[i] < exp5[i] for i in differ),
            f"{len(differ)} tasks end with a different speedup, all of them slower and all with n = 1002",
        ),
        _holds(
            all(max(v for v in knobs.KNOBS["vec"] if n % v == 0) in (1, 4) for n in knobs.PROBLEM_SIZES if n != 1002),
            "a width\nof 2 divides n but 4 does not; for every other size the widest legal width is 4 or 1, and both repairs agree",
        ),
        f"fast_1\ndrops from {_f3(metrics.fast_p(exp5, 1.0))} to {_f3(metrics.fast_p(vec5, 1.0))} and fast_1.5 from "
        f"{_f3(metrics.fast_p(exp5, 1.5))} to {_f3(metrics.fast_p(vec5, 1.5))}",
        _holds(bool(np.all(vec50 == exp50)), "After 50 rounds no task differs"),
        # Exercise 4
        f"The ceiling for fast_1.5 is {_f3(ceiling15)}.",
        _holds(
            int(unfusable_narrow["clear 1.5x"].sum()) == 0,
            f"None of the {int(unfusable_narrow['tasks'].sum())} unfusable tasks whose *n* rules out a width of 4 can clear 1.5×",
        ),
        f"width 4 clear it from a share of {ceiling.loc[(False, 4), 'least memory-bound that clears']:.2f} up (the most "
        f"memory-bound one that does not is at\n{ceiling.loc[(False, 4), 'most memory-bound that does not']:.2f})",
        _holds(
            all(
                ceiling.loc[(True, w), "least memory-bound that clears"]
                < ceiling.loc[(True, w), "most memory-bound that does not"]
                for w in (1, 4)
            ),
            f"with width 4 they clear it from {ceiling.loc[(True, 4), 'least memory-bound that clears']:.2f} up while "
            f"one at {ceiling.loc[(True, 4), 'most memory-bound that does not']:.2f} does not, with\nwidth 1 from "
            f"{ceiling.loc[(True, 1), 'least memory-bound that clears']:.2f} up while one at "
            f"{ceiling.loc[(True, 1), 'most memory-bound that does not']:.2f} does not",
        ),
        _holds(
            knobs.DEFAULT.tile == 32 and clean_by_tile,
            f"PyTorch's baseline runs tile {knobs.DEFAULT.tile},\nso a task whose best tile is 16 starts from a "
            "slower baseline and clears 1.5× at a smaller share",
        ),
        _holds(
            overlap1[0][1] == 16 and overlap1[1][1] == 32,
            f"(the fusable width-1\ntask at {overlap1[0][0]:.2f} has best tile {overlap1[0][1]}, the one at "
            f"{overlap1[1][0]:.2f} best tile {overlap1[1][1]})",
        ),
        _holds(clean_by_tile, "Within each group and best tile, the share has a clean\nthreshold"),
        # Exercise 5
        _holds(
            all(
                table["explain"][10][p] > misread[p] > max(table["scalar"][10][p], table["resample"][10][p])
                for p in (1.0, 1.5)
            ),
            f"fast_1 = {_f3(misread[1.0])} and fast_1.5 = {_f3(misread[1.5])}: below `explain` "
            f"({_f3(table['explain'][10][1.0])} and {_f3(table['explain'][10][1.5])}), but above\n`scalar` "
            f"({_f3(table['scalar'][10][1.0])} and {_f3(table['scalar'][10][1.5])}) and `resample` "
            f"({_f3(table['resample'][10][1.0])} and {_f3(table['resample'][10][1.5])})",
        ),
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        _holds(
            np.mean(list(chance.values())) < report.status_shares()["ok"],
            "A random change to a failed kernel is a worse\n  bet than a fresh kernel",
        ),
        _holds(
            table["scalar"][5][1.0] < table["resample"][5][1.0],
            "Scalar feedback starts *worse* than writing a fresh kernel each round",
        ),
        _holds(table["scalar"][5][1.0] < table["resample"][5][1.0], "Scalar feedback can be worse than starting over"),
        _holds(table["scalar"][5][1.0] < table["resample"][5][1.0], "scalar starts behind resampling"),
        _holds(cell["scalar"][50][1.0] == cell["resample"][50][1.0], "which is why\n`scalar` catches up later"),
        _holds(max(at15["suggest"].values()) < ceiling15, "`suggest` plateaus below it"),
        _holds(
            at10["resample"][100] == at10["explain"][100], "With a low bar and a large budget feedback\n   matters less"
        ),
        _holds(
            table["suggest"][5][1.0] > table["explain"][5][1.0]
            and table["suggest"][50][1.5] < table["explain"][50][1.5]
            and max(at15["suggest"].values()) < ceiling15,
            "at fast_1.5 they\n  fall behind and stop below the ceiling",
        ),
        # the compute knobs are at their best for every such task, so any tile or unroll change is slower
        _holds(len(at_best) == len(compute), "every proposal is slower or does not build, and the search is stuck"),
        _holds(
            kb["suggest"]["llama_3_1_70b"] < kb["explain"]["llama_3_1_70b"]
            and kb["resample"]["deepseek_v3"] > kb["suggest"]["deepseek_v3"],
            "weaker models do not always benefit",
        ),
        _holds(sweep[1.0] < min(v for q, v in sweep.items() if q < 1), "Only the command, $q = 1$, loses the tasks"),
        _holds(len(differ) > 0 and bool(np.all(vec50 == exp50)), "matters most when the budget is small"),
        # for unfusable tasks a clean threshold; for fusable ones the sentence quotes the overlap (0.32 up, none above 0.40)
        _holds(
            ceiling.loc[(False, 4), "least memory-bound that clears"]
            > ceiling.loc[(False, 4), "most memory-bound that does not"]
            and clean_by_tile,
            "For the others the memory-bound share and the task's best tile decide\ntogether",
        ),
    ]
