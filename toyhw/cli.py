"""The command line: `python -m toyhw <command> [options] [--json]`.

Each command lives in its own module under `toyhw/commands/` with four names: `HELP` (one line), `add_arguments(parser)`,
`run(args) -> dict` (the JSON object, a stable contract that tests and scripts rely on) and `render(result) -> str`
(the readable table). This file only wires them together and turns what can go wrong into one line on stderr:

- bad input (an option's value, an unknown name, a broken data or catalogue file, an unknown `--lang`, a `--lang`
  whose script the output's encoding cannot show): the reason, exit code 2 (an unknown TOYHW_LANG is a warning and
  English, as in a notebook: toyhw.i18n says why);
- Ctrl-C: "interrupted", exit code 130 (the shell's convention for SIGINT);
- a closed output pipe (`python -m toyhw fastp --json | head -c1`): nothing more, as Python's documentation advises;
- output that cannot be written (a full disk, a closed stdout): the reason, exit code 1.

A value shaped like an API key is never echoed: every error line has such words replaced by "***" (a key pasted in
the wrong place, e.g. as `--model`, which toyhw.evolve.bridge.endpoint refuses without quoting it). An English table
on a terminal that cannot show one of its characters (an ASCII one and a dash) gets "?" for it.

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

COMMANDS: tuple[str, ...] = (
    "fastp",
    "ablations",
    "targeting",
    "branches",
    "gemm",
    "validate",
    "prompt",
    "evolve",
    "board",
)
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
    """argparse's parser, without repeating the option's name before our messages ("argument --seed: --seed = ..."),
    and with key-shaped words left out of its messages (argparse quotes unrecognized arguments)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(formatter_class=_Formatter, **kwargs)

    def error(self, message: str) -> NoReturn:
        super().error(_scrub(re.sub(r"^argument (\S+): (?=\1 = )", "", message)))


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
            if not args.json:
                _check_encoding(args.lang)
            result = module.run(args)
            text = _json(result) if args.json else module.render(result)
    except (ValueError, KeyError, TypeError) as err:  # bad input, an unknown name, a broken data file
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        _say(f"python -m toyhw {args.command}: error: {_short(_scrub(str(message)))}")
        return 2
    return _write(args.command, text)


def _say(line: str) -> None:
    """Write one line on stderr, if there is a stderr to write to (a closed one is None; a full disk fails)."""
    try:
        if sys.stderr is not None:
            print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _check_encoding(option: Optional[str]) -> None:
    """Raise ValueError when stdout's encoding cannot show the language's script (Chinese in ASCII or latin-1)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        i18n.t("language.name").encode(encoding)
    except UnicodeEncodeError:
        given = f"--lang {option}" if option is not None else f"{i18n.ENV_VAR}={i18n.language()}"
        raise ValueError(
            f"{given}: the output's encoding ({encoding}) cannot show the language's text; run in a UTF-8 terminal "
            "(or set PYTHONIOENCODING=utf-8), or use --lang en or --json"
        ) from None
    except LookupError:  # an encoding Python does not know: let printing say so
        pass


def _write(command: str, text: str) -> int:
    """Print `text` on stdout; return 0, or 1 after one line on stderr when it cannot be written."""
    if sys.stdout is None:
        _say(f"python -m toyhw {command}: error: cannot write the output: stdout is closed")
        return 1
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:  # a character the terminal's encoding lacks (a dash on an ASCII one): "?" for it
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    except (LookupError, AttributeError):
        pass
    try:
        print(text)
        sys.stdout.flush()  # here, where a closed pipe or a full disk is caught, not at exit
    except BrokenPipeError:
        raise
    except OSError as err:
        _silence_stdout()
        _say(f"python -m toyhw {command}: error: cannot write the output ({err.strerror or err})")
        return 1
    return 0


def _scrub(message: str) -> str:
    """Return `message` with every word shaped like an API key replaced by "***"."""
    from toyhw.evolve.bridge.endpoint import looks_like_key  # only when there is an error: start-up time matters

    return re.sub(r"[^\s'\",;:()=]+", lambda m: "***" if looks_like_key(m.group(0)) else m.group(0), message)


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
        _say(f"{f'python -m toyhw {command}'.rstrip()}: interrupted")
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
