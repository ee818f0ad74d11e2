"""`python -m toyhw ablations | targeting | branches`: the JSON contract of DESIGN.md and errors that name the input."""
import json
import subprocess
import sys

import pytest

from toyhw import cli
from toyhw.evolve import ablations


def run_json(capsys, *args):
    assert cli.main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_ablations_json_shape(capsys):
    out = run_json(capsys, "ablations", "--seeds", "0,1", "--budget", "40", "--variants", "full,small_llm")
    assert set(out) == {"budget", "seeds", "oracle", "variants"}
    assert out["budget"] == 40 and out["seeds"] == [0, 1] and set(out["oracle"]) == {"train", "test"}
    assert list(out["variants"]) == ["full", "small_llm"]
    for v in out["variants"].values():
        assert set(v) == {"history", "final", "test", "bench_runs", "rules"}
        assert len(v["history"]) == 2 and all(len(h) == 40 for h in v["history"])
        assert v["final"] == [h[-1] for h in v["history"]]
        assert all(isinstance(n, int) for n in v["bench_runs"] + v["rules"])


def test_ablations_table(capsys):
    assert cli.main(["ablations", "--seeds", "0", "--budget", "60", "--variants", "full"]) == 0
    out = capsys.readouterr().out
    assert "50 progs" in out and "oracle (best config per shape): train" in out and "headroom" in out


def test_targeting_json_shape(capsys):
    out = run_json(capsys, "targeting", "--seed", "0", "--budget", "100")
    assert set(out) == {"n_shapes", "n_stuck", "share_on_stuck", "overlap_top5"}
    # the figures of demo 2, recomputed from its per-shape rows: stuck = vs_best > 0.95, weights 1/ratio - 1 + 0.05
    rows = ablations.targeting(0, 100).rows
    stuck = [r.vs_best > 0.95 for r in rows]
    assert (out["n_shapes"], out["n_stuck"]) == (44, sum(stuck))
    for key, ratio in (("roofline", "vs_roofline"), ("best", "vs_best")):
        weights = [1 / getattr(r, ratio) - 1 + 0.05 for r in rows]
        share = sum(w for w, s in zip(weights, stuck) if s) / sum(weights)
        assert out["share_on_stuck"][key] == pytest.approx(share)
    top = [{r.shape for r in sorted(rows, key=lambda r: getattr(r, ratio))[:5]} for ratio in ("vs_roofline", "vs_best")]
    assert out["overlap_top5"] == len(top[0] & top[1])


def test_branches_json_shape(capsys):
    out = run_json(capsys, "branches", "--seeds", "0,1", "--budget", "80")
    assert set(out) == {"checked", "unchecked"}
    for rows in out.values():
        assert [r["seed"] for r in rows] == [0, 1]
        for r in rows:
            assert set(r) == {"seed", "added", "added_bad_branch", "db_size", "db_bad_branch", "crash_new_shapes",
                              "best_has_bad_branch"}
    demo = ablations.branches((0, 1), 80)
    assert out == {key: [r.as_dict() for r in rows] for key, rows in demo.items()}
    assert all((r["added_bad_branch"], r["db_bad_branch"], r["best_has_bad_branch"]) == (0, 0, False)
               for r in out["checked"])


@pytest.mark.parametrize("args,message", [
    (["ablations", "--variants", "full,nope"], "unknown variant 'nope'; known: full"),
    (["ablations", "--budget", "0"], "budget = 0 is not allowed"),
    (["ablations", "--seeds", "a,b"], "--seeds = 'a,b' is not allowed"),
    (["targeting", "--budget", "-5"], "budget = -5 is not allowed"),
    (["branches", "--budget", "0"], "budget = 0 is not allowed"),
])
def test_bad_input_exits_2_naming_it(args, message):
    proc = subprocess.run([sys.executable, "-m", "toyhw", *args], capture_output=True, text=True)
    assert proc.returncode == 2 and message in proc.stderr
