"""The loop: history and lineage bookkeeping, no-evolution mode, budgets, and determinism in a fresh process."""
import json
import os
import subprocess
import sys

import pytest

from toyhw.evolve.ablations import context
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.loop import evolve
from toyhw.evolve.programs import expert_program


def run(budget=200, seed=0, **kwargs):
    c = context()
    return evolve(Evaluator(c.train, c.table), budget, seed=seed, **kwargs)


def test_history_is_best_so_far_after_every_proposed_program():
    out = run(300)
    assert len(out.history) == 300
    assert all(a <= b for a, b in zip(out.history, out.history[1:]))
    assert out.history[-1] == out.best[1] and out.best[1] > 1.0
    assert sum(out.statuses.values()) == 300


def test_lineage_runs_from_the_initial_program_to_the_best_one():
    out = run(300)
    assert out.lineage[0].id == 0 and out.lineage[0].description == "initial program"
    assert out.lineage[-1].score == out.best[1]
    assert [s.step for s in out.lineage] == sorted(s.step for s in out.lineage)


def test_database_is_bounded_and_counts_added_programs():
    out = run(400)
    assert sum(len(island) for island in out.db.islands) <= 100 and len(out.db.islands) == 4
    assert out.n_added >= 1 and out.n_added_bad_branch == 0  # the branch check is on by default
    assert out["history"] == out.history and all(len(list(e)) == 2 for e in out.db.islands[0])


def test_no_evolution_always_starts_from_the_initial_program():
    out = run(300, evolution=False)
    assert len(out.lineage) <= 2


def test_one_island():
    assert len(run(100, n_islands=1).db.islands) == 1


def test_same_seed_same_run_other_seed_other_run():
    assert run(300, seed=5).history == run(300, seed=5).history
    assert run(300, seed=5).best == run(300, seed=5).best
    assert run(300, seed=5).history != run(300, seed=6).history


def test_same_history_in_a_fresh_process_with_another_hash_seed():
    code = ("import json; from toyhw.evolve.ablations import run_one; r = run_one('full', 2, 150); "
            "print(json.dumps([r.history, r.bench_runs]))")
    outs = []
    for hash_seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        outs.append(json.loads(proc.stdout))
    from toyhw.evolve.ablations import run_one
    here = run_one("full", 2, 150)
    assert outs[0] == outs[1] == [list(here.history), here.bench_runs]


@pytest.mark.parametrize("budget", [0, -3, 2.5, True])
def test_bad_budget_is_refused_naming_it(budget):
    with pytest.raises(ValueError, match="budget = .* is not allowed"):
        run(budget)


def test_initial_program_is_the_expert_by_default():
    assert run(10).lineage[0].id == 0 and expert_program().n_rules() == 3


def test_the_seed_drivers_code_runs_against_toyhw():
    """The lecture script's own expressions (demo 1-3), with its imports from toyhw.alphaevolve, at a small budget."""
    import math

    from toyhw.alphaevolve import (LAYERS, Evaluator, MockLLM, Shape, TimeTable, all_shapes, choose, evolve,
                                   geomean_speedup, oracle_speedup, render, simplify, split_shapes,
                                   static_check_program)

    shapes = all_shapes()
    table = TimeTable()
    for s in shapes:
        table.oracle(s)
    train, test = split_shapes(shapes)
    extra = [Shape(n, M, N, K) for n, (N, K) in list(LAYERS.items()) + [("405B/8 qkv", (2560, 16384)),
                                                                          ("405B/8 down", (16384, 6656))]
             for M in (2, 8, 32, 96, 192, 384, 768, 1536, 3072, 6144)]
    assert len(extra) == 100
    for kw in ({}, {"llm": MockLLM(feedback="roofline")}, {"evolution": False}, {"n_islands": 1}, {"cascade": False}):
        ev = Evaluator(train, table, check_all_branches=False)
        out = evolve(ev, 60, seed=0, **kw)
        bp, _ = out["best"]
        assert len(out["history"]) == 60 and ev.bench_runs > 0 and simplify(bp).n_rules() >= 1
        assert 0 < geomean_speedup(bp, test, table) < oracle_speedup(test, table) + 1
        progs = [p for pop in out["db"].islands for p, _ in pop]
        latent = sum(1 for p in progs if not static_check_program(render(p))[0])
        crash = sum(1 for p in progs if any(not math.isfinite(table.time(choose(p, s), s)) for s in extra))
        assert latent >= 0 and crash >= 0 and out["n_added"] >= out["n_added_bad_branch"] >= 0
    fb = ev.per_shape(bp)
    assert sorted(fb, key=lambda x: x["vs_roofline"])[0]["shape"].label()
