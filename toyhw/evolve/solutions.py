"""Reference solutions of the exercises of notebook 04 (students: try first, then compare).

Each notebook shows a function's exact source in its Solution block (a content test compares them), and
tests/evolve/test_solutions_04_05.py runs each one and checks what the notebook says about its result. Each notebook's
solutions sit in their own block below; notebooks 06-08's are in toyhw.evolve.solutions_06_08.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import pandas as pd

from toyhw.evolve import ablations, proposal_trace
from toyhw.evolve.ablations import AblationStudy
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.shape_times import ShapeTimes
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import Program, Rule, expert_program


# ----- notebook 04

def ablation_gap(variants: Sequence[str] = ("full", "small_llm"), seeds: Sequence[int] = range(10, 15),
                 budget: int = 2000, marks: Sequence[int] = (100, 300, 1000, 2000)) -> pd.DataFrame:
    """Return the median best score of two variants after each mark (new seeds, a larger budget) and their gap."""
    study = ablations.ablation_study(list(variants), tuple(seeds), budget)
    frame = pd.DataFrame({v: [study.median_at(v, m) for m in marks] for v in variants},
                         index=pd.Index(list(marks), name="programs"))
    frame["gap"] = frame[variants[0]] - frame[variants[1]]
    return frame.round(4)


def adoption_sweep(p_adopts: Sequence[float] = (0.1, 0.5, 0.9), seeds: Sequence[int] = ablations.SEEDS,
                   budget: int = 1000) -> pd.DataFrame:
    """Return the full method's final training score with `MockLLM(p_adopt=p)`, per seed and the median over them."""
    ctx = ablations.context()
    scores = {p: [evolve(Evaluator(ctx.train, ctx.table), budget, seed=s, llm=MockLLM(p_adopt=p)).history[-1]
                  for s in seeds] for p in p_adopts}
    frame = pd.DataFrame(scores, index=pd.Index(list(seeds), name="seed")).T
    frame.index.name = "p_adopt"
    frame["median"] = frame.median(axis=1)
    return frame.round(4)


def focus_report(variants: Sequence[str] = ("full", "fb_worst3"), seeds: Sequence[int] = ablations.SEEDS,
                 budget: int = 1000) -> pd.DataFrame:
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
            rows.append({"variant": variant, "seed": seed,
                         "shapes targeted": len(Counter(s.target for s in steps)),
                         "in the last quarter": len({s.target for s in steps if s.step > budget * 3 // 4}),
                         "faster config known": np.mean([s.best_differs for s in steps]),
                         "known improvement": np.mean([s.known_improvement for s in steps]),
                         "adopted it": np.mean(["fastest config seen" in s.description for s in steps]),
                         "child beat its parent": np.mean([s.score is not None and s.score > s.parent_score
                                                           for s in steps]),
                         "final score": run.result.history[-1]})
    return pd.DataFrame(rows).set_index(["variant", "seed"]).round(3)


def new_shape_scores(study: AblationStudy) -> pd.DataFrame:
    """Return each variant's best programs scored on the 100 new shapes (median, min and max over the seeds), next to
    their median on the held-out test shapes, best first."""
    ctx = ablations.context()
    rows = {}
    for name, runs in study.runs.items():
        new = [geomean_speedup(r.best, ctx.new, ctx.table) for r in runs]
        rows[name] = {"new shapes (median)": float(np.median(new)), "min": min(new), "max": max(new),
                      "test shapes (median)": float(np.median([r.test for r in runs]))}
    frame = pd.DataFrame(rows).T.sort_values("new shapes (median)", ascending=False)
    frame.index.name = "variant"
    return frame.round(4)


def best_m_only_program() -> Program:
    """Return the best heuristic that tests M alone: for every M of the training shapes, the one config with the best
    geometric-mean speedup over the expert on the training shapes with that M, as `if M <= m` rules."""
    ctx = ablations.context()
    data = ShapeTimes(ctx.train, ctx.table)
    gain = data.program_log_times(expert_program())[:, None] - data.log_times  # -inf: cannot launch
    values = sorted(set(data.M.tolist()))
    configs = [ctx.table.configs[int(np.argmax(gain[data.M == m].sum(axis=0)))] for m in values]
    return Program(tuple(Rule(c, m_max=m) for m, c in zip(values[:-1], configs[:-1])), configs[-1])
