"""Notebook 02's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

import itertools
import json
import pathlib

import numpy as np

from toyhw import data, metrics
from toyhw.course import kernel_tables as tables
from toyhw.kernels import failures, knobs, optimize, study
from claims import Claim, holds, said
from claims.formats import f3 as _f3
from exercise_cells import NOTEBOOKS, load_solution


SEED, N = study.LECTURE_TASK_SEED, study.LECTURE_N_TASKS
MODES = ["resample", "scalar", "explain", "suggest"]
NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "notebooks" / "02_feedback_loops.ipynb"


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


# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset(
    {"nb02-00", "nb02-03", "nb02-11", "nb02-14", "nb02-20", "nb02-exercises", "nb02-references"}
)
NOT_RESULTS = {
    "nb02-05": ("So any difference", "Every failed run"),
    "nb02-13": ("for the other tasks", "which mode reaches"),
    "nb02-16": ("The toy's `scalar`", "The Agent-System Interface", "Which rows of KernelBench's"),
    "nb02-ex1": ("The starting point below", "Improve it until", "The stub's last line", "It keeps some undirected"),
    "nb02-summary": ("Its \"previous generation\"", "* The Agent-System"),
    "nb02-ex4": ("Which hidden traits", "Group the tasks of", "Compute-bound tasks cannot"),
    "nb02-ex5": ("The check races `misreading_explain`",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS: frozenset[str] = frozenset()
QUOTED = {
    "nb02-13": ("Ask which tasks it",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb02-06", "input", n_tasks="200", budget_5="5", budget_10="10", budget_20="20", budget_50="50"),
    *said("nb02-ex1", "input", race_budget="10"),
    *said("nb02-20", "input", demo_p_1="1.0", demo_max_rounds="100"),
    *said("nb02-20", "input", demo_gap="0.05"),
    *said("nb02-20", "input", demo_p_1_5="1.5"),
    *said("nb02-20-lab", "input", budget_50="50", demo_lab_p="1"),
    *said("nb02-ex3", "input", vec_one_budget="5"),
    *said("nb02-ex5", "input", race_budget="10"),
    *said("nb02-23", "input", within_from_rounds="30"),
    *said("nb02-ex1", "input", budget_50="50"),
]


def claims() -> list[Claim]:
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
        *INPUTS,
        holds(
            len(notes) == 5
            and "0.58, 0.77, 0.87 vs 0.72, 0.81, 0.92" in notes[0]
            and "(5, 10, 20, 50)" in notes[1]
            and "after 5, 10 rounds" in notes[2]
            and "(at 50 rounds: 0.40 vs 0.49)" in notes[3]
            and "0.50 (explain), 0.59 (suggest)" in notes[4],
            "observations_match",
            "nb02-08",
        ),
        holds(
            failures.failed_round_share("scalar", 10) > failures.failed_round_share("explain", 10),
            "scalar_fails_more_often",
            "nb02-05",
        ),
        *said("nb02-05", "input", rounds_10="10"),
        *said(
            "nb02-05",
            scalar_failed_round_share=f"{failures.failed_round_share('scalar', 10):.1%}",
            explain_failed_round_share=f"{failures.failed_round_share('explain', 10):.1%}",
        ),
        holds(
            all(table["explain"][r][1.0] > max(table["scalar"][r][1.0], table["resample"][r][1.0]) for r in rounds),
            "explain_above_both_everywhere",
            "nb02-08",
        ),
        *said("nb02-08", "input", rounds_10="10"),
        *said(
            ("nb02-08", "nb02-16"),
            cell_explain_10_1=f"{cell['explain'][10][1.0]}",
            cell_scalar_10_1=f"{cell['scalar'][10][1.0]}",
        ),
        *said("nb02-08", cell_resample_10_1=f"{cell['resample'][10][1.0]}"),
        holds(table["scalar"][5][1.0] < table["resample"][5][1.0], "scalar_behind_at_5", "nb02-08"),
        *said("nb02-08", "input", rounds_5="5"),
        *said("nb02-08", cell_scalar_5_1=f"{cell['scalar'][5][1.0]}", cell_resample_5_1=f"{cell['resample'][5][1.0]}"),
        holds(
            [r for r in rounds if table["scalar"][r][1.0] < table["resample"][r][1.0]] == [5, 10, 20]
            and cell["scalar"][50][1.0] == cell["resample"][50][1.0],
            "scalar_catches_up_at_50",
            "nb02-08",
        ),
        *said("nb02-08", "input", rounds_20="20", rounds_50_catch_up="50"),
        *said("nb02-08", cell_scalar_50_1=f"{cell['scalar'][50][1.0]}"),
        holds(
            [r for r in rounds if table["suggest"][r][1.0] > table["explain"][r][1.0]] == [5, 10],
            "suggest_leads_early",
            "nb02-08",
        ),
        *said(
            "nb02-08", cell_suggest_5_1=f"{cell['suggest'][5][1.0]}", cell_suggest_10_1=f"{cell['suggest'][10][1.0]}"
        ),
        holds(
            [r for r in rounds if table["suggest"][r][1.5] < table["explain"][r][1.5]] == [10, 20, 50],
            "suggest_behind_at_1_5",
            "nb02-08",
        ),
        *said(("nb02-08", "nb02-13"), cell_suggest_50_1_5=f"{cell['suggest'][50][1.5]}"),
        *said("nb02-08", cell_explain_50_1_5=f"{cell['explain'][50][1.5]}"),
        holds(
            min(float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES) > 0, "cells_drop_at_1_5", "nb02-08"
        ),
        *said(
            "nb02-08",
            drop_to_1_5_min=f'{min((float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES)):.2f}',
            drop_to_1_5_max=f'{max((float(cell[m][50][1.0]) - float(cell[m][50][1.5]) for m in MODES)):.2f}',
        ),
        *said("nb02-10", n_failing=f'{len(failing)}'),
        *said("nb02-10", repair_chance=f'{np.mean(list(chance.values())):.1%}'),
        holds(max(multi) == 0.0, "multi_rule_never_repaired", "nb02-10"),
        *said(
            "nb02-10",
            n_single=f'{len(single)}',
            repair_chance_single_rule=f'{np.mean(single):.1%}',
            n_multi=f'{len(multi)}',
        ),
        *said("nb02-10", one_shot_correct_share=f"{report.status_shares()['ok']:.1%}"),
        *said("nb02-11", n_configs=f'{len(list(itertools.product(*knobs.KNOBS.values())))}'),
        *said(("nb02-13", "nb02-ex4"), ceiling15=f'{_f3(ceiling15)}'),
        holds(reach == 50, "explain_reaches_ceiling_at_50", "nb02-13"),
        *said("nb02-13", "input", rounds_50="50"),
        *said("nb02-13", at15_suggest_50=f"{_f3(at15['suggest'][50])}"),
        *said(("nb02-13", "nb02-23"), at15_suggest_100=f"{_f3(at15['suggest'][100])}"),
        *said("nb02-13", "input", rounds_100_ceiling="100"),
        holds(at15["resample"][100] < ceiling15 and at15["scalar"][100] < ceiling15, "others_below_ceiling", "nb02-13"),
        *said(
            "nb02-13", at15_resample_100=f"{_f3(at15['resample'][100])}", at15_scalar_100=f"{_f3(at15['scalar'][100])}"
        ),
        holds(
            len({at15[m][1] for m in MODES}) == 1 and len({at10[m][1] for m in MODES}) == 1,
            "curves_start_level",
            "nb02-13",
        ),
        *said("nb02-13", at15_explain_1=f"{_f3(at15['explain'][1])}"),
        *said("nb02-13", "input", rounds_1="1"),
        *said("nb02-13", one_shot_fast_1_5=f'{_f3(report.fast()[1.5])}', one_shot_fast_1=f'{_f3(report.fast()[1.0])}'),
        *said(("nb02-13", "nb02-23"), at10_explain_1=f"{_f3(at10['explain'][1])}"),
        *said("nb02-13", n_missed=f'{len(missed)}'),
        *said("nb02-13", "input", bar_1_5="1.5×"),
        holds(len(at_best) == len(compute), "compute_knobs_at_best", "nb02-13"),
        *said(
            "nb02-13",
            n_compute=f'{len(compute)}',
            n_compute_at_best=f'{len(at_best)}',
            max_unroll=f"{max(knobs.KNOBS['unroll'])}",
        ),
        holds(failures.misses("explain", 50, 1.5) == (), "explain_misses_none", "nb02-13"),
        holds(
            len(memory_missed) == len(missed) - len(compute) and all(memory_stuck.values()),
            "memory_misses_are_stuck",
            "nb02-13",
        ),
        *said(
            "nb02-13",
            n_memory_missed=f'{len(memory_missed)}',
            memory_missed_tasks=f"{' and '.join((str(m.index) for m in memory_missed))}",
        ),
        holds(all(memory_stuck.values()), "memory_misses_use_wide_shared", "nb02-13"),
        *said("nb02-13", max_vec=f"{max(knobs.KNOBS['vec'])}"),
        holds(memory_gain == {23: ("unroll", 4), 110: ("tile", 16)}, "memory_misses_one_knob", "nb02-13"),
        *said("nb02-13", task_23_unroll=f'{memory_gain[23][1]}', task_110_tile=f'{memory_gain[110][1]}'),
        *said(
            "nb02-14",
            kernelbench_calls=f"{figures['kernelbench_table1_calls']}",
            kernelbench_level=f"{figures['kernelbench_table1_level']}",
        ),
        *said(
            "nb02-16",
            kb_one_shot_deepseek_r1=f"{kb['one_shot']['deepseek_r1']}%",
            kb_scalar_deepseek_r1=f"{kb['scalar']['deepseek_r1']}%",
            kb_explain_deepseek_r1=f"{kb['explain']['deepseek_r1']}%",
            kb_suggest_deepseek_r1=f"{kb['suggest']['deepseek_r1']}%",
        ),
        holds(
            kb["one_shot"]["deepseek_r1"]
            < kb["scalar"]["deepseek_r1"]
            < kb["explain"]["deepseek_r1"]
            < kb["suggest"]["deepseek_r1"],
            "r1_richer_feedback_helps",
            "nb02-16",
        ),
        *said(
            "nb02-16",
            kb_one_shot_llama_3_1_70b=f"{kb['one_shot']['llama_3_1_70b']}%",
            kb_explain_llama_3_1_70b=f"{kb['explain']['llama_3_1_70b']}%",
            kb_suggest_llama_3_1_70b=f"{kb['suggest']['llama_3_1_70b']}%",
        ),
        holds(
            kb["resample"]["deepseek_v3"] > max(kb[m]["deepseek_v3"] for m in ("scalar", "explain", "suggest")),
            "v3_prefers_resampling",
            "nb02-16",
        ),
        *said(
            "nb02-16",
            kb_resample_deepseek_v3=f"{kb['resample']['deepseek_v3']}%",
            kb_deepseek_v3_refined_min=f"{min((kb[m]['deepseek_v3'] for m in ('scalar', 'explain', 'suggest')))}%",
            kb_deepseek_v3_refined_max=f"{max((kb[m]['deepseek_v3'] for m in ('scalar', 'explain', 'suggest')))}%",
        ),
        *said(
            "nb02-16",
            asi_llm_iterations=f"{figures['asi_llm_iterations']}",
            asi_opentuner_iterations=f"{figures['asi_opentuner_iterations']}",
        ),
        holds(misread[1.0] > table["scalar"][10][1.0], "misread_loses_some", "nb02-16"),
        *said("nb02-16", misread_fast_1_rounded=f'{misread[1.0]:.2f}'),
        holds(mine[1.0] < best10[1.0] and mine[1.5] < best10[1.5], "starting_proposer_behind", "nb02-ex1"),
        *said(
            "nb02-ex1",
            mine_fast_1=f'{_f3(mine[1.0])}',
            table_suggest_10_1=f"{_f3(table['suggest'][10][1.0])}",
            mine_fast_1_5=f'{_f3(mine[1.5])}',
        ),
        *said(("nb02-ex1", "nb02-ex5"), table_explain_10_1_5=f"{_f3(table['explain'][10][1.5])}"),
        holds(directed10[1.0] > best10[1.0] and directed10[1.5] > best10[1.5], "directed_ahead_at_10", "nb02-ex1"),
        *said(
            "nb02-ex1",
            directed_fast_1_at_10=f'{_f3(directed10[1.0])}',
            directed_fast_1_5_at_10=f'{_f3(directed10[1.5])}',
            best_fast_1_at_10=f'{_f3(best10[1.0])}',
            best_fast_1_5_at_10=f'{_f3(best10[1.5])}',
        ),
        holds(directed50[1.5] < table["explain"][50][1.5], "directed_behind_at_50", "nb02-ex1"),
        *said(
            "nb02-ex1",
            directed_fast_1_5_at_50=f'{_f3(directed50[1.5])}',
            table_explain_50_1_5=f"{_f3(table['explain'][50][1.5])}",
        ),
        holds(at10["resample"][1] == at10["explain"][1], "resample_starts_level", "nb02-23"),
        *said("nb02-23", "input", rounds_1="1"),
        holds(
            [r for r in at10["explain"] if 1 < r <= before_within and gap10[r] <= 0.05 + 1e-9] == [15]
            and abs(gap10[15] - 0.05) < 1e-9
            and min(r for r in at10["explain"] if r > 1) == 2,
            "gap_above_0_05_until_20",
            "nb02-23",
        ),
        *said("nb02-23", "input", rounds_2="2", rounds_15="15"),
        *said(
            "nb02-23",
            before_within=f'{before_within}',
            gap10_15=f'{gap10[15]:.2f}',
            at10_resample_15=f"{_f3(at10['resample'][15])}",
            at10_explain_15=f"{_f3(at10['explain'][15])}",
            gap10_before_within=f'{gap10[before_within]:.3f}',
            at10_resample_before_within=f"{_f3(at10['resample'][before_within])}",
            at10_explain_before_within=f"{_f3(at10['explain'][before_within])}",
        ),
        holds(
            at10["resample"][100] == at10["explain"][100] and before_within == 20 and first_within == 30,
            "level_at_100",
            "nb02-23",
        ),
        *said(
            "nb02-23",
            at10_resample_first_within=f"{_f3(at10['resample'][first_within])}",
            at10_explain_first_within=f"{_f3(at10['explain'][first_within])}",
            at10_explain_100=f"{_f3(at10['explain'][100])}",
        ),
        *said("nb02-23", "input", rounds_100="100"),
        holds(
            ahead == [3, 5]
            and min(behind) == 7
            and all(r in behind for r in at15["explain"] if r >= 7)
            and at200["suggest"][200] < at200["explain"][200],
            "suggest_falls_behind_from_7",
            "nb02-23",
        ),
        *said("nb02-23", "input", rounds_3="3", rounds_5="5", rounds_7="7", rounds_200="200"),
        *said(
            "nb02-23",
            at15_explain_100=f"{_f3(at15['explain'][100])}",
            at200_suggest_200=f"{_f3(at200['suggest'][200])}",
            at200_explain_200=f"{_f3(at200['explain'][200])}",
        ),
        holds(0.15 < np.mean(list(chance.values())) < 0.25, "repair_chance_one_in_five", "nb02-summary"),
        *said("nb02-ex2", "input", budget_50="50"),
        *said(
            "nb02-ex2",
            advice_sweep=', '.join((_f3(v) for v in list(sweep.values())[:-1])),
            advice_sweep_command=f'{_f3(list(sweep.values())[-1])}',
        ),
        holds(
            sweep[0.0] == table["explain"][50][1.5] and sweep[1.0] == table["suggest"][50][1.5],
            "sweep_ends_are_table_cells",
            "nb02-ex2",
        ),
        holds(
            max(abs(v - sweep[0.0]) for q, v in sweep.items() if q < 1) <= 0.015 + 1e-12,
            "advice_within_0_015",
            "nb02-ex2",
        ),
        *said("nb02-ex2", "input", q_1="1", advice_tolerance="0.015"),
        holds(all(tasks[i].n == 1002 and vec5[i] < exp5[i] for i in differ), "vec_one_differs_on_1002", "nb02-ex3"),
        *said("nb02-ex3", n_differ=f'{len(differ)}'),
        *said("nb02-ex3", "input", size_1002="1002"),
        holds(
            all(max(v for v in knobs.KNOBS["vec"] if n % v == 0) in (1, 4) for n in knobs.PROBLEM_SIZES if n != 1002),
            "widths_of_other_sizes",
            "nb02-ex3",
        ),
        *said("nb02-ex3", "input", width_2="2", width_4="4", width_1="1"),
        *said(
            "nb02-ex3",
            fast_p_exp5_1=f'{_f3(metrics.fast_p(exp5, 1.0))}',
            fast_p_vec5_1=f'{_f3(metrics.fast_p(vec5, 1.0))}',
            fast_p_exp5_1_5=f'{_f3(metrics.fast_p(exp5, 1.5))}',
            fast_p_vec5_1_5=f'{_f3(metrics.fast_p(vec5, 1.5))}',
        ),
        holds(bool(np.all(vec50 == exp50)), "vec_one_same_at_50", "nb02-ex3"),
        *said("nb02-ex3", "input", rounds_50="50"),
        holds(int(unfusable_narrow["clear 1.5x"].sum()) == 0, "narrow_unfusable_never_clear", "nb02-ex4"),
        *said("nb02-ex4", n_unfusable_narrow=f"{int(unfusable_narrow['tasks'].sum())}"),
        *said("nb02-ex4", "input", width_4="4", clear_bar_1_5="1.5×"),
        *said(
            "nb02-ex4",
            unfusable_4_least_clearing=f"{ceiling.loc[(False, 4), 'least memory-bound that clears']:.2f}",
            unfusable_4_most_failing=f"{ceiling.loc[(False, 4), 'most memory-bound that does not']:.2f}",
        ),
        holds(
            all(
                ceiling.loc[(True, w), "least memory-bound that clears"]
                < ceiling.loc[(True, w), "most memory-bound that does not"]
                for w in (1, 4)
            ),
            "fusable_shares_overlap",
            "nb02-ex4",
        ),
        *said(
            "nb02-ex4",
            fusable_4_least_clearing=f"{ceiling.loc[(True, 4), 'least memory-bound that clears']:.2f}",
            fusable_4_most_failing=f"{ceiling.loc[(True, 4), 'most memory-bound that does not']:.2f}",
            fusable_1_least_clearing=f"{ceiling.loc[(True, 1), 'least memory-bound that clears']:.2f}",
            fusable_1_most_failing=f"{ceiling.loc[(True, 1), 'most memory-bound that does not']:.2f}",
        ),
        *said("nb02-ex4", "input", width_1="1"),
        holds(knobs.DEFAULT.tile == 32 and clean_by_tile, "baseline_tile_explains_overlap", "nb02-ex4"),
        *said("nb02-ex4", baseline_tile=f'{knobs.DEFAULT.tile}'),
        holds(overlap1[0][1] == 16 and overlap1[1][1] == 32, "overlap_is_best_tile", "nb02-ex4"),
        *said(
            "nb02-ex4",
            overlap_clearing_share=f'{overlap1[0][0]:.2f}',
            overlap_clearing_tile=f'{overlap1[0][1]}',
            overlap_failing_share=f'{overlap1[1][0]:.2f}',
            overlap_failing_tile=f'{overlap1[1][1]}',
        ),
        holds(clean_by_tile, "clean_threshold_by_tile", "nb02-ex4"),
        holds(
            all(
                table["explain"][10][p] > misread[p] > max(table["scalar"][10][p], table["resample"][10][p])
                for p in (1.0, 1.5)
            ),
            "misread_between",
            "nb02-ex5",
        ),
        *said(
            "nb02-ex5",
            misread_fast_1=f'{_f3(misread[1.0])}',
            misread_fast_1_5=f'{_f3(misread[1.5])}',
            table_explain_10_1=f"{_f3(table['explain'][10][1.0])}",
            table_scalar_10_1=f"{_f3(table['scalar'][10][1.0])}",
            table_scalar_10_1_5=f"{_f3(table['scalar'][10][1.5])}",
            table_resample_10_1=f"{_f3(table['resample'][10][1.0])}",
            table_resample_10_1_5=f"{_f3(table['resample'][10][1.5])}",
        ),
        holds(
            np.mean(list(chance.values())) < report.status_shares()["ok"], "random_change_worse_than_fresh", "nb02-08"
        ),
        holds(table["scalar"][5][1.0] < table["resample"][5][1.0], "scalar_starts_worse", "nb02-10"),
        holds(table["scalar"][5][1.0] < table["resample"][5][1.0], "scalar_can_be_worse", "nb02-summary"),
        holds(table["scalar"][5][1.0] < table["resample"][5][1.0], "scalar_starts_behind", "nb02-08"),
        holds(cell["scalar"][50][1.0] == cell["resample"][50][1.0], "scalar_catches_up_later", "nb02-10"),
        holds(max(at15["suggest"].values()) < ceiling15, "suggest_plateaus", "nb02-13"),
        holds(at10["resample"][100] == at10["explain"][100], "low_bar_feedback_matters_less", "nb02-23"),
        holds(
            table["suggest"][5][1.0] > table["explain"][5][1.0]
            and table["suggest"][50][1.5] < table["explain"][50][1.5]
            and max(at15["suggest"].values()) < ceiling15,
            "suggest_falls_behind",
            "nb02-summary",
        ),
        holds(len(at_best) == len(compute), "compute_misses_stuck", "nb02-13"),
        holds(
            kb["suggest"]["llama_3_1_70b"] < kb["explain"]["llama_3_1_70b"]
            and kb["resample"]["deepseek_v3"] > kb["suggest"]["deepseek_v3"],
            "weaker_models_not_always",
            "nb02-summary",
        ),
        holds(sweep[1.0] < min(v for q, v in sweep.items() if q < 1), "command_loses", "nb02-ex2"),
        holds(len(differ) > 0 and bool(np.all(vec50 == exp50)), "repair_matters_at_small_budget", "nb02-ex3"),
        holds(
            ceiling.loc[(False, 4), "least memory-bound that clears"]
            > ceiling.loc[(False, 4), "most memory-bound that does not"]
            and clean_by_tile,
            "share_and_tile_decide",
            "nb02-ex4",
        ),
    ]
