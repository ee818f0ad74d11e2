"""Inside the loop as tables: the target-shape draw, what the edits do, the prompt's parts and one run proposal by
proposal (notebook 05)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from toyhw.evolve.experiments import ablations
from toyhw.evolve.llm import target_shares


def target_frame(feedback, top: int = 8) -> pd.DataFrame:
    """Return the chance that each training shape is the target, under each way the mock LLM picks one.

    `feedback` is a toyhw.evolve.llm.Feedback. Columns: vs_best, vs_roofline, and the chance of being drawn when the
    weights are 1/ratio - 1 + 0.05 on vs_best (full) or on vs_roofline (fb_roofline), uniformly (no_feedback), or
    uniformly among the 3 lowest vs_best (fb_worst3). The `top` shapes most likely under vs_best come first.
    """
    vs_best, vs_roofline = np.asarray(feedback.vs_best), np.asarray(feedback.vs_roofline)
    n = len(vs_best)

    worst3 = np.zeros(n)
    worst3[np.argsort(vs_best, kind="stable")[:3]] = 1 / 3
    frame = pd.DataFrame(
        {
            "shape": [s.label() for s in feedback.shapes],
            "vs_best": vs_best,
            "vs_roofline": vs_roofline,
            "weighted vs_best": target_shares(vs_best),
            "weighted vs_roofline": target_shares(vs_roofline),
            "uniform": np.full(n, 1 / n),
            "worst 3": worst3,
        }
    ).set_index("shape")
    return frame.sort_values("weighted vs_best", ascending=False, kind="stable").head(top).round(3)


def proposal_frame(llm, parent, inspirations, feedback, evaluator, n: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Return `n` proposals of `llm` for the same parent, inspirations and feedback, one row each.

    Columns: target (the shape's label), operator, faster config known (the best config seen for the target differs
    from the parent's config there: only then can the LLM adopt one), adopted (the LLM adopted the best config seen
    for the target), fields changed (of the config at the target, 0-6), can launch (every branch of the child can launch),
    faster there (the child's config at the target is faster than the parent's), description. Draws come from
    `random.Random(seed)`; `evaluator` (an Evaluator on the same shapes) only reads its table, no run is counted.
    """
    import random

    from toyhw.evolve.llm import peek_target
    from toyhw.evolve.programs import choose
    from toyhw.gemm.config import FIELDS

    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        target = peek_target(llm, feedback, rng)
        proposal = llm(parent, inspirations, feedback, rng)
        shape = feedback.shapes[target]
        old, new = choose(parent.program, shape), choose(proposal.program, shape)
        rows.append(
            {
                "target": shape.label(),
                "operator": proposal.operator,
                "faster config known": feedback.best_configs[target] != old,
                "adopted": "fastest config seen" in proposal.description,
                "fields changed": sum(getattr(old, f) != getattr(new, f) for f in FIELDS),
                "can launch": not evaluator.has_bad_branch(proposal.program),
                "faster there": bool(evaluator.table.time(new, shape) < evaluator.table.time(old, shape)),
                "description": proposal.description,
            }
        )
    return pd.DataFrame(rows)


def prompt_frame(views) -> pd.DataFrame:
    """Return, per prompt view (toyhw.course.prompt_view.PromptView), the characters of each part (0 when the
    variant leaves it out), the total characters and estimated tokens, and what the mock did at that step."""
    from toyhw.evolve.bridge.prompt import PART_NAMES

    rows = []
    for view in views:
        parts = dict(view.prompt.parts)
        rows.append(
            {
                "variant": view.variant,
                **{name: len(parts.get(name, "")) for name in PART_NAMES},
                "characters": view.chars,
                "tokens (est.)": view.tokens,
                "the mock's change": view.description,
            }
        )
    return pd.DataFrame(rows).set_index("variant")


def trace_frame(trace) -> pd.DataFrame:
    """Return a run's proposals (toyhw.evolve.experiments.ablations.trace) as a table, one row per proposal, indexed by step.

    Columns: island, parent (entry id), target (the shape's label), operator, status, score, beat its parent,
    could adopt (a faster config was known for the target and the edit was not a borrow), adopted, kernel runs,
    stage 1 and bar (the cascade's score and the score it had to reach; empty when not run), description.
    """
    train = ablations.context().train
    rows = [
        {
            "step": s.step,
            "island": s.island,
            "parent": s.parent_id,
            "target": train[s.target].label(),
            "operator": s.operator,
            "status": s.status,
            "score": s.score,
            "beat its parent": s.score is not None and s.score > s.parent_score,
            "could adopt": s.best_differs and s.operator != "borrow",
            "adopted": "fastest config seen" in s.description,
            "kernel runs": s.runs,
            "stage 1": s.stage1,
            "bar": s.bar,
            "description": s.description,
        }
        for s in trace.steps
    ]
    return pd.DataFrame(rows).set_index("step")
