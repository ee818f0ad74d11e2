"""`python -m toyhw fastp`: the JSON contract equals the seed script's numbers, for the defaults and other seeds."""

import json
import pathlib
import signal
import subprocess
import sys

import pytest

import interrupt
import seed_reference
from toyhw import cli

DATA = pathlib.Path(__file__).parents[1] / "data"


def run_json(capsys, *args):
    assert cli.main(["fastp", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_defaults_equal_the_seed(capsys):
    assert run_json(capsys) == json.loads((DATA / "seed000_seed230_tasks200.json").read_text())


def test_seed_7_with_300_tasks_equals_the_seed_script_run_the_same_way(capsys):
    assert run_json(capsys, "--seed", "7", "--tasks", "300") == json.loads(
        (DATA / "seed000_seed7_tasks300.json").read_text()
    )


@pytest.mark.skipif(
    seed_reference.seed_script() is None,
    reason=f"{seed_reference.ENVIRONMENT} is not set (tests/data keeps the seed script's outputs)",
)
@pytest.mark.parametrize("task_seed,n_tasks", [(230, 200), (7, 300), (99, 31)])
def test_live_seed_script_agrees(capsys, task_seed, n_tasks):
    expected = seed_reference.reference(seed_reference.load_seed(), task_seed, n_tasks, (5, 10, 20, 50))
    assert run_json(capsys, "--seed", str(task_seed), "--tasks", str(n_tasks)) == expected


def test_table_output_reads_like_the_lecture(capsys):
    assert cli.main(["fastp"]) == 0
    out = capsys.readouterr().out
    assert "compile error 27.0%, wrong 31.0%, correct 42.0%" in out
    assert "explain          0.83 / 0.24     0.94 / 0.39     0.98 / 0.45     0.99 / 0.49" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["--tasks", "0"], "--tasks = 0 is not allowed"),
        (["--rounds", "0,5"], "--rounds = '0,5' is not allowed"),
        (["--rounds", "five"], "--rounds = 'five' is not allowed"),
    ],
)
def test_bad_input_exits_2_naming_the_option(args, message):
    proc = subprocess.run([sys.executable, "-m", "toyhw", "fastp", *args], capture_output=True, text=True)
    assert proc.returncode == 2 and message in proc.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--seed", "-3"], "--seed = -3 is not allowed; a seed must be an integer >= 0"),
        (["--seed=-230"], "--seed = -230 is not allowed"),
        (
            ["--tasks", "1000000000"],
            "--tasks = 1000000000 is not allowed; it must be an integer >= 1 and <= 100,000 (MAX_TASKS",
        ),
        (["--rounds", "5,5"], "--rounds = '5,5' is not allowed; it lists 5 twice; give each round count once"),
        (
            ["--rounds", "10000000"],
            "--rounds = '10000000' is not allowed; '10000000': it must be an integer >= 1 and <= 10,000 (MAX_ROUNDS",
        ),
        (["--rounds", ""], "--rounds = '' is not allowed; give one or more round counts, e.g. 5,10,20,50"),
        (["--tasks", "1_000"], "--tasks = '1_000' is not allowed; give an integer, e.g. 200"),
        (["--seed", "9" * 5000], "--seed = '" + "9" * 57 + "...' is not allowed; an integer of more than 1,000 digits"),
    ],
)
def test_limits_and_negative_seeds_exit_2_with_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["fastp", *args])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and "Traceback" not in err
    assert err.splitlines()[-1].startswith("python -m toyhw fastp: error: --")


def test_fastp_imports_neither_numpy_nor_the_gemm_model_nor_other_commands():
    code = (
        "import sys; from toyhw.cli import main; main(['fastp', '--tasks', '3', '--json']); "
        "print([m for m in sys.modules if m.split('.')[0] in ('numpy', 'pandas', 'matplotlib', 'tqdm', 'shutil') "
        "or m.startswith(('toyhw.gemm', 'toyhw.evolve', 'toyhw.commands.gemm', 'toyhw.commands.ablations'))])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"


def test_a_closed_pipe_ends_quietly():
    """`python -m toyhw fastp --json | head -c1`: the reader is gone before the output; no BrokenPipeError traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "toyhw", "fastp", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()  # like `head` exiting before toyhw writes
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and err == ""


def test_ctrl_c_prints_one_line_and_exits_130():
    with interrupt.stopped(
        ["fastp", "--tasks", "100000", "--rounds", "10000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        interrupt.wait_until_computing(proc)  # started and computing (the whole table would take hours)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "python -m toyhw fastp: interrupted\n" and out == ""
