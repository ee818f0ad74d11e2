"""The code passes ruff's lint and is as ruff formats it (the rules, the format and the exclusions are [tool.ruff] in
pyproject.toml)."""

import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    beside = pathlib.Path(sys.executable).with_name("ruff")
    return [str(beside)] if beside.exists() else [shutil.which("ruff") or "ruff"]


def test_ruff_check_finds_nothing():
    done = subprocess.run(
        [*_ruff(), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_would_change_nothing():
    done = subprocess.run([*_ruff(), "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
