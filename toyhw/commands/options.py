"""Parsers for option values shared by the commands: comma-separated lists with errors that name the option."""
from __future__ import annotations

import argparse
from typing import Callable


def int_list(option: str, minimum: int = 0) -> Callable[[str], list[int]]:
    """Return an argparse type that reads "5,10,20" as [5, 10, 20] and refuses other text, naming `option`."""

    def parse(text: str) -> list[int]:
        try:
            values = [int(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{option} = {text!r} is not allowed; give comma-separated integers, e.g. 5,10,20"
            ) from None
        if not values or any(v < minimum for v in values):
            raise argparse.ArgumentTypeError(f"{option} = {text!r} is not allowed; give integers >= {minimum}, e.g. 5,10,20")
        return values

    parse.__name__ = option  # argparse shows this name in its own messages
    return parse


def name_list(text: str) -> list[str]:
    """Return "a,b" as ["a", "b"] (validation against a registry is the caller's job)."""
    return [part.strip() for part in text.split(",") if part.strip()]
