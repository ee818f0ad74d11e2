"""Test set-up shared by all test modules: make tests/ importable (for seed_reference) and plots headless."""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
sys.path.insert(0, str(pathlib.Path(__file__).parent))
