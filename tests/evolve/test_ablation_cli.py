"""`python -m toyhw ablations | targeting | branches`: the JSON contract the README documents, and errors that name the input."""

import contextlib
import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
from typing import Iterator

import pytest

import interrupt
from toyhw import cli
from toyhw.evolve.experiments import branch_check, targeting


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
    rows = targeting.targeting(0, 100).rows
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
            assert set(r) == {
                "seed",
                "added",
                "added_bad_branch",
                "db_size",
                "db_bad_branch",
                "crash_new_shapes",
                "best_has_bad_branch",
            }
    demo = branch_check.branches((0, 1), 80)
    assert out == {key: [r.as_dict() for r in rows] for key, rows in demo.items()}
    assert all(
        (r["added_bad_branch"], r["db_bad_branch"], r["best_has_bad_branch"]) == (0, 0, False) for r in out["checked"]
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["ablations", "--variants", "full,nope"], "unknown variant 'nope'; known: full"),
        (["ablations", "--budget", "0"], "budget = 0 is not allowed"),
        (["ablations", "--seeds", "a,b"], "--seeds = 'a,b' is not allowed"),
        (["targeting", "--budget", "-5"], "budget = -5 is not allowed"),
        (["branches", "--budget", "0"], "budget = 0 is not allowed"),
    ],
)
def test_bad_input_exits_2_naming_it(args, message):
    proc = subprocess.run([sys.executable, "-m", "toyhw", *args], capture_output=True, text=True)
    assert proc.returncode == 2 and message in proc.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["ablations", "--variants", ""],
            "--variants = '' is not allowed; give one or more variants, e.g. full,small_llm",
        ),
        (["ablations", "--variants", "full,full"], "--variants = 'full,full' is not allowed; it lists full twice"),
        (["ablations", "--seeds", "0,0"], "--seeds = '0,0' is not allowed; it lists 0 twice; give each seed once"),
        (["ablations", "--seeds", "-1"], "--seeds = '-1' is not allowed; '-1': a seed must be an integer >= 0"),
        (
            ["ablations", "--budget", "1000000000"],
            "--budget = 1000000000 is not allowed; it must be an integer >= 1 and "
            "<= 100,000 (proposed programs; MAX_BUDGET",
        ),
        (["ablations", "--seeds", ",".join(map(str, range(101)))], "give at most 100 seeds"),
        (["ablations", "--workers", "100000"], "--workers = 100000 is not allowed"),
        (["targeting", "--seed", "-3"], "--seed = -3 is not allowed; a seed must be an integer >= 0"),
        (["branches", "--seeds", "1,1"], "--seeds = '1,1' is not allowed; it lists 1 twice"),
    ],
)
def test_empty_repeated_negative_or_oversized_input_exits_2(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(args)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and "Traceback" not in err


@contextlib.contextmanager
def _on_a_terminal(args: list[str]) -> Iterator[tuple[subprocess.Popen, int]]:
    """Run `python -m toyhw ARGS` with its stderr on a pseudo-terminal of 100 columns (so it draws its progress
    bar); yield the process and the terminal's reading end. SIGINT is at its default; see tests/interrupt.py."""
    reader, writer = pty.openpty()
    fcntl.ioctl(writer, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with interrupt.stopped(args, stdout=subprocess.PIPE, stderr=writer) as proc:
        os.close(writer)
        yield proc, reader


def test_a_long_ablation_shows_progress_on_a_terminal():
    with _on_a_terminal(["ablations", "--seeds", "0,1", "--budget", "30", "--variants", "full,no_cascade"]) as (
        proc,
        terminal,
    ):
        err = interrupt.read_until_closed(terminal, timeout=120)
        assert proc.wait(timeout=60) == 0 and b"oracle (best config per shape)" in interrupt.read_pipe(proc.stdout)
    assert "evolution runs" in err and "4/4" in err and "Traceback" not in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_an_ablation_with_one_line_and_exit_130(workers):
    with _on_a_terminal(
        ["ablations", "--seeds", ",".join(map(str, range(40))), "--budget", "20000", "--workers", workers]
    ) as (proc, terminal):
        shown = interrupt.wait_for_text(terminal, "evolution runs")  # the runs have started (they would take hours)
        proc.send_signal(signal.SIGINT)
        assert interrupt.wait_for_exit(proc, terminal) == 130
        err = shown + interrupt.read_until_closed(terminal)  # fails if a worker outlived the command
        assert err.rstrip().endswith("python -m toyhw ablations: interrupted") and "Traceback" not in err
        assert interrupt.read_pipe(proc.stdout) == b""


def test_ctrl_c_while_workers_compute_ends_them_too():
    """The workers ignore Ctrl-C (one message, not one traceback per worker): the command must end them itself."""
    with _on_a_terminal(
        ["ablations", "--seeds", ",".join(map(str, range(40))), "--budget", "20000", "--workers", "2"]
    ) as (proc, terminal):
        interrupt.wait_until_workers_compute(proc, 2)
        proc.send_signal(signal.SIGINT)
        assert interrupt.wait_for_exit(proc, terminal) == 130
        err = interrupt.read_until_closed(terminal)  # fails if a worker outlived the command
        assert err.rstrip().endswith("python -m toyhw ablations: interrupted") and "Traceback" not in err
