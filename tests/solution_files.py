"""Load a notebook's solution file (notebooks/solutions/NN_<stem>.py) as a module, for tests that reuse its functions.

The solutions live beside the notebooks, not in the package, so tests import them by path; a module is loaded once.
"""
from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType

SOLUTIONS = Path(__file__).resolve().parents[1] / "notebooks" / "solutions"


@functools.lru_cache(maxsize=None)
def load_solution(nn: str) -> ModuleType:
    """Return notebook `nn`'s solution file (e.g. "06") run as a module named `solutions_nn`."""
    (path,) = SOLUTIONS.glob(f"{nn}_*.py")
    spec = importlib.util.spec_from_file_location(f"solutions_{nn}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
