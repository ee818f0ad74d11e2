"""Lecture 13's tests. A package, so that its test_solutions.py and tests/kernels/test_solutions.py can both be collected."""
