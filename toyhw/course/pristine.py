"""The pack as the exercise checks found it: a check computes its reference with the pack's own functions, and says so
when a student's cell has replaced one of them since.

Why: a check's truth comes from the pack (the built-in proposers' race, `ablations.SEEDS`' runs). A student who writes
`proposers.fix_failure = ...` or `ablations.SEEDS = (0,)` in a cell (to explore, or to make a check pass) changes that
truth: the stub of notebook 02's exercise 1 would beat built-ins that no longer repair anything. The checks cannot run
in a clean process (the student's functions live in this one), so they notice instead: `watch` notes, when a notebook's
checks are imported, every public name of every toyhw module loaded then (functions, classes, constants, and what the
registries hold), and `changed` lists those that no longer are what they were.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from toyhw.strategies import Registry

_WATCHED: dict[str, dict[str, Any]] = {}
"""Module name -> {attribute: what it was}; a registry's entries are kept under "attribute[name]"."""

_KINDS = (
    types.FunctionType,
    types.BuiltinFunctionType,
    type,
    types.ModuleType,
    int,
    float,
    str,
    bytes,
    tuple,
    frozenset,
)
"""What is compared: names bound to functions, classes, modules and immutable values. Mutable module state (caches,
the kept study) changes as the pack runs and is not compared; private names neither."""


def _names(module: types.ModuleType) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, value in list(vars(module).items()):
        if name.startswith("_"):
            continue
        if isinstance(value, Registry):
            found.update({f"{name}[{key}]": value.get(key) for key in value.available()})
        elif isinstance(value, _KINDS) or value is None:
            found[name] = value
    return found


def _same(now: Any, before: Any) -> bool:
    """The same object, or an equal immutable value (`SEEDS = (0, 1, 2, 3, 4)` again changes nothing)."""
    if now is before:
        return True
    plain = (int, float, str, bytes, tuple, frozenset)
    return type(before) in plain and type(now) is type(before) and bool(now == before)


def watch() -> None:
    """Note every toyhw module loaded now and not noted before (a notebook's checks call this when imported)."""
    for name, module in list(sys.modules.items()):
        if (name == "toyhw" or name.startswith("toyhw.")) and name not in _WATCHED and module is not None:
            _WATCHED[name] = _names(module)


def changed() -> list[str]:
    """The names (`module.attribute`) of the pack that are no longer what `watch` noted, in a stable order; a registry
    held by several modules is named once, in the module its entry was defined in."""
    found, seen, registries_changed = [], set(), {}
    for name, before in sorted(_WATCHED.items()):
        module = sys.modules.get(name)
        if module is None or id(module) in seen:  # a module under two names in sys.modules is named once
            continue
        seen.add(id(module))
        now = vars(module)
        for attribute, value in before.items():
            if "[" not in attribute:
                if not (attribute in now and _same(now[attribute], value)):
                    found.append(f"{name.removeprefix('toyhw.')}.{attribute}")
                continue
            registry_name, key = attribute[:-1].split("[", 1)
            registry = now.get(registry_name)
            if isinstance(registry, Registry) and key in registry.available() and registry.get(key) is value:
                continue
            home = getattr(value, "__module__", None)
            names = registries_changed.setdefault((id(registry), attribute), [])
            names.insert(0 if name == home else len(names), name)
    found += [f"{names[0].removeprefix('toyhw.')}.{attribute}" for (_, attribute), names in registries_changed.items()]
    return sorted(found)
