"""The student's side: `submit(source, name=..., url=..., code=...)` from a notebook cell, and `fetch_board(url)`
for a table view.

`submit` never raises for a student's mistake or a board that does not answer: it returns a one-line Verdict
(toyhw.course.check), ✓ with the rank and the scores, or ✗ with what is wrong, in the notebook's language. Without a
url it sends nothing: it checks the source as the board would (the parser, every branch) and gives its training score,
so a student can get a program right before class, and a notebook runs the cell with no board anywhere.

Only the url given is contacted, directly (no proxy from the environment: a board is on the class's own network), by
the standard library's urllib, with a timeout. The answer is read up to MAX_ANSWER_BYTES.
"""

from __future__ import annotations

import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional

from toyhw.course.board import protocol, scoring
from toyhw.course.board.board import accepted_line
from toyhw.course.board.server import DEFAULT_PORT
from toyhw.course.check import Verdict, failed, passed
from toyhw.i18n import t

URL_VAR = "TOYHW_BOARD_URL"
"""The environment variable a table view reads its board's address from (set it on a hub for every kernel)."""
DEFAULT_URL = f"http://127.0.0.1:{DEFAULT_PORT}"
TIMEOUT_S = 10.0
MAX_ANSWER_BYTES = 4_000_000


class BoardUnreachable(OSError):
    """No board answers at the url (refused, timed out, not a board); the message is one line naming the url."""


def board_url(url: Optional[str] = None) -> str:
    """Return `url`, else TOYHW_BOARD_URL, else DEFAULT_URL, without a trailing slash; ValueError unless it is an
    http(s) address with a host."""
    chosen = url if url else os.environ.get(URL_VAR) or DEFAULT_URL
    if not isinstance(chosen, str):
        raise ValueError(f"url = {chosen!r} is not allowed; give the board's address, e.g. {DEFAULT_URL}")
    parts = urllib.parse.urlsplit(chosen.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"url = {chosen[:80]!r} is not allowed; give the board's address, e.g. {DEFAULT_URL}")
    return chosen.strip().rstrip("/")


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _request(base: str, path: str, data: Optional[bytes], timeout: float) -> tuple[int, dict[str, Any]]:
    """Return (status, JSON answer) of a GET (data None) or POST of `path` at the board `base`; BoardUnreachable
    (naming `base`) when no board answers."""
    url = base
    request = urllib.request.Request(base + path, data=data, method="GET" if data is None else "POST")
    if data is not None:
        request.add_header("Content-Type", "application/json; charset=utf-8")
    try:
        try:
            with _OPENER.open(request, timeout=timeout) as answer:
                status, body = answer.status, answer.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as err:  # a refusal: 4xx with the board's JSON
            status, body = err.code, err.read(MAX_ANSWER_BYTES + 1)
            err.close()
    except (urllib.error.URLError, OSError, socket.timeout, ValueError) as err:
        reason = getattr(err, "reason", err)
        raise BoardUnreachable(protocol.one_line(t("board.unreachable", url=url, reason=reason))) from None
    try:
        if len(body) > MAX_ANSWER_BYTES:
            raise ValueError("too long")
        payload = json.loads(body.decode("utf-8"))
        if not isinstance(payload, dict):
            raise ValueError("not an object")
    except (ValueError, RecursionError):
        raise BoardUnreachable(protocol.one_line(t("board.not_a_board", url=url))) from None
    return status, payload


def fetch_board(url: Optional[str] = None, timeout: float = 3.0) -> dict[str, Any]:
    """Return the board's table (rows best first, revision, shape counts); BoardUnreachable when none answers."""
    _status, payload = _request(board_url(url), "/api/board", None, timeout)
    if not isinstance(payload.get("rows"), list):
        raise BoardUnreachable(protocol.one_line(t("board.not_a_board", url=board_url(url))))
    return payload


def _answer_line(payload: dict[str, Any]) -> str:
    """Return the board's answer in the reader's language, from its kind and params (the board's own line when the
    kind is one this toyhw does not know)."""
    kind, params = payload.get("kind"), payload.get("params")
    try:
        if not isinstance(params, dict):
            raise TypeError
        if payload.get("ok") is True and kind in ("accepted", "replaced"):
            return accepted_line(kind == "replaced", params)
        if kind in protocol.REFUSALS:
            return protocol.Refusal(kind, params).line()
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return protocol.one_line(str(payload.get("message", "")))[:500]


def check_locally(source: str) -> Verdict:
    """Return the verdict of the board's own checks on `source`, with its training score (nothing is sent)."""
    try:
        program = scoring.check_source(source)
    except scoring.BadBranch as err:
        return failed(protocol.Refusal("branch", _problem_params(err.problem)).line())
    except scoring.SourceError as err:
        return failed(protocol.Refusal("source", {"message": protocol.one_line(str(err))}).line())
    train = scoring.train_score(program)
    return passed(t("board.local_ok", train=f"{train:.3f}"))


def _problem_params(problem) -> dict[str, Any]:
    return {"line": problem.line, "branch": problem.branch, "config": problem.config, "reason": problem.reason}


def submit(source: str, name: str = "", url: Optional[str] = "", code: str = "", timeout: float = TIMEOUT_S) -> Verdict:
    """Send `source` (a heuristic as source text) to the board at `url` under display `name` with the class `code`;
    return the board's answer as one line. Without a url (None or ""), check it locally and send nothing."""
    if not isinstance(source, str):
        return failed(t("board.source_type", kind=type(source).__name__))
    if not url:
        return check_locally(source)
    if not isinstance(name, str) or not isinstance(code, str):
        return failed(protocol.Refusal("fields", {}).line())
    try:
        protocol.check_name(name)
        address = board_url(url)
    except protocol.Refusal as refusal:
        return failed(refusal.line())
    except ValueError as err:
        return failed(protocol.one_line(str(err)))
    try:
        _status, payload = _request(address, "/api/submit", protocol.submission_body(source, name, code), timeout)
    except BoardUnreachable as err:
        return failed(str(err))
    return (passed if payload.get("ok") is True else failed)(_answer_line(payload))
