"""Test set-up shared by all test modules: make tests/ importable (for seed_reference), plots headless, and the
property-based tests reproducible.

Hypothesis runs derandomized (the examples depend only on the test, so CI sees the same ones on every run) without an
example database (nothing written into the checkout) and without deadlines (a shared machine's pauses are no bugs);
each property test sets its own max_examples so the whole suite of them stays well under a minute.
"""
import pathlib
import sys

import matplotlib
from hypothesis import settings

matplotlib.use("Agg")
sys.path.insert(0, str(pathlib.Path(__file__).parent))

settings.register_profile("toyhw", derandomize=True, database=None, deadline=None)
settings.load_profile("toyhw")
