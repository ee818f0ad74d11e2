"""`python -m toyhw fastp`: the JSON contract equals the seed script's numbers, for the defaults and other seeds."""
import json
import pathlib
import subprocess
import sys

import pytest

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
        (DATA / "seed000_seed7_tasks300.json").read_text())


@pytest.mark.skipif(seed_reference.seed_script() is None,
                    reason=f"{seed_reference.ENVIRONMENT} is not set (tests/data keeps the seed script's outputs)")
@pytest.mark.parametrize("task_seed,n_tasks", [(230, 200), (7, 300), (99, 31)])
def test_live_seed_script_agrees(capsys, task_seed, n_tasks):
    expected = seed_reference.reference(seed_reference.load_seed(), task_seed, n_tasks, (5, 10, 20, 50))
    assert run_json(capsys, "--seed", str(task_seed), "--tasks", str(n_tasks)) == expected


def test_table_output_reads_like_the_lecture(capsys):
    assert cli.main(["fastp"]) == 0
    out = capsys.readouterr().out
    assert "compile error 27.0%, wrong 31.0%, correct 42.0%" in out
    assert "explain          0.83 / 0.24     0.94 / 0.39     0.98 / 0.45     0.99 / 0.49" in out


@pytest.mark.parametrize("args,message", [
    (["--tasks", "0"], "--tasks = 0 is not allowed"),
    (["--rounds", "0,5"], "--rounds = '0,5' is not allowed"),
    (["--rounds", "five"], "--rounds = 'five' is not allowed"),
])
def test_bad_input_exits_2_naming_the_option(args, message):
    proc = subprocess.run([sys.executable, "-m", "toyhw", "fastp", *args], capture_output=True, text=True)
    assert proc.returncode == 2 and message in proc.stderr
