"""The command line: `python -m toyhw <command> [options] [--json]`.

Each command lives in its own module under `toyhw/commands/` with four names: `HELP` (one line), `add_arguments(parser)`,
`run(args) -> dict` (the JSON object, a stable contract that tests and scripts rely on) and `render(result) -> str`
(the readable table). This file only wires them together and turns bad input into a one-line error with exit code 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from types import ModuleType
from typing import Optional, Sequence

from toyhw.commands import ablations as ablations_command
from toyhw.commands import branches as branches_command
from toyhw.commands import evolve as evolve_command
from toyhw.commands import fastp as fastp_command
from toyhw.commands import prompt as prompt_command
from toyhw.commands import targeting as targeting_command
from toyhw.commands import gemm as gemm_command
from toyhw.commands import validate as validate_command

COMMANDS: dict[str, ModuleType] = {
    "fastp": fastp_command,
    "ablations": ablations_command,
    "targeting": targeting_command,
    "branches": branches_command,
    "gemm": gemm_command,
    "validate": validate_command,
    "prompt": prompt_command,
    "evolve": evolve_command,
}


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with one sub-command per entry of COMMANDS."""
    parser = argparse.ArgumentParser(prog="python -m toyhw", description="toyhw: simulations of the course pack.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")
    for name, module in COMMANDS.items():
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
        command_parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run one command; return the process exit code (2 for bad input, with the reason on stderr)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    module = COMMANDS[args.command]
    try:
        result = module.run(args)
    except (ValueError, KeyError, TypeError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"python -m toyhw {args.command}: error: {message}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else module.render(result))
    return 0
