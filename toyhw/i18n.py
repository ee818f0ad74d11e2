"""The pack's own text in the reader's language: one message catalogue per language, keyed by message id.

Every sentence the package shows a person (CLI tables, widget labels, table headers, printed observations, progress
labels, the toy kernel's failure messages) is looked up here with `t("some.id", name=value)`; the code never branches
on the language. The catalogues are JSON files in `toyhw/locale/<language>.json`, flat objects from id to a
`str.format` template. English is the default; Chinese ("zh") uses the lecture scripts' own terms.

The language is, in order: the one given to `set_language`, else the environment variable TOYHW_LANG, else English.
`LANG` is the system's variable and is not read: a Chinese desktop does not switch a class's English notebooks. A
language may be named in any usual spelling (`resolve`): ZH, zh_CN, zh-Hans, zh_CN.UTF-8, en_US.UTF-8, English.

Why an unknown TOYHW_LANG is a warning and English, not an error: the variable is read on every lookup, so an error
would fail every check cell and panel of a notebook, each with its own traceback, until the kernel is restarted with
another value. Instead the first lookup writes one line on stderr naming the value and the languages, and the
notebook (or the command) goes on in English, as a shell or perl does with a locale it does not have; a result never
depends on the language, only its words do. A language asked for by name (`set_language`, the CLI's `--lang`) is
checked where it is given: an unknown one is a ValueError there.

A catalogue is checked when first read (`catalogue`): a file that is missing, not UTF-8, not JSON, not an object of
texts, that repeats an id, holds a template `str.format` cannot read, or whose placeholders are not the English
template's, is a CatalogueError naming the file and the id. Those are a broken install or an edit gone wrong, and the
reader who made it needs to see which one; showing English instead would hide it.

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
import re
import string
import sys
from typing import Iterator, Optional

LANGUAGES: tuple[str, ...] = ("en", "zh")
"""The languages with a catalogue, the default first."""

DEFAULT = LANGUAGES[0]
ENV_VAR = "TOYHW_LANG"
"""The environment variable that chooses the language when `set_language` has not been called."""

SPELLINGS: dict[str, str] = {
    "en": "en",
    "eng": "en",
    "english": "en",
    "zh": "zh",
    "zho": "zh",
    "chi": "zh",
    "chinese": "zh",
}
"""A language's name (ISO 639-1 and 639-2 codes, its English name), case ignored -> the language of its catalogue."""

_LOCALE = pathlib.Path(__file__).with_name("locale")
_SHOWN_CHARS = 40
_chosen: Optional[str] = None


class CatalogueError(ValueError):
    """A message catalogue that cannot be used; the message names the file and, where there is one, the id."""


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}... ({len(text):,} characters)"


def resolve(value: object) -> Optional[str]:
    """Return the language `value` names, in any usual spelling, or None when it names none of LANGUAGES.

    A locale name counts by its language part, as gettext falls back from zh_TW to zh: "zh_CN.UTF-8", "zh-Hans",
    "zh_TW" and "ZH" are all "zh"; "en_US.UTF-8" is "en". A list like LANGUAGE's "zh_CN:en" counts by its first name.
    """
    if not isinstance(value, str):
        return None
    return SPELLINGS.get(re.split(r"[-_.@:]", value.strip().casefold(), maxsplit=1)[0])


def _refusal(name: str, value: object) -> str:
    return (
        f"{name} = {_shown(value)} is not allowed; languages: {', '.join(LANGUAGES)} (any spelling of them, "
        "e.g. ZH, zh_CN, zh-Hans, en_US.UTF-8)"
    )


def check_language(name: str, value: object) -> str:
    """Return the language `value` names (see `resolve`); else ValueError naming `name`, the value and the languages
    there are."""
    language = resolve(value)
    if language is None:
        raise ValueError(_refusal(name, value))
    return language


def set_language(language: Optional[str]) -> None:
    """Make `language` ("en" or "zh", in any spelling) the language of everything the package shows from now on;
    None: back to the environment variable TOYHW_LANG (or English)."""
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


@functools.lru_cache(maxsize=8)
def _environment_language(value: str) -> str:
    """Return the language TOYHW_LANG's `value` names; English when it is empty, or after one line on stderr when it
    names none (once per value: the cache)."""
    if not value.strip():
        return DEFAULT
    language = resolve(value)
    if language is None:
        print(f"toyhw: {_refusal(ENV_VAR, value)}; showing {DEFAULT}", file=sys.stderr)
        return DEFAULT
    return language


def language() -> str:
    """Return the language in use: `set_language`'s, else TOYHW_LANG's (an unknown value: English, with one warning),
    else "en"."""
    return _chosen if _chosen is not None else _environment_language(os.environ.get(ENV_VAR, ""))


def _file(language: str) -> str:
    path = _LOCALE / f"{language}.json"
    package = pathlib.Path(__file__).resolve().parents[1]
    try:
        return str(path.resolve().relative_to(package))
    except ValueError:
        return str(path)


def _line(text: str, message_id: str, occurrence: int = 0) -> str:
    """Return ", line N" of the `occurrence`-th (0-based) key `message_id` in the catalogue's text ("" if not found)."""
    keys = list(re.finditer(re.escape(json.dumps(message_id)) + r"\s*:", text))
    return f", line {text.count(chr(10), 0, keys[occurrence].start()) + 1}" if len(keys) > occurrence else ""


def _read(language: str) -> tuple[dict[str, str], str]:
    """Return the catalogue file of `language` (as a dict, and its text), checked on its own; CatalogueError naming
    the file else."""
    name = _file(language)
    try:
        raw = (_LOCALE / f"{language}.json").read_bytes()
    except OSError as err:
        raise CatalogueError(f"{name}: cannot read the message catalogue ({err.strerror or err})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise CatalogueError(
            f"{name}, line {line}: byte 0x{raw[err.start]:02x} is not UTF-8; save it as UTF-8"
        ) from None

    def pairs(items: list[tuple[str, object]]) -> dict:
        seen: dict[str, object] = {}
        for key, value in items:
            if key in seen:
                raise CatalogueError(f"{name}{_line(text, key, 1)}: id {_shown(key)} appears twice; give each id once")
            seen[key] = value
        return seen

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as err:
        raise CatalogueError(f"{name}, line {err.lineno}: not JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise CatalogueError(f"{name}: a catalogue is a JSON object of message id -> text, not {type(data).__name__}")
    for message_id, template in data.items():
        try:
            if not isinstance(template, str):
                raise ValueError(f"{_shown(template)} is not a text")
            placeholders(template)
        except ValueError as err:
            raise CatalogueError(
                f"{name}{_line(text, message_id)}: id {_shown(message_id)}: {err} (a template is a text; a "
                "placeholder is {name}, a literal brace is written twice)"
            ) from None
    return data, text


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """Return the message catalogue of `language`: message id -> str.format template (checked: see the module
    docstring); CatalogueError naming the file and the id when it cannot be used."""
    language = check_language("language", language)
    data, text = _read(language)
    if language == DEFAULT:
        return data
    english, name = catalogue(DEFAULT), _file(language)  # a translation keeps the English ids and placeholders
    for message_id, template in english.items():
        if message_id not in data:
            raise CatalogueError(f"{name}: id {_shown(message_id)} is missing; {_file(DEFAULT)} has it")
        ours, theirs = placeholders(data[message_id]), placeholders(template)
        if ours != theirs:
            raise CatalogueError(
                f"{name}{_line(text, message_id)}: id {_shown(message_id)} has the placeholders {_braces(ours)}, "
                f"{_file(DEFAULT)} has {_braces(theirs)}; a translation keeps every placeholder's name"
            )
    extra = next((message_id for message_id in data if message_id not in english), None)
    if extra is not None:
        raise CatalogueError(
            f"{name}{_line(text, extra)}: id {_shown(extra)} is not in {_file(DEFAULT)}; remove it or add it there"
        )
    return data


def _braces(names: frozenset[str]) -> str:
    return ", ".join(f"{{{n}}}" for n in sorted(names)) or "none"


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
    """Return the names of the `str.format` fields of `template` (ValueError for a brace left open or unpaired)."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(template) if field is not None)
