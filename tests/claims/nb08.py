"""Notebook 08's claims: every number its prose states, computed from toyhw, and the checks of its claims that
are no number (tests/claims/__init__.py says why; tests/test_claims.py reads them in both editions).
"""

from __future__ import annotations

from toyhw.evolve import variants
from toyhw.evolve.evaluator import CASCADE_EVERY, CASCADE_RATIO
from toyhw.evolve.experiments import ablations
from claims import Claim, holds, said
from exercise_cells import NOTEBOOKS, load_solution


def _runs(variant: str, seed: int, budget: int) -> int:
    return ablations.run_one(variant, seed, budget).kernel_runs


# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: definitions,
# instructions, questions, papers' figures. Whole cells, or a few words of each where a cell also has checked ones.
NOT_RESULTS_CELLS = frozenset({"nb08-03", "nb08-ex2"})
NOT_RESULTS = {
    "nb08-00": ("Lecturers repeat them", "How does the cost", "Kernel runs depend", "Wall times differ"),
    "nb08-06": ("On most machines", "Early on, proposals"),
    "nb08-11": ("Which variant adds",),
    "nb08-14": ("How much work must", "Two processes pay", "With $w$ workers"),
    "nb08-ex1": ("Why is the share",),
}
# Comparisons that are what a claimed number of the cell is computed as ("20 of the 84 are not faster").
QUOTED_CELLS = frozenset({"nb08-14"})
QUOTED = {
    "nb08-11": ("Each seed adds between",),
}

# The inputs the prose restates: choices the notebook makes in its code (a seed, a budget, a shape).
INPUTS: list[Claim] = [
    *said("nb08-03", "input", seed_0="0"),
    *said("nb08-11", "input", seed_0="0"),
    *said("nb08-ex1", "input", seed_0="0", seeds_4="4"),
    *said("nb08-ex2", "input", seed_0="0", seeds_1="1", programs_100="100"),
    *said("nb08-ex1", "input", programs_1000="1000"),
    *said("nb08-00", "input", proposed_1000="1000"),
    *said("nb08-ex1", "input", saved_1="1"),
]


def claims() -> list[Claim]:
    ctx = ablations.context()
    n = len(ctx.train)
    stage1 = len(ctx.train[::CASCADE_EVERY])
    budgets = (100, 250, 500, 1000, 2000)
    runs = {b: _runs("full", 0, b) for b in budgets}
    per = {b: runs[b] / b for b in budgets}
    early = ablations.run_one("full", 0, 100).statuses
    s1000, s2000 = ablations.run_one("full", 0, 1000).statuses, ablations.run_one("full", 0, 2000).statuses
    late = {k: s2000[k] - s1000[k] for k in s1000}
    three = ("full", "small_llm", "no_evolution")
    seeds_total = [sum(_runs(v, s, 200) for v in three for s in range(k)) for k in range(1, 6)]
    steps = [b - a for a, b in zip([0] + seeds_total, seeds_total)]
    by_variant = {v: _runs(v, 0, 200) for v in variants.LECTURE_VARIANTS}
    cheapest, dearest = min(by_variant, key=by_variant.get), max(by_variant, key=by_variant.get)
    full200 = ablations.run_one("full", 0, 200).statuses
    nocas200 = ablations.run_one("no_cascade", 0, 200).statuses
    roof200 = ablations.run_one("fb_roofline", 0, 200).statuses
    grid = sum(_runs(v, s, 600) for v in variants.LECTURE_VARIANTS for s in (0, 1))
    n_grid = len(variants.LECTURE_VARIANTS) * 2
    solutions = load_solution(NOTEBOOKS / "08_appendix_cost_and_scale.ipynb")  # its solution file
    savings = solutions.cascade_savings()
    agree = solutions.serial_and_parallel_agree()

    def pct(x: float) -> str:
        return f"{x:.0%}"

    return [
        *INPUTS,
        *said(("nb08-00", "nb08-06", "nb08-11"), n_stage1=f'{stage1}', n_shapes=f'{n}'),
        *said(("nb08-00", "nb08-06"), cascade_ratio=f'{CASCADE_RATIO:.0%}'),
        *said("nb08-00", n_stage2=f'{n - stage1}'),
        holds(
            CASCADE_EVERY == 4 and runs[100] == n * (1 + early["ok"]) + stage1 * early["cascade"],
            "so_program_first_stage_stops",
            "nb08-00",
        ),
        holds(all(per[a] < per[b] for a, b in zip(budgets, budgets[1:])), "per_program_programs_all", "nb08-06"),
        *said(
            ("nb08-06", "nb08-summary"),
            runs_per_program_100=f'{per[100]:.1f}',
            runs_per_program_2000=f'{per[2000]:.1f}',
        ),
        *said("nb08-06", "input", programs_100="100"),
        *said("nb08-06", runs_100=f'{runs[100]:,}', runs_2000=f'{runs[2000]:,}'),
        *said(
            "nb08-06",
            early_pass_share=f"{pct(early['ok'] / (early['ok'] + early['cascade']))}",
            early_ok=f"{early['ok']}",
            early_total=f"{early['ok'] + early['cascade']}",
            late_pass_share=f"{pct(late['ok'] / (late['ok'] + late['cascade']))}",
            late_ok=f"{late['ok']}",
            late_total=f"{late['ok'] + late['cascade']}",
        ),
        *said("nb08-06", "input", proposals_1001="1001"),
        *said("nb08-06", "input", costs_0="0"),
        *said(
            "nb08-11",
            seed_runs_min=f'{min(steps):,}',
            seed_runs_max=f'{max(steps):,}',
            seed_runs_total=f'{seeds_total[-1]:,}',
        ),
        holds(cheapest == "fb_roofline" and dearest == "no_cascade", "list_runs_kernel_runs_fb_roofline", "nb08-11"),
        *said(
            "nb08-11",
            by_variant_cheapest=f'{by_variant[cheapest]:,}',
            by_variant_dearest=f'{by_variant[dearest]:,}',
            by_variant_full=f"{by_variant['full']:,}",
        ),
        holds(dearest == "no_cascade", "no_cascade_against_full_method_s", "nb08-11"),
        *said("nb08-11", by_variant_no_cascade=f"{by_variant['no_cascade']:,}"),
        holds(by_variant["no_cascade"] == n * (1 + nocas200["ok"]), "evaluated_programs_each_paid_runs", "nb08-11"),
        *said("nb08-11", no_cascade_200_passed=f"{nocas200['ok']}", full_200_cut=f"{full200['cascade']}"),
        *said("nb08-11", fb_roofline_200_cut=f"{roof200['cascade']}"),
        *said("nb08-11", "input", programs_200="200"),
        *said("nb08-14", grid_runs=f'{grid:,}', n_grid_points=f'{n_grid}'),
        holds(
            all(per[a] < per[b] for a, b in zip(budgets, budgets[1:])),
            "kernel_runs_per_program_programs",
            "nb08-summary",
        ),
        *said("nb08-summary", "input", programs_100="100"),
        holds(bool((savings["saved"] > 0).all()), "full_method_spends_kernel_runs", "nb08-ex1"),
        *said(
            "nb08-ex1",
            savings_full_min=f"{savings['full'].min():,}",
            savings_full_max=f"{savings['full'].max():,}",
            savings_no_cascade_min=f"{savings['no_cascade'].min():,}",
            savings_no_cascade_max=f"{savings['no_cascade'].max():,}",
            savings_saved_min=f"{pct(savings['saved'].min())}",
            savings_saved_max=f"{pct(savings['saved'].max())}",
        ),
        holds(agree["identical"], "runs_spend_kernel_runs_serially", "nb08-ex2"),
        *said(
            "nb08-ex2",
            agree_runs=f"{agree['runs']}",
            agree_kernel_runs_serial=f"{agree['kernel runs, serial']:,}",
            agree_kernel_runs_parallel=f"{agree['kernel runs, parallel']:,}",
        ),
        holds(
            late["ok"] / (late["ok"] + late["cascade"]) > early["ok"] / (early["ok"] + early["cascade"]),
            "more_them_pass_late",
            "nb08-06",
        ),
        holds(all(per[a] < per[b] for a, b in zip(budgets, budgets[1:])), "search_going_well_spends_more", "nb08-06"),
        holds(
            cheapest == "fb_roofline" and roof200["cascade"] > full200["cascade"],
            "proposals_worse_worse_programs_cheap",
            "nb08-11",
        ),
        holds(agree["identical"], "results_identical", "nb08-12"),
        holds(
            stage1 / n == 0.25
            and all(
                2 * st["ok"] > sum(st.values())
                for st in (ablations.run_one("full", seed, 1000).statuses for seed in ablations.SEEDS)
            ),
            "but_most_proposals_pass_first",
            "nb08-ex1",
        ),
    ]
