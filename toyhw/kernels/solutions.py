"""Reference solutions of the exercises of notebook 01 (students: try first, then compare).

Each notebook shows a function's exact source in its Solution block (a content test compares them), and
tests/kernels/test_solutions.py runs each one and checks what the notebook says about its result.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from toyhw import metrics
from toyhw.kernels import knobs, optimize, proposers, study
from toyhw.kernels.knobs import KernelConfig


# ----- notebook 01

def correct_and_faster_share(speedups: Sequence[float], p: float = 1.0) -> float:
    """Return the share of the *correct* kernels that are more than p times faster than PyTorch (fast_p / fast_0)."""
    correct = metrics.fast_p(speedups, 0.0)
    return metrics.fast_p(speedups, p) / correct if correct else 0.0


def calm_config(rng: random.Random) -> KernelConfig:
    """Return `knobs.random_config`'s kernel with tile 64 replaced by 32: the same draws, so only the tile differs."""
    tile = rng.choice((16, 32, 64, 64))
    tile = 32 if tile == 64 else tile
    fuse = int(rng.random() < 0.6)
    vec = rng.choice((1, 2, 4, 4))
    shared = int(rng.random() < 0.5)
    unroll = rng.choice((1, 2, 4))
    return KernelConfig(tile, fuse, vec, shared, unroll)


def calm_one_shot(task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS) -> study.OneShotReport:
    """Return the one-shot report of `calm_config` on the same tasks and random streams as `study.one_shot`."""
    kernels = []
    for i, task in enumerate(study.tasks(task_seed, n_tasks)):
        config = calm_config(optimize.one_shot_rng(task_seed, i))
        feedback = knobs.run_kernel(task, config)
        kernels.append(study.OneShotKernel(i, task, config, feedback, knobs.speedup(task, feedback)))
    return study.OneShotReport(task_seed, tuple(kernels))


def one_explained_fix(report: study.OneShotReport, seed: int = 0) -> dict[str, int]:
    """Return how many failing one-shot kernels one explained fix (`proposers.fix_failure`) makes correct.

    Keys: "failing" (before), "correct after one fix", "still failing"; the coin of the shared-memory fix is drawn
    from `random.Random(seed)`.
    """
    rng = random.Random(seed)
    failing = [k for k in report.kernels if not k.feedback.ok]
    fixed = sum(knobs.run_kernel(k.task, proposers.fix_failure(k.feedback, k.config, rng)).ok for k in failing)
    return {"failing": len(failing), "correct after one fix": fixed, "still failing": len(failing) - fixed}
