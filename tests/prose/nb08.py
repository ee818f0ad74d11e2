"""Notebook 08's prose numbers, recomputed from toyhw (see tests/test_prose_numbers.py).

Only machine-independent numbers: kernel runs, status counts and the cascade's constants, read from the cached runs
(`ablations.run_one`), which spend exactly the kernel runs the notebook's uncached measurements do. Wall times are never
quoted.
"""

from __future__ import annotations

from toyhw.evolve import variants
from toyhw.evolve.evaluator import CASCADE_EVERY, CASCADE_RATIO
from toyhw.evolve.experiments import ablations
from prose.phrasing import holds as _holds
from exercise_cells import NOTEBOOKS, load_solution

# Comparative sentences (tests/test_comparison_claims.py) that compare no computed results: the study's setting,
# questions, how the cascade works, wall times (machine-dependent, never quoted), the arithmetic of start-up costs.
NOT_RESULTS = [
    "Lecturers repeat them with more seeds and bigger budgets",
    "How does the cost grow, and when do more processes (or a cluster) pay off?",
    "Kernel runs depend on the **cascade**",
    "Wall times differ from run to run and from machine to machine",
    "Each budget is a separate run from the start",
    "On most machines the wall-time line in the plot roughly follows",
    "Early on, proposals are edits of the expert and of its first children",
    "Which variant adds the most kernel runs per run, and why?",
    "How much work must a grid hold before $w$ cluster workers beat one process?",
    "Two processes pay off when $s + T/2 < T$",
    "With $w$ workers running truly in parallel",
    "The seconds are not — time the two settings",
    "Why is the share far below the three quarters a stopped program saves?",  # Exercise 1's question
]
# Comparative sentences whose comparison is what a quoted number is computed as (tests/test_comparison_claims.py).
QUOTED = [
    "Each seed adds between 12,056 and 13,123 kernel runs",
    "What does not change: both settings spent",
]

PARAMETERS = [
    "One run of the full method (seed 0) at growing budgets",
    "(seed 0, 200 programs)",
    "on seeds 0-4 (`ablations.run_one(variant, seed, 1000).kernel_runs`)",
    "seeds 0 and 1, 100 programs",
    "at 1000 programs?",
    "ran dozens of evolution runs of 1000 proposed programs",  # ablations.BUDGET
    "(the share saved, 1 - full / no_cascade)",  # Exercise 1: the definition of the share
    "At 1000 programs the full method spends",  # Exercise 1's budget
    "[solutions/08_appendix_cost_and_scale.py](solutions/08_appendix_cost_and_scale.py)",  # the solution file's link
]


def _runs(variant: str, seed: int, budget: int) -> int:
    return ablations.run_one(variant, seed, budget).kernel_runs


def quotes() -> list[str]:
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
        # introduction: the cascade
        f"first runs on every fourth training shape, {stage1} of the {n}; only if its score there is at least "
        f"{CASCADE_RATIO:.0%} of the best first-stage score seen so far does it run on the other {n - stage1}.",
        _holds(
            CASCADE_EVERY == 4 and runs[100] == n * (1 + early["ok"]) + stage1 * early["cascade"],
            f"So a program the first stage stops costs {stage1} kernel runs, one that passes costs {n}, and",
        ),
        # Section 1
        _holds(
            all(per[a] < per[b] for a, b in zip(budgets, budgets[1:])),
            f"{per[100]:.1f} per program at 100 programs, {per[2000]:.1f} at 2000 ({runs[100]:,} and "
            f"{runs[2000]:,} in all).",
        ),
        # Think! 1
        f"of the first 100 proposals that reached the first stage, {pct(early['ok'] / (early['ok'] + early['cascade']))} "
        f"passed ({early['ok']} of {early['ok'] + early['cascade']}); of proposals 1001-2000, "
        f"{pct(late['ok'] / (late['ok'] + late['cascade']))} ({late['ok']} of {late['ok'] + late['cascade']}).",
        f"Each proposal costs 0, {stage1} or {n} kernel runs",
        f"the first-stage bar — {CASCADE_RATIO:.0%} of the best\nfirst-stage score so far",
        # Section 2
        f"Each seed adds between {min(steps):,} and {max(steps):,} kernel runs to the three variants' grid "
        f"({seeds_total[-1]:,} for all five seeds)",
        _holds(
            cheapest == "fb_roofline" and dearest == "no_cascade",
            f"the list runs from {by_variant[cheapest]:,} kernel runs for `fb_roofline` to {by_variant[dearest]:,} "
            f"for `no_cascade`; the full method spends {by_variant['full']:,}.",
        ),
        # Think! 2
        _holds(
            dearest == "no_cascade",
            f"`no_cascade`, {by_variant['no_cascade']:,} against the full method's {by_variant['full']:,}: without "
            f"the cascade every program that launches runs on all {n} training shapes.",
        ),
        _holds(
            by_variant["no_cascade"] == n * (1 + nocas200["ok"]),
            f"Its {nocas200['ok']} evaluated programs each paid {n} runs, while the full method stopped "
            f"{full200['cascade']} of its proposals after the first stage at {stage1} runs each.",
        ),
        f"the first stage stopped {roof200['cascade']} of its 200 proposals",
        # Section 3 and Think! 3
        f"both settings spent {grid:,} kernel runs on the same {n_grid} runs",
        f"({grid:,} for the {n_grid} runs above)",
        # Summary
        _holds(
            all(per[a] < per[b] for a, b in zip(budgets, budgets[1:])),
            f"({per[100]:.1f} to {per[2000]:.1f} kernel runs per program from 100 to 2000 programs)",
        ),
        # Exercise 1
        _holds(
            bool((savings["saved"] > 0).all()),
            f"the full method spends {savings['full'].min():,}-{savings['full'].max():,} kernel runs per run, "
            f"`no_cascade` {savings['no_cascade'].min():,}-{savings['no_cascade'].max():,}; the cascade saves "
            f"{pct(savings['saved'].min())}-{pct(savings['saved'].max())} on every seed.",
        ),
        # Exercise 2
        _holds(
            agree["identical"],
            f"the {agree['runs']} runs spend {agree['kernel runs, serial']:,} kernel runs serially and "
            f"{agree['kernel runs, parallel']:,} on two processes",
        ),
        # comparisons without a number of their own (tests/test_comparison_claims.py)
        _holds(
            late["ok"] / (late["ok"] + late["cascade"]) > early["ok"] / (early["ok"] + early["cascade"]),
            "More of them pass late.",
        ),
        _holds(
            all(per[a] < per[b] for a, b in zip(budgets, budgets[1:])),
            "A search that is going well spends more on evaluation per proposal, not less.",
        ),
        _holds(
            cheapest == "fb_roofline" and roof200["cascade"] > full200["cascade"],
            "its proposals are worse, and worse programs are cheap to reject",
        ),
        _holds(agree["identical"], "The results are identical"),
        # Exercise 1's runs: seeds 0-4 at 1000 programs; over a whole run most proposals pass (not over the first 100)
        _holds(
            stage1 / n == 0.25
            and all(
                2 * st["ok"] > sum(st.values())
                for st in (ablations.run_one("full", seed, 1000).statuses for seed in ablations.SEEDS)
            ),
            "but most proposals pass the first stage",
        ),
    ]
