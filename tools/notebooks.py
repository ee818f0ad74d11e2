"""Re-execute notebooks in place, top to bottom in one fresh kernel, and store them with widget state stripped.

Usage: python tools/notebooks.py execute notebooks/*.ipynb
       python tools/notebooks.py check notebooks/*.ipynb   (exit 1 listing notebooks not stored that way)

Why: nbval compares the stored text outputs with a fresh run, and readers of the repository see the stored outputs, so
a notebook must be committed exactly as one clean run produced it. Widget state is stripped because it is large,
differs on every run, and a stored widget renders nothing useful without a kernel.
"""

from __future__ import annotations

import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parents[1]


def strip_widget_state(nb: nbformat.NotebookNode) -> None:
    """Remove stored widget state and widget-view outputs (they only render with a live kernel)."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            data.pop("application/vnd.jupyter.widget-view+json", None)
        cell.outputs = [o for o in cell.get("outputs", []) if o.get("output_type") != "display_data" or o.get("data")]
        cell.metadata.pop("execution", None)


def execute(path: pathlib.Path) -> float:
    """Execute the notebook at `path` in place and return the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    strip_widget_state(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def problems(path: pathlib.Path) -> list[str]:
    """Return what is wrong with how the notebook at `path` is stored (empty when it is stored as one clean run)."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    found = []
    counts = [c.get("execution_count") for c in code]
    if any(c is None for c in counts):
        found.append("cells not executed")
    elif counts != list(range(1, len(counts) + 1)):
        found.append("not executed top to bottom in one fresh run")
    if "widgets" in nb.metadata:
        found.append("widget state not stripped")
    if any(o.get("output_type") == "error" for c in code for o in c.get("outputs", [])):
        found.append("an error output is stored")
    return found


def main(argv: list[str]) -> int:
    """Run the `execute` or `check` command over the given notebooks."""
    if len(argv) < 2 or argv[0] not in ("execute", "check"):
        print(__doc__)
        return 2
    paths = [pathlib.Path(p) for p in argv[1:]]
    if argv[0] == "execute":
        for path in paths:
            print(f"{path}: executed in {execute(path):.1f} s")
        return 0
    bad = {p: problems(p) for p in paths}
    for path, why in bad.items():
        if why:
            print(f"{path}: {', '.join(why)}")
    return 1 if any(bad.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
