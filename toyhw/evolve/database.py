"""The program database: islands of bounded populations, biased parent selection, inspirations, migration.

Why islands: populations that evolve apart keep the search diverse (FunSearch uses 10, OpenEvolve 5, AlphaEvolve
combines islands with MAP-Elites); migration lets a good idea spread. The total capacity is split over the islands, so
"one island" compares the same population size organised differently.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

from toyhw.evolve.programs import Program


@dataclass(frozen=True)
class Entry:
    """One evaluated program in the database.

    Attributes:
        id: its number in order of creation (0 = the initial program).
        program: the heuristic.
        score: geometric-mean speedup over the expert on the training shapes.
        times: its time per training shape (microseconds).
        parent_id: the id of the program it was proposed from (None for the initial program).
        description: the LLM's one-line description of the change.
        step: the proposal number that created it (0 for the initial program).
        bad_branch: True when some branch cannot launch (possible only without the branch check).
    """

    id: int
    program: Program
    score: float
    times: np.ndarray
    parent_id: Optional[int]
    description: str
    step: int
    bad_branch: bool = False

    def __iter__(self):
        return iter((self.program, self.score))  # the seed's driver unpacks entries: `for p, _ in pop`


def _rank(entry: Entry) -> tuple[float, int]:
    """Return the sort key best-first: higher score, then the earlier id."""
    return -entry.score, entry.id


class Database:
    """Islands of entries; `capacity` programs in all, split evenly; migration along a ring."""

    def __init__(
        self, initial: Entry, n_islands: int = 4, capacity: int = 100, migrate_every: int = 50, tournament: int = 3
    ) -> None:
        if n_islands < 1:
            raise ValueError(f"n_islands = {n_islands} is not allowed; it must be >= 1")
        self.islands: list[list[Entry]] = [[initial] for _ in range(n_islands)]
        self.per_island = max(2, capacity // n_islands)
        self.migrate_every = migrate_every
        self.tournament = tournament
        self._members: list[set[Program]] = [{initial.program} for _ in range(n_islands)]
        # each island's entries best-first, kept sorted on every change: sampling asks for the best few of an island
        # at every step, and sorting the island each time was the loop's largest cost
        self._ranked: list[list[Entry]] = [[initial] for _ in range(n_islands)]

    def entries(self) -> list[Entry]:
        """Return every entry, island by island (an entry on two islands after migration appears twice)."""
        return [e for island in self.islands for e in island]

    def programs(self) -> list[Program]:
        """Return the distinct programs held, in island order."""
        seen: dict[Program, None] = {}
        for e in self.entries():
            seen.setdefault(e.program, None)
        return list(seen)

    def best(self) -> Entry:
        """Return the highest-scoring entry (the earliest on ties)."""
        return max(self.entries(), key=lambda e: (e.score, -e.id))

    def sample(
        self,
        island: int,
        rng: random.Random,
        n_inspirations: int = 3,
    ) -> tuple[Entry, tuple[Entry, ...]]:
        """Return (parent, inspirations): a tournament winner of `island`, its best others and another
        island's best."""
        pop = self.islands[island]
        picks = [pop[rng.randrange(len(pop))] for _ in range(self.tournament)]
        parent = min(picks, key=_rank)
        wanted = n_inspirations - 1 if len(self.islands) > 1 else n_inspirations
        inspirations = [e for e in self._ranked[island][: wanted + 1] if e is not parent][:wanted]
        if len(self.islands) > 1:
            other = (island + 1 + rng.randrange(len(self.islands) - 1)) % len(self.islands)
            inspirations.append(self._ranked[other][0])
        return parent, tuple(inspirations)

    def add(self, entry: Entry, island: int) -> bool:
        """Add `entry` to `island` if it is new there and there is room or a worse member; return True if
        added."""
        if entry.program in self._members[island]:
            return False
        pop, ranked = self.islands[island], self._ranked[island]
        if len(pop) >= self.per_island:
            worst = ranked[-1]
            if worst.score >= entry.score:
                return False
            self._members[island].discard(worst.program)
            ranked.pop()
            # by identity: Entry.__eq__ compares arrays
            pop.pop(next(i for i, e in enumerate(pop) if e is worst))
        pop.append(entry)
        bisect.insort(ranked, entry, key=_rank)
        self._members[island].add(entry.program)
        return True

    def migrate(self) -> None:
        """Copy each island's best into the next island (a ring), where it replaces the worst if better."""
        bests = [ranked[0] for ranked in self._ranked]
        for i, entry in enumerate(bests):
            self.add(entry, (i + 1) % len(self.islands))
