"""What the loop hands a proposal step and takes back from it: read-only inputs, a return value checked once.

Why: `evolve(..., llm=step)` runs any callable, a student's own step included. Such a step may return what it means
rather than what the loop reads (a bare Program, source text, a dict, None, a tuple) or an edit kind of its own, and
may write into what it is given (`parent.times[3] = 0`), which would silently change the run. So a step receives
entries whose times are read-only (the stored arrays, marked so once) and a Feedback whose mix is a read-only view,
and what it returns is checked with an error that names the step, what it returned and what is allowed. The values
are the loop's own, so the pack's steps (the mock, a real model) give the same runs bit for bit.
"""

from __future__ import annotations

import types
from typing import Sequence

from toyhw.evolve.database import Entry
from toyhw.evolve.llm import OPERATORS, Feedback, Proposal
from toyhw.evolve.programs import Program

EXPECTED = (
    "a Proposal(program, description, operator): program a Program (or None for a failed proposal), "
    f"description a text, operator one of {', '.join(OPERATORS)} (or None)"
)


def _freeze(entry: Entry) -> Entry:
    """Return `entry` with its times made read-only in place: stored times are never written, by the pack or a step
    (an Entry is frozen and its Program immutable, so the entry itself is then read-only)."""
    if entry.times is not None and entry.times.flags.writeable:
        entry.times.flags.writeable = False
    return entry


def read_only_inputs(
    parent: Entry, inspirations: Sequence[Entry], feedback: Feedback
) -> tuple[Entry, Sequence[Entry], Feedback]:
    """Return the step's inputs, read-only: the entries' times, and the mix as a read-only view (the ratios are
    computed afresh for each step: writing into them changes nothing)."""
    for entry in inspirations:
        _freeze(entry)
    mix = types.MappingProxyType(feedback.mix) if feedback.mix is not None else None
    shown = Feedback(feedback.shapes, feedback.vs_roofline, feedback.vs_best, feedback.best_configs, mix)
    return _freeze(parent), tuple(inspirations), shown


def _name(step_fn: object) -> str:
    name = getattr(step_fn, "__qualname__", None) or type(step_fn).__qualname__
    return f"the proposal step {name}"


def _cut(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def checked(proposal: object, step: int, step_fn: object) -> Proposal:
    """Return `proposal` if it is what the loop reads; else TypeError (wrong type) or ValueError (an unknown edit
    kind), naming the step, the call and what came back."""
    if (
        type(proposal) is Proposal
        and (proposal.program is None or type(proposal.program) is Program)
        and type(proposal.description) is str
        and (proposal.operator is None or proposal.operator in OPERATORS)
    ):
        return proposal  # the common case, decided without building a message
    where = f"{_name(step_fn)} (given to evolve as llm), at step {step},"
    if not isinstance(proposal, Proposal):
        hint = {
            Program: "wrap the Program: Proposal(program, 'what changed', 'retune')",
            str: "parse source text first: toyhw.evolve.source.parse(text)",
            type(None): "return a Proposal",
            dict: "build a Proposal from it",
            tuple: "build a Proposal from it: Proposal(*values)",
        }
        extra = next((h for t, h in hint.items() if isinstance(proposal, t)), "return a Proposal")
        raise TypeError(
            f"{where} returned {type(proposal).__name__} {_cut(proposal)}; it must return {EXPECTED} ({extra})"
        )
    if proposal.program is not None and not isinstance(proposal.program, Program):
        raise TypeError(
            f"{where} returned a Proposal whose program is {type(proposal.program).__name__} "
            f"{_cut(proposal.program)}; it must return {EXPECTED}"
        )
    if not isinstance(proposal.description, str):
        raise TypeError(
            f"{where} returned a Proposal whose description is {_cut(proposal.description)}; it must return {EXPECTED}"
        )
    if proposal.operator is not None and proposal.operator not in OPERATORS:
        raise ValueError(
            f"{where} returned the edit kind {_cut(proposal.operator)}; it must be one of "
            f"{', '.join(OPERATORS)} (or None)"
        )
    return proposal


class GuardedStep:
    """A proposal step as the loop calls it: read-only inputs in, a checked Proposal out. Wrapping the step once,
    before the loop, keeps the loop's own line the plain call students read (`llm(parent, inspirations, ...)`)."""

    def __init__(self, step_fn: object) -> None:
        self.step_fn = step_fn
        self.calls = 0

    def __call__(self, parent: Entry, inspirations: Sequence[Entry], feedback: Feedback, rng: object) -> Proposal:
        self.calls += 1  # one call per step of the loop: the step's number in an error
        return checked(self.step_fn(*read_only_inputs(parent, inspirations, feedback), rng), self.calls, self.step_fn)
