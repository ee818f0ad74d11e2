"""The mock LLM: proposes a child heuristic from a parent, inspirations and per-shape feedback. No language model here.

A proposal step is any callable `(parent, inspirations, feedback, rng) -> Proposal` (parent and inspirations are
database entries with `.program` and `.times`). The mock models what matters for the ablations:

- it picks a *target shape* from the feedback: weights `1/ratio - 1 + 0.05` on `vs_best` (default) or `vs_roofline`,
  uniformly (no feedback), or uniformly among the worst 3;
- with kernel knowledge it makes directed multi-field edits for the target: half the time it adopts the best config
  seen for the target, otherwise it writes a regime-appropriate config (toyhw.evolve.knowledge), which sometimes cannot launch
  (an imperfect model); without knowledge ("small LLM") it changes one field by one step. Only best-seen feedback
  carries a config (the one that ran fastest): a roofline is a bound, not a config, so with roofline feedback or none
  the LLM can only write configs from knowledge;
- some edits generalize, like real LLM code does ("for M between 513 and 768 ..."): they split a rule or add a rule
  for a neighbouring M range with a guessed config that no training shape may ever reach (how latent bad branches
  arise);
- it can borrow the rule an inspiration uses for the target, when that inspiration is faster there.

Each proposal carries a one-line description, like an LLM's explanation of its diff.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from typing import Mapping, Optional, Protocol, Sequence

import numpy as np

from toyhw.evolve import knowledge
from toyhw.gemm.config import FIELDS, GemmConfig
from toyhw.evolve.programs import Program, Rule, firing_rule
from toyhw.gemm.shapes import Shape

OPERATORS = ("retune", "specialize", "generalize", "borrow")
"""Edit kinds: change the config of the rule that decides the target; add a rule for it; add or split a rule that
also covers a neighbouring M range (generalizing); copy a rule from an inspiration."""
FIXED_MIX: Mapping[str, float] = {"retune": 0.3, "specialize": 0.35, "generalize": 0.2, "borrow": 0.15}
"""The default share of each edit kind (the "prompt's instructions"); toyhw.evolve.loop may adapt it (meta prompt)."""
FEEDBACK_KEYS = ("best", "roofline", None)
FOCUS = ("weighted", "worst3")
TARGET_FLOOR = 0.05
"""The weight of a shape with nothing left to gain (ratio 1), so that every shape can still be drawn."""
THRESHOLDS = (
    1,
    2,
    4,
    8,
    12,
    16,
    24,
    32,
    48,
    64,
    96,
    128,
    192,
    256,
    384,
    512,
    768,
    1024,
    1536,
    2048,
    3072,
    4096,
    6144,
    8192,
    12288,
    16384,
)
"""Round M thresholds an engineer (or an LLM) writes in conditions."""


@dataclass(frozen=True)
class Feedback:
    """What the prompt says about the parent, per training shape.

    Attributes:
        shapes: the training shapes, in the evaluator's order.
        vs_roofline: roofline time / parent's time per shape (<= 1).
        vs_best: best time seen / parent's time per shape (<= 1).
        best_configs: the config that gave the best time seen, per shape.
        mix: the share of each edit kind the prompt asks for (the meta prompt), None = FIXED_MIX.
    """

    shapes: tuple[Shape, ...]
    vs_roofline: np.ndarray
    vs_best: np.ndarray
    best_configs: Sequence[GemmConfig]
    mix: Optional[Mapping[str, float]] = None

    def frozen(self) -> "Feedback":
        """Return a copy that no later step of the run changes (the loop's best-config view and arrays move on)."""
        return Feedback(
            self.shapes,
            self.vs_roofline.copy(),
            self.vs_best.copy(),
            tuple(self.best_configs),
            dict(self.mix) if self.mix is not None else None,
        )


@dataclass(frozen=True)
class Proposal:
    """A child program and what the LLM says it changed.

    Attributes:
        program: the child; None for a failed proposal (a real model's reply that gave no program), which the
            evaluator rejects as "invalid" (see `failed_proposal`).
        description: one line, like an LLM's explanation of its diff (for a failed proposal: why it failed).
        operator: the edit kind (one of OPERATORS), for the meta prompt's bookkeeping; None for a failed proposal.
    """

    program: Optional[Program]
    description: str
    operator: Optional[str]


def failed_proposal(message: str) -> Proposal:
    """Return the proposal of a step whose LLM gave no program (a reply that does not parse, a diff that does not
    apply, no reply at all), with the reason as its description.

    Why a proposal and not an exception: the loop counts it like a crash (a step of the budget spent, nothing added)
    and goes on; the mock never fails, so its runs are unchanged.
    """
    return Proposal(None, message, None)


class ProgramWithTimes(Protocol):
    """What a proposal step reads from a database entry."""

    program: Program
    times: np.ndarray


def target_weights(ratio) -> np.ndarray:
    """Return each shape's weight as the target: 1/ratio - 1 + TARGET_FLOOR.

    A shape far from its reference (a small ratio) is heavy; one at it keeps the floor.
    """
    return 1.0 / np.asarray(ratio, dtype=float) - 1.0 + TARGET_FLOOR


def weighted_index(weights: np.ndarray, rng: random.Random) -> int:
    """Return an index drawn with chance weights[i] / sum(weights), from one `rng.random()` (the draw `rng.choices`
    makes, on a numpy array)."""
    cumulative = np.cumsum(weights)
    return min(int(cumulative.searchsorted(rng.random() * cumulative[-1], side="right")), len(cumulative) - 1)


def target_shares(ratio) -> np.ndarray:
    """Return the chance that each shape is drawn as the target: its weight over the sum of the weights."""
    weights = target_weights(ratio)
    return weights / weights.sum()


def edit_weights(
    mix: Optional[Mapping[str, float]], knowledge: bool, new_rules: bool, can_borrow: bool
) -> dict[str, float]:
    """Return the weight of each edit kind the mock may pick (in OPERATORS order; `mix` None = FIXED_MIX).

    Without new rules only a retune is left; without knowledge no guessed config (only retune and specialize);
    borrowing needs an inspiration that is faster on the target (`can_borrow`).
    """
    mix = mix or FIXED_MIX
    if not new_rules:
        mix = {"retune": 1.0}
    elif not knowledge:
        mix = {"retune": mix["retune"], "specialize": mix["specialize"]}
    return {op: mix[op] for op in OPERATORS if op in mix and (can_borrow or op != "borrow")}


def peek_target(llm: "MockLLM", feedback: Feedback, rng: random.Random) -> int:
    """Return the training shape `llm` would target next with `rng`, leaving `rng` where it was.

    The target is the mock's first draw, so the proposal that follows draws exactly what it draws without the peek.
    """
    state = rng.getstate()
    target = llm.target(feedback, rng)
    rng.setstate(state)
    return target


def _round_below(m: int) -> int:
    i = bisect.bisect_left(THRESHOLDS, m)
    return THRESHOLDS[i - 1] if i > 0 else 0


def _round_above(m: int) -> int:
    i = bisect.bisect_right(THRESHOLDS, m)
    return THRESHOLDS[i] if i < len(THRESHOLDS) else m * 2


@dataclass(frozen=True)
class MockLLM:
    """A deterministic stand-in for the LLM (all randomness comes from the `rng` of each call).

    Attributes:
        knowledge: True = kernel knowledge (directed multi-field edits); False = single-field edits ("small LLM").
        feedback: what the prompt compares each shape with: "best" (vs_best, with the best config seen: the LLM may
            adopt it), "roofline" (vs_roofline: a bound, no config) or None (no per-shape results; uniform targets).
        focus: "weighted" (all shapes, weights 1/ratio - 1 + 0.05) or "worst3" (uniform among the 3 lowest ratios).
        use_inspirations: may borrow rules from inspirations.
        new_rules: may add or split rules; False = only the configs of the parent's existing rules change (the
            analogue of AlphaEvolve's "no full-file evolution").
        p_adopt: with knowledge, the chance to adopt the best config seen for the target.
        p_condition: with knowledge, the chance a new rule also tests N or K.
    """

    knowledge: bool = True
    feedback: Optional[str] = "best"
    focus: str = "weighted"
    use_inspirations: bool = True
    new_rules: bool = True
    p_adopt: float = 0.5
    p_condition: float = 0.5

    def __post_init__(self) -> None:
        if self.feedback not in FEEDBACK_KEYS:
            raise ValueError(f"feedback = {self.feedback!r} is not allowed; allowed: {list(FEEDBACK_KEYS)}")
        if self.focus not in FOCUS:
            raise ValueError(f"focus = {self.focus!r} is not allowed; allowed: {list(FOCUS)}")

    # ----- choosing what to work on
    def target(self, feedback: Feedback, rng: random.Random) -> int:
        """Return the index of the training shape to improve."""
        n = len(feedback.shapes)
        if self.feedback is None:
            return rng.randrange(n)
        ratio = feedback.vs_best if self.feedback == "best" else feedback.vs_roofline
        if self.focus == "worst3":
            worst = np.argsort(ratio, kind="stable")[:3]
            return int(worst[rng.randrange(len(worst))])
        return weighted_index(target_weights(ratio), rng)

    def _operator(self, feedback: Feedback, rng: random.Random, can_borrow: bool) -> str:
        weights = edit_weights(feedback.mix, self.knowledge, self.new_rules, can_borrow)
        return rng.choices(list(weights), weights=list(weights.values()))[0]

    # ----- what config to write for a shape
    def _directed(
        self, shape: Shape, current: GemmConfig, best: GemmConfig, rng: random.Random
    ) -> tuple[GemmConfig, str]:
        if not self.knowledge:
            field = rng.choice(tuple(FIELDS))
            values = FIELDS[field]
            i = values.index(getattr(current, field))
            j = min(max(i + rng.choice((-1, 1)), 0), len(values) - 1)
            if j == i:
                j = i - 1 if i > 0 else i + 1
            fields = [values[j] if f == field else getattr(current, f) for f in FIELDS]
            return knowledge.make_config(*fields), f"{field} {values[i]} -> {values[j]}"
        if self.feedback == "best" and best != current and rng.random() < self.p_adopt:
            return best, f"use the fastest config seen there ({best.short()})"
        config, why = knowledge.suggest(shape.M, shape.N, shape.K, rng)
        return config, why

    def _conditions(self, shape: Shape, rng: random.Random, lo: Optional[int], hi: Optional[int]) -> dict:
        bounds = {"m_min": lo, "m_max": hi}
        if self.knowledge and rng.random() < self.p_condition:
            key = rng.choice(("n_max", "n_min", "k_min", "k_max"))
            bounds[key] = shape.N if key[0] == "n" else shape.K
        return bounds

    def _m_range(self, m: int, rng: random.Random) -> tuple[Optional[int], Optional[int]]:
        kind = rng.randrange(4)
        if kind == 0:
            return m, m
        if kind == 1:
            return None, (m if rng.random() < 0.5 else _round_above(m))
        if kind == 2:
            return (m if rng.random() < 0.5 else _round_below(m) + 1), None
        return _round_below(m) + 1, _round_above(m)

    # ----- the proposal step
    def __call__(
        self, parent: ProgramWithTimes, inspirations: Sequence[ProgramWithTimes], feedback: Feedback, rng: random.Random
    ) -> Proposal:
        """Return a child of `parent.program` aimed at one training shape, with a one-line description."""
        t = self.target(feedback, rng)
        shape = feedback.shapes[t]
        program = parent.program
        f = firing_rule(program, shape.M, shape.N, shape.K)
        current = program.rules[f].config if f < len(program.rules) else program.default
        donors = (
            [e for e in inspirations if e.times is not None and e.times[t] < parent.times[t]]
            if self.use_inspirations and self.new_rules
            else []
        )
        op = self._operator(feedback, rng, bool(donors))
        where = f"for {shape.label()}"
        if op == "borrow":
            donor = donors[rng.randrange(len(donors))]
            d = firing_rule(donor.program, shape.M, shape.N, shape.K)
            rule = (
                donor.program.rules[d]
                if d < len(donor.program.rules)
                else Rule(donor.program.default, m_min=shape.M, m_max=shape.M)
            )
            child = Program(program.rules[:f] + (rule,) + program.rules[f:], program.default)
            return Proposal(child, f"borrow `if {rule.condition()}` from an inspiration ({where})", op)
        config, why = self._directed(shape, current, feedback.best_configs[t], rng)
        if op == "retune" or config == current and op != "generalize":
            if f < len(program.rules):
                rules = program.rules[:f] + (program.rules[f].with_config(config),) + program.rules[f + 1 :]
                child = Program(rules, program.default)
                return Proposal(child, f"rule `if {program.rules[f].condition()}`: {why} ({where})", "retune")
            return Proposal(Program(program.rules, config), f"default: {why} ({where})", "retune")
        if op == "specialize":
            rule = Rule(config, **self._conditions(shape, rng, *self._m_range(shape.M, rng)))
            child = Program(program.rules[:f] + (rule,) + program.rules[f:], program.default)
            return Proposal(child, f"new rule `if {rule.condition()}`: {why} ({where})", op)
        return self._generalize(program, f, shape, config, why, rng)

    def _generalize(
        self, program: Program, f: int, shape: Shape, config: GemmConfig, why: str, rng: random.Random
    ) -> Proposal:
        """Add a rule for the target and one for a neighbouring M range with a guessed config (never tested there)."""
        m = shape.M
        conditions = self._conditions(shape, rng, None, None)
        if rng.random() < 0.5:  # split at a round threshold: the target's side and the other side
            cut = _round_below(m) if rng.random() < 0.5 and m > 1 else _round_above(m)
            if cut < m:
                mine, other = (cut + 1, None), (None, cut)
            else:
                mine, other = (None, cut), (cut + 1, None)
        else:  # the target's M and the next gap between thresholds, above or below
            if rng.random() < 0.5:
                mine, other = (None, m), (m + 1, _round_above(m))
            else:
                mine, other = (m, None), (_round_below(m), m - 1) if m > 1 else (m + 1, _round_above(m))
        if f < len(program.rules):  # stay inside the M range of the rule that decides the target now
            mine, other = (
                _clip(mine, program.rules[f].m_min, program.rules[f].m_max),
                _clip(other, program.rules[f].m_min, program.rules[f].m_max),
            )
        first = (
            Rule(config, **{**conditions, "m_min": mine[0], "m_max": mine[1]})
            if mine != (None, None) or len(conditions) > 2
            else None
        )
        if first is None:
            return Proposal(Program(program.rules, config), f"default: {why} (for {shape.label()})", "retune")
        new = (first,)
        if (other[0] is None or other[1] is None or other[0] <= other[1]) and (
            other != (None, None) or len(conditions) > 2
        ):
            near = other[1] if other[1] is not None else max(other[0] or 1, 1) * 2
            guess, _ = knowledge.suggest(max(near, 1), shape.N, shape.K, rng)
            second = Rule(guess, **{**conditions, "m_min": other[0], "m_max": other[1]})
            new = (first, second)
        child = Program(program.rules[:f] + new + program.rules[f:], program.default)
        if len(new) == 1:
            return Proposal(child, f"new rule `if {first.condition()}`: {why} (for {shape.label()})", "generalize")
        guess = new[1].config
        return Proposal(
            child,
            f"split into `if {first.condition()}` ({why}) and `if {second.condition()}` "
            f"(guess {guess.short()}) (for {shape.label()})",
            "generalize",
        )


def _clip(span: tuple[Optional[int], Optional[int]], lo: Optional[int], hi: Optional[int]):
    a, b = span
    if lo is not None:
        a = lo if a is None else max(a, lo)
    if hi is not None:
        b = hi if b is None else min(b, hi)
    return a, b
