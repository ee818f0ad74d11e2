"""A small OpenAI-compatible chat-completions server for tests: 127.0.0.1, a random port, scripted answers.

Every POST to /v1/chat/completions takes the next action of the script:

    ("reply", text)            200, a chat completion whose message content is `text`
    ("status", code)           that HTTP status with an OpenAI-style error body (a 429 says Retry-After: 0)
    ("slow", seconds, text)    waits `seconds`, then replies (a client with a shorter timeout has given up)
    ("raw", code, type, body)  that status, Content-Type and body (bytes or text) exactly
    ("trickle", seconds)       200 headers, then one byte of a never-ending body every `seconds`
    ("chunked", megabytes)     200, a chunked body of that many MB of one JSON string (or until the client leaves)
    ("echo", code)             that status, with an error message quoting the request's Authorization header

A request past the end of the script gets a 400 "script exhausted", so a test that asks more than it scripted fails
loudly. `requests` keeps every request body and its Authorization header. It listens on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Sequence


def completion(text: str, model: str = "scripted") -> dict:
    """Return the JSON body of a chat completion whose only choice says `text`."""
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


class ScriptedServer:
    """Serves `script` (see the module docstring) until the `with` block ends; `url` is its /v1 base URL."""

    def __init__(self, script: Sequence[tuple]) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with server._lock:
                    server.requests.append(
                        {"path": self.path, "body": body, "authorization": self.headers.get("Authorization")}
                    )
                    action = server.script.pop(0) if server.script else ("status", 400, "script exhausted")
                if action[0] == "slow":
                    server._stop.wait(action[1])
                    action = ("reply", action[2])
                if action[0] in ("trickle", "chunked"):
                    self._endless(action)
                elif action[0] == "raw":
                    body = action[3] if isinstance(action[3], bytes) else action[3].encode()
                    self._send(action[1], body, {"Content-Type": action[2]})
                elif action[0] == "echo":
                    message = f"invalid key in header Authorization: {self.headers.get('Authorization')}"
                    self._send(action[1], {"error": {"message": message, "type": "echo", "code": action[1]}})
                elif action[0] == "reply":
                    self._send(200, completion(action[1], body.get("model", "scripted")))
                else:
                    code = action[1]
                    message = action[2] if len(action) > 2 else f"scripted {code}"
                    self._send(
                        code,
                        {"error": {"message": message, "type": "scripted", "code": code}},
                        {"Retry-After": "0"} if code == 429 else {},
                    )

            def _endless(self, action: tuple) -> None:
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    if action[0] == "trickle":
                        self.send_header("Content-Length", "1000000")
                        self.end_headers()
                        while not server._stop.wait(action[1]):
                            self.wfile.write(b" ")
                            self.wfile.flush()
                        return
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    chunk = b"x" * (1 << 20)
                    start = b'{"choices": [{"message": {"content": "'
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(start), start))
                    for _ in range(action[1]):
                        if server._stop.is_set():
                            return
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.write(b'3\r\n"}}\r\n0\r\n\r\n')
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading: what the test wants

            def _send(self, code: int, payload, headers: dict | None = None) -> None:
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                headers = {"Content-Type": "application/json", **(headers or {})}
                try:
                    self.send_response(code)
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout): nothing to answer

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
