"""Re-execute notebooks in place, top to bottom in one fresh kernel, and store them with widget state stripped.

Usage: python tools/notebooks.py execute notebooks/*.ipynb
       python tools/notebooks.py check notebooks/*.ipynb   (exit 1 listing notebooks not stored that way)

Bad input (an unknown command, a path that is not a readable notebook) is one line on stderr and exit code 2;
every path is read before the first notebook runs, so a bad one anywhere in the list writes nothing.

Why: nbval compares the stored text outputs with a fresh run, and readers of the repository see the stored outputs, so
a notebook must be committed exactly as one clean run produced it. Widget state is stripped because it is large,
differs on every run, and a stored widget renders nothing useful without a kernel. The kernel is stored as the
installed kernel names itself (`kernelspec`): JupyterLab rewrites a notebook's kernelspec that differs when it opens
it, which marks a notebook the student has not touched as modified and asks to save it.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from typing import NoReturn

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


KERNEL = "python3"


def kernelspec(name: str = KERNEL) -> dict[str, str]:
    """Return the notebook metadata JupyterLab writes for the installed kernel `name`: its name, display name and
    language, as its kernel.json says them ("Python 3 (ipykernel)" for ipykernel's)."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(name)
    return {"display_name": spec.display_name, "language": spec.language, "name": name}


def execute(path: pathlib.Path) -> float:
    """Execute the notebook at `path` in place and return the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name=KERNEL, resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata["kernelspec"] = kernelspec()
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
    if nb.metadata.get("kernelspec") != kernelspec():
        found.append(f"kernelspec is not the installed kernel's {kernelspec()} (Lab would rewrite it on opening)")
    return found


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its errors in one line (no usage block), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def read_all(paths: list[pathlib.Path]) -> None:
    """Read every notebook at `paths`; ValueError naming the first that is not a readable notebook."""
    for path in paths:
        try:
            nbformat.read(path, as_version=4)
        except OSError as err:
            raise ValueError(f"cannot read {path} ({err.strerror or err})") from None
        except Exception as err:  # not UTF-8, not JSON, not a notebook's shape: nbformat's errors share no base
            raise ValueError(f"{path} is not a notebook ({type(err).__name__}: {str(err)[:80]})") from None


def main(argv: list[str]) -> int:
    """Run the `execute` or `check` command over the given notebooks."""
    parser = _Parser(prog="notebooks.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, what in (("execute", "re-execute in place"), ("check", "list those not stored as one clean run")):
        sub.add_parser(name, help=what).add_argument("paths", nargs="+", type=pathlib.Path, help="notebook files")
    args = parser.parse_args(argv)
    try:
        read_all(args.paths)
    except ValueError as err:
        print(f"{parser.prog} {args.command}: error: {err}", file=sys.stderr)
        return 2
    if args.command == "execute":
        for path in args.paths:
            print(f"{path}: executed in {execute(path):.1f} s")
        return 0
    bad = {p: problems(p) for p in args.paths}
    for path, why in bad.items():
        if why:
            print(f"{path}: {', '.join(why)}")
    return 1 if any(bad.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
