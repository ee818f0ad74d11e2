"""Where the lecture's seed script (seed000_fastp_feedback.py) is: `--seed-script PATH`, else TOYHW_SEED_SCRIPT.

The script is not part of the pack and its place differs from machine to machine, so no path is written here;
without it, the comparisons against it are skipped (the benchmark says so instead of a ratio).
"""

from __future__ import annotations

import argparse
import os
import pathlib
from typing import Optional

ENVIRONMENT = "TOYHW_SEED_SCRIPT"


def add_option(parser: argparse.ArgumentParser) -> None:
    """Add `--seed-script PATH` (default: the environment variable TOYHW_SEED_SCRIPT, else none)."""
    parser.add_argument(
        "--seed-script",
        type=pathlib.Path,
        default=os.environ.get(ENVIRONMENT) or None,
        help=f"path of seed000_fastp_feedback.py (default: ${ENVIRONMENT}; none: skip that comparison)",
    )


def checked(parser: argparse.ArgumentParser, path: Optional[pathlib.Path]) -> Optional[pathlib.Path]:
    """Return `path` resolved, or None; a path that is not a file is a usage error of `parser`."""
    if path is None:
        return None
    if not path.is_file():
        parser.error(f"--seed-script = {str(path)!r} is not a file (set it, or {ENVIRONMENT}, to the seed script)")
    return path.resolve()
