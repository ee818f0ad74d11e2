"""Simplify a program: drop rules that can never fire or that change nothing, keeping behaviour on every (M, N, K).

Why exact and not "on the training shapes": a rule that no training shape reaches is exactly where latent bugs hide
(demo 3), so simplification must keep the program's behaviour on *all* integer shapes. Rule conditions are boxes of
integer intervals, so the (M, N, K) space splits into finitely many cells between the rules' bounds on which every
condition is constant; comparing programs on one point per cell compares them everywhere.
"""

from __future__ import annotations

import numpy as np

from toyhw.evolve.programs import Program, Rule


def _axis_points(program: Program, axis: int) -> np.ndarray:
    """Return one representative value per interval that the rules' bounds on `axis` cut [0, inf) into."""
    cuts = {0}
    for rule in program.rules:
        lo, hi = rule.bounds()[axis]
        if lo is not None:
            cuts.add(lo)
        if hi is not None:
            cuts.add(hi + 1)
    return np.array(sorted(cuts), dtype=np.int64)


def _cells(program: Program) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    axes = [_axis_points(program, a) for a in range(3)]
    grid = np.meshgrid(*axes, indexing="ij")
    return tuple(g.ravel() for g in grid)  # type: ignore[return-value]


def _mask(rule: Rule, points: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    mask = np.ones(points[0].shape, dtype=bool)
    for values, (lo, hi) in zip(points, rule.bounds()):
        if lo is not None:
            mask &= values >= lo
        if hi is not None:
            mask &= values <= hi
    return mask


def _redundant(program: Program, index: int, points, masks: list[np.ndarray]) -> bool:
    """Return True when removing rule `index` changes no decision on `points` (`masks[i]`: where rule i holds)."""
    rule = program.rules[index]
    earlier = np.zeros(points[0].shape, dtype=bool)
    for mask in masks[:index]:
        earlier |= mask
    undecided = masks[index] & ~earlier  # where the rule fires
    if not undecided.any():
        return True  # never fires
    # without it, the later rules and the default decide those points: each must pick the same config
    for other, mask in zip(program.rules[index + 1 :], masks[index + 1 :]):
        hit = mask & undecided
        if hit.any():
            if other.config != rule.config:
                return False
            undecided &= ~hit
    return not undecided.any() or program.default == rule.config


def simplify(program: Program) -> Program:
    """Return an equivalent program without rules that never fire or change nothing (behaviour kept everywhere)."""
    current = program
    changed = True
    while changed:
        changed = False
        points = _cells(current)
        masks = [_mask(rule, points) for rule in current.rules]  # once per pass, not once per rule and pair
        for index in range(len(current.rules) - 1, -1, -1):
            if _redundant(current, index, points, masks):
                current = Program(current.rules[:index] + current.rules[index + 1 :], current.default)
                changed = True
                break
    return current
