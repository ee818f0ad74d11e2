"""A leaderboard as a separate process for the tests: `python -m toyhw board serve --port 0 --json`, its first line
read for the address and the class code; stopped for good at the end (SIGKILL when asked, as a crash would)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

START_TIMEOUT_S = 60.0


@dataclass
class BoardProcess:
    proc: subprocess.Popen
    url: str
    code: str
    log: pathlib.Path

    def kill_9(self) -> None:
        """End the board as a crash would: SIGKILL, no chance to clean up."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> int:
        """End the board as a lecturer does (SIGTERM, which it takes as Ctrl-C); return its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        return self.proc.returncode


def start(db: pathlib.Path, log: pathlib.Path, *extra: str, env: dict | None = None) -> BoardProcess:
    """Start a board on a free loopback port over the SQLite file `db`; its stdout and stderr go to `log`."""
    cmd = [sys.executable, "-m", "toyhw", "board", "serve", "--port", "0", "--db", str(db), "--json", *extra]
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=db.parent, env=env or os.environ
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        if lines and lines[0].startswith("{"):
            info = json.loads(lines[0])
            return BoardProcess(proc, info["url"], info["code"], log)
        if proc.poll() is not None:
            raise RuntimeError(f"the board exited with {proc.returncode}:\n{log.read_text()[-2000:]}")
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"the board did not start in {START_TIMEOUT_S:.0f} s:\n{log.read_text()[-2000:]}")
