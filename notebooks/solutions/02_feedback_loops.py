"""Solutions of notebook 02's exercises (feedback loops): try each exercise first, then compare.

Each `# %% Exercise K` section replaces that exercise's stub cell and defines the same names, so the check cell
after it passes; each section imports what it uses and runs on its own. CI runs every section against its check
(tests/test_exercises.py), and tests/claims/nb02.py recomputes from these functions the numbers the notebook quotes.
"""
# Each section imports what it uses (it must run alone), so imports repeat and follow code:
# ruff: noqa: E402, F811

# %% Exercise 1
import random

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def directed_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return a fix for a failure, else (80% of the time) a step the bottleneck points to, else any one-knob change.

    Unlike `suggest`, it moves each knob in the direction that helps (switch on fusion, shared memory or a wider
    vector when memory-bound; move the tile towards 16/32 or unroll more when compute-bound), and it keeps 20% of
    undirected steps, so that the advice never becomes a command. Repairing the cause of a failure (instead of
    starting over from the default kernel) keeps the failed kernel's good choices.
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


# The name the exercise's check reads; in the notebook, `your_proposers["my_proposer"] = my_proposer` then puts it
# into the race of Section 5's panel.
my_proposer = directed_proposer


# %% Exercise 2
import random
from collections.abc import Sequence

from toyhw import metrics
from toyhw.kernels import knobs, optimize, proposers, study
from toyhw.kernels.knobs import KernelConfig, RunFeedback
from toyhw.kernels.optimize import Proposer


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


def advice_sweep(
    qs: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
    rounds: int = 50,
    p: float = 1.5,
    task_seed: int = study.LECTURE_TASK_SEED,
    n_tasks: int = study.LECTURE_N_TASKS,
) -> dict[float, float]:
    """Return fast_p after `rounds` rounds of `adviser(q)` for each q (on the lecture's tasks and streams).

    Every q below 1 stays close to `explain`: a little freedom to ignore the advice escapes the trap of Think! 3.
    Plot it with matplotlib: `sweep = advice_sweep(); plt.plot(list(sweep), list(sweep.values()))`.
    """
    tasks = list(study.tasks(task_seed, n_tasks))
    return {q: metrics.fast_p(optimize.speedups_after(tasks, rounds, adviser(q)), p) for q in qs}


# %% Exercise 3
import random

from toyhw.kernels import proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def vec_one_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return `explain`'s next config, except that a vector-width error is repaired with vec = 1 (always legal).

    Only n = 1002 tells the two repairs apart (a width of 2 divides it, 4 does not); for every other size the widest
    legal width is 4 or 1. Later one-knob changes find the wider width anyway, so the difference vanishes by 50 rounds.
    """
    if feedback.cause == "vector_width_indivisible":
        return config.replace(vec=1)
    return proposers.explain(feedback, config, rng)


# %% Exercise 4
import numpy as np
import pandas as pd

from toyhw.kernels import knobs, study


def ceiling_by_trait(
    p: float = 1.5, task_seed: int = study.LECTURE_TASK_SEED, n_tasks: int = study.LECTURE_N_TASKS
) -> pd.DataFrame:
    """Return, per (fusable, widest legal vector width), how many tasks any config speeds up by more than p.

    Also the smallest memory-bound share among the tasks that clear p and the largest among those that do not:
    the hidden traits that decide the ceiling. Without fusion or wide vectors the memory term cannot shrink enough;
    for the other groups the memory-bound share and the task's best tile decide together.
    """
    best = study.best_possible_speedups(task_seed, n_tasks)
    rows = []
    for i, task in enumerate(study.tasks(task_seed, n_tasks)):
        widest = max(v for v in knobs.KNOBS["vec"] if task.n % v == 0)
        rows.append(
            {
                "fusable": task.fusable,
                "widest vec": widest,
                "memory-bound": task.memory_bound,
                "clears": bool(best[i] > p),
            }
        )
    frame = pd.DataFrame(rows)
    groups = frame.groupby(["fusable", "widest vec"])
    return pd.DataFrame(
        {
            "tasks": groups.size(),
            f"clear {p:g}x": groups["clears"].sum(),
            "least memory-bound that clears": groups.apply(
                lambda g: round(g.loc[g["clears"], "memory-bound"].min(), 2) if g["clears"].any() else np.nan,
                include_groups=False,
            ),
            "most memory-bound that does not": groups.apply(
                lambda g: round(g.loc[~g["clears"], "memory-bound"].max(), 2) if (~g["clears"]).any() else np.nan,
                include_groups=False,
            ),
        }
    )


# The groups in which no task clears 1.5x, whatever the config: the answer the exercise's check reads.
frame = ceiling_by_trait()
hopeless = {(bool(fusable), int(widest)) for (fusable, widest), clear in frame["clear 1.5x"].items() if clear == 0}


# %% Exercise 5
import random

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def misreading_explain(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return `explain`'s next config, but misread half of the error messages (then change one random knob).

    The errors it does read are still repaired in one step, so it stays above `scalar` and `resample`.
    """
    if not feedback.ok and rng.random() < 0.5:
        return knobs.mutate(config, rng)
    return proposers.explain(feedback, config, rng)
