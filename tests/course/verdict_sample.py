"""The check-language tests run a sample of their cases: the fewest seconds of checking that still reach every verdict
id (catalogue message `check.*`) their whole set of cases reaches, and a ✓ and a ✗ of every check.

Why a sample: the language of a verdict is the template of its message id, so a case that reaches no id the others do
not reach checks no sentence the others do not check; the whole set (368 cases, both editions) took about a minute of
CI, half of it on answers that only repeat a verdict. What the sample must reach is stated, not inferred from the
sample: every `check.*` id of the file's notebooks and the general ids (`check.stub`, `check.raised`, ...) its cases
reach, less the ids no case of the file reaches (`not_reached` in verdict_sample.json, listed so a new one is seen).
A new message id therefore fails the coverage test until a case that reaches it joins the sample.

Choose the sample again after adding cases or messages (it runs every case once, in English, about a minute):

    .venv/bin/python tests/course/verdict_sample.py --choose

Run every case instead of the sample with TOYHW_ALL_VERDICTS=1.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import sys
import time
from collections.abc import Callable, Iterator, Mapping

from toyhw import i18n

SAMPLE_FILE = pathlib.Path(__file__).with_name("verdict_sample.json")
ALL = os.environ.get("TOYHW_ALL_VERDICTS") == "1"
"""Run every case, not the sample."""

GENERAL = "check.nb"
"""Ids that start otherwise (check.stub, check.raised, check.value.*) belong to no notebook."""


@contextlib.contextmanager
def message_ids() -> Iterator[set[str]]:
    """Record the id of every catalogue message looked up inside the block (by toyhw.i18n.t, in any language)."""
    found: set[str] = set()
    real = i18n.catalogue
    recording: dict[str, dict[str, str]] = {}

    class Recorded(dict):
        def __getitem__(self, message_id: str) -> str:
            found.add(message_id)
            return dict.__getitem__(self, message_id)

    def catalogue(language: str) -> dict[str, str]:
        if language not in recording:
            recording[language] = Recorded(real(language))
        return recording[language]

    i18n.catalogue = catalogue
    try:
        yield found
    finally:
        i18n.catalogue = real


def check_ids(notebooks: tuple[int, ...]) -> set[str]:
    """Every verdict id of the catalogue that belongs to one of `notebooks` (check.nb05.*)."""
    prefixes = tuple(f"check.nb{n:02d}." for n in notebooks)
    return {k for k in i18n.catalogue(i18n.DEFAULT) if k.startswith(prefixes)}


def sample(name: str) -> dict:
    """The stored sample of test file `name` ("nb01_04"): {"cases": [...], "general": [...], "not_reached": [...]}."""
    return json.loads(SAMPLE_FILE.read_text(encoding="utf-8"))[name]


def chosen(name: str, cases: Mapping[str, object]) -> list[str]:
    """The names of `cases` to run: the stored sample's (every case with TOYHW_ALL_VERDICTS=1). A sampled name that is
    no case any more is an error, so a renamed case is chosen again rather than silently dropped."""
    if ALL:
        return list(cases)
    names = sample(name)["cases"]
    gone = [n for n in names if n not in cases]
    if gone:
        raise KeyError(f"{SAMPLE_FILE.name}: sampled cases of {name} that no longer exist: {gone}; choose again")
    return names


def must_reach(name: str, notebooks: tuple[int, ...]) -> set[str]:
    """The verdict ids the sample of `name` must reach (see the module's docstring)."""
    stored = sample(name)
    return (check_ids(notebooks) | set(stored["general"])) - set(stored["not_reached"])


def choose(runs: Mapping[str, tuple[float, set[str], str, bool]], wanted: set[str]) -> list[str]:
    """Greedy weighted set cover: the cases that reach every id of `wanted` any case reaches, and a ✓ and a ✗ of
    every check, taking at each step the case with the most new things per second.

    `runs`: case name -> (seconds, ids reached, check name, verdict ok)."""
    needs = {name: ({i for i in ids if i in wanted} | {(check, ok)}) for name, (_, ids, check, ok) in runs.items()}
    left = set().union(*needs.values())
    picked: list[str] = []
    while left:
        best = max(
            (n for n in runs if n not in picked and needs[n] & left),
            key=lambda n: (len(needs[n] & left) / (runs[n][0] + 0.01), n),
        )
        picked.append(best)
        left -= needs[best]
    return sorted(picked)


def run_all(work: Mapping[str, Callable[[], object]], check_of: Callable[[str], str]) -> dict:
    """Run every case of `work` once in English; return case name -> (seconds, ids, check, ok)."""
    runs = {}
    with i18n.using("en"):
        for name, job in work.items():
            with message_ids() as ids:
                start = time.perf_counter()
                verdict = job()
                seconds = time.perf_counter() - start
            runs[name] = (seconds, {i for i in ids if i.startswith("check.")}, check_of(name), verdict.ok)
    return runs


def _choose_all() -> None:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import verdict_sample as imported  # the module the test files import (this one runs as __main__)

    imported.ALL = True  # the test modules below pick their cases when imported
    import test_check_language_nb01_04 as first
    import test_check_language_nb05_08 as second

    stored = {}
    for name, module in (("nb01_04", first), ("nb05_08", second)):
        runs = imported.run_all(module.all_cases(), module.check_of)
        reached = set().union(*(ids for _, ids, _, _ in runs.values()))
        general = sorted(i for i in reached if not i.startswith(GENERAL))
        wanted = imported.check_ids(module.NOTEBOOK_NUMBERS) | set(general)
        picked = imported.choose(runs, wanted)
        stored[name] = {
            "cases": picked,
            "general": general,
            "not_reached": sorted(wanted - reached),
        }
        total, kept = sum(r[0] for r in runs.values()), sum(runs[n][0] for n in picked)
        print(f"{name}: {len(picked)} of {len(runs)} cases, {kept:.1f} s of {total:.1f} s (English)")
    SAMPLE_FILE.write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written: {SAMPLE_FILE}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--choose"]:
        sys.exit("usage: python tests/course/verdict_sample.py --choose")
    _choose_all()
