"""Write one part of benchmarks/RESULTS.md and leave every other part as it was.

Why: several scripts write into the same file (run.py its table at the top, bench_browser.py and profile_panels.py
their own `## ` sections), and a "before" and an "after" run must sit side by side. So a section is a `## ` heading line
and everything up to the next `## ` heading; a run replaces only the section whose heading it owns, or appends it.
Everything before the first `## ` heading is the preamble, which belongs to run.py.
"""

from __future__ import annotations

import pathlib


def _split(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Return (preamble, [(heading line, whole section text), ...]) of a Markdown file, in order."""
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            sections.append((line.rstrip("\n"), [line]))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    return "".join(preamble), [(heading, "".join(lines)) for heading, lines in sections]


def _join(preamble: str, sections: list[str]) -> str:
    parts = [preamble.rstrip("\n")] if preamble.strip() else []
    parts += [s.rstrip("\n") for s in sections]
    return "\n\n".join(parts) + "\n"


def replace_section(path: pathlib.Path, heading: str, body: str) -> None:
    """Write `## heading` followed by `body` into `path`: in place of that section if present, else at the end."""
    title = f"## {heading}"
    section = f"{title}\n\n{body.strip()}\n"
    preamble, sections = _split(path.read_text() if path.exists() else "# Benchmark results\n")
    texts = [section if h == title else s for h, s in sections]
    if title not in [h for h, _ in sections]:
        texts.append(section)
    path.write_text(_join(preamble, texts))


def replace_preamble(path: pathlib.Path, preamble: str) -> None:
    """Write `preamble` (run.py's report; no `## ` heading in it) before the file's `## ` sections, kept as is."""
    if "\n## " in "\n" + preamble:
        raise ValueError("a preamble must not contain a '## ' heading: it would become a section")
    _, sections = _split(path.read_text() if path.exists() else "")
    path.write_text(_join(preamble, [s for _, s in sections]))
