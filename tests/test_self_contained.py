"""The pack stands on its own: no file of it names a file outside the repository.

Why: a student who follows a citation to a file the pack does not ship (a design note, a lecture script on the
author's disk) finds nothing. Sources are cited as papers, datasheets or repository paths at a commit instead.
"""

from __future__ import annotations

import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BACKGROUND = "shared"
"""The course's background folder beside the repository (its notes and lecture scripts are not part of the pack)."""
NOTES = ("FACTS", "DESIGN", "STYLE")
"""The background's notes, named without their suffix here so that this file passes its own check."""
USER_ROOTS = ("work", "root")
"""Top-level folders of the machines the pack was written on."""
OUTSIDE = re.compile(
    "|".join(
        [
            re.escape("../" + BACKGROUND),
            re.escape(BACKGROUND + "/seeds"),
            r"\b(" + "|".join(NOTES) + r")\.md\b",
            *(re.escape(f"/{root}/") for root in USER_ROOTS),
            r"/home/\w+",
            r"[A-Za-z]:(\\)+Users",
        ]
    )
)
"""Names of places outside the repository: the course's background folder, its notes, and absolute user paths."""
SKIP_SUFFIXES = {".png", ".jpg", ".gif", ".pdf", ".ico", ".woff", ".woff2"}


def pack_files() -> list[pathlib.Path]:
    """Return the repository's tracked files (every file a clone would have)."""
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: the tree, without local environments
        return [p for p in ROOT.rglob("*") if p.is_file() and not {".venv", ".git", "test-artifacts"} & set(p.parts)]
    return [ROOT / n for n in names.splitlines() if (ROOT / n).is_file()]


def outside_references(text: str) -> list[str]:
    """Return each line of `text` that names a place outside the repository."""
    return [line.strip()[:160] for line in text.splitlines() if OUTSIDE.search(line)]


def test_no_file_names_anything_outside_the_repository():
    found = {}
    for path in pack_files():
        if path.suffix in SKIP_SUFFIXES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        lines = outside_references(text)
        if lines:
            found[str(path.relative_to(ROOT))] = lines[:3]
    assert not found, "files that name a place outside the repository:\n" + "\n".join(
        f"  {name}: {lines}" for name, lines in found.items()
    )


@pytest.mark.parametrize(
    "text",
    [
        f"see ../{BACKGROUND}/docs/{NOTES[0]}.md",
        f"{NOTES[1]}.md's table",
        f"/{USER_ROOTS[0]}/main/toyhw",
        "C:" + "\\Users\\me\\toyhw",
        f"python3 ../{BACKGROUND}/seeds/seed000_fastp_feedback.py",
    ],
)
def test_the_check_catches_each_kind_of_outside_reference(text):
    assert outside_references(text)


def test_the_check_lets_sources_and_repository_paths_pass():
    assert not outside_references(
        "arXiv 2502.10517v1, Table 1; triton-lang/triton python/triton/testing.py at 3fb4e46;"
        " data/gpus.csv; toyhw/gemm/cost.py; ../data/gpus.csv from notebooks/"
    )
