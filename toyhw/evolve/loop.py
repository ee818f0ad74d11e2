"""The mini AlphaEvolve loop: sample a parent and inspirations, ask the LLM for a child, evaluate it, store it.

This module only wires the parts (toyhw.evolve.database, toyhw.evolve.llm, toyhw.evolve.evaluator); each ablation switches one of them.
The budget counts proposed programs, never seconds, so every run is a pure function of its parameters and seed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional

from toyhw import checks
from toyhw.evolve.database import Database, Entry
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.llm import FIXED_MIX, OPERATORS, Feedback, MockLLM, Proposal
from toyhw.evolve.programs import Program, expert_program
from toyhw.evolve.step_guard import checked, read_only_inputs

ProposalStep = Callable[..., Proposal]


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
class EvolveResult:
    """What one evolution run produced.

    Attributes:
        history: best-so-far training score after every proposed program (length = budget).
        best: (best program, its training score).
        db: the final database.
        n_added: programs added to the database (the initial program not counted).
        n_added_bad_branch: of those, how many have a branch that cannot launch.
        lineage: the best program's ancestors, from the initial program to it.
        bench_runs: kernel runs the evaluator spent (including the initial program's).
        statuses: how many proposals ended "ok", "bad branch", "crash", "cascade" or "invalid" (the LLM's reply
            gave no program: counted like a crash, a step spent and nothing added; only a real model's replies can).
        mix: the final share of each edit kind (the meta prompt's emphasis).
    """

    history: tuple[float, ...]
    best: tuple[Program, float]
    db: Database
    n_added: int
    n_added_bad_branch: int
    lineage: tuple[LineageStep, ...]
    bench_runs: int
    statuses: Mapping[str, int]
    mix: Mapping[str, float] = field(default_factory=dict)

    def __getitem__(self, key: str):
        return getattr(self, key)  # the seed's driver reads results like dicts: out["history"]


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


def check_budget(budget: int) -> None:
    """Raise ValueError naming `budget` unless it is an integer from 1 to MAX_BUDGET (proposed programs)."""
    checks.check_budget("budget", budget)


def evolve(evaluator: Evaluator, budget: int, seed: int = 0, llm: Optional[ProposalStep] = None, n_islands: int = 4,
           evolution: bool = True, cascade: Optional[bool] = None, adaptive_mix: bool = True,
           initial: Optional[Program] = None, capacity: int = 100, migrate_every: int = 50) -> EvolveResult:
    """Return the result of proposing `budget` programs, starting from `initial` (default: the expert).

    `evolution=False` always starts from the initial program (AlphaEvolve's "no evolution"); `cascade` overrides the
    evaluator's own setting when given; `adaptive_mix=False` keeps the edit kinds' shares fixed ("no meta prompt").
    """
    check_budget(budget)
    checks.check_seed("seed", seed)
    for name, value in (("n_islands", n_islands), ("capacity", capacity), ("migrate_every", migrate_every)):
        checks.check_int(name, value, 1)
    if cascade is not None:
        evaluator.cascade = cascade
    llm = llm if llm is not None else MockLLM()
    rng = random.Random(seed)
    program = initial if initial is not None else expert_program()
    first = evaluator.evaluate_root(program)
    if first.score is None:
        raise ValueError(f"the initial program was rejected by the evaluator ({first.status})")
    root = Entry(0, program, first.score, first.times, None, "initial program", 0, evaluator.has_bad_branch(program))
    db = Database(root, n_islands=n_islands, capacity=capacity, migrate_every=migrate_every)
    entries: dict[int, Entry] = {0: root}
    mix = OperatorMix(adaptive_mix)
    best = root
    history: list[float] = []
    statuses = {"ok": 0, "bad branch": 0, "crash": 0, "cascade": 0, "invalid": 0}
    n_added = n_bad = 0
    best_configs = _BestConfigs(evaluator)
    shapes = evaluator.shapes
    for step in range(1, budget + 1):
        island = (step - 1) % n_islands
        parent, inspirations = db.sample(island, rng) if evolution else (root, ())
        feedback = Feedback(shapes, evaluator.roofline / parent.times, evaluator.best_time / parent.times,
                            best_configs, mix.weights())
        proposal = checked(llm(*read_only_inputs(parent, inspirations, feedback), rng), step, llm)
        result = evaluator.evaluate(proposal.program)
        statuses[result.status] += 1
        improved = result.score is not None and result.score > parent.score
        mix.update(proposal.operator, improved)
        if result.score is not None:
            entry = Entry(step, proposal.program, result.score, result.times, parent.id, proposal.description, step,
                          not evaluator.check_all_branches and evaluator.has_bad_branch(proposal.program))
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
    return EvolveResult(tuple(history), (best.program, best.score), db, n_added, n_bad, _lineage(best, entries),
                        evaluator.bench_runs, statuses, dict(mix.weights()))

