"""The board behind HTTP: the standard library's `http.server.ThreadingHTTPServer`, one thread per request.

Why the standard library and not a framework: the board answers a few hundred small requests in a lecture (a table
view polls every few seconds, a student submits a few times), so one thread per request is plenty, and the standard
library adds nothing to install on a class hub. Tornado is already in the class lock (JupyterLab's server) and would
serve as well, but it would make the board an asyncio program around a synchronous scorer and SQLite file, for no gain
at this size. What http.server lacks is added here: a cap on the body (refused unread beyond
protocol.MAX_BODY_BYTES), a socket timeout per request (a client that sends slowly is cut off), a cap on requests in
flight (MAX_IN_FLIGHT; beyond it "busy"), no request logging to stderr (one line per submission goes to `log`), and
answers that are always JSON (or the page), never a traceback: a handler that fails answers 500 with one line.

Routes: `GET /` the live table as a page (toyhw/course/board/page.html, drawn by page.js from `/api/board`),
`GET /api/board` the rows as JSON, `POST /api/submit` a submission (protocol.read_submission).
"""

from __future__ import annotations

import errno
import html
import http.server
import ipaddress
import json
import pathlib
import socket
import threading
from typing import Any, Callable, Optional

from toyhw.course.board import protocol
from toyhw.course.board.board import FIXED, Board, fixed_name
from toyhw import i18n
from toyhw.i18n import t

MAX_IN_FLIGHT = 32
"""Requests handled at once; more get "busy" (503) at once rather than a thread each."""
REQUEST_TIMEOUT_S = 10.0
"""A request's socket timeout: a client that sends nothing for this long is cut off."""
DEFAULT_PORT = 8765
_HERE = pathlib.Path(__file__).parent


def check_host(option: str, host: str) -> str:
    """Return `host` if it is an IP address (v4 or v6) or "localhost"; ValueError naming `option`, the value and what
    is allowed otherwise (a name that resolves elsewhere would open the board to another network than meant)."""
    if host == "localhost":
        return host
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        raise ValueError(
            f"{option} = {host[:60]!r} is not allowed; give an IP address of this machine: 127.0.0.1 (this machine "
            "only, the default), 0.0.0.0 (every interface: the room can reach it) or one interface's address"
        ) from None


def check_port(option: str, text: str) -> int:
    """Return the port `text` names, 0 (any free port) to 65535; ValueError naming `option`, the value and the
    range otherwise."""
    value = text.strip() if isinstance(text, str) else text
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 5 and int(value) <= 65535:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 65535:
        return value
    raise ValueError(
        f"{option} = {str(text)[:60]!r} is not allowed; give a port from 1024 to 65535 (0: any free port), "
        f"e.g. {DEFAULT_PORT}"
    )


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # a request still running when the board stops does not keep the process alive
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 128  # listen()'s backlog: socketserver's 5 resets connections when a room submits at once

    def __init__(self, address: tuple[str, int], board: Board, family: int) -> None:
        self.address_family = family
        self.board = board
        self.slots = threading.BoundedSemaphore(MAX_IN_FLIGHT)
        super().__init__(address, _Handler)


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    timeout = REQUEST_TIMEOUT_S
    protocol_version = "HTTP/1.1"
    server_version = "toyhw-board"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        pass  # one line per submission goes to the board's log instead

    def _send(self, status: int, body: bytes, kind: str, extra: Optional[dict[str, str]] = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        self._send(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def _refuse(self, kind: str, params: dict[str, Any]) -> None:
        refusal = protocol.Refusal(kind, params)
        self._json(refusal.status, {"ok": False, "kind": kind, "params": params, "message": refusal.line()})

    def _guarded(self, work: Callable[[], None]) -> None:
        if not self.server.slots.acquire(blocking=False):
            self.close_connection = True
            self._refuse("busy", {})
            return
        try:
            work()
        except (ConnectionError, TimeoutError, socket.timeout):
            self.close_connection = True
        except Exception as err:  # noqa: BLE001 - the client gets one line, never a traceback
            self.close_connection = True
            self._json(500, {"ok": False, "kind": "error", "params": {}, "message": protocol.one_line(repr(err))[:300]})
        finally:
            self.server.slots.release()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self._guarded(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        self._guarded(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._guarded(self._post)

    def _get(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/api/board":
            self._json(200, self.server.board.table())
        elif path == "/":
            self._send(200, _page(), "text/html; charset=utf-8", {"Content-Security-Policy": _CSP})
        elif path == "/page.js":
            self._send(200, (_HERE / "page.js").read_bytes(), "text/javascript; charset=utf-8")
        else:
            self._refuse("not_found", {"path": path[:80]})

    def _post(self) -> None:
        path = self.path.split("?", 1)[0]
        length = self.headers.get("Content-Length")
        if path != "/api/submit":
            self.close_connection = True
            self._refuse("not_found", {"path": path[:80]})
            return
        if length is None or not length.isdigit():
            self.close_connection = True
            self._refuse("length", {})
            return
        if int(length) > protocol.MAX_BODY_BYTES:
            self.close_connection = True  # the body is never read
            self._refuse("too_big", {"size": f"{int(length):,}", "limit": f"{protocol.MAX_BODY_BYTES:,}"})
            return
        body = self.rfile.read(int(length))
        status, answer = self.server.board.submit(body)
        self._json(status, answer)


_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'"


def _page() -> bytes:
    """Return the table's page in the board's language (its labels as a data attribute page.js reads)."""
    labels = {
        "board.title": t("board.title"),
        "board.head.rank": t("board.head.rank"),
        "board.head.name": t("board.head.name"),
        "board.head.held_out": t("board.head.held_out"),
        "board.head.train": t("board.head.train"),
    }
    labels.update({kind: fixed_name(kind) for kind in FIXED})
    text = (_HERE / "page.html").read_text(encoding="utf-8")
    return (
        text.replace("{lang}", html.escape(i18n.language()))
        .replace("{title}", html.escape(labels["board.title"]))
        .replace("{labels}", html.escape(json.dumps(labels, ensure_ascii=False), quote=True))
        .encode("utf-8")
    )


class Listening:
    """A board listening on `host`:`port` in a thread of its own: `url`, `stop()` (idempotent). What `serve` runs in
    the foreground, and what a test or a notebook starts in-process."""

    def __init__(self, board: Board, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            self.httpd = _Server((host, port), board, family)
        except OSError as err:
            raise ValueError(_bind_problem(host, port, err)) from None
        self.board = board
        self.host, self.port = host, self.httpd.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}"
        self._thread: Optional[threading.Thread] = None

    def start(self) -> "Listening":
        """Answer requests in a daemon thread; return self."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="toyhw-board", daemon=True)
        self._thread.start()
        return self

    def run(self) -> None:
        """Answer requests in this thread until stop() (or Ctrl-C, which the caller catches)."""
        self.httpd.serve_forever()

    def stop(self) -> None:
        """Stop answering and close the listening socket: nothing listens afterwards."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self.httpd.server_close()

    def __enter__(self) -> "Listening":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _bind_problem(host: str, port: int, err: OSError) -> str:
    """Return the one-line error of a socket that cannot listen, naming the option that is wrong."""
    if err.errno == errno.EADDRINUSE:
        return f"--port = {port} is not allowed; {host}:{port} is in use (another board?): give another port, or 0 for any free one"
    if err.errno in (errno.EACCES, errno.EPERM):
        return f"--port = {port} is not allowed; this user may not listen on it (ports below 1024 need root): give a port from 1024 to 65535"
    if err.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EINVAL) or isinstance(err, socket.gaierror):
        return f"--host = {host!r} is not allowed; it is not an address of this machine ({err.strerror or err}): give 127.0.0.1, 0.0.0.0 or one of this machine's addresses"
    return f"--host = {host!r}, --port = {port}: cannot listen there ({err.strerror or err})"
