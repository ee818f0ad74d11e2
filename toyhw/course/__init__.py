"""The course layer: what exists for the notebooks, above the engines (`toyhw.evolve`, `toyhw.kernels`, `toyhw.gemm`).

The engines never import it (the import-linter contract in pyproject.toml). `checks` holds each notebook's exercise
checks; `check` the one-line verdict they return.
"""
