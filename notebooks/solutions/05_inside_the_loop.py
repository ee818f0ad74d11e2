"""Solutions of notebook 05's exercises (05_inside_the_loop.ipynb): try each exercise first, then compare.

Each section below replaces the stub cell of its exercise and defines the same names; its check cell then says ✓.
Every section imports what it uses and stands alone (so imports follow code: ruff's E402 is off for this file).
"""
# ruff: noqa: E402

# %% Exercise 1
import random

from toyhw.evolve.database import Database, Entry
from toyhw.evolve.programs import Program, Rule, expert_program


def best_share(k: int, island: int = 25, draws: int = 20000, seed: int = 0) -> float:
    """Return the share of `draws` parents drawn by `Database.sample` with a tournament of `k` that are the best
    program of a full island of `island` programs.

    The island holds `island` different programs (program i has one rule, `m_max=i`, so no two are equal and the
    database admits each) with distinct scores 1.000, 1.001, ...: the last is the best. The formula to compare with:
    the best is picked unless all k draws (with replacement) miss it, 1 - (1 - 1/n)^k.
    """
    expert = expert_program()
    entries = [
        Entry(
            i, Program((Rule(expert.default, m_max=i),), expert.default), 1.0 + i / 1000, None, None, f"program {i}", i
        )
        for i in range(island)
    ]
    db = Database(entries[0], n_islands=1, capacity=island, tournament=k)
    for entry in entries[1:]:
        db.add(entry, 0)
    rng = random.Random(seed)
    best = sum(db.sample(0, rng)[0] is entries[-1] for _ in range(draws))
    return best / draws


# %% Exercise 2
from toyhw.course import proposal_trace
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations

ctx = ablations.context()
trace = proposal_trace.trace("full", 0, 1000)  # the traced run of the notebook (cached: the same object)
cut_programs = [s for s in trace.steps if s.status == "cascade"]
# Each cut program's score on all 44 training shapes, read from the time table outside the run (no kernel runs are
# counted), and the best score of the run before it: history[i] is the best after proposal i + 1, the expert 1.0.
full_scores = [geomean_speedup(s.program, ctx.train, ctx.table) for s in cut_programs]
best_before = [trace.result.history[s.step - 2] if s.step > 1 else 1.0 for s in cut_programs]
beat_parent = sum(score > s.parent_score for score, s in zip(full_scores, cut_programs))
beat_best = sum(score > best for score, best in zip(full_scores, best_before))
# A few cut programs beat their parent by small steps; none would have been a new best, and the best of them
# (max(full_scores)) stays below the run's best at that point: a cheap price for the kernel runs saved.


# %% Exercise 3
import pandas as pd

from toyhw.course import prompt_view


def prompt_growth(variant: str = "full", seed: int = 0, steps: tuple[int, ...] = (1, 10, 100, 1000)) -> pd.DataFrame:
    """Return the prompt's size at several steps of one run: the parent's branches, the characters of every part,
    the total characters and the estimated tokens (a row per step)."""
    rows = []
    for step in steps:
        view = prompt_view.prompt_at(variant, seed, step)
        rows.append(
            {
                "step": step,
                "parent branches": view.parent_source.count("return "),
                **{name: len(text) for name, text in view.prompt.parts},
                "characters": view.chars,
                "tokens (est.)": view.tokens,
            }
        )
    return pd.DataFrame(rows).set_index("step").fillna(0).astype(int)


growth = prompt_growth()
tokens = {int(step): int(n) for step, n in growth["tokens (est.)"].items()}
# The fixed parts (task, language, knowledge, answer) do not grow, and the feedback table has one row per training
# shape whatever the program; the code grows: the parent's branches, and the inspirations (several programs).
parts = growth.drop(columns=["parent branches", "characters", "tokens (est.)"])
grows_most = str((parts.iloc[-1] - parts.iloc[0]).idxmax())
