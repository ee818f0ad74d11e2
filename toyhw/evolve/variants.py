"""The ablation variants: named settings of the loop, each switching off or changing one component.

The seed's nine, plus honest analogues of the two AlphaEvolve ablations it lacks: "no full-file evolution" (AlphaEvolve
evolved only the loss function; here only the configs of the expert's own rules evolve, no rule can be added or
split) and "no meta prompt evolution" (here: the mix of edit kinds stays fixed instead of adapting to what paid off).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from toyhw.evolve.llm import MockLLM
from toyhw.checks import check_list
from toyhw.strategies import Registry


@dataclass(frozen=True)
class Variant:
    """One ablation setting.

    Attributes:
        name: registry key.
        summary: one line for tables and dropdowns.
        evolve_kwargs: keyword arguments of toyhw.evolve.loop.evolve (llm, n_islands, evolution, cascade, adaptive_mix).
        seed_variant: True for the seed's nine (the default set of `python -m toyhw ablations`).
    """

    name: str
    summary: str
    evolve_kwargs: Mapping[str, Any] = field(default_factory=dict)
    seed_variant: bool = True


VARIANTS: Registry[Variant] = Registry("variant")


def _add(name: str, summary: str, seed_variant: bool = True, **kwargs: Any) -> None:
    VARIANTS.add(name, Variant(name, summary, kwargs, seed_variant))


_add("full", "everything: knowledge, best-seen feedback, borrowing, 4 islands, cascade, branch check")
_add("fb_roofline", "target shapes weighted by distance to the roofline (a bound: no config to adopt)",
     llm=MockLLM(feedback="roofline"))
_add("fb_worst3", "target only the 3 shapes with the lowest vs_best", llm=MockLLM(focus="worst3"))
_add("no_feedback", "target shapes uniformly; no per-shape results in the prompt", llm=MockLLM(feedback=None))
_add("small_llm", "no kernel knowledge: single-field edits only", llm=MockLLM(knowledge=False))
_add("no_evolution", "every proposal starts from the initial program", evolution=False)
_add("no_borrow", "never borrows rules from inspirations", llm=MockLLM(use_inspirations=False))
_add("one_island", "one island of the same total size", n_islands=1)
_add("no_cascade", "every program evaluated on all training shapes", cascade=False)
_add("no_full_file", "only the expert's rule configs evolve (no new rules)", False, llm=MockLLM(new_rules=False))
_add("no_meta_prompt", "fixed mix of edit kinds (no adaptation)", False, adaptive_mix=False)

SEED_VARIANTS: tuple[str, ...] = tuple(n for n in VARIANTS.available() if VARIANTS.get(n).seed_variant)
"""The seed's nine, in its order."""


def get(name: str) -> Variant:
    """Return the variant called `name`; KeyError lists the known names."""
    return VARIANTS.get(name)


def available() -> list[str]:
    """Return every variant name (the seed's nine first)."""
    return VARIANTS.available()


def check_variants(name: str, variants: Sequence[str]) -> tuple[str, ...]:
    """Return `variants` as a tuple of known, distinct names; raise naming `name` for an empty or repeated list, a
    string instead of a list, or an unknown name (UnknownNameError lists the known ones)."""
    return check_list(name, variants, _known, len(VARIANTS), "variant")


def _known(name: str, variant: str) -> str:
    get(variant)
    return variant
