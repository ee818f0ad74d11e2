"""Lecture 14: a mini AlphaEvolve that evolves a GEMM tiling heuristic (the engine), its real-model bridge and the
experiments on it.

Backs notebooks 04 (ablations), 05 (inside the loop), 06 (using feedback), 07 (checking all branches) and 08
(cost and scale), and the commands `ablations`, `targeting`, `branches`, `prompt` and `evolve`. Read in this order:

The engine (this folder)
1. `programs`    — the evolved program: an ordered rule list on (M, N, K), `choose`, `render` to Python source;
2. `source`      — parse that source back with `ast` (never executing it) and check every branch statically;
3. `simplify`    — drop rules that never fire or change nothing, keeping behaviour on every shape;
4. `shape_times` — every config's time on the training shapes as a matrix, a program's times in one gather;
5. `evaluator`   — score = geometric-mean speedup over the expert; branch check, cascade, per-shape feedback;
6. `knowledge`   — the mock LLM's kernel knowledge: a regime-appropriate config for a shape;
7. `llm`         — the mock LLM: target shape from feedback, directed or single-field edits, borrowing;
8. `database`    — islands with bounded populations, tournament selection and migration;
9. `config`      — a run's settings in one frozen `EvolveConfig`;
10. `step_guard` — the proposal step's inputs made read-only and its return value checked;
11. `loop`       — the loop that wires them (one function, `evolve`, with one observer);
12. `variants`   — the named ablation variants.

A real model in the loop (`bridge`): `prompt`, `replies`, `bounded_http`, `endpoint`, `chatlog`, `chat`.

The experiments (`experiments`): `ablations` (demo 1), `targeting` (demo 2), `branch_check` (demo 3), `sweep`.

The notebooks' tables, traces, prompt view and cost measurements are in the course layer (toyhw.course).

Depends on the GEMM model (toyhw.gemm) and the shared modules; never on lecture 10 (toyhw.kernels).
"""
