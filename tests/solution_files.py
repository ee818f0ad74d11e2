"""The notebooks' solution files (notebooks/solutions/NN_<stem>.py), loaded as modules for the tests.

A solution file is a script of self-contained sections (`# %% Exercise K`), so importing the whole file runs every
section once and leaves each exercise's names in one module.
"""
from __future__ import annotations

import functools
import importlib.util
import pathlib
from types import ModuleType

SOLUTIONS = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "solutions"


@functools.cache
def load_solution(nn: str) -> ModuleType:
    """Return notebook `nn`'s solution file ("01" ... "08") imported as a module."""
    (path,) = SOLUTIONS.glob(f"{nn}_*.py")
    spec = importlib.util.spec_from_file_location(f"solutions_{nn}", path)
    assert spec and spec.loader, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
