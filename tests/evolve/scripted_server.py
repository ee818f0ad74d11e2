"""A small OpenAI-compatible chat-completions server for tests: 127.0.0.1, a random port, scripted answers.

Every POST to /v1/chat/completions takes the next action of the script:

    ("reply", text)            200, a chat completion whose message content is `text`
    ("status", code)           that HTTP status with an OpenAI-style error body (a 429 says Retry-After: 0)
    ("slow", seconds, text)    waits `seconds`, then replies (a client with a shorter timeout has given up)

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
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}


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
                    server.requests.append({"path": self.path, "body": body,
                                            "authorization": self.headers.get("Authorization")})
                    action = server.script.pop(0) if server.script else ("status", 400, "script exhausted")
                if action[0] == "slow":
                    server._stop.wait(action[1])
                    action = ("reply", action[2])
                if action[0] == "reply":
                    self._send(200, completion(action[1], body.get("model", "scripted")))
                else:
                    code = action[1]
                    message = action[2] if len(action) > 2 else f"scripted {code}"
                    self._send(code, {"error": {"message": message, "type": "scripted", "code": code}},
                               {"Retry-After": "0"} if code == 429 else {})

            def _send(self, code: int, payload: dict, headers: dict | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
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
