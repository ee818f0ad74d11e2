"""Load a notebook's solution file (notebooks/solutions/NN_<stem>.py) as a module, for the tests that check it.

The solution files sit beside the notebooks, not in the package (a student's install has no answers in it), so tests
import them by path.
"""
from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType

SOLUTIONS = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "solutions"


def load_solution(nn: str) -> ModuleType:
    """Return notebook `nn`'s solution file ("07" -> notebooks/solutions/07_*.py) run as one module."""
    (path,) = SOLUTIONS.glob(f"{nn}_*.py")
    spec = importlib.util.spec_from_file_location(f"solution_{nn}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
