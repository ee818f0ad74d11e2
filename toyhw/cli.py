"""The command line: `python -m toyhw <command> [options] [--json]`.

Each command lives in its own module under `toyhw/commands/` with four names: `HELP` (one line), `add_arguments(parser)`,
`run(args) -> dict` (the JSON object, a stable contract that tests and scripts rely on) and `render(result) -> str`
(the readable table). This file only wires them together and turns what can go wrong into one line on stderr:

- bad input (an option's value, an unknown name, a broken data file, an unknown `--lang` or TOYHW_LANG): the reason,
  exit code 2;
- Ctrl-C: "interrupted", exit code 130 (the shell's convention for SIGINT);
- a closed output pipe (`python -m toyhw fastp --json | head -c1`): nothing more, as Python's documentation advises.

Why the commands are imported lazily: a command module imports its heavy modules (numpy, the GEMM config space, the
evolution code) inside its functions, and only the chosen command's arguments are added to the parser; so
`python -m toyhw fastp` starts as quickly as the lecture's own script and the parser reads no data file.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from types import ModuleType
from typing import NoReturn, Optional, Sequence

from toyhw import i18n

COMMANDS: tuple[str, ...] = ("fastp", "ablations", "targeting", "branches", "gemm", "validate", "prompt", "evolve")
"""The commands, in the order `--help` lists them; each is the module toyhw.commands.<name>."""


def command_module(name: str) -> ModuleType:
    """Return the module of command `name` (importing it is cheap: its heavy imports sit inside its functions)."""
    return importlib.import_module(f"toyhw.commands.{name}")


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, sized from the terminal without importing shutil (argparse builds one for every
    option it adds, and shutil with its compression modules costs a few milliseconds of start-up)."""

    def __init__(self, prog: str) -> None:
        try:
            width = int(os.environ.get("COLUMNS") or os.get_terminal_size(sys.__stdout__.fileno()).columns)
        except (OSError, ValueError, AttributeError):
            width = 80
        super().__init__(prog, width=max(width - 2, 40))


class _Parser(argparse.ArgumentParser):
    """argparse's parser, without repeating the option's name before our messages ("argument --seed: --seed = ...")."""

    def __init__(self, **kwargs) -> None:
        super().__init__(formatter_class=_Formatter, **kwargs)

    def error(self, message: str) -> NoReturn:
        super().error(re.sub(r"^argument (\S+): (?=\1 = )", "", message))


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """Return the parser with one sub-command per name of COMMANDS, or only the command named first in `argv` (with
    its arguments): the others would only be listed by `--help`, which then builds them all."""
    parser = _Parser(prog="python -m toyhw", description="toyhw: simulations of the course pack.")
    # prog given: argparse would otherwise build a help formatter just to compute it
    sub = parser.add_subparsers(dest="command", required=True, metavar="command", prog=parser.prog)
    chosen = argv[0] if argv and argv[0] in COMMANDS else None
    for name in [chosen] if chosen else COMMANDS:
        module = command_module(name)
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        if name == chosen:
            module.add_arguments(command_parser)
            command_parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
            command_parser.add_argument(
                "--lang",
                metavar="{en,zh}",
                default=None,
                help="language of the tables and messages (default: the environment variable "
                "TOYHW_LANG, else en); --json output is the same in every language",
            )
    return parser


def _run(argv: list[str]) -> int:
    """Parse `argv`, run the command and print its result; return the exit code (2 for bad input)."""
    args = build_parser(argv).parse_args(argv)
    module = command_module(args.command)
    try:
        with i18n.using(_language(args.lang)):
            result = module.run(args)
            text = _json(result) if args.json else module.render(result)
    except (ValueError, KeyError, TypeError) as err:  # bad input, an unknown name, a broken data file
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"python -m toyhw {args.command}: error: {_short(str(message))}", file=sys.stderr)
        return 2
    print(text)
    sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
    return 0


MAX_ERROR_CHARS = 1_000
"""The longest error line: a message that quotes a 100 kB value keeps its start and its end (what is allowed)."""


def _short(message: str) -> str:
    """Return `message`, its middle cut when it is longer than MAX_ERROR_CHARS."""
    if len(message) <= MAX_ERROR_CHARS:
        return message
    head, tail = message[:600], message[-300:]
    return f"{head}... [{len(message) - 900:,} characters cut] ...{tail}"


def _language(option: Optional[str]) -> str:
    """Return the language of `--lang`, else of TOYHW_LANG, else English; ValueError naming the one that is unknown."""
    return i18n.check_language("--lang", option) if option is not None else i18n.language()


def _json(result: dict) -> str:
    """Return `result` as strict JSON (NaN or infinity would be refused: JSON has no such numbers)."""
    import json  # only for --json: start-up time matters

    return json.dumps(result, allow_nan=False)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit does not fail a second time on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a file (a test's capture): nothing to silence
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run one command; return the process exit code (0, 2 for bad input, 130 after Ctrl-C, 1 on a closed pipe)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _run(argv)
    except KeyboardInterrupt:
        command = argv[0] if argv and argv[0] in COMMANDS else ""
        print(f"{f'python -m toyhw {command}'.rstrip()}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
