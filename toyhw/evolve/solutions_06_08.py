"""Reference solutions of the exercises of notebooks 07 and 08 (students: try first, then compare).

Notebook 06's are in notebooks/solutions/06_using_feedback.py.

Each notebook shows a function's exact source in its Solution block (a content test compares them), and
tests/evolve/test_solutions_06_08.py runs each one and checks what the notebook says about its result. Every number a
solution's explanation quotes is a kernel run count, a modelled time or a score: the same on any machine.
"""
from __future__ import annotations

import collections
import concurrent.futures
from typing import Sequence

import pandas as pd

from toyhw.evolve import ablations, branch_check, sweep
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import Program, Rule, branch_line, expert_program, firing_rule
from toyhw.gemm import shapes as shapes_lib
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape


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
