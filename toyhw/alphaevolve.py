"""Every name lecture 14's driver script imports from its missing `evolve` module, in one place.

The seed's driver (`from evolve import Evaluator, MockLLM, Shape, ...`) runs against toyhw with one changed line:
`from toyhw.alphaevolve import ...`. Nothing is defined here; each name lives in the module of its idea.
"""

from toyhw.evolve.evaluator import Evaluator, geomean_speedup, oracle_speedup
from toyhw.evolve.loop import evolve
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.programs import choose, render
from toyhw.evolve.simplify import simplify
from toyhw.evolve.source import static_check as static_check_program
from toyhw.gemm.shapes import LAYERS, Shape, all_shapes, split_shapes
from toyhw.gemm.time_table import TimeTable

__all__ = [
    "Evaluator",
    "MockLLM",
    "Shape",
    "LAYERS",
    "TimeTable",
    "all_shapes",
    "choose",
    "evolve",
    "geomean_speedup",
    "oracle_speedup",
    "render",
    "simplify",
    "split_shapes",
    "static_check_program",
]
