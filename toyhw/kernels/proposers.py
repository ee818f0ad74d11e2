"""Proposers: how the next kernel config is chosen from the last run's feedback.

A proposer is any function `(feedback, config, rng) -> config`. The optimization loop hands it the feedback of the
config it should build on (the best one so far, or the one that just failed) and a seeded `random.Random`; it must
return a `KernelConfig`. The four built-ins differ only in how much of the feedback they use, which is the point of
lecture 10: same search budget, more informative feedback, better kernels.

- resample: ignores feedback and writes a fresh one-shot kernel each round (repeated sampling).
- scalar: sees only "faster / slower / failed"; changes one random knob of the best config (OpenTuner's credit signal).
- explain: on a failure, reads the machine-readable cause and fixes it; otherwise like scalar.
- suggest: like explain, and on success changes a knob that matches the profiler's bottleneck (the Agent-System
  Interface's AutoGuide: raw output turned into explanations and suggestions).
"""

from __future__ import annotations

import random
from typing import Protocol

from toyhw.kernels import knobs
from toyhw.kernels.knobs import KernelConfig, RunFeedback
from toyhw.strategies import Registry


class Proposer(Protocol):
    """The extension point: return the next config to try."""

    def __call__(self, feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig: ...


PROPOSERS: Registry[Proposer] = Registry("feedback mode")

MEMORY_KNOBS = ("fuse", "vec", "shared")
COMPUTE_KNOBS = ("tile", "unroll")


@PROPOSERS.register("resample")
def resample(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return a fresh one-shot config, ignoring all feedback."""
    return knobs.random_config(rng)


@PROPOSERS.register("scalar")
def scalar(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return `config` with one random knob changed: a time or "failed" says nothing about which knob to touch."""
    return knobs.mutate(config, rng)


def fix_failure(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return `config` repaired for the cause in `feedback` (what an agent does with an explained error)."""
    if feedback.cause == "shared_memory_overflow":
        # Either give up shared memory or keep it with a tile that fits; a coin decides, as a model hesitates.
        shared = 0 if rng.random() < 0.5 else config.shared
        return config.replace(shared=shared, tile=32 if shared else config.tile)
    if feedback.cause == "vector_width_indivisible":
        n = feedback.failing_n
        assert n is not None
        return config.replace(vec=max(v for v in knobs.KNOBS["vec"] if n % v == 0))
    if feedback.cause == "illegal_fusion":
        return config.replace(fuse=0)
    return config


@PROPOSERS.register("explain")
def explain(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return the fix for a failure's cause, or a one-knob change of a working config."""
    if not feedback.ok:
        return fix_failure(feedback, config, rng)
    return knobs.mutate(config, rng)


@PROPOSERS.register("suggest")
def suggest(feedback: RunFeedback, config: KernelConfig, rng: random.Random) -> KernelConfig:
    """Return the fix for a failure, or a change of a knob that addresses the profiler's bottleneck."""
    if not feedback.ok:
        return fix_failure(feedback, config, rng)
    related = MEMORY_KNOBS if feedback.bottleneck == "memory" else COMPUTE_KNOBS
    return knobs.mutate(config, rng, rng.choice(related))
