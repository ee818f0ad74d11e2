"""The expert program: the hand-written tiling heuristic every score is relative to.

Three rules on M alone, the kind a kernel engineer ships after tuning a few shapes: a split-free skinny config for
decode (BLOCK_M 16 and a deep BLOCK_K with 5 stages, like vLLM's tuned H100 decode configs), a medium tile for mid M,
and Triton's tutorial prefill config (128x256x64, 8 warps, 3 stages). It ignores N and K, so it leaves time on the
table where the layer's shape matters: small-N decode (too few blocks), M just past a threshold, wave-quantized
prefill. It is an H100 heuristic: all three configs launch on the Hopper and Blackwell GPUs of data/gpus.csv, but the
5-stage decode config needs more shared memory than an A100 gives a block, and none of the three fits an L40S.
"""

from __future__ import annotations

from toyhw.gemm.config import GemmConfig
from toyhw.gemm.shapes import Shape

EXPERT_RULES: tuple[tuple[int, GemmConfig], ...] = (
    (16, GemmConfig(block_m=16, block_n=64, block_k=256, num_warps=4, num_stages=5, split_k=1)),
    (128, GemmConfig(block_m=64, block_n=64, block_k=128, num_warps=4, num_stages=4, split_k=1)),
)
"""(max M, config) pairs, tried in order: the first rule with M <= max M applies."""
EXPERT_DEFAULT = GemmConfig(block_m=128, block_n=256, block_k=64, num_warps=8, num_stages=3, split_k=1)
"""The config for M above every rule's threshold (prefill)."""


def expert_config(shape: Shape) -> GemmConfig:
    """Return the expert's config for `shape` (it only looks at M)."""
    for max_m, config in EXPERT_RULES:
        if shape.M <= max_m:
            return config
    return EXPERT_DEFAULT
