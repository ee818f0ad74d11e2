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
    assert proc.returncode == 130 and out == ""
    assert err.splitlines() == [LONG_RUN, "python -m toyhw fastp: interrupted"]


LONG_RUN = (
    "4,000,000,000 optimization rounds to run (tasks x the sum of --rounds x 4 modes): this takes a while; a "
    "progress bar is drawn when stderr is a terminal"
)
"""What `fastp --tasks 100000 --rounds 10000` (within the limits, hours of work) says first on a stderr that is not
a terminal."""


class _Terminal:
    """A stderr that says it is a terminal (tqdm draws its bar on it) and keeps what is written."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_a_long_run_draws_a_bar_over_its_rounds_on_a_terminal_and_the_numbers_do_not_move(capsys, monkeypatch):
    from toyhw.commands import fastp

    assert cli.main(["fastp", "--json", "--tasks", "40", "--rounds", "5,20"]) == 0
    quiet = json.loads(capsys.readouterr().out)
    terminal = _Terminal()
    monkeypatch.setattr(fastp, "BAR_WORK", 100)
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["fastp", "--json", "--tasks", "40", "--rounds", "5,20"]) == 0
    assert json.loads(capsys.readouterr().out) == quiet
    last = terminal.text.split("\r")[-1]
    assert last.startswith("optimization rounds: 100%") and "4.00k/4.00k" in last  # 40 tasks x 25 rounds x 4 modes


def test_a_long_run_says_what_is_to_come_in_one_line_off_a_terminal(capsys, monkeypatch):
    from toyhw.commands import fastp

    monkeypatch.setattr(fastp, "BAR_WORK", 100)
    assert cli.main(["fastp", "--json", "--tasks", "40", "--rounds", "5,20"]) == 0
    err = capsys.readouterr().err
    assert err == LONG_RUN.replace("4,000,000,000", "4,000") + "\n"


def test_the_largest_run_the_limits_allow_says_so_within_seconds():
    """`--tasks 100000 --rounds 10000` once ran for minutes in silence: its first line comes before any work."""
    with interrupt.stopped(
        ["fastp", "--tasks", "100000", "--rounds", "10000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        line = interrupt.wait_for_text(proc.stderr.fileno(), "\n", timeout=60)
    assert line == LONG_RUN + "\n"
