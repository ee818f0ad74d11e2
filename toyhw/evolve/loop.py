"""The mini AlphaEvolve loop: sample a parent and inspirations, ask the LLM for a child, evaluate it, store it.

This module only wires the parts (toyhw.evolve.database, toyhw.evolve.llm, toyhw.evolve.evaluator); each ablation switches one of them.
The budget counts proposed programs, never seconds, so every run is a pure function of its parameters and seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

from toyhw import checks
from toyhw.evolve.config import DEFAULT, EvolveConfig
from toyhw.evolve.database import Database, Entry
from toyhw.evolve.evaluator import EvalResult, Evaluator
from toyhw.evolve.llm import FIXED_MIX, OPERATORS, Feedback, MockLLM, Proposal
from toyhw.evolve.programs import Program, expert_program
from toyhw.evolve.step_guard import GuardedStep

ProposalStep = Callable[..., Proposal]


@dataclass(frozen=True)
class StepRecord:
    """What the loop did at one proposal, handed to `evolve`'s observer after the step.

    Attributes:
        step: the proposal number (1 = the first); island: the island it was made for.
        parent, inspirations: the database entries the proposal step read.
        feedback: the feedback it read, frozen (the loop's own view keeps changing as the run goes on).
        rng: a copy of the run's random state before the proposal step (`toyhw.evolve.llm.peek_target` reads
            which shape the mock aimed at from it).
        proposal: what the proposal step returned.
        outcome: the evaluator's verdict on the child, with its stage-1 score and the bar it had to reach.
    """

    step: int
    island: int
    parent: Entry
    inspirations: tuple[Entry, ...]
    feedback: Feedback
    rng: random.Random
    proposal: Proposal
    outcome: EvalResult


Observer = Callable[[StepRecord], None]


@dataclass(frozen=True)
class LineageStep:
    """One ancestor of the best program.

    Attributes:
        id: the entry's id; step: the proposal number that created it (0 = the initial program).
        score: its training score; description: what the LLM said it changed.
    """

    id: int
    step: int
    score: float
    description: str


@dataclass(frozen=True)
class Checkpoint:
    """The run as it stood after `budget` proposals: what a run with that budget returns in these fields.

    Why: a run proposes its programs one after another and nothing it does depends on the budget, so the run with
    budget b is the first b steps of a longer run with the same seed. A panel that shows several budgets of one seed
    takes them from one run instead of one run each (tests/evolve checks them against runs of their own).
    """

    budget: int
    best: tuple[Program, float]
    programs: tuple[Program, ...]
    n_added: int
    n_added_bad_branch: int


@dataclass(frozen=True)
class EvolveResult:
    """What one evolution run produced.

    Attributes:
        history: best-so-far training score after every proposed program (length = budget).
        best: (best program, its training score).
        db: the final database.
        n_added: programs added to the database (the initial program not counted).
        n_added_bad_branch: of those, how many have a branch that cannot launch.
        lineage: the best program's ancestors, from the initial program to it.
        kernel_runs: kernel runs the evaluator spent (including the initial program's).
        statuses: how many proposals ended "ok", "bad branch", "crash", "cascade" or "invalid" (the LLM's reply
            gave no program: counted like a crash, a step spent and nothing added; only a real model's replies can).
        mix: the final share of each edit kind (the meta prompt's emphasis).
        checkpoints: {budget: Checkpoint} for each budget of `evolve`'s `checkpoints` (empty unless asked).
    """

    history: tuple[float, ...]
    best: tuple[Program, float]
    db: Database
    n_added: int
    n_added_bad_branch: int
    lineage: tuple[LineageStep, ...]
    kernel_runs: int
    statuses: Mapping[str, int]
    mix: Mapping[str, float] = field(default_factory=dict)
    checkpoints: Mapping[int, "Checkpoint"] = field(default_factory=dict)

    def __getitem__(self, key: str):
        # the lecture script reads results like dicts, in its own words: out["history"], out["bench_runs"]
        return getattr(self, _SCRIPT_KEYS.get(key, key))


_SCRIPT_KEYS = {"bench_runs": "kernel_runs"}


class OperatorMix:
    """The meta prompt's analogue: the share of each edit kind, fixed or adapted to which kinds have paid off.

    Adaptive: weight = prior x (improvements + 1) / (tries + 10), so kinds that keep improving their parent get
    asked for more often (AlphaEvolve lets the LLM evolve its own instructions; here only their emphasis moves).
    """

    def __init__(self, adaptive: bool, prior: Mapping[str, float] = FIXED_MIX) -> None:
        self.adaptive = adaptive
        self.prior = dict(prior)
        self.tries = {op: 0 for op in OPERATORS}
        self.wins = {op: 0 for op in OPERATORS}
        self._weights = dict(self.prior)

    def weights(self) -> Mapping[str, float]:
        """Return the current share per edit kind."""
        return self._weights

    def update(self, operator: str, improved: bool) -> None:
        """Record one proposal of kind `operator` and whether it beat its parent.

        A failed proposal (operator None: the reply gave no program) has no edit kind to credit and is not recorded.
        """
        if not self.adaptive or operator is None:
            return
        self.tries[operator] += 1
        self.wins[operator] += int(improved)
        raw = {op: self.prior[op] * (self.wins[op] + 1) / (self.tries[op] + 10) for op in OPERATORS}
        total = sum(raw.values())
        self._weights = {op: w / total for op, w in raw.items()}


class _BestConfigs:
    """The best config seen per shape, read lazily from the evaluator (a Sequence without copying 44 configs)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self._ev = evaluator
        self._configs = evaluator.table.configs

    def __getitem__(self, i: int):
        return self._configs[self._ev.best_index[i]]

    def __len__(self) -> int:
        return len(self._ev.shapes)


def _lineage(best: Entry, entries: Mapping[int, Entry]) -> tuple[LineageStep, ...]:
    chain = []
    entry: Optional[Entry] = best
    while entry is not None:
        chain.append(LineageStep(entry.id, entry.step, entry.score, entry.description))
        entry = entries.get(entry.parent_id) if entry.parent_id is not None else None
    return tuple(reversed(chain))


def _copy(rng: random.Random) -> random.Random:
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def check_budget(budget: int) -> None:
    """Raise ValueError naming `budget` unless it is an integer from 1 to MAX_BUDGET (proposed programs)."""
    checks.check_budget("budget", budget)


def checkpoint_budgets(budgets: Sequence[int]) -> list[int]:
    """Return `budgets` sorted without repeats, each checked (check_budget); raise ValueError for none: the budgets
    a caller wants one run's checkpoints at (its last is the run's budget)."""
    for budget in budgets:
        check_budget(budget)
    wanted = sorted(set(budgets))
    if not wanted:
        raise ValueError("budgets is empty; give at least one budget")
    return wanted


def evolve(
    evaluator: Evaluator,
    budget: int,
    *,
    seed: int = 0,
    llm: Optional[ProposalStep] = None,
    config: EvolveConfig = DEFAULT,
    observer: Optional[Observer] = None,
    checkpoints: Sequence[int] = (),
    on_checkpoint: Optional[Callable[[Checkpoint], None]] = None,
) -> EvolveResult:
    """Return the result of proposing `budget` programs, starting from `config.initial` (default: the expert).

    `llm` is the proposal step (default: the full method's MockLLM); `config` the run's settings
    (EvolveConfig); `observer`, when given, is called after every proposal with its StepRecord (it only
    watches: the run is the same). `checkpoints` are budgets up to `budget` at which the run's state is kept
    (EvolveResult.checkpoints); `on_checkpoint`, when given, is called with each as it is made, while the
    evaluator is as it stood then (what it has seen decides its per-shape feedback). Neither changes the run.
    """
    check_budget(budget)
    checks.check_seed("seed", seed)
    if not isinstance(config, EvolveConfig):
        raise ValueError(f"config = {config!r} is not allowed; give an EvolveConfig (toyhw.evolve.config)")
    evaluator.configure_cascade(config)
    n_islands, evolution, migrate_every = config.n_islands, config.evolution, config.migrate_every
    llm = GuardedStep(llm if llm is not None else MockLLM())  # read-only inputs, the return value checked
    rng = random.Random(seed)
    program = config.initial if config.initial is not None else expert_program()
    first = evaluator.evaluate_root(program)
    if first.score is None:
        raise ValueError(f"the initial program was rejected by the evaluator ({first.status})")
    bad_branch = evaluator.has_bad_branch(program)
    root = Entry(0, program, first.score, first.times, None, "initial program", 0, bad_branch)
    db = Database(root, n_islands=n_islands, capacity=config.capacity, migrate_every=migrate_every)
    entries: dict[int, Entry] = {0: root}
    mix = OperatorMix(config.adaptive_mix)
    best = root
    history: list[float] = []
    statuses = {"ok": 0, "bad branch": 0, "crash": 0, "cascade": 0, "invalid": 0}
    n_added = n_bad = 0
    best_configs = _BestConfigs(evaluator)
    wanted = {checks.check_int("checkpoints", b, 1, budget, "the run's budget") for b in checkpoints}
    kept: dict[int, Checkpoint] = {}
    for step in range(1, budget + 1):
        island = (step - 1) % n_islands
        parent, inspirations = db.sample(island, rng) if evolution else (root, ())
        feedback = evaluator.feedback(parent.times, mix.weights(), best_configs)
        # what the observer is shown, taken before the step changes them
        seen = (feedback.frozen(), _copy(rng)) if observer is not None else None
        proposal = llm(parent, inspirations, feedback, rng)
        result = evaluator.evaluate(proposal.program)
        if observer is not None:
            observer(StepRecord(step, island, parent, tuple(inspirations), *seen, proposal, result))
        statuses[result.status] += 1
        improved = result.score is not None and result.score > parent.score
        mix.update(proposal.operator, improved)
        if result.score is not None:
            entry = Entry(
                step,
                proposal.program,
                result.score,
                result.times,
                parent.id,
                proposal.description,
                step,
                not evaluator.check_all_branches and evaluator.has_bad_branch(proposal.program),
            )
            if db.add(entry, island):
                entries[entry.id] = entry
                n_added += 1
                n_bad += int(entry.bad_branch)
            if entry.score > best.score:
                best = entry
                entries[entry.id] = entry
        if evolution and n_islands > 1 and step % migrate_every == 0:
            db.migrate()
        history.append(best.score)
        if step in wanted:
            kept[step] = Checkpoint(step, (best.program, best.score), tuple(db.programs()), n_added, n_bad)
            if on_checkpoint is not None:
                on_checkpoint(kept[step])
    return EvolveResult(
        tuple(history),
        (best.program, best.score),
        db,
        n_added,
        n_bad,
        _lineage(best, entries),
        evaluator.kernel_runs,
        statuses,
        dict(mix.weights()),
        kept,
    )
