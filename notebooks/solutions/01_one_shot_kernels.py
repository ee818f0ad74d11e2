"""Solutions of notebook 01's exercises (01_one_shot_kernels.ipynb). Try each exercise first, then compare.

Each section replaces its exercise's stub cell: it defines the same names, so the check cell after the stub says ✓.
Each section imports what it uses and runs on its own. CI runs every section against its check
(tests/test_exercises.py).
"""
# ruff: noqa: E402 (each section imports what it uses, as the cell it replaces would)

# %% Exercise 1
from collections.abc import Sequence

from toyhw import metrics


def correct_and_faster_share(speedups: Sequence[float], p: float = 1.0) -> float:
    """Return the share of the *correct* kernels that are more than p times faster than PyTorch (fast_p / fast_0).

    A failed kernel's speedup is 0.0, so fast_0 is the share of correct kernels and fast_p / fast_0 the share of
    those that beat p. Without a correct kernel the share is 0.0 (nothing was fast).

    As a benchmark score it is worse than fast_1: it ignores failures. A writer that hands in only its fastest kernel
    and nothing for the other tasks scores 1.0 on it, with fast_1 = 1 / 200; KernelBench keeps every task in the
    denominator so that handing in less can never look better.
    """
    correct = metrics.fast_p(speedups, 0.0)
    return metrics.fast_p(speedups, p) / correct if correct else 0.0


# %% Exercise 2
import random

from toyhw.kernels import knobs


def calm_config(rng: random.Random) -> knobs.KernelConfig:
    """Return `knobs.random_config`'s kernel with tile 64 replaced by 32: the same draws, so only the tile differs.

    Calling the eager writer and changing its tile afterwards keeps every draw from `rng` exactly as the eager writer
    makes them, so task by task the two kernels differ in the tile alone. No compile error is left (only tile 64
    overflows shared memory), but the kernels that also broke another rule now reach the tests and give wrong
    results; those that were correct get faster, since no task's best tile is 64.
    """
    config = knobs.random_config(rng)
    return config.replace(tile=32) if config.tile == 64 else config


# %% Exercise 3
import random

from toyhw.kernels import knobs, proposers, study


def one_explained_fix(report: study.OneShotReport, seed: int = 0) -> dict[str, int]:
    """Return how many failing one-shot kernels one explained fix (`proposers.fix_failure`) makes correct.

    Keys: "failing" (before), "correct after one fix", "still failing"; the coin of the shared-memory fix is drawn
    from `random.Random(seed)`. The fix removes the cause the run reported; a kernel that breaks a second rule then
    reports that one, so the kernels still failing are those that break two rules or more.
    """
    rng = random.Random(seed)
    failing = [k for k in report.kernels if k.feedback.status != "ok"]
    fixed = sum(
        knobs.run_kernel(k.task, proposers.fix_failure(k.feedback, k.config, rng)).status == "ok" for k in failing
    )
    return {"failing": len(failing), "correct after one fix": fixed, "still failing": len(failing) - fixed}
