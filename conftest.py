"""The repository's pytest plugins, loaded whichever paths pytest is given: after nbval has run an English notebook's
cells, its kernel runs the solution file and resolves the prose's names (tests/notebook_solutions.py)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tests"))

pytest_plugins = ["notebook_solutions"]
