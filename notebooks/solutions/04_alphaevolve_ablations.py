"""Solutions of notebook 04's exercises (04_alphaevolve_ablations.ipynb): try each exercise first, then compare.

Each section below replaces its exercise's stub cell (it defines the same names) and imports what it uses, so it runs
on its own in a fresh kernel; the notebook's check cell then passes. CI runs every section against its check
(tests/test_exercises.py), and tests/evolve/test_solutions_04.py checks what the notebook says about their results.
Every section imports what it uses and stands alone, so imports follow code and repeat (ruff's E402 and F811 are off
for this file).
"""
# ruff: noqa: E402, F811

# %% Exercise 1
from collections.abc import Sequence

import pandas as pd

from toyhw.evolve.experiments import ablations


def ablation_gap(
    variants: Sequence[str] = ("full", "small_llm"),
    seeds: Sequence[int] = range(10, 15),
    budget: int = 2000,
    marks: Sequence[int] = (100, 300, 1000, 2000),
) -> pd.DataFrame:
    """Return the median best score of two variants after each mark (new seeds, a larger budget) and their gap."""
    study = ablations.ablation_study(list(variants), tuple(seeds), budget)
    frame = pd.DataFrame(
        {v: [study.median_at(v, m) for m in marks] for v in variants}, index=pd.Index(list(marks), name="programs")
    )
    frame["gap"] = frame[variants[0]] - frame[variants[1]]
    return frame.round(4)


# The gap grows (0.024 after 100 programs, 0.081 after 2000): the full method keeps climbing while `small_llm`'s
# single-field edits flatten out, each of them having to pay on its own.
gap_grows = True

# %% Exercise 2
from collections.abc import Sequence

import pandas as pd

from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.loop import evolve


def adoption_sweep(
    p_adopts: Sequence[float] = (0.1, 0.5, 0.9), seeds: Sequence[int] = ablations.SEEDS, budget: int = 1000
) -> pd.DataFrame:
    """Return the full method's final training score with `MockLLM(p_adopt=p)`, per seed and the median over them."""
    ctx = ablations.context()
    scores = {
        p: [evolve(Evaluator(ctx.train, ctx.table), budget, seed=s, llm=MockLLM(p_adopt=p)).history[-1] for s in seeds]
        for p in p_adopts
    }
    frame = pd.DataFrame(scores, index=pd.Index(list(seeds), name="seed")).T
    frame.index.name = "p_adopt"
    frame["median"] = frame.median(axis=1)
    return frame.round(4)


# Medians 1.107, 1.123 and 1.128: adopting the best config seen more often helps. Unlike lecture 10's `suggest`
# (a kind of knob to turn), the best config seen is a measurement on exactly the target shape, a sure gain there.
adopting_helps = True

# %% Exercise 3
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pandas as pd

from toyhw.course import proposal_trace
from toyhw.evolve.experiments import ablations


def focus_report(
    variants: Sequence[str] = ("full", "fb_worst3"), seeds: Sequence[int] = ablations.SEEDS, budget: int = 1000
) -> pd.DataFrame:
    """Return, per variant and seed, how a run spread its proposals over the training shapes and what they did.

    Columns: shapes targeted over the run and in its last quarter; the share of proposals whose target had a faster
    config seen (the best seen differed from the parent's, by any margin: one the LLM could adopt), whose target had a
    known improvement (`targeting.known_improvement`: the best seen more than 5% faster), that adopted a config, and
    whose child beat its parent; the final training score.
    """
    rows = []
    for variant in variants:
        for seed in seeds:
            run = proposal_trace.trace(variant, seed, budget)
            steps = run.steps
            rows.append(
                {
                    "variant": variant,
                    "seed": seed,
                    "shapes targeted": len(Counter(s.target for s in steps)),
                    "in the last quarter": len({s.target for s in steps if s.step > budget * 3 // 4}),
                    "faster config known": np.mean([s.best_differs for s in steps]),
                    "known improvement": np.mean([s.known_improvement for s in steps]),
                    "adopted it": np.mean(["fastest config seen" in s.description for s in steps]),
                    "child beat its parent": np.mean([s.score is not None and s.score > s.parent_score for s in steps]),
                    "final score": run.result.history[-1],
                }
            )
    return pd.DataFrame(rows).set_index(["variant", "seed"]).round(3)


# %% Exercise 4
import numpy as np
import pandas as pd

from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.experiments.ablations import AblationStudy


def new_shape_scores(study: AblationStudy) -> pd.DataFrame:
    """Return each variant's best programs scored on the 100 new shapes (median, min and max over the seeds), next to
    their median on the held-out test shapes, best first."""
    ctx = ablations.context()
    rows = {}
    for name, runs in study.runs.items():
        new = [geomean_speedup(r.best, ctx.new, ctx.table) for r in runs]
        rows[name] = {
            "new shapes (median)": float(np.median(new)),
            "min": min(new),
            "max": max(new),
            "test shapes (median)": float(np.median([r.test for r in runs])),
        }
    frame = pd.DataFrame(rows).T.sort_values("new shapes (median)", ascending=False)
    frame.index.name = "variant"
    return frame.round(4)


# `no_meta_prompt` has the best median on the new shapes (1.064), `full` is second (1.061), `no_cascade` last.
best_on_new_shapes = "no_meta_prompt"

# %% Exercise 5
from toyhw.evolve.evaluator import geomean_speedup
from toyhw.evolve.experiments import ablations
from toyhw.evolve.programs import Program, Rule


def best_m_only_program() -> Program:
    """Return the best heuristic that tests M alone: for every M of the training shapes, the one config with the best
    geometric-mean speedup over the expert on the training shapes with that M, as `if M <= m` rules.

    Why one config per M can be chosen on its own: an M-only rule list sends every shape with the same M to the same
    config, and the geometric mean over all training shapes is a product of one factor per M, so each factor is
    maximized separately. `Program((), config)` is the rule list with no rules: `config` on every shape.
    """
    ctx = ablations.context()
    token_counts = sorted({shape.M for shape in ctx.train})
    configs = []
    for m in token_counts:
        shapes = [shape for shape in ctx.train if shape.M == m]
        configs.append(max(ctx.table.configs, key=lambda c: geomean_speedup(Program((), c), shapes, ctx.table)))
    rules = tuple(Rule(config, m_max=m) for m, config in zip(token_counts[:-1], configs[:-1]))
    return Program(rules, configs[-1])  # the largest M is the default: every shape above the last rule
