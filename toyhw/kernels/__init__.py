"""Lecture 10: writing kernels that are right and fast — KernelBench's fast_p and informative feedback.

Backs notebooks 01 (one-shot kernels) and 02 (feedback loops) and `python -m toyhw fastp`. Read in this order:

1. `knobs`     — the toy kernel: five knobs, hidden task traits, a run that returns a structured feedback record;
2. `proposers` — the four built-in ways to choose the next config from that feedback, and the proposer protocol;
3. `optimize`  — the loop (run, read feedback, propose) with the lecture script's random streams;
4. `race`      — who is in a race: a unique, visible row name for every built-in mode and student proposer;
5. `study`     — the experiments: one-shot kernels and the feedback table, cached for instant widgets.

The results as tables, and the observations computed from them, are in the course layer
(toyhw.course.kernel_tables); the exercises' reference solutions are in notebooks/solutions/.

This subpackage depends only on the shared modules (`toyhw.metrics`, `toyhw.data`, `toyhw.strategies`, `toyhw.checks`),
never on the GEMM model or the evolution code (an import-linter contract in pyproject.toml keeps it so).
"""
