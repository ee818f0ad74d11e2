"""Reference solutions of the exercises of notebook 06 (students: try first, then compare).

Notebook 06 shows a function's exact source in its Solution block (a content test compares them), and
tests/evolve/test_solutions_06_08.py runs each one and checks what the notebook says about its result. Every number a
solution's explanation quotes is a kernel run count, a modelled time or a score: the same on any machine.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from toyhw.evolve import ablations, targeting
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import peek_target
from toyhw.evolve.loop import EvolveResult, evolve
from toyhw.gemm import cost as gemm_cost, report as gemm_report
from toyhw.gemm.shapes import Shape
from toyhw.gemm.time_table import shared_table


# ----- notebook 06

def proposal_targets(variant: str = "full", seed: int = 0,
                     budget: int = 300) -> tuple[EvolveResult, list[tuple[int, Shape, float]]]:
    """Return one run of `variant` and, for every proposal, (its number, its target shape, the parent's vs_best there).

    An observer reads each step's target with the mock's own `target`, on the copy of the random state the loop hands
    it, so the run draws exactly the numbers it draws without the observer (same result).
    """
    spec = variants_lib.get(variant)
    targets = []

    def note(step):
        index = peek_target(spec.llm, step.feedback, step.rng)
        targets.append((step.step, step.feedback.shapes[index], float(step.feedback.vs_best[index])))

    ctx = ablations.context()
    result = evolve(Evaluator(ctx.train, ctx.table), budget, seed=seed, llm=spec.llm, config=spec.config,
                    observer=note)
    return result, targets


def stuck_target_shares(names: Sequence[str] = ("full", "fb_roofline", "fb_worst3", "no_feedback"),
                        seeds: Sequence[int] = ablations.SEEDS, budget: int = 300) -> pd.DataFrame:
    """Return, per variant and seed, the share of the proposals aimed at a shape where the parent was stuck."""
    rows = {}
    for name in names:
        shares = []
        for seed in seeds:
            _, targets = proposal_targets(name, seed, budget)
            shares.append(sum(not targeting.known_improvement(vs_best) for _, _, vs_best in targets) / len(targets))
        rows[name] = shares
    return pd.DataFrame.from_dict(rows, orient="index", columns=[f"seed {s}" for s in seeds])


def stuck_share_by_budget(seed: int = 0, budgets: Sequence[int] = (100, 200, 300, 500, 700, 1000)) -> pd.DataFrame:
    """Return, after each budget: stuck training shapes, and each weighting's share of the target draw on them."""
    rows = []
    for budget in budgets:
        t = targeting.targeting(seed, budget)
        rows.append({"budget": budget, "stuck shapes": t.n_stuck, "roofline": t.share_on_stuck["roofline"],
                     "best seen": t.share_on_stuck["best"]})
    return pd.DataFrame(rows).set_index("budget")


def far_from_roofline(threshold: float = 0.6) -> pd.DataFrame:
    """Return the training shapes whose best config (the oracle) reaches less than `threshold` of the roofline.

    With the oracle's share of the roofline, what bounds its main time, and notebook 03's reasons read from the cost
    model's breakdown (toyhw.gemm.report.distance_reasons).
    """
    ctx = ablations.context()
    table = ctx.table
    rows = []
    for shape in ctx.train:
        config, best = table.oracle(shape)
        reach = table.roofline(shape) / best
        if reach < threshold:
            cost = gemm_cost.gemm_time(config, shape, table.gpu)
            rows.append({"shape": shape.label(), "oracle vs_roofline": round(reach, 2), "bound": cost.bound,
                         "why": gemm_report.distance_reasons(cost, table.gpu.sms)})
    return pd.DataFrame(rows).sort_values("oracle vs_roofline").reset_index(drop=True)


def decode_reach_by_gpu(gpus: Sequence[str] = ("H100", "B200"), seed: int = 0, budget: int = 300) -> pd.DataFrame:
    """Return, for the stuck decode shapes (M <= 16) of demo 2, how close the best config gets to the roofline per GPU.

    Per GPU: the oracle's vs_roofline and the share of its time that is fixed cost (launch, pipeline fill and drain,
    split-K reduction) - the part a faster memory system does not shrink.
    """
    t = targeting.targeting(seed, budget)
    stuck = sorted((r.shape for r in t.rows if r.shape.M <= 16 and r.vs_best > targeting.STUCK),
                   key=lambda s: (s.name, s.M))
    rows = []
    for shape in stuck:
        row = {"shape": shape.label()}
        for gpu in gpus:
            table = shared_table(gpu)
            config, best = table.oracle(shape)
            cost = gemm_cost.gemm_time(config, shape, table.gpu)
            row[f"{gpu} vs_roofline"] = round(table.roofline(shape) / best, 2)
            row[f"{gpu} fixed share"] = round(cost.fixed_us / best, 2)
        rows.append(row)
    return pd.DataFrame(rows)
