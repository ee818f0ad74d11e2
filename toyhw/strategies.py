"""A registry of named strategies: proposers, ablation variants, feedback keys.

Why a registry: notebooks fill their dropdowns from `available()`, the CLI validates names against it, and an unknown
name is an error that lists the known ones (OpenTuner only logged unknown names; we raise).
"""

from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

from toyhw.checks import UnknownNameError

T = TypeVar("T")


class Registry(Generic[T]):
    """An ordered name -> strategy map; registration is explicit, never a side effect of scanning a folder."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Return a decorator that adds its argument under `name` (a duplicate name is an error)."""

        def add(item: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} is already registered")
            self._items[name] = item
            return item

        return add

    def add(self, name: str, item: T) -> T:
        """Register `item` under `name` and return it."""
        return self.register(name)(item)

    def get(self, name: str) -> T:
        """Return the strategy called `name`; raise UnknownNameError (a KeyError and a ValueError) naming the known
        ones otherwise."""
        try:
            return self._items[name]
        except (KeyError, TypeError):
            raise UnknownNameError(f"unknown {self.kind} {name!r}; known: {', '.join(self._items)}") from None

    def available(self) -> list[str]:
        """Return the registered names in registration order (the order dropdowns show)."""
        return list(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
