"""Reference solutions of the exercises of notebooks 04 and 05 (students: try first, then compare).

Each notebook shows a function's exact source in its Solution block (a content test compares them), and
tests/evolve/test_solutions_04_05.py runs each one and checks what the notebook says about its result. Each notebook's
solutions sit in their own block below; notebooks 06-08's are in toyhw.evolve.solutions_06_08.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pandas as pd

from toyhw.evolve import ablations, prompt_view, proposal_trace
from toyhw.evolve.ablations import AblationStudy
from toyhw.evolve.database import Database, Entry
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


# ----- notebook 05

def tournament_best_share(sizes: Sequence[int] = (1, 2, 3, 5), island: int = 25, draws: int = 20000,
                          seed: int = 0) -> pd.DataFrame:
    """Return, per tournament size k, how often the best program of a full island is picked as the parent.

    The formula: the best is picked unless all k draws (with replacement) miss it, 1 - (1 - 1/n)^k; measured with
    `Database.sample` on one island of `island` programs with distinct scores, `draws` times.
    """
    expert = expert_program()
    entries = [Entry(i, Program((Rule(expert.default, m_max=i),), expert.default), 1.0 + i / 1000, np.ones(1), None,
                     f"program {i}", i) for i in range(island)]
    rows = {}
    for k in sizes:
        db = Database(entries[0], n_islands=1, capacity=island, tournament=k)
        for entry in entries[1:]:
            db.add(entry, 0)
        rng = random.Random(seed)
        best = sum(db.sample(0, rng)[0] is entries[-1] for _ in range(draws))
        rows[k] = {"formula": 1 - (1 - 1 / island) ** k, "measured": best / draws}
    frame = pd.DataFrame(rows).T
    frame.index.name = "tournament size"
    return frame.round(4)


def cascade_misses(seed: int = 0, budget: int = 1000) -> dict[str, float]:
    """Return what the cascade cut in the full method's run: how many programs, the kernel runs that saved, and how
    many of the cut programs would have beaten their parent, or the best score so far, had they run on every shape
    (scored here by reading the time table, outside the run)."""
    ctx = ablations.context()
    run = proposal_trace.trace("full", seed, budget)
    cut = [s for s in run.steps if s.status == "cascade"]
    full = [geomean_speedup(s.program, ctx.train, ctx.table) for s in cut]
    best_before = [run.result.history[s.step - 2] if s.step > 1 else 1.0 for s in cut]  # the expert scores 1.0
    return {"cut": len(cut), "runs saved": sum(len(ctx.train) - s.runs for s in cut),
            "runs spent": run.result.kernel_runs,
            "would beat their parent": sum(f > s.parent_score for f, s in zip(full, cut)),
            "would beat the best so far": sum(f > b for f, b in zip(full, best_before)),
            "best of them": max(full)}


def prompt_growth(variant: str = "full", seed: int = 0, steps: Sequence[int] = (1, 10, 100, 1000)) -> pd.DataFrame:
    """Return the prompt's size at several steps of one run: the parent's branches and the characters of its biggest
    parts, the total characters and the estimated tokens."""
    rows = []
    for step in steps:
        view = prompt_view.prompt_at(variant, seed, step)
        parts = dict(view.prompt.parts)
        rows.append({"step": step, "parent branches": view.parent_source.count("return "),
                     "parent": len(parts["parent"]), "inspirations": len(parts.get("inspirations", "")),
                     "feedback": len(parts.get("feedback", "")), "characters": view.chars,
                     "tokens (est.)": view.tokens})
    return pd.DataFrame(rows).set_index("step")
