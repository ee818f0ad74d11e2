"""The prompt at one step of a run, next to what the mock LLM did with it (notebook 05, `python -m toyhw prompt`).

How: the run of `ablations.run_one` is replayed up to step k with an observer that keeps the loop's record of step k:
what the mock read (parent, inspirations, feedback) and what it proposed. The prompt is rendered from exactly those
(toyhw.evolve.bridge.prompt), so it says what the mock knew at that step.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from typing import Optional

from toyhw.evolve.experiments import ablations
from toyhw.evolve import variants as variants_lib
from toyhw.evolve.config import DEFAULT, EvolveConfig
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.loop import ProposalStep, StepRecord, check_budget, evolve
from toyhw.evolve.programs import render
from toyhw.evolve.bridge.prompt import Prompt, render_prompt, settings_for
from toyhw.evolve.bridge.replies import as_diff


@dataclass(frozen=True)
class PromptView:
    """The prompt of one step and the mock's answer to it.

    Attributes:
        variant, seed, step: which run and which proposal (1 = the first).
        prompt: the rendered prompt (its parts, messages and text).
        chars: characters of the prompt (system and user message).
        tokens: estimated tokens (toyhw.evolve.bridge.prompt.estimate_tokens: letters, 3-digit number chunks, line breaks,
            punctuation pairs; no tokenizer).
        parent_score: the parent's training score.
        description: the mock's one-line description of its change; operator: its edit kind.
        parent_source, child_source: the programs as source.
        diff: a unified diff from parent to child (empty when the child is the parent).
        reply: the mock's change written as a model would answer this prompt (its description, then SEARCH/REPLACE
            blocks or the whole program).
        child_score: the child's training score (0.0 if some training shape cannot launch), counted outside the run.
    """

    variant: str
    seed: int
    step: int
    prompt: Prompt
    chars: int
    tokens: int
    parent_score: float
    description: str
    operator: str
    parent_source: str
    child_source: str
    diff: str
    reply: str
    child_score: float


def record_step(
    step: int, evaluator: Evaluator, seed: int = 0, llm: Optional[ProposalStep] = None, config: EvolveConfig = DEFAULT
) -> StepRecord:
    """Return what the loop did at proposal `step` of a run (the run cut at `step`; the same arguments, the same run)."""
    seen: list[StepRecord] = []
    evolve(
        evaluator,
        step,
        seed=seed,
        llm=llm,
        config=config,
        observer=lambda s: seen.append(s) if s.step == step else None,
    )
    return seen[0]


@functools.lru_cache(maxsize=64)
def prompt_at(variant: str = "full", seed: int = 0, step: int = 100, answer: str = "diff") -> PromptView:
    """Return the prompt of proposal `step` in the run of `variant` with `seed`, and what the mock did with it.

    `answer` is the answer format the prompt asks for ("diff": SEARCH/REPLACE blocks, or "program"). Raises KeyError
    for an unknown variant and ValueError naming `step` unless it is an integer >= 1.
    """
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise ValueError(f"step = {step!r} is not allowed; it must be an integer >= 1 (a proposal of the run)")
    check_budget(step)
    spec = variants_lib.get(variant)
    settings = settings_for(variant, answer)
    ctx = ablations.context()
    seen = record_step(step, Evaluator(ctx.train, ctx.table), seed=seed, llm=spec.llm, config=spec.config)
    parent, inspirations, feedback, proposal = seen.parent, seen.inspirations, seen.feedback, seen.proposal
    prompt = render_prompt(parent, inspirations, feedback, settings, ctx.table.gpu)
    parent_source, child_source = render(parent.program), render(proposal.program)
    diff = "".join(
        difflib.unified_diff(parent_source.splitlines(True), child_source.splitlines(True), "parent", "child")
    )
    body = as_diff(parent_source, child_source) if answer == "diff" else f"```python\n{child_source}```"
    return PromptView(
        variant,
        seed,
        step,
        prompt,
        prompt.chars(),
        prompt.tokens(),
        parent.score,
        proposal.description,
        proposal.operator,
        parent_source,
        child_source,
        diff,
        f"{proposal.description}\n{body}",
        geomean_speedup(proposal.program, ctx.train, ctx.table),
    )
