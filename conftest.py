"""The repository's pytest plugins, loaded whichever paths pytest is given.

- After nbval has run an English notebook's cells, its kernel runs the solution file and resolves the prose's names
  (tests/notebook_solutions.py).
- `pytest -n auto` (what `make test` runs) starts one worker more than the CPUs this process may use: the browser tests
  spend much of their time waiting on a page or a kernel, and a third worker on two cores fills those waits (the
  whole suite on 2 cores: 528 s with two workers, 486 s with three).
"""

import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tests"))

pytest_plugins = ["notebook_solutions"]


def pytest_xdist_auto_num_workers(config) -> int:
    """pytest-xdist's hook for `-n auto`: the usable CPUs plus one."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return usable + 1
