"""Reference solutions of the exercises of notebooks 06, 07 and 08 (students: try first, then compare).

Each notebook shows a function's exact source in its Solution block (a content test compares them), and
tests/evolve/test_solutions_06_08.py runs each one and checks what the notebook says about its result. Every number a
solution's explanation quotes is a kernel run count, a modelled time or a score: the same on any machine.
"""
from __future__ import annotations

import collections
import concurrent.futures
from typing import Sequence

import pandas as pd

from toyhw.evolve import ablations, branch_check, sweep, targeting
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import peek_target
from toyhw.evolve.loop import EvolveResult, evolve
from toyhw.evolve.programs import Program, Rule, branch_line, expert_program, firing_rule
from toyhw.gemm import cost as gemm_cost, report as gemm_report, shapes as shapes_lib
from toyhw.gemm.config import GemmConfig
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


# ----- notebook 07

def fixed_heuristic() -> str:
    """Return notebook 07's starting heuristic with its bad branch removed and two ideas added, as source.

    The 256x256 branch cannot launch (296 registers per thread): it is gone, prefill keeps 128x256. The 70B/8 qkv
    layer (N = 1280) has few output tiles, so every M regime gets a split-K rule for N <= 2048.
    """
    return '''
def choose(M, N, K):
    if M <= 16 and N <= 2048:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=4)
    if M <= 16:
        return Config(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)
    if M <= 128 and N <= 2048:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=5, split_k=4)
    if M <= 128:
        return Config(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)
    if M <= 512 and N <= 2048:
        return Config(block_m=128, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=4)
    if M <= 512:
        return Config(block_m=128, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=1)
    if N <= 2048:
        return Config(block_m=128, block_n=128, block_k=64, num_warps=8, num_stages=4, split_k=2)
    return Config(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
'''


def bad_branch_on_a_training_shape(m_min: int = 2000, m_max: int = 4000) -> dict[str, tuple[str, int]]:
    """Return (status, kernel runs) of the expert plus one bad branch for m_min <= M <= m_max, per evaluator setting.

    The branch returns the 5-stage 128x256x64 config (too much shared memory); with the default range it covers the
    training shapes with M = 2048.
    """
    expert = expert_program()
    program = Program((Rule(GemmConfig(128, 256, 64, 8, 5, 1), m_min=m_min, m_max=m_max),) + expert.rules,
                      expert.default)
    ctx = ablations.context()
    out = {}
    for label, check, cascade in (("no check, cascade", False, True), ("no check, no cascade", False, False),
                                  ("check", True, True)):
        result = Evaluator(ctx.train, ctx.table, check_all_branches=check, cascade=cascade).evaluate(program)
        out[label] = (result.status, result.runs)
    return out


def new_shape_crashes(seeds: Sequence[int] = ablations.SEEDS, budget: int = ablations.BUDGET,
                      new_layers: Sequence[str] = shapes_lib.NEW_LAYERS) -> dict[str, object]:
    """Return how the final databases' programs (runs without the branch check) fail on demo 3's kind of new shapes.

    The new shapes are the lecture's layers and `new_layers`, each at demo 3's ten new token counts. Keys: "crashing"
    (programs that fail on some new shape), "only on the new layers" (of those, programs whose every failing shape is
    of `new_layers`), "per layer" (layer -> crashing programs that fail on it).
    """
    ctx = ablations.context()
    names = list(shapes_lib.LAYERS) + list(new_layers)
    shapes = [shapes_lib.layer_shape(name, m) for name in names for m in shapes_lib.NEW_M]
    crashing, only_new, per_layer = 0, 0, collections.Counter()
    for seed in seeds:
        out = evolve(Evaluator(ctx.train, ctx.table, check_all_branches=False), budget, seed=seed)
        for program in out.db.programs():
            layers = {crash.shape.name for crash in branch_check.crashes(program, shapes)}
            if layers:
                crashing += 1
                only_new += layers <= set(new_layers)
                per_layer.update(layers)
    return {"crashing": crashing, "only on the new layers": only_new, "per layer": dict(per_layer)}


def untested_branches(program: Program, shapes: Sequence[Shape]) -> list[int]:
    """Return the source lines (in `render(program)`) of the branches no shape of `shapes` reaches.

    A branch no training shape reaches is never run by the evaluator: only a static check can say anything about it.
    The default `return` counts as a branch too.
    """
    reached = {firing_rule(program, s.M, s.N, s.K) for s in shapes}
    return [branch_line(program, i) for i in range(len(program.rules) + 1) if i not in reached]


# ----- notebook 08

def cascade_savings(budget: int = ablations.BUDGET, seeds: Sequence[int] = ablations.SEEDS) -> pd.DataFrame:
    """Return per seed the kernel runs of the full method and of no_cascade at `budget`, and the share saved."""
    rows = []
    for seed in seeds:
        full = ablations.run_one("full", seed, budget).kernel_runs
        every = ablations.run_one("no_cascade", seed, budget).kernel_runs
        rows.append({"seed": seed, "full": full, "no_cascade": every, "saved": 1 - full / every})
    return pd.DataFrame(rows).set_index("seed")


def serial_and_parallel_agree(names: Sequence[str] = ("full", "small_llm"), seeds: Sequence[int] = (0, 1),
                              budget: int = 100, workers: int = 2) -> dict[str, object]:
    """Return what a grid gives run serially and on `workers` local processes: kernel runs, and whether all agree.

    Only machine-independent results: the runs' histories, best programs and kernel runs (never seconds).
    """
    jobs = sweep.grid(names, seeds, [budget])
    serial = [ablations.run_fresh(j.variant, j.seed, j.budget) for j in jobs]
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        parallel = sweep.run_grid(jobs, executor=pool)
    same = all(a.history == b.history and a.best == b.best and a.kernel_runs == b.kernel_runs
               for a, b in zip(serial, parallel))
    return {"runs": len(jobs), "kernel runs, serial": sum(r.kernel_runs for r in serial),
            "kernel runs, parallel": sum(r.kernel_runs for r in parallel), "identical": same}
