"""The loop: history and lineage bookkeeping, no-evolution mode, budgets, and determinism in a fresh process."""

import json
import os
import re
import subprocess
import sys

import pytest

from toyhw.evolve.experiments.ablations import context
from toyhw.evolve.config import EvolveConfig
from toyhw.evolve.database import Database, Entry
from toyhw.evolve.evaluator import Evaluator, geomean_speedup
from toyhw.evolve.loop import _lineage, evolve
from toyhw.evolve.programs import Program, expert_program


def run(budget=200, seed=0, llm=None, **settings):
    c = context()
    return evolve(Evaluator(c.train, c.table), budget, seed=seed, llm=llm, config=EvolveConfig(**settings))


def test_history_is_best_so_far_after_every_proposed_program():
    out = run(300)
    assert len(out.history) == 300
    assert all(a <= b for a, b in zip(out.history, out.history[1:]))
    assert out.history[-1] == out.best[1] and out.best[1] > 1.0
    assert sum(out.statuses.values()) == 300


def test_lineage_runs_from_the_initial_program_to_the_best_one():
    out = run(300)
    assert len(out.lineage) >= 2 and out.lineage[-1].id == out.db.best().id
    assert out.lineage[-1].score == out.best[1]
    ids = [s.id for s in out.lineage]
    assert ids == sorted(set(ids)) and [s.step for s in out.lineage] == ids  # a child comes after its parent
    assert all(re.search(r"\(for .+ M=\d+\)$", s.description) for s in out.lineage[1:])  # what the LLM said


def test_lineage_follows_parent_links_only():
    def entry(i, parent, score):
        return Entry(i, expert_program(), score, None, parent, f"step {i}", i)

    entries = {
        e.id: e for e in (entry(0, None, 1.0), entry(3, 0, 1.1), entry(5, 0, 1.3), entry(7, 3, 1.2), entry(9, 7, 1.4))
    }
    assert [s.id for s in _lineage(entries[9], entries)] == [0, 3, 7, 9]
    assert [(s.step, s.score, s.description) for s in _lineage(entries[5], entries)] == [
        (0, 1.0, "step 0"),
        (5, 1.3, "step 5"),
    ]


def test_database_is_bounded_and_counts_added_programs():
    out = run(400)
    assert len(out.db.islands) == 4 and all(len(island) <= out.db.per_island == 25 for island in out.db.islands)
    assert 1 <= out.n_added <= out.statuses["ok"] and out.n_added_bad_branch == 0  # the branch check is on
    assert out["history"] == out.history and all(len(list(e)) == 2 for e in out.db.islands[0])


def test_no_evolution_always_starts_from_the_initial_program():
    out = run(300, evolution=False)
    assert [s.id for s in out.lineage] == [0, out.lineage[-1].id] and out.best[1] > 1.0


@pytest.mark.parametrize(
    "kwargs, calls", [({}, 4), ({"migrate_every": 100}, 2), ({"n_islands": 1}, 0), ({"evolution": False}, 0)]
)
def test_the_loop_migrates_every_migrate_every_programs(monkeypatch, kwargs, calls):
    seen = []
    monkeypatch.setattr(Database, "migrate", lambda self: seen.append(len(seen)))
    run(230, **kwargs)
    assert len(seen) == calls


def test_one_island():
    assert len(run(100, n_islands=1).db.islands) == 1


def test_same_seed_same_run_other_seed_other_run():
    assert run(300, seed=5).history == run(300, seed=5).history
    assert run(300, seed=5).best == run(300, seed=5).best
    assert run(300, seed=5).history != run(300, seed=6).history


def test_same_history_in_a_fresh_process_with_another_hash_seed():
    code = (
        "import json; from toyhw.evolve.experiments.ablations import run_one; r = run_one('full', 2, 150); "
        "print(json.dumps([r.history, r.kernel_runs]))"
    )
    outs = []
    for hash_seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        outs.append(json.loads(proc.stdout))
    from toyhw.evolve.experiments.ablations import run_one

    here = run_one("full", 2, 150)
    assert outs[0] == outs[1] == [list(here.history), here.kernel_runs]


@pytest.mark.parametrize("budget", [0, -3, 2.5, True])
def test_bad_budget_is_refused_naming_it(budget):
    with pytest.raises(ValueError, match="budget = .* is not allowed"):
        run(budget)


def test_initial_program_is_the_expert_by_default_or_the_one_given():
    def root(out):
        return next(e for e in out.db.entries() if e.id == 0)

    assert root(run(10)).program == expert_program()
    prefill_only = Program((), expert_program().default)  # scores ~0.6, below the expert's cascade bar of 0.95
    c = context()
    for cascade in (False, True):  # the root is evaluated in full either way: a search needs its score
        out = run(10, initial=prefill_only, cascade=cascade)
        assert root(out).program == prefill_only
        assert root(out).score == geomean_speedup(prefill_only, c.train, c.table)


def test_a_weak_initial_program_sets_the_cascade_bar_so_its_children_are_not_all_cut():
    """The bar is 0.95 x the best stage-1 score seen in this search, starting from the root's (not the expert's)."""
    c = context()
    weak = Program((), expert_program().default)
    ev = Evaluator(c.train, c.table, cascade=True)
    assert ev.evaluate(weak).status == "cascade"  # a lone evaluation is measured against the expert's bar of 1.0
    out = evolve(Evaluator(c.train, c.table, cascade=True), 100, seed=0, config=EvolveConfig(initial=weak))
    assert out.statuses["ok"] > 0 and out.statuses["cascade"] > 0  # the cascade still cuts, not everything
    assert out.best[1] > next(e for e in out.db.entries() if e.id == 0).score


def test_the_seed_drivers_code_runs_against_toyhw():
    """The lecture script's own expressions (demo 1-3), with its imports from toyhw.alphaevolve, at a small budget."""
    import math

    from toyhw.alphaevolve import (
        LAYERS,
        Evaluator,
        MockLLM,
        Shape,
        TimeTable,
        all_shapes,
        choose,
        evolve,
        geomean_speedup,
        oracle_speedup,
        render,
        simplify,
        split_shapes,
        static_check_program,
    )

    shapes = all_shapes()
    table = TimeTable()
    for s in shapes:
        table.oracle(s)
    train, test = split_shapes(shapes)
    extra = [
        Shape(n, M, N, K)
        for n, (N, K) in list(LAYERS.items()) + [("405B/8 qkv", (2560, 16384)), ("405B/8 down", (16384, 6656))]
        for M in (2, 8, 32, 96, 192, 384, 768, 1536, 3072, 6144)
    ]
    assert len(extra) == 100
    for kw in ({}, {"llm": MockLLM(feedback="roofline")}, {"evolution": False}, {"n_islands": 1}, {"cascade": False}):
        ev = Evaluator(train, table, check_all_branches=False)
        out = evolve(ev, 60, seed=0, llm=kw.pop("llm", None), config=EvolveConfig(**kw))
        bp, _ = out["best"]
        assert len(out["history"]) == 60 and ev.kernel_runs == out["bench_runs"]
        assert all(choose(simplify(bp), s) == choose(bp, s) for s in shapes + extra)
        assert 0 < geomean_speedup(bp, test, table) <= oracle_speedup(test, table)
        entries = [e for pop in out["db"].islands for e in pop]
        progs = [p for pop in out["db"].islands for p, _ in pop]
        latent = [not static_check_program(render(p))[0] for p in progs]
        crash = [any(not math.isfinite(table.time(choose(p, s), s)) for s in extra) for p in progs]
        assert latent == [e.bad_branch for e in entries]  # the loop's flag is the static check of the source
        assert all(bad for bad, crashes in zip(latent, crash) if crashes)  # only a bad branch can crash
    fb = ev.per_shape(bp)
    worst = sorted(fb, key=lambda x: x["vs_roofline"])[0]["shape"]
    assert len(fb) == len(train) and worst.label() == f"{worst.name} M={worst.M}"
