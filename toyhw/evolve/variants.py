"""The ablation variants: named settings of the loop, each switching off or changing one component.

The lecture script's nine, plus honest analogues of the two AlphaEvolve ablations it lacks: "no full-file evolution" (AlphaEvolve
evolved only the loss function; here only the configs of the expert's own rules evolve, no rule can be added or
split) and "no meta prompt evolution" (here: the mix of edit kinds stays fixed instead of adapting to what paid off).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from toyhw.checks import check_list
from toyhw.evolve.config import DEFAULT, EvolveConfig
from toyhw.evolve.llm import MockLLM
from toyhw.i18n import N_, t
from toyhw.strategies import Registry


@dataclass(frozen=True)
class Variant:
    """One ablation setting.

    Attributes:
        name: registry key.
        summary: one line for tables and dropdowns, in English (`summary(name)` gives it in the reader's language).
        llm: the variant's proposal step; config: its loop settings (both passed to toyhw.evolve.loop.evolve).
        lecture_variant: True for the lecture script's nine (the default set of `python -m toyhw ablations`).
    """

    name: str
    summary: str
    llm: MockLLM = field(default_factory=MockLLM)
    config: EvolveConfig = DEFAULT
    lecture_variant: bool = True


VARIANTS: Registry[Variant] = Registry("variant")
FULL = Variant("full", "everything: knowledge, best-seen feedback, borrowing, 4 islands, cascade, branch check")


def _add(variant: Variant) -> None:
    VARIANTS.add(variant.name, variant)


def _llm(name: str, summary: str, **changes) -> Variant:
    return replace(FULL, name=name, summary=summary, llm=replace(FULL.llm, **changes))


def _config(name: str, summary: str, **changes) -> Variant:
    return replace(FULL, name=name, summary=summary, config=replace(FULL.config, **changes))


_add(FULL)
_add(
    _llm(
        "fb_roofline",
        "target shapes weighted by distance to the roofline (a bound: no config to adopt)",
        feedback="roofline",
    )
)
_add(_llm("fb_worst3", "target only the 3 shapes with the lowest vs_best", focus="worst3"))
_add(_llm("no_feedback", "target shapes uniformly; no per-shape results in the prompt", feedback=None))
_add(_llm("small_llm", "no kernel knowledge: single-field edits only", knowledge=False))
_add(_config("no_evolution", "every proposal starts from the initial program", evolution=False))
_add(_llm("no_borrow", "never borrows rules from inspirations", use_inspirations=False))
_add(_config("one_island", "one island of the same total size", n_islands=1))
_add(_config("no_cascade", "every program evaluated on all training shapes", cascade=False))
_add(
    replace(
        _llm("no_full_file", "only the expert's rule configs evolve (no new rules)", new_rules=False),
        lecture_variant=False,
    )
)
_add(
    replace(
        _config("no_meta_prompt", "fixed mix of edit kinds (no adaptation)", adaptive_mix=False), lecture_variant=False
    )
)

LECTURE_VARIANTS: tuple[str, ...] = tuple(n for n in VARIANTS.available() if VARIANTS.get(n).lecture_variant)
"""The lecture script's nine, in its order."""


def get(name: str) -> Variant:
    """Return the variant called `name`; KeyError lists the known names."""
    return VARIANTS.get(name)


def available() -> list[str]:
    """Return every variant name (the lecture script's nine first)."""
    return VARIANTS.available()


SUMMARIES = {
    "full": N_("variant.full"),
    "fb_roofline": N_("variant.fb_roofline"),
    "fb_worst3": N_("variant.fb_worst3"),
    "no_feedback": N_("variant.no_feedback"),
    "small_llm": N_("variant.small_llm"),
    "no_evolution": N_("variant.no_evolution"),
    "no_borrow": N_("variant.no_borrow"),
    "one_island": N_("variant.one_island"),
    "no_cascade": N_("variant.no_cascade"),
    "no_full_file": N_("variant.no_full_file"),
    "no_meta_prompt": N_("variant.no_meta_prompt"),
}
"""Variant name -> the catalogue id of its summary (the English catalogue holds each `Variant.summary` as it is)."""


def summary(name: str) -> str:
    """Return the summary of the variant called `name` in the reader's language (KeyError lists the known names)."""
    get(name)
    return t(SUMMARIES[name])


def origin(name: str) -> str:
    """Return where the variant called `name` comes from, for tables: the lecture script, or an AlphaEvolve analogue."""
    return t("variant.lecture") if get(name).lecture_variant else t("variant.analogue")


def check_variants(name: str, variants: Sequence[str]) -> tuple[str, ...]:
    """Return `variants` as a tuple of known, distinct names; raise naming `name` for an empty or repeated list, a
    string instead of a list, or an unknown name (UnknownNameError lists the known ones)."""
    return check_list(name, variants, _known, len(VARIANTS), "variant")


def _known(name: str, variant: str) -> str:
    get(variant)
    return variant
