"""Solutions of notebook 07's exercises (07_checking_all_branches.ipynb): try each exercise first, then compare.

One section per exercise; each replaces that exercise's stub cell, defines the same names and imports what it uses,
so it runs on its own. The notebook's check cell (`checks.exercise_K(...)`) then says ✓.
"""
# Each section imports what it uses, so that it runs on its own: imports below the top and repeated are intended.
# ruff: noqa: E402, F811

# %% Exercise 1
# The starting heuristic's 256x256 branch cannot launch (296 registers per thread, no warp count fixes it): it is
# gone, and prefill keeps 128x256. The idea added is one a kernel engineer writes down at once: the 70B/8 qkv layer
# has few output tiles (N = 1280), so every M regime gets a split-K rule for N <= 2048 to fill the SMs. Its scores,
# and how they compare with the search's best program, are in the exercise's answer in the notebook.
my_source = """
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
"""

# %% Exercise 2
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import Program, Rule, expert_program
from toyhw.gemm.config import GemmConfig


def bad_branch_on_a_training_shape(m_min: int = 2000, m_max: int = 4000) -> dict[str, tuple[str, int]]:
    """Return (status, kernel runs) of the expert plus one bad branch for m_min <= M <= m_max, per evaluator setting.

    The branch returns Section 1's 5-stage 128x256x64 config (too much shared memory); with the default range it
    covers the training shapes with M = 2048, so running the program finds the problem: a "crash".
    """
    expert = expert_program()
    program = Program(
        (Rule(GemmConfig(128, 256, 64, 8, 5, 1), m_min=m_min, m_max=m_max),) + expert.rules, expert.default
    )
    ctx = ablations.context()
    out = {}
    for label, check, cascade in (
        ("no check, cascade", False, True),
        ("no check, no cascade", False, False),
        ("check", True, True),
    ):
        result = Evaluator(ctx.train, ctx.table, check_all_branches=check, cascade=cascade).evaluate(program)
        out[label] = (result.status, result.runs)
    return out


# %% Exercise 3
import collections
from typing import Sequence

from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations, branch_check
from toyhw.evolve.loop import evolve
from toyhw.gemm import shapes as shapes_lib


def new_shape_crashes(
    seeds: Sequence[int] = ablations.SEEDS,
    budget: int = ablations.BUDGET,
    new_layers: Sequence[str] = shapes_lib.NEW_LAYERS,
) -> dict[str, object]:
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


# %% Exercise 4
from typing import Sequence

from toyhw.evolve.programs import Program, branch_line, firing_rule
from toyhw.gemm.shapes import Shape


def untested_branches(program: Program, shapes: Sequence[Shape]) -> list[int]:
    """Return the source lines (in `render(program)`) of the branches no shape of `shapes` reaches.

    A branch no training shape reaches is never run by the evaluator: only a static check can say anything about it.
    The default `return` counts as a branch too (branch number len(program.rules)).
    """
    reached = {firing_rule(program, s.M, s.N, s.K) for s in shapes}
    return [branch_line(program, i) for i in range(len(program.rules) + 1) if i not in reached]
