"""Every name lecture 14's driver script imports from its missing `evolve` module, in one place.

The seed's driver (`from evolve import Evaluator, MockLLM, Shape, ...`) runs against toyhw with one changed line:
`from toyhw.alphaevolve import ...`. Nothing is defined here; each name lives in the module of its idea.
"""
from toyhw.evaluator import Evaluator, geomean_speedup, oracle_speedup
from toyhw.evolve import evolve
from toyhw.llm import MockLLM
from toyhw.programs import choose, render, simplify, static_check_program
from toyhw.shapes import LAYERS, Shape, all_shapes, split_shapes
from toyhw.time_table import TimeTable

__all__ = ["Evaluator", "MockLLM", "Shape", "LAYERS", "TimeTable", "all_shapes", "choose", "evolve", "geomean_speedup",
           "oracle_speedup", "render", "simplify", "split_shapes", "static_check_program"]
