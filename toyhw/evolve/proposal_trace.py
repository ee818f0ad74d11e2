"""Inside one run: every proposal, its target shape, edit and verdict, and what the cascade did (notebook 05)."""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from toyhw.evolve.ablations import context
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.loop import check_budget, evolve
from toyhw.evolve.programs import Program



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
            has no cascade); bar: the stage-1 score it had to reach (CASCADE_RATIO x the best stage-1 score seen).
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
        from toyhw.evolve.targeting import known_improvement

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


class _TracingEvaluator(Evaluator):
    """The evaluator, unchanged, noting for every evaluation its stage-1 score and the bar it had to reach."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple] = []

    def evaluate(self, program):
        from toyhw.evolve import evaluator as evaluator_lib

        stage1 = bar = None
        if program is not None and self.cascade and not (self.check_all_branches and self.has_bad_branch(program)):
            logs = self.data.program_log_times(program)[self._stage1]  # a read of the table: no run is counted
            stage1 = math.exp(float(np.mean(self._log_expert1 - logs)))
            bar = evaluator_lib.CASCADE_RATIO * self._best_stage1
        result = super().evaluate(program)
        self.log.append((result, stage1, bar))
        return result


class _TracingLLM:
    """The variant's proposal step, unchanged, noting the parent, the target shape and the proposal of every call.

    The target is read with the mock's own `target` on a copy of the random state, then the state is put back, so
    the call that follows draws exactly what it would have drawn (the target is the mock's first draw).
    """

    def __init__(self, llm) -> None:
        self.llm = llm
        self.log: list[tuple] = []

    def __call__(self, parent, inspirations, feedback, rng):
        from toyhw.evolve.programs import choose

        state = rng.getstate()
        target = self.llm.target(feedback, rng)
        rng.setstate(state)
        proposal = self.llm(parent, inspirations, feedback, rng)
        differs = feedback.best_configs[target] != choose(parent.program, feedback.shapes[target])
        self.log.append((parent.id, parent.score, target, bool(differs), float(feedback.vs_best[target]), proposal))
        return proposal


@functools.lru_cache(maxsize=32)
def trace(variant: str = "full", seed: int = 0, budget: int = 200) -> Trace:
    """Return every proposal of the run of `variant` with `seed` and `budget` (the run of `run_one`, step by step).

    Only the variants' mock LLM can be traced (it has a `target`); unknown variant -> KeyError.
    """
    from toyhw.evolve.llm import MockLLM

    spec = variants_lib.get(variant)
    check_budget(budget)
    ctx = context()
    evaluator = _TracingEvaluator(ctx.train, ctx.table)
    llm = _TracingLLM(spec.evolve_kwargs.get("llm", MockLLM()))
    out = evolve(evaluator, budget, seed=seed, **{**spec.evolve_kwargs, "llm": llm})
    n_islands = spec.evolve_kwargs.get("n_islands", 4)
    steps = []
    for step, ((parent_id, parent_score, target, differs, vs_best, proposal), (result, stage1, bar)) in enumerate(
            zip(llm.log, evaluator.log[1:]), 1):  # evaluation 0 is the initial program's
        steps.append(Proposed(step, (step - 1) % n_islands, parent_id, parent_score, target, differs,
                              proposal.operator, proposal.description, proposal.program, result.status, result.score,
                              result.runs, stage1, bar, vs_best))
    return Trace(variant, seed, budget, tuple(steps), out)
