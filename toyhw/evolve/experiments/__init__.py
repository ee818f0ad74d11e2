"""The experiments of lecture 14 on the engine (toyhw.evolve): the demos of notebooks 04, 06 and 07, and sweeps.

1. `ablations`    — the problem (time table, shapes, oracle) and demo 1: every variant x seed, cached runs;
2. `targeting`    — demo 2: where "distance to the roofline" and "distance to the best seen" point;
3. `branch_check` — demo 3: latent bad branches with and without checking every branch;
4. `sweep`        — grids of runs through any `concurrent.futures.Executor` (processes, Dask).

The engine never imports them.
"""
