"""Reference solutions of the notebooks' exercises (students: try first, then compare)."""
from __future__ import annotations

import random

from toyhw.kernels import knobs, proposers
from toyhw.kernels.knobs import KernelConfig, RunFeedback


def directed_proposer(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return a fix for a failure, else (80% of the time) a step the bottleneck points to, else any one-knob change.

    Notebook 02's exercise. Unlike `suggest`, it moves each knob in the direction that helps (switch on fusion, shared
    memory or a wider vector when memory-bound; move the tile towards 16/32 or unroll more when compute-bound), and
    it keeps 20% of undirected steps, so that the advice never becomes a command.
    """
    if not feedback.ok:
        return proposers.fix_failure(feedback, config, rng)
    if feedback.bottleneck == "memory":
        moves = [{"fuse": 1}] if not config.fuse else []
        moves += [{"shared": 1}] if not config.shared and config.tile < 64 else []
        moves += [{"vec": config.vec * 2}] if config.vec < 4 else []
    else:
        moves = [{"tile": t} for t in (16, 32) if t != config.tile]
        moves += [{"unroll": config.unroll * 2}] if config.unroll < 4 and config.tile != 64 else []
    if moves and rng.random() < 0.8:
        return config.replace(**rng.choice(moves))
    return knobs.mutate(config, rng)
