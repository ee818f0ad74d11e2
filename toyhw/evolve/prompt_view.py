"""The prompt at one step of a run, next to what the mock LLM did with it (notebook 05, `python -m toyhw prompt`).

How: the run is replayed up to step k with a recording wrapper around the variant's MockLLM. The wrapper passes every
call through unchanged (the same arguments, the same random stream), so the run is the run of `ablations.run_one`
cut at k, and at its k-th call it keeps what the mock read - parent, inspirations, feedback - and what it proposed.
The prompt is rendered from exactly those (toyhw.evolve.prompt), so it says what the mock knew at that step.
"""
from __future__ import annotations

import difflib
import functools
import random
from dataclasses import dataclass
from typing import Optional, Sequence

from toyhw.evolve import ablations, variants as variants_lib
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.llm import Entry, Feedback, MockLLM, Proposal
from toyhw.evolve.loop import check_budget, evolve
from toyhw.evolve.programs import render
from toyhw.evolve.prompt import Prompt, render_prompt, settings_for
from toyhw.evolve.replies import as_diff


@dataclass(frozen=True)
class PromptView:
    """The prompt of one step and the mock's answer to it.

    Attributes:
        variant, seed, step: which run and which proposal (1 = the first).
        prompt: the rendered prompt (its parts, messages and text).
        chars: characters of the prompt (system and user message).
        tokens: estimated tokens (toyhw.evolve.prompt.estimate_tokens: letters, 3-digit number chunks, line breaks,
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


class _Recorder:
    """A proposal step that calls `llm` unchanged and keeps the arguments and result of call number `step`."""

    def __init__(self, llm: MockLLM, step: int) -> None:
        self.llm, self.step, self.calls = llm, step, 0
        self.seen: Optional[tuple[Entry, Sequence[Entry], Feedback, Proposal]] = None

    def __call__(self, parent: Entry, inspirations: Sequence[Entry], feedback: Feedback,
                 rng: random.Random) -> Proposal:
        self.calls += 1
        if self.calls != self.step:
            return self.llm(parent, inspirations, feedback, rng)
        # copied before the call: the loop's best-config view and mix change as the run goes on
        frozen = Feedback(feedback.shapes, feedback.vs_roofline.copy(), feedback.vs_best.copy(),
                          tuple(feedback.best_configs), dict(feedback.mix) if feedback.mix is not None else None)
        proposal = self.llm(parent, inspirations, feedback, rng)
        self.seen = (parent, tuple(inspirations), frozen, proposal)
        return proposal


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
    recorder = _Recorder(spec.evolve_kwargs.get("llm", MockLLM()), step)
    evolve(Evaluator(ctx.train, ctx.table), step, seed=seed, **{**spec.evolve_kwargs, "llm": recorder})
    parent, inspirations, feedback, proposal = recorder.seen
    prompt = render_prompt(parent, inspirations, feedback, settings, ctx.table.gpu)
    parent_source, child_source = render(parent.program), render(proposal.program)
    diff = "".join(difflib.unified_diff(parent_source.splitlines(True), child_source.splitlines(True), "parent",
                                        "child"))
    body = as_diff(parent_source, child_source) if answer == "diff" else f"```python\n{child_source}```"
    return PromptView(variant, seed, step, prompt, prompt.chars(), prompt.tokens(), parent.score,
                      proposal.description, proposal.operator, parent_source, child_source, diff,
                      f"{proposal.description}\n{body}", geomean_speedup(proposal.program, ctx.train, ctx.table))
