"""The island database, mechanism by mechanism on hand-made entries: admission and eviction of a full island,
tournament selection, inspirations, and migration along the ring (independent of any evolution run)."""

import random

import numpy as np
import pytest

from toyhw.evolve.database import Database, Entry
from toyhw.evolve.programs import Program
from toyhw.gemm.config import config_space

CONFIGS = config_space()


def entry(i: int, score: float) -> Entry:
    """Return entry `i`: a program of its own (no rule, the i-th config of the space as its default)."""
    return Entry(i, Program((), CONFIGS[i]), score, np.full(3, 1.0 / score), 0 if i else None, f"entry {i}", i)


class Scripted:
    """A stand-in for random.Random whose randrange returns scripted values (checked against the bound asked for)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randrange(self, n: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < n
        return value


def ids(entries) -> list[int]:
    return sorted(e.id for e in entries)


def full_island() -> tuple[Database, list[Entry]]:
    """Return a database of 2 islands x 4 whose island 0 is full: scores 1.0 (initial), 1.1, 0.9, 1.2."""
    db = Database(entry(0, 1.0), n_islands=2, capacity=8)
    members = [entry(1, 1.1), entry(2, 0.9), entry(3, 1.2)]
    assert all(db.add(e, 0) for e in members)
    assert db.per_island == 4 and len(db.islands[0]) == 4
    return db, members


def test_the_defaults_are_four_islands_of_25_tournaments_of_3_and_migration_every_50():
    db = Database(entry(0, 1.0))
    assert (len(db.islands), db.per_island, db.tournament, db.migrate_every) == (4, 25, 3, 50)


def test_capacity_is_split_over_the_islands_with_at_least_two_each():
    assert Database(entry(0, 1.0), n_islands=4, capacity=100).per_island == 25
    assert Database(entry(0, 1.0), n_islands=3, capacity=100).per_island == 33
    assert Database(entry(0, 1.0), n_islands=4, capacity=4).per_island == 2
    with pytest.raises(ValueError, match="n_islands = 0 is not allowed"):
        Database(entry(0, 1.0), n_islands=0)


def test_a_full_island_admits_a_better_program_and_evicts_its_worst():
    db, _ = full_island()
    assert db.add(entry(4, 0.95), 0)  # better than the worst (0.9, entry 2) only
    assert ids(db.islands[0]) == [0, 1, 3, 4] and len(db.islands[0]) == db.per_island
    assert db.add(entry(5, 2.0), 0)  # the worst is now 0.95 (entry 4)
    assert ids(db.islands[0]) == [0, 1, 3, 5]
    assert ids(db.islands[1]) == [0]  # the other island is untouched
    # an evicted program is no longer a member: it may come back once it beats the worst
    assert db.add(entry(2, 1.05), 0) and ids(db.islands[0]) == [1, 2, 3, 5]


def test_a_full_island_refuses_a_worse_or_equal_program_and_a_program_it_holds():
    db, _ = full_island()
    before = list(db.islands[0])
    assert not db.add(entry(4, 0.85), 0)  # worse than the worst
    assert not db.add(entry(5, 0.9), 0)  # as good as the worst: the incumbent stays
    assert not db.add(entry(3, 5.0), 0)  # already there (same program), whatever its score
    assert db.islands[0] == before


def test_of_two_equally_bad_members_the_later_one_is_evicted():
    db = Database(entry(0, 1.0), n_islands=1, capacity=3)
    assert db.add(entry(1, 0.5), 0) and db.add(entry(2, 0.5), 0)
    assert db.add(entry(3, 0.7), 0)
    assert ids(db.islands[0]) == [0, 1, 3]


def test_a_program_is_held_once_per_island_but_may_sit_on_several():
    db = Database(entry(0, 1.0), n_islands=2, capacity=8)
    assert db.add(entry(1, 1.5), 0) and not db.add(entry(1, 1.5), 0)
    assert db.add(entry(1, 1.5), 1)
    assert [e.id for e in db.entries()] == [0, 1, 0, 1] and db.programs() == [entry(0, 1).program, entry(1, 1).program]


def test_best_is_the_highest_score_and_the_earliest_on_ties():
    db = Database(entry(0, 1.0), n_islands=2, capacity=8)
    db.add(entry(2, 1.3), 1)
    db.add(entry(1, 1.3), 0)
    db.add(entry(3, 1.2), 0)
    assert db.best().id == 1


def test_the_parent_is_the_best_of_the_tournament_picks():
    db, _ = full_island()  # island 0 in insertion order: ids 0 (1.0), 1 (1.1), 2 (0.9), 3 (1.2)
    assert db.sample(0, Scripted(0, 2, 1, 0))[0].id == 1  # picks 1.0, 0.9, 1.1: the best is 1.1
    assert db.sample(0, Scripted(2, 2, 2, 0))[0].id == 2  # the worst, picked three times, still wins
    assert db.sample(0, Scripted(3, 0, 2, 0))[0].id == 3


def test_tournament_selection_favours_better_programs_at_the_documented_rate():
    """With tournaments of 3 from n = 4, the k-th best wins with probability ((n-k+1)^3 - (n-k)^3) / n^3."""
    db, _ = full_island()
    rng = random.Random(0)
    draws = 20_000
    wins = {i: 0 for i in range(4)}
    for _ in range(draws):
        wins[db.sample(0, rng)[0].id] += 1
    by_rank = [3, 1, 0, 2]  # ids best first: 1.2, 1.1, 1.0, 0.9
    expected = [((4 - k) ** 3 - (3 - k) ** 3) / 64 for k in range(4)]  # 37/64, 19/64, 7/64, 1/64
    assert [wins[i] / draws for i in by_rank] == pytest.approx(expected, abs=0.012)


def test_inspirations_are_the_islands_best_others_and_another_islands_best():
    db = Database(entry(0, 1.0), n_islands=3, capacity=30)
    for i, score in ((1, 1.1), (2, 0.9), (3, 1.2), (4, 1.3)):
        db.add(entry(i, score), 0)
    db.add(entry(5, 1.7), 1)
    db.add(entry(6, 1.9), 2)
    # parent: entry 3 (picked three times); others best-first: 4 (1.3), 1 (1.1); other island: 1 + 1 + 0 = island 1
    parent, inspirations = db.sample(0, Scripted(3, 3, 3, 0))
    assert parent.id == 3 and [e.id for e in inspirations] == [4, 1, 5]
    _, inspirations = db.sample(0, Scripted(4, 4, 4, 1))  # parent 4: others 3, 1; other island 2
    assert [e.id for e in inspirations] == [3, 1, 6]
    for seed in range(200):  # the other island is never the island itself
        assert db.sample(2, random.Random(seed))[1][-1].id in (4, 5)


def test_with_two_islands_two_inspirations_come_from_the_island_and_one_from_the_other():
    db = Database(entry(0, 1.0), n_islands=2, capacity=20)
    for i, score in ((1, 1.1), (2, 0.9), (3, 1.2), (4, 1.3)):
        db.add(entry(i, score), 0)
    db.add(entry(5, 1.7), 1)
    parent, inspirations = db.sample(0, Scripted(2, 2, 2, 0))
    assert parent.id == 2 and [e.id for e in inspirations] == [4, 3, 5]


def test_with_one_island_all_inspirations_come_from_it():
    db = Database(entry(0, 1.0), n_islands=1, capacity=10)
    for i, score in ((1, 1.1), (2, 0.9), (3, 1.2), (4, 1.3)):
        db.add(entry(i, score), 0)
    parent, inspirations = db.sample(0, Scripted(1, 1, 1))
    assert parent.id == 1 and [e.id for e in inspirations] == [4, 3, 0]


def test_migration_sends_each_islands_best_to_the_next_island_on_the_ring():
    db = Database(entry(0, 1.0), n_islands=3, capacity=30)
    for island, (i, score) in enumerate(((1, 3.0), (2, 2.0), (3, 4.0))):
        db.add(entry(i, score), island)
    db.add(entry(4, 1.5), 0)
    db.migrate()
    assert ids(db.islands[0]) == [0, 1, 3, 4]  # island 2's best (entry 3) arrived; island 1's (entry 2) did not
    assert ids(db.islands[1]) == [0, 1, 2]  # island 0's best (entry 1); its second best (entry 4) stayed home
    assert ids(db.islands[2]) == [0, 2, 3]  # island 1's best *before* migration (entry 2), not entry 1 passed on


def test_a_migrant_replaces_the_worst_of_a_full_island_only_if_better():
    db = Database(entry(0, 1.0), n_islands=2, capacity=4)  # 2 per island
    db.add(entry(1, 1.5), 0)
    db.add(entry(2, 0.8), 1)
    db.add(entry(3, 0.7), 1)  # island 1 full: 1.0 (initial), 0.8; 0.7 refused
    assert ids(db.islands[1]) == [0, 2]
    db.migrate()
    assert ids(db.islands[1]) == [0, 1]  # island 0's best (1.5) replaced the worst (0.8)
    assert ids(db.islands[0]) == [0, 1]  # island 1's best is the initial program, already there
