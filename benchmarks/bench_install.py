"""How long a fresh machine takes to set up: `make lab`'s install and `make setup`'s, each into a new venv.

    .venv/bin/python benchmarks/bench_install.py [--keep]

Each install runs the Makefile's own target with VENV pointing at a new folder (so nothing differs from what a student
or CI runs): the class install (`make class-setup`, requirements/class.txt), the test install (`make setup`,
requirements/test.txt), and the test install on top of a class install (`make test` after `make lab`). pip's cache is
used as it is: run once to warm it (the first download is the network's time, not the pack's). It also checks that
the class venv has none of the test tools (tests/test_packaging.py's TEST_TOOLS). Writes its section of
benchmarks/RESULTS.md; the README's "What gets installed" quotes it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import results_md  # noqa: E402  (benchmarks/ is on sys.path when a script here runs)

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from test_packaging import TEST_TOOLS  # noqa: E402

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
HEADING = "Install: a fresh venv, warm pip cache (bench_install.py)"


def make(target: str, venv: pathlib.Path) -> float:
    """Run `make target VENV=venv` in the repository and return its wall seconds."""
    start = time.perf_counter()
    subprocess.run(
        ["make", target, f"VENV={venv}"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def packages(venv: pathlib.Path) -> set[str]:
    """Return the distributions installed in `venv` other than pip, setuptools and the pack."""
    out = subprocess.run(
        [str(venv / "bin/python"), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True, check=True
    ).stdout
    names = {line.split("==")[0].lower().replace("_", "-") for line in out.splitlines() if "==" in line}
    return names - {"pip", "setuptools", "toyhw"}


def size_gb(venv: pathlib.Path) -> float:
    return sum(p.stat().st_size for p in venv.rglob("*") if p.is_file() and not p.is_symlink()) / 1e9


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="leave the venvs in the temporary folder")
    args = parser.parse_args(argv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="toyhw-install-"))
    try:
        class_venv, test_venv = work / "class", work / "test"
        t_class = make("class-setup", class_venv)
        n_class, gb_class = packages(class_venv), size_gb(class_venv)
        t_test = make("setup", test_venv)
        n_test, gb_test = packages(test_venv), size_gb(test_venv)
        t_top = make("setup", class_venv)
        tools = sorted(n_class & set(TEST_TOOLS))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    body = "\n".join(
        [
            f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores; "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. pip's cache warm; times include creating the venv.",
            "",
            "| install | packages (besides pip, setuptools, the pack) | size GB | wall s |",
            "|---|---|---|---|",
            f"| `make lab`'s (requirements/class.txt) | {len(n_class)} | {gb_class:.2f} | {t_class:.0f} |",
            f"| `make setup`'s (requirements/test.txt) | {len(n_test)} | {gb_test:.2f} | {t_test:.0f} |",
            f"| `make setup` on top of `make lab`'s | +{len(n_test - n_class)} | +{gb_test - gb_class:.2f} | {t_top:.0f} |",
            "",
            f"Test tools in the class venv: {', '.join(tools) if tools else 'none'}.",
        ]
    )
    print(body)
    results_md.replace_section(RESULTS, HEADING, body)
    return 1 if tools else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
