"""Mutation testing of the core modules (`make mutation`): run mutmut, then write benchmarks/MUTATION.md.

Run: .venv/bin/python benchmarks/mutation.py            # a fresh run (mutants/ rebuilt), then the report
     .venv/bin/python benchmarks/mutation.py --report   # only the report, from the last run's mutants/

mutmut's settings (modules, tests, process isolation) are in pyproject.toml, [tool.mutmut]. The report gives the score
per module and every mutant that no test kills, with its file:line and its mutation, and why it survives: the reasons
are in benchmarks/mutation_equivalent.toml, matched by file, original line and mutated line (so a note stays with its
mutant when mutmut renumbers them). A survivor without a note is listed as UNEXPLAINED: kill it with a test, or
explain there why no test can (an equivalent mutant).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import tomllib

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
REPORT = HERE / "MUTATION.md"
NOTES = HERE / "mutation_equivalent.toml"
MUTANTS = ROOT / "mutants"
RUN_INFO = MUTANTS / "toyhw-run.json"
KILLED = {"killed", "timeout", "caught by type check", "segfault"}  # a test run that did not pass kills the mutant


def run_mutmut() -> None:
    """Rebuild mutants/ and run every mutant; record the wall time and the machine in mutants/toyhw-run.json."""
    from run import machine  # benchmarks/run.py: one line naming the machine (benchmarks/ is on sys.path)
    import numpy as np

    shutil.rmtree(MUTANTS, ignore_errors=True)  # mutmut keeps old results: a stale verdict would survive a test change
    where = machine(np.__version__)
    start = time.time()
    mutmut = pathlib.Path(sys.executable).with_name("mutmut")
    subprocess.run([str(mutmut), "run"], cwd=ROOT, check=True)
    info = {"seconds": time.time() - start, "machine": where, "mutmut": _mutmut_version()}
    RUN_INFO.write_text(json.dumps(info))


def _mutmut_version() -> str:
    from importlib.metadata import version

    return version("mutmut")


def results() -> dict[str, dict[str, str]]:
    """Return {source file: {mutant name: status}} from mutants/ (statuses as `mutmut results` names them)."""
    from mutmut.stats import status_by_exit_code

    out: dict[str, dict[str, str]] = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        source = meta.relative_to(MUTANTS).as_posix()[: -len(".meta")]
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        out[source] = {name: status_by_exit_code[code] for name, code in codes.items()}
    return out


def _function(mutant: str) -> tuple[str | None, str]:
    """Return (class or None, function) of a mutant name (`pkg.mod.x_f__mutmut_3`, `pkg.mod.xǁClassǁf__mutmut_3`)."""
    generated = mutant.rpartition(".")[2].rsplit("__mutmut_", 1)[0]
    parts = generated.split("ǁ")
    return (parts[1], parts[2]) if len(parts) == 3 else (None, generated[2:])


def _function_span(source: str, mutant: str) -> tuple[int, int]:
    """Return the first and last line of the function a mutant belongs to (decorators included)."""
    cls, name = _function(mutant)
    tree = ast.parse(source)
    if cls is not None:
        tree = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    scope = tree.body
    node = next(n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name)
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return first, node.end_lineno or node.lineno


def describe(path: str, mutant: str) -> dict:
    """Return where the mutant is and what it changes: {line, before, after, function}."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    diff = get_diff_for_mutant(mutant, path=pathlib.Path(path))
    before, after, rel, old_line = [], [], None, 0
    for line in diff.splitlines():
        hunk = re.match(r"@@ -(\d+)", line)
        if hunk:
            old_line = int(hunk.group(1))
            continue
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("-"):
            before.append(line[1:].strip())
            rel = old_line if rel is None else rel
            old_line += 1
        elif line.startswith("+"):
            after.append(line[1:].strip())
        else:
            old_line += 1
    text = (ROOT / path).read_text()
    lines = text.splitlines()
    try:
        first, last = _function_span(text, mutant)
    except StopIteration:  # the function has moved since the run (mutants/ is older than the source): whole file
        first, last = 1, len(lines)
    guess = first + (rel or 1) - 1
    found = [i for i in range(first, last + 1) if before and lines[i - 1].strip() == before[0]]
    line = min(found, key=lambda i: abs(i - guess)) if found else guess
    cls, name = _function(mutant)
    function = f"{cls}.{name}" if cls else name
    return {"line": line, "before": " / ".join(before), "after": " / ".join(after), "function": function}


def notes() -> tuple[list[dict], str]:
    """Return the equivalent-mutant notes and the report's free-text notes (benchmarks/mutation_equivalent.toml)."""
    data = tomllib.loads(NOTES.read_text()) if NOTES.exists() else {}
    return data.get("equivalent", []), data.get("notes", "")


def _note_for(path: str, change: dict, equivalents: list[dict]) -> str | None:
    for note in equivalents:
        if note["file"] == path and note["before"] == change["before"] and note["after"] == change["after"]:
            return note["why"]
    return None


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`" if text else "(removed)"


def report() -> str:
    """Return benchmarks/MUTATION.md for the mutants/ of the last run."""
    equivalents, free_text = notes()
    info = json.loads(RUN_INFO.read_text()) if RUN_INFO.exists() else {}
    by_file = results()
    rows, survivors = [], []
    totals: collections.Counter = collections.Counter()
    for path, statuses in by_file.items():
        count = collections.Counter("killed" if s in KILLED else s for s in statuses.values())
        n = len(statuses)
        covered = count["killed"] + count["survived"]
        rows.append(
            f"| `{path}` | {n} | {count['killed']} | {count['survived']} | {count['no tests']} | "
            f"{n - covered - count['no tests']} | {count['killed'] / n:.1%} | "
            f"{count['killed'] / covered if covered else 1:.1%} |"
        )
        totals.update(count)
        totals["mutants"] += n
        for name, status in sorted(statuses.items(), key=lambda kv: int(kv[0].rsplit("_", 1)[1])):
            if status not in KILLED and status != "not checked":  # "not checked": the run was cut short
                change = describe(path, name)
                survivors.append((path, name, status, change, _note_for(path, change, equivalents)))
    n, killed, survived = totals["mutants"], totals["killed"], totals["survived"]
    rows.append(
        f"| all | {n} | {killed} | {survived} | {totals['no tests']} | "
        f"{n - killed - survived - totals['no tests']} | {killed / n:.1%} | "
        f"{killed / (killed + survived):.1%} |"
    )
    minutes = f"{info['seconds'] / 60:.0f} minutes" if info else "unknown (report made with --report)"
    lines = [
        "# Mutation testing",
        "",
        "Written by `make mutation` (`.venv/bin/python benchmarks/mutation.py`): mutmut "
        f"{info.get('mutmut', '?')} over the core modules, with the unit tests that pyproject.toml's `[tool.mutmut]` "
        "selects (not the golden hashes: every kill comes from a behaviour test). Run by hand, not in CI.",
        "",
        f"Machine: {info.get('machine', 'unknown')}; the run took {minutes}.",
        "",
        "A mutant is killed when some test fails (or times out) with it. Score = killed / mutants; "
        "of covered = killed / (killed + survived), leaving out mutants of code no selected test calls.",
        "",
        "| module | mutants | killed | survived | no tests | other | score | of covered |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    if free_text:
        lines += [free_text.strip(), ""]
    survivors.sort(key=lambda s: (s[0], s[3]["line"]))
    unexplained = [s for s in survivors if s[4] is None]
    lines += [
        "## Mutants no test kills",
        "",
        f"{len(survivors)} mutants, {len(unexplained)} of them unexplained. Each is equivalent (no test can tell "
        "it from the original, for the reason given) or lies in code the selected tests do not run ('no tests').",
        "",
        "| where | function | mutation | status | why it survives |",
        "|---|---|---|---|---|",
    ]
    for path, name, status, change, why in survivors:
        lines.append(
            f"| `{path}:{change['line']}` | `{change['function']}` | {_cell(change['before'])} -> "
            f"{_cell(change['after'])} | {status} | {why or '**UNEXPLAINED**'} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="only write the report from the last run's mutants/")
    args = parser.parse_args(argv)
    os.chdir(ROOT)  # mutmut reads pyproject.toml and mutants/ from the current directory
    if not args.report:
        run_mutmut()
    REPORT.write_text(report())
    print(f"wrote {REPORT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
