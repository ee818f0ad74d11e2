"""The mock LLM's kernel knowledge: a regime-appropriate config for a GEMM shape, written the way an engineer would.

It knows the textbook moves (notebook 03's best configs per regime): skinny tiles and split-K for decode, split-K when N / BN
gives too few blocks to fill the SMs or K is deep, big tiles with more warps and stages for prefill. It picks each field
from the regime's usual values independently, so it sometimes writes a config that cannot launch (too much shared
memory, too many registers, too many warps for the tile) - an imperfect model, like a real LLM's suggestions.
"""

from __future__ import annotations

import math
import random

from toyhw.gemm.config import FIELDS, GemmConfig, config_space

SMS = 132  # the H100's SM count: the number of blocks that fills one wave (the knowledge is written for an H100)
_SPACE: dict[tuple[int, ...], GemmConfig] = {tuple(getattr(c, f) for f in FIELDS): c for c in config_space()}


def make_config(*fields: int) -> GemmConfig:
    """Return the config with these field values (FIELDS order), as the config space's own instance.

    Why: building a GemmConfig validates and hashes it (tens of microseconds) and the search writes tens of thousands;
    the space's instance is equal, and identical objects also make every dict lookup of it skip `__eq__`.
    """
    config = _SPACE.get(fields)
    return config if config is not None else GemmConfig(*fields)  # outside the space: GemmConfig names the bad field


def size_class(M: int) -> str:
    """Return the mock LLM's own sense of a batch's size: "decode" (M <= 16), "mid" (M <= 512) or "prefill".

    These classes are the mock's knowledge, not the pack's GEMM regimes (`toyhw.gemm.shapes.regime`): each picks the
    fields an engineer would try for it (skinny tiles, middling tiles, big tiles), and its label is the word the mock's
    reasons use ("decode: 16x64 tiles"). The thresholds equal the regimes' cut-offs today but stay the mock's own, so
    that a change of the pack's convention never moves lecture 14's results.
    """
    return "decode" if M <= 16 else "mid" if M <= 512 else "prefill"


def suggest(M: int, N: int, K: int, rng: random.Random) -> tuple[GemmConfig, str]:
    """Return a plausible config for (M, N, K) and a short reason, drawn with `rng`."""
    kind = size_class(M)
    if kind == "decode":
        bm = 16 if rng.random() < 0.8 else 32
        bn = rng.choice((32, 64) if N <= 2048 else (64, 128, 256))
        bk = rng.choice((64, 128, 256))
        warps = 2 if rng.random() < 0.6 else 4
        stages = rng.choice((3, 4, 5))
    elif kind == "mid":
        bm = rng.choice(tuple(b for b in (32, 64, 128) if b <= max(32, 2 * M)))
        bn = rng.choice((64, 128) if N <= 2048 else (64, 128, 256))
        bk = rng.choice((32, 64, 128))
        warps = rng.choice((4, 8))
        stages = rng.choice((3, 4, 5))
    else:
        bm, bn = rng.choices(((128, 128), (128, 256), (256, 128), (256, 256)), weights=(35, 30, 25, 10))[0]
        bk = rng.choice((32, 64))
        warps = 8 if rng.random() < 0.75 else 4
        stages = rng.choices((3, 4, 5), weights=(45, 40, 15))[0]
    blocks = math.ceil(M / bm) * math.ceil(N / bn)
    split, why = 1, f"{kind}: {bm}x{bn} tiles"
    if kind != "prefill" and (blocks < SMS // 2 or K >= 8192) and rng.random() < 0.7:
        split = rng.choice((2, 4, 8))
        why += f", split-K {split} ({blocks} blocks" + (", deep K)" if K >= 8192 else " cannot fill the SMs)")
    return make_config(bm, bn, bk, warps, stages, split), why


def as_text() -> str:
    """Return the knowledge `suggest` draws from, as the lines a prompt gives a model with kernel knowledge.

    Why here: the prompt (toyhw.evolve.bridge.prompt) must say what the mock knows, no more and no less; written beside
    `suggest`, a change to one is in view of the other.
    """
    return "\n".join(
        [
            "- decode (M <= 16): block_m 16 (sometimes 32); block_n 32-64 for N <= 2048, 64-256 above; block_k 64-256; "
            "2 warps (or 4); 3-5 stages.",
            "- mid (16 < M <= 512): block_m 32-128 but at most max(32, 2*M); block_n 64-128 (up to 256 for N > 2048); "
            "block_k 32-128; 4 or 8 warps; 3-5 stages.",
            "- prefill (M > 512): big tiles (128x128, 128x256, 256x128, 256x256); block_k 32-64; 8 warps (or 4); "
            "3-4 stages (5 rarely); no split-K.",
            "- split-K (2, 4 or 8) helps decode and mid shapes when ceil(M/block_m) * ceil(N/block_n) blocks are fewer "
            f"than half the {SMS} SMs (one wave = {SMS} blocks) or K is deep (K >= 8192).",
            "- padding: a tile taller than M computes rows that are thrown away.",
        ]
    )
