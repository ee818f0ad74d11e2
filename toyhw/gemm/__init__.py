"""Lecture 13's hardware model: how long a tiled BF16 GEMM takes on a GPU, and which configs can launch at all.

Backs notebook 03 and `python -m toyhw gemm`, and every score of lecture 14 (toyhw.evolve) stands on it. Read in
this order:

1. `gpu`        — GPU specifications (from data/gpus.csv, with sources);
2. `shapes`     — the GEMM shapes of LLM layers (from data/llm_layers.csv), the lecture's 88, the train/test split;
3. `config`     — the Triton-style config space and launchability, with the reason a launch fails;
4. `cost`       — the time model (padding, waves, memory and compute sides, fixed costs) and the roofline;
5. `time_table` — every config's time on any shape, vectorized and cached, with the per-shape oracle;
6. `expert`     — the hand-written heuristic every score is relative to;
7. `report`     — notebook 03's computed reports (distance to roofline with reasons, expert losses);
8. `validate`   — the model against published measurements of real GEMMs (data/gemm_measurements.csv);
9. `vllm`       — vLLM's tuned H100 configs, read the way vLLM reads them, ranked by the model.

Depends only on `toyhw.data`; never on lecture 10 (toyhw.kernels) or on the evolution code above it.
"""
