"""Load a notebook's solution file, notebooks/solutions/NN_<stem>.py, as a module (its sections run in order).

The solutions are files beside the notebooks, not part of the package; tests that recompute what a notebook says
about a solution's result import them through here.
"""
from __future__ import annotations

import importlib.util
import pathlib
import types

SOLUTIONS = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "solutions"


def load_solution(nn: str) -> types.ModuleType:
    """Return notebook `nn`'s solution file ("02" -> notebooks/solutions/02_*.py) as a module, loaded once."""
    path = next(SOLUTIONS.glob(f"{nn}_*.py"))
    name = f"solutions_{nn}"
    if name not in _loaded:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _loaded[name] = module
    return _loaded[name]


_loaded: dict[str, types.ModuleType] = {}
