"""The pack's own text in the reader's language: one message catalogue per language, keyed by message id.

Every sentence the package shows a person (CLI tables, widget labels, table headers, printed observations, progress
labels, the toy kernel's failure messages) is looked up here with `t("some.id", name=value)`; the code never branches
on the language. The catalogues are JSON files in `toyhw/locale/<language>.json`, flat objects from id to a
`str.format` template. English is the default; Chinese ("zh") uses the lecture scripts' own terms.

The language is, in order: the one given to `set_language`, else the environment variable TOYHW_LANG, else English.
`LANG` is the system's variable and is not read: a Chinese desktop does not switch a class's English notebooks.

What stays language-neutral: the JSON output of the CLI, the keys of every result, machine-readable failure causes and
mode names. Only text made for reading goes through the catalogue.

Ids that are chosen at run time (e.g. one per failure cause) are written out where they are defined with `N_("id")`,
which returns the id unchanged: tests/test_i18n.py scans the code for `t(...)` and `N_(...)` literals and holds every
catalogue to exactly those ids, with the same placeholders in every language.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import pathlib
import string
from typing import Iterator, Optional

LANGUAGES: tuple[str, ...] = ("en", "zh")
"""The languages with a catalogue, the default first."""

DEFAULT = LANGUAGES[0]
ENV_VAR = "TOYHW_LANG"
"""The environment variable that chooses the language when `set_language` has not been called."""

_LOCALE = pathlib.Path(__file__).with_name("locale")
_chosen: Optional[str] = None


def check_language(name: str, value: object) -> str:
    """Return `value` if it is a language with a catalogue; else ValueError naming `name`, the value and the
    languages there are."""
    if value not in LANGUAGES:
        raise ValueError(f"{name} = {value!r} is not allowed; languages: {', '.join(LANGUAGES)}")
    return value  # type: ignore[return-value]


def set_language(language: Optional[str]) -> None:
    """Make `language` ("en" or "zh") the language of everything the package shows from now on; None: back to the
    environment variable TOYHW_LANG (or English)."""
    global _chosen
    _chosen = None if language is None else check_language("language", language)


@contextlib.contextmanager
def using(language: Optional[str]) -> Iterator[None]:
    """Show everything in `language` inside the `with` block, then return to the language before it (the CLI's
    `--lang`: a test that runs two commands in one process does not leak one's language into the other)."""
    global _chosen
    before = _chosen
    set_language(language)
    try:
        yield
    finally:
        _chosen = before


def language() -> str:
    """Return the language in use: `set_language`'s, else TOYHW_LANG's (an unknown value is a ValueError), else "en"."""
    if _chosen is not None:
        return _chosen
    value = os.environ.get(ENV_VAR, "").strip()
    return check_language(ENV_VAR, value) if value else DEFAULT


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """Return the message catalogue of `language`: message id -> str.format template."""
    check_language("language", language)
    with open(_LOCALE / f"{language}.json", encoding="utf-8") as file:
        return json.load(file)


def t(message_id: str, /, **params: object) -> str:
    """Return message `message_id` in the current language, its placeholders filled from `params`.

    An id missing from the catalogue is a KeyError naming it (tests/test_i18n.py keeps that from reaching a class).
    Templates are always formatted, so a literal brace is written twice in every language.
    """
    try:
        template = catalogue(language())[message_id]
    except KeyError:
        raise KeyError(f"message id {message_id!r} is not in the {language()!r} catalogue") from None
    return template.format(**params)


def N_(message_id: str) -> str:
    """Return `message_id` unchanged: marks an id that `t` receives later, so the catalogue tests see it (gettext's
    idiom)."""
    return message_id


def placeholders(template: str) -> frozenset[str]:
    """Return the names of the `str.format` fields of `template` (for the catalogue tests)."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(template) if field is not None)
