"""Lecture 14: a mini AlphaEvolve that evolves a GEMM tiling heuristic, and the experiments on it.

Backs notebooks 04 (ablations), 05 (inside the loop), 06 (using feedback), 07 (checking all branches) and 08
(cost and scale), and the commands `ablations`, `targeting`, `branches`, `prompt` and `evolve`. Read in this order:

The system
1. `programs`  — the evolved program: an ordered rule list on (M, N, K), `choose`, `render` to Python source;
2. `source`    — parse that source back with `ast` (never executing it) and check every branch statically;
3. `simplify`  — drop rules that never fire or change nothing, keeping behaviour on every shape;
4. `shape_times` — every config's time on the training shapes as a matrix, a program's times in one gather;
   `evaluator` — score = geometric-mean speedup over the expert; branch check, cascade, per-shape feedback;
5. `knowledge` — the mock LLM's kernel knowledge: a regime-appropriate config for a shape;
6. `llm`       — the mock LLM: target shape from feedback, directed or single-field edits, borrowing;
7. `database`  — islands with bounded populations, tournament selection and migration;
8. `loop`      — the loop that wires them (one function, `evolve`);
9. `variants`  — the named ablation variants.

A real model in the loop
10. `prompt`      — the prompt a real system would send at one step, part by part (what the variant's mock reads);
11. `replies`     — a model's reply read into a proposal: diff blocks or a whole program, parsed, never executed;
12. `endpoint`    — an OpenAI-compatible chat endpoint (the optional `openai` package): timeouts, bounded retries;
13. `chatlog`     — the JSONL log of such a run;
14. `chat`        — `ChatLLM` (a real model as the proposal step) and `ReplayLLM` (a logged run, no network);
15. `prompt_view` — the prompt at step k of a run, next to what the mock did with it.

The experiments
16. `ablations`      — the problem (time table, shapes, oracle) and demo 1: every variant x seed, cached runs;
17. `targeting`      — demo 2: where "distance to the roofline" and "distance to the best seen" point;
18. `branch_check`   — demo 3: latent bad branches with and without checking every branch;
19. `proposal_trace` — every proposal of one run and what the loop did with it (notebook 05);
20. `tables`         — demo 1 and 3's results as tables, and observations computed from them;
    `feedback_tables` (demo 2, notebook 06) and `loop_tables` (notebook 05) likewise;
21. `sweep`          — grids of runs through any `concurrent.futures.Executor` (processes, Dask);
22. `scaling`        — measured cost against budget, seeds, variants and processes;
23. `solutions`      — reference solutions of the exercises of notebooks 04 and 05 (one block per notebook);
    notebooks 06-08's live beside the notebooks, in notebooks/solutions/.

Depends on the GEMM model (toyhw.gemm) and the shared modules; never on lecture 10 (toyhw.kernels).
"""
