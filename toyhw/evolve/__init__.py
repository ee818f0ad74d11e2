"""Lecture 14: a mini AlphaEvolve that evolves a GEMM tiling heuristic, and the experiments on it.

Backs notebooks 04 (ablations), 05 (using feedback), 06 (checking all branches) and 07 (cost and scale), and the
commands `ablations`, `targeting` and `branches`. Read in this order:

The system
1. `programs`  — the evolved program: an ordered rule list on (M, N, K), `choose`, `render` to Python source;
2. `source`    — parse that source back with `ast` (never executing it) and check every branch statically;
3. `simplify`  — drop rules that never fire or change nothing, keeping behaviour on every shape;
4. `evaluator` — score = geometric-mean speedup over the expert; branch check, cascade, per-shape feedback;
5. `knowledge` — the mock LLM's kernel knowledge: a regime-appropriate config for a shape;
6. `llm`       — the mock LLM: target shape from feedback, directed or single-field edits, borrowing;
7. `database`  — islands with bounded populations, tournament selection and migration;
8. `loop`      — the loop that wires them (one function, `evolve`);
9. `variants`  — the named ablation variants.

The experiments
10. `ablations` — lecture 14's three demos as cached pure functions;
11. `tables`    — their results as tables, and observations computed from them;
12. `sweep`     — grids of runs through any `concurrent.futures.Executor` (processes, Dask);
13. `scaling`   — measured cost against budget, seeds, variants and processes.

Depends on the GEMM model (toyhw.gemm) and the shared modules; never on lecture 10 (toyhw.kernels).
"""
