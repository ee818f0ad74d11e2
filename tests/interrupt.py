"""Start a `python -m toyhw` command that a test then interrupts with Ctrl-C, reliably on a busy machine and under a
shell that ignores SIGINT.

Why each piece:
- A command started in the background of a non-interactive shell inherits SIGINT *ignored*, pytest passes that on to
  its children, and Python keeps an ignored SIGINT ignored: the child would never see KeyboardInterrupt and would run
  its hours-long command to the end. The child gets SIGINT's default disposition back before it starts.
- A fixed sleep before the signal races with start-up on a loaded machine: a SIGINT that arrives before Python has
  installed its handler ends the process without the "interrupted" line. The test waits until the command is
  computing (its CPU time, or its progress bar on a terminal) instead.
- A test that fails must not leave its child running: `stopped` kills it on the way out.
"""
from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from typing import Iterator

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def stopped(args: list[str], **popen_kwargs) -> Iterator[subprocess.Popen]:
    """Run `python -m toyhw ARGS` with SIGINT at its default; kill it on leaving the block if it still runs."""
    proc = subprocess.Popen([sys.executable, "-m", "toyhw", *args], preexec_fn=_default_sigint, **popen_kwargs)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def cpu_seconds(proc: subprocess.Popen) -> float:
    """Return the CPU time `proc` has used so far (user + system, from /proc)."""
    with open(f"/proc/{proc.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime and stime, fields 14 and 15 of stat


def wait_until_computing(proc: subprocess.Popen, seconds: float = 1.0, timeout: float = 120.0) -> None:
    """Return once `proc` has used `seconds` of CPU time (start-up and imports take a fraction of that)."""
    deadline = time.monotonic() + timeout
    while cpu_seconds(proc) < seconds:
        assert proc.poll() is None, f"the command ended before it was interrupted (exit {proc.returncode})"
        assert time.monotonic() < deadline, f"the command used under {seconds} s of CPU in {timeout} s"
        time.sleep(0.05)


def wait_for_text(fd: int, text: str, timeout: float = 120.0) -> str:
    """Read from `fd` until `text` has appeared; return everything read."""
    seen, deadline = b"", time.monotonic() + timeout
    while text.encode() not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"{text!r} did not appear in {timeout} s; read: {seen[-300:]!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 4096)
            assert chunk, f"the terminal closed before {text!r} appeared; read: {seen[-300:]!r}"
            seen += chunk
    return seen.decode(errors="replace")
