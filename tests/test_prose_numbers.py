"""Every number the notebooks' prose quotes is recomputed from toyhw, so a changed model or seed fails CI instead of
leaving prose that lies.

Each notebook has a module `tests/prose/nbNN.py` with

- `quotes() -> list[str]`: phrases as they appear in the notebook's markdown, each built from values toyhw computes
  (an f-string over the pack's results). A phrase missing from the markdown fails: either the prose was edited or the
  computed value changed.
- `PARAMETERS: list[str]`: phrases that restate an input the notebook chooses in its code (a seed, a budget, a shape),
  not a result; they must appear in the markdown too.

Every other number in the prose (outside code, math, headings and references; see notebook_text._EXEMPT) must lie
inside one of those phrases: a number nobody recomputes is a test failure, not a risk.

Claims without a number of their own ("above", "most", "never") are asserted with `phrasing.holds`; that every
comparative sentence is either so checked or declared is tests/test_comparison_claims.py's rule.
"""

from __future__ import annotations

import importlib

import pytest

import notebook_text as nt

PATHS = nt.notebook_paths()


def _module(path):
    return importlib.import_module(f"prose.nb{path.name[:2]}")


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_quoted_phrases_match_the_computed_values(path):
    text = nt.markdown(path)
    module = _module(path)
    missing = [q for q in module.quotes() if q not in text]
    assert not missing, (
        "quoted phrases not found in the markdown (prose edited, or the computed value changed):\n"
        + "\n".join(f"  {q!r}" for q in missing)
    )
    absent = [q for q in module.PARAMETERS if q not in text]
    assert not absent, f"parameters not found in the markdown: {absent}"


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_every_number_in_the_prose_is_recomputed(path):
    module = _module(path)
    loose = nt.uncovered_numbers(nt.markdown(path), list(module.quotes()) + list(module.PARAMETERS))
    assert not loose, (
        f"{len(loose)} number(s) in the prose that no quote recomputes "
        f"(add them to tests/prose/nb{path.name[:2]}.py):\n" + "\n".join(f"  {x}" for x in loose)
    )
