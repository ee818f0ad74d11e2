"""Inside one run: every proposal, its target shape, edit and verdict, and what the cascade did (notebook 05)."""

from __future__ import annotations

import math

import functools
from dataclasses import dataclass
from typing import Optional

from toyhw.evolve import variants as variants_lib
from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import peek_target
from toyhw.evolve.loop import StepRecord, check_budget, evolve
from toyhw.evolve.programs import Program, choose


@dataclass(frozen=True)
class Proposed:
    """One proposal of a run, as the loop saw it.

    Attributes:
        step: the proposal number (1 = the first); island: the island it was made for.
        parent_id, parent_score: the parent's entry id and training score.
        target: the index (in `context().train`) of the training shape the LLM worked on.
        best_differs: whether the best config seen for the target differed from the parent's config there (only
            then can the LLM adopt it).
        operator: the edit kind; description: the LLM's one line; program: the child.
        status: the evaluator's verdict ("ok", "bad branch", "crash", "cascade", "invalid"); score: the child's
            training score (None unless "ok"); runs: the kernel runs its evaluation cost.
        stage1: its score on the cascade's stage-1 shapes (None when the branch check rejected it first or the run
            has no cascade); bar: the stage-1 score it had to reach (cascade_ratio x the best stage-1 score seen).
        target_vs_best: the parent's vs_best on the target (1 = at the best time seen there).
    """

    step: int
    island: int
    parent_id: int
    parent_score: float
    target: int
    best_differs: bool
    operator: Optional[str]
    description: str
    program: Optional[Program]
    status: str
    score: Optional[float]
    runs: int
    stage1: Optional[float]
    bar: Optional[float]
    target_vs_best: float = math.nan

    @property
    def known_improvement(self) -> bool:
        """Return whether the target had a known improvement for the parent (`targeting.known_improvement`)."""
        from toyhw.evolve.experiments.targeting import known_improvement

        return known_improvement(self.target_vs_best)


@dataclass(frozen=True)
class Trace:
    """Every proposal of one run, with the run's result.

    Attributes:
        variant, seed, budget: what was run; steps: one Proposed per proposal, in order.
        result: the run's EvolveResult (history, final database, lineage, statuses) - the run of `run_one`.
    """

    variant: str
    seed: int
    budget: int
    steps: tuple[Proposed, ...]
    result: object


@functools.lru_cache(maxsize=32)
def trace(variant: str = "full", seed: int = 0, budget: int = 200) -> Trace:
    """Return every proposal of the run of `variant` with `seed` and `budget` (the run of `run_one`, step by step).

    Only the variants' mock LLM can be traced (it has a `target`); unknown variant -> KeyError.
    """
    spec = variants_lib.get(variant)
    check_budget(budget)
    ctx = context()
    steps: list[Proposed] = []

    def note(s: StepRecord) -> None:
        target = peek_target(spec.llm, s.feedback, s.rng)
        differs = s.feedback.best_configs[target] != choose(s.parent.program, s.feedback.shapes[target])
        proposal, outcome = s.proposal, s.outcome
        steps.append(
            Proposed(
                s.step,
                s.island,
                s.parent.id,
                s.parent.score,
                target,
                bool(differs),
                proposal.operator,
                proposal.description,
                proposal.program,
                outcome.status,
                outcome.score,
                outcome.runs,
                outcome.stage1,
                outcome.bar,
                float(s.feedback.vs_best[target]),
            )
        )

    out = evolve(Evaluator(ctx.train, ctx.table), budget, seed=seed, llm=spec.llm, config=spec.config, observer=note)
    return Trace(variant, seed, budget, tuple(steps), out)
