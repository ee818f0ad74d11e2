"""Through a real Jupyter kernel (nbclient, as a student's Lab runs a notebook): a check cell whose student code loops
for ever gets its verdict within the stated limit and the next cell runs; a 10 MB print shows a few lines; sys.exit()
is a verdict, and the kernel lives on.

Why a kernel and not only tests/course/test_runner.py: the time limit rides on SIGALRM in the kernel's main thread and
the output on ipykernel's own streams, which a plain pytest process does not have.
"""

from __future__ import annotations

import pathlib

import nbformat
import pytest

from exercise_cells import output_text
from toyhw.course import runner

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"

CELLS = [
    "import sys, time\nfrom toyhw.course.checks import nb01 as checks",
    "def endless(speedups, p=1.0):\n    while True:\n        pass",
    "start = time.monotonic()\nverdict = checks.exercise_1(endless)\nelapsed = time.monotonic() - start\nverdict",
    "print(round(elapsed, 1))",
    "def chatty(speedups, p=1.0):\n    print('x' * 10_000_000)\n    return 0.5\n\n\nchecks.exercise_1(chatty)",
    "def leaves(speedups, p=1.0):\n    sys.exit()\n\n\nchecks.exercise_1(leaves)",
    "print('the next cell runs')",
]


@pytest.fixture(scope="module")
def ran() -> list[dict]:
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in CELLS])
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return nb.cells


def test_an_endless_loop_gets_its_verdict_within_the_stated_limit(ran):
    assert output_text(ran[2]).strip() == f"✗ the function did not return within {runner.LIMIT_S:g} s"
    assert runner.LIMIT_S <= float(output_text(ran[3])) < runner.LIMIT_S + 3


def test_a_10_mb_print_shows_a_few_lines_in_the_cell(ran):
    shown = output_text(ran[4])
    lines = shown.splitlines()
    assert len(shown) < runner.HEAD_CHARS + 300 and len(lines) == 3, lines[1:]
    assert lines[0] == "x" * runner.HEAD_CHARS
    assert lines[1] == "… and 1 more lines of output (9,998,001 characters), not shown"
    assert lines[2].startswith("✗ for the one-shot speedups at p = 1 it gives 0.500")


def test_sys_exit_is_a_verdict_and_the_kernel_runs_the_next_cell(ran):
    assert output_text(ran[5]).strip() == "✗ the function raised SystemExit"
    assert output_text(ran[6]).strip() == "the next cell runs"
    assert not any(output.get("output_type") == "error" for cell in ran for output in cell.get("outputs", []))
