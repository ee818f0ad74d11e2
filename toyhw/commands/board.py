"""`python -m toyhw board serve`: the class leaderboard (lecture 14, notebook 07), until Ctrl-C.

It scores every submission on the board's held-out shapes and the notebooks' training shapes
(toyhw.course.board), keeps the entries and the class code in an SQLite file (`--db`) so a restart loses nothing,
and listens on 127.0.0.1 unless `--host` says otherwise. When the command ends (Ctrl-C, SIGTERM, an error), nothing
listens any more. Bad options (a host that is not an address of this machine, a port out of range or in use, a
database path that cannot be one) are one line naming the option, the value and what is allowed, exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from typing import Iterator

from toyhw.commands import options
from toyhw.i18n import t

HELP = "the class leaderboard: students submit heuristics, scored on held-out shapes (lecture 14, notebook 07)"
ACTIONS = ("serve",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the action (serve), the address, the database and the rate limit."""
    from toyhw.course.board.board import WAIT_SECONDS
    from toyhw.course.board.server import DEFAULT_PORT

    parser.add_argument("action", nargs="?", metavar="serve", help="serve: start the board (until Ctrl-C)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every interface, the room)",
    )
    parser.add_argument(
        "--port", default=str(DEFAULT_PORT), help=f"the port, 0 for any free one (default {DEFAULT_PORT})"
    )
    parser.add_argument("--db", default="board.sqlite3", help="the SQLite file of the board (default board.sqlite3)")
    parser.add_argument(
        "--wait",
        type=options.bounded("--wait", 0, 3600, str(WAIT_SECONDS)),
        default=WAIT_SECONDS,
        help=f"seconds a name must wait between two submissions, 0 to 3,600 (default {WAIT_SECONDS})",
    )


def _say(line: str, stream=None) -> None:
    """Print one line now, on stdout unless `stream` is given (a terminal or a log file sees each submission as it
    comes)."""
    try:
        print(line, file=stream or sys.stdout, flush=True)
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM stops the board as Ctrl-C does (a hub's service manager sends SIGTERM)."""

    def stop(_signum, _frame) -> None:
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave the signal alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def run(args: argparse.Namespace) -> dict:
    """Serve the board until Ctrl-C or SIGTERM; return what it kept: {"url", "code", "db", "entries"}."""
    if args.action not in ACTIONS:
        shown = "nothing" if args.action is None else repr(args.action[:40])
        raise ValueError(
            f"action = {shown} is not allowed; give one of: {', '.join(ACTIONS)} (python -m toyhw board serve)"
        )
    from toyhw.course.board import scoring, server, store as store_lib
    from toyhw.course.board.board import Board

    host = server.check_host("--host", args.host)
    port = server.check_port("--port", args.port)
    path = store_lib.check_path("--db", args.db)
    scoring.fixed_rows()  # the fixed rows and both shape sets, before anyone asks
    store = store_lib.Store(path)
    try:
        # with --json, stdout holds only JSON: the line per submission goes to stderr
        board = Board(store, wait=args.wait, log=(lambda line: _say(line, sys.stderr)) if args.json else _say)
        listening = server.Listening(board, host, port)
        info = {
            "url": listening.url,
            "code": store.code,
            "db": str(path),
            "held_out_shapes": len(scoring.held_out_shapes()),
            "train_shapes": len(scoring.train_shapes()),
        }
        _banner(info, args.json, host)
        try:
            with _term_as_interrupt():
                listening.run()
        except KeyboardInterrupt:
            pass
        finally:
            listening.stop()
        return {**info, "entries": store.count()}
    finally:
        store.close()


def _banner(info: dict, as_json: bool, host: str) -> None:
    if as_json:
        import json

        _say(json.dumps(info))
        return
    _say(t("board.serve.listening", url=info["url"], db=info["db"]))
    _say(t("board.serve.code", code=info["code"]))
    _say(t("board.serve.shapes", held_out=info["held_out_shapes"], train=info["train_shapes"]))
    if host in ("127.0.0.1", "localhost", "::1"):
        _say(t("board.serve.local"))
    _say(t("board.serve.stop"))
    sys.stdout.flush()


def render(result: dict) -> str:
    """Return the line printed when the board stops."""
    return t("board.serve.stopped", entries=result["entries"], db=result["db"])
