"""The settings of one evolution run, in one frozen value (FunSearch keeps its loop's settings the same way).

A variant of the method is a config made with `dataclasses.replace(EvolveConfig(), n_islands=1)`; the LLM is not a
setting but an argument of `evolve`, because a real model or a replay replaces it without changing the method.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from toyhw import checks
from toyhw.evolve.programs import Program


@dataclass(frozen=True)
class EvolveConfig:
    """How `toyhw.evolve.loop.evolve` runs.

    Attributes:
        n_islands: islands of the database; capacity: programs it keeps in all; migrate_every: proposals between
            migrations along the ring.
        evolution: False = every proposal starts from the initial program (AlphaEvolve's "no evolution").
        cascade: True/False overrides the evaluator's own cascade setting; None keeps it.
        cascade_every: stage 1 of the cascade runs every `cascade_every`-th training shape.
        cascade_ratio: stage 1 passes when its score is at least this share of the best stage-1 score seen.
        adaptive_mix: False keeps the edit kinds' shares fixed ("no meta prompt evolution").
        initial: the program the search starts from; None = the expert.
    """

    n_islands: int = 4
    capacity: int = 100
    migrate_every: int = 50
    evolution: bool = True
    cascade: Optional[bool] = None
    cascade_every: int = 4
    cascade_ratio: float = 0.95
    adaptive_mix: bool = True
    initial: Optional[Program] = None

    def __post_init__(self) -> None:
        for name in ("n_islands", "capacity", "migrate_every", "cascade_every"):
            checks.check_int(name, getattr(self, name), 1)
        for name in ("evolution", "adaptive_mix"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} = {getattr(self, name)!r} is not allowed; it must be True or False")
        if self.cascade is not None and not isinstance(self.cascade, bool):
            raise ValueError(f"cascade = {self.cascade!r} is not allowed; it must be True, False or None")
        if (
            not isinstance(self.cascade_ratio, (int, float))
            or isinstance(self.cascade_ratio, bool)
            or not 0 < self.cascade_ratio <= 1
        ):
            raise ValueError(f"cascade_ratio = {self.cascade_ratio!r} is not allowed; it must be a number in (0, 1]")


DEFAULT = EvolveConfig()
"""The full method's settings."""
