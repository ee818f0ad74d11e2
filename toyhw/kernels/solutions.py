"""Reference solutions of the exercises of notebook 02 (students: try first, then compare).

Each notebook shows a function's exact source in its Solution block (a content test compares them), and
tests/kernels/test_solutions.py runs each one and checks what the notebook says about its result.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pandas as pd

from toyhw import metrics
from toyhw.kernels import knobs, optimize, proposers, study
from toyhw.kernels.knobs import KernelConfig, RunFeedback
from toyhw.kernels.optimize import Proposer


# ----- notebook 02

def directed_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return a fix for a failure, else (80% of the time) a step the bottleneck points to, else any one-knob change.

    Notebook 02's exercise. Unlike `suggest`, it moves each knob in the direction that helps (switch on fusion, shared
    memory or a wider vector when memory-bound; move the tile towards 16/32 or unroll more when compute-bound), and
    it keeps 20% of undirected steps, so that the advice never becomes a command.
    """
    if not feedback.ok:
        return proposers.fix_failure(feedback, config, rng)
    if feedback.bottleneck == "memory":
        moves = [{"fuse": 1}] if not config.fuse else []
        moves += [{"shared": 1}] if not config.shared and config.tile < 64 else []
        moves += [{"vec": config.vec * 2}] if config.vec < 4 else []
    else:
        moves = [{"tile": t} for t in (16, 32) if t != config.tile]
        moves += [{"unroll": config.unroll * 2}] if config.unroll < 4 and config.tile != 64 else []
    if moves and rng.random() < 0.8:
        return config.replace(**rng.choice(moves))
    return knobs.mutate(config, rng)


def adviser(q: float) -> Proposer:
    """Return `suggest` as an adviser: after a success, follow the bottleneck with probability q, else any knob.

    q = 0 is exactly `explain` and q = 1 exactly `suggest` (no extra random draw at the ends, so the streams match).
    """
    def follow_with_probability_q(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
        if not feedback.ok:
            return proposers.fix_failure(feedback, config, rng)
        if q >= 1 or (q > 0 and rng.random() < q):
            return proposers.suggest(feedback, config, rng)
        return knobs.mutate(config, rng)

    return follow_with_probability_q


def advice_sweep(qs: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0), rounds: int = 50, p: float = 1.5,
                 task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS) -> dict[float, float]:
    """Return fast_p after `rounds` rounds of `adviser(q)` for each q (on the lecture's tasks and streams)."""
    tasks = list(study.tasks(task_seed, n_tasks))
    return {q: metrics.fast_p(optimize.speedups_after(tasks, rounds, adviser(q)), p) for q in qs}


def vec_one_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return `explain`'s next config, except that a vector-width error is repaired with vec = 1 (always legal)."""
    if feedback.cause == "vector_width_indivisible":
        return config.replace(vec=1)
    return proposers.explain(feedback, config, rng)


def misreading_explain(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return `explain`'s next config, but misread half of the error messages (then change one random knob)."""
    if not feedback.ok and rng.random() < 0.5:
        return knobs.mutate(config, rng)
    return proposers.explain(feedback, config, rng)


def ceiling_by_trait(p: float = 1.5, task_seed: int = study.LECTURE_TASK_SEED,
                     n_tasks: int = study.LECTURE_N_TASKS) -> pd.DataFrame:
    """Return, per (fusable, widest legal vector width), how many tasks any config speeds up by more than p.

    Also the smallest memory-bound share among the tasks that clear p and the largest among those that do not:
    the hidden traits that decide the ceiling.
    """
    best = study.best_possible_speedups(task_seed, n_tasks)
    rows = []
    for i, task in enumerate(study.tasks(task_seed, n_tasks)):
        widest = max(v for v in knobs.KNOBS["vec"] if task.n % v == 0)
        rows.append({"fusable": task.fusable, "widest vec": widest, "memory-bound": task.memory_bound,
                     "clears": bool(best[i] > p)})
    frame = pd.DataFrame(rows)
    groups = frame.groupby(["fusable", "widest vec"])
    return pd.DataFrame({
        "tasks": groups.size(),
        f"clear {p:g}x": groups["clears"].sum(),
        "least memory-bound that clears": groups.apply(
            lambda g: round(g.loc[g["clears"], "memory-bound"].min(), 2) if g["clears"].any() else np.nan,
            include_groups=False),
        "most memory-bound that does not": groups.apply(
            lambda g: round(g.loc[~g["clears"], "memory-bound"].max(), 2) if (~g["clears"]).any() else np.nan,
            include_groups=False),
    })
