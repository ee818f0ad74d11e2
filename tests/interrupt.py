"""Start a `python -m toyhw` command that a test then interrupts with Ctrl-C, reliably on a busy machine and under a
shell that ignores SIGINT.

Why each piece:
- A command started in the background of a non-interactive shell inherits SIGINT *ignored*, pytest passes that on to
  its children, and Python keeps an ignored SIGINT ignored: the child would never see KeyboardInterrupt and would run
  its hours-long command to the end. The child gets SIGINT's default disposition back before it starts.
- A fixed sleep before the signal races with start-up on a loaded machine: a SIGINT that arrives before Python has
  installed its handler ends the process without the "interrupted" line. The test waits until the command is
  computing (its CPU time, or its progress bar on a terminal) instead.
- Ctrl-C must stop everything the command started: a worker left running would compute for hours and keep the
  terminal and the output pipe open. The command runs in a session of its own; `read_until_closed` fails (never
  blocks) if the terminal stays open after the command ended, and `stopped` kills the whole session on the way out,
  so a failing test leaves nothing behind.
- No read or wait here blocks without a time limit: a hang fails the test instead of eating CI's time.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from typing import IO, Iterator

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def stopped(args: list[str], **popen_kwargs) -> Iterator[subprocess.Popen]:
    """Run `python -m toyhw ARGS` with SIGINT at its default, in a session of its own; on leaving the block, kill
    whatever of that session still runs."""
    env = {**popen_kwargs.pop("env", os.environ), "PYTHONFAULTHANDLER": "1"}  # see wait_for_exit
    proc = subprocess.Popen(
        [sys.executable, "-m", "toyhw", *args],
        preexec_fn=_default_sigint,
        start_new_session=True,
        env=env,
        **popen_kwargs,
    )
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the session's id is the command's pid
        proc.wait(timeout=60)


def _stat(pid: int) -> list[str]:
    """Return the fields of /proc/PID/stat after the command name (field 3, the state, comes first)."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()


def cpu_seconds(proc: subprocess.Popen | int) -> float:
    """Return the CPU time a process has used so far (user + system, from /proc)."""
    fields = _stat(proc if isinstance(proc, int) else proc.pid)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime and stime, fields 14 and 15 of stat


def children(proc: subprocess.Popen) -> list[int]:
    """Return the pids of the processes `proc` started that still run (their parent, field 4 of stat, is it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError):  # a process may end while it is read
                if int(_stat(int(entry))[1]) == proc.pid:
                    found.append(int(entry))
    return found


def wait_until_workers_compute(
    proc: subprocess.Popen, workers: int, seconds: float = 0.3, timeout: float = 120.0
) -> None:
    """Return once `proc` has `workers` child processes that have each used `seconds` of CPU time."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, f"the command ended before it was interrupted (exit {proc.returncode})"
        with contextlib.suppress(OSError):
            busy = [pid for pid in children(proc) if cpu_seconds(pid) >= seconds]
            if len(busy) >= workers:
                return
        assert time.monotonic() < deadline, f"{workers} workers were not computing after {timeout} s"
        time.sleep(0.05)


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


def wait_for_exit(proc: subprocess.Popen, terminal: int, timeout: float = 60.0) -> int:
    """Return the exit code of `proc` (started by `stopped`, its stderr on the pseudo-terminal `terminal`).

    If it has not ended after `timeout` seconds, it is sent SIGABRT, on which Python's faulthandler writes every
    thread's stack to stderr, and the test fails with that: where the command was stuck, not only that it was.
    """
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        time.sleep(1.0)
        stacks = b""
        while select.select([terminal], [], [], 1.0)[0]:
            try:
                chunk = os.read(terminal, 65536)
            except OSError:
                break
            if not chunk:
                break
            stacks += chunk
        raise AssertionError(
            f"the command had not ended {timeout} s after Ctrl-C; its threads:\n"
            f"{stacks.decode(errors='replace')[-6000:]}"
        ) from None


def read_until_closed(fd: int, timeout: float = 30.0) -> str:
    """Read a pseudo-terminal until every process holding its other end has closed it; return what was read.

    Fails if that takes over `timeout` seconds: called after the command ended, it means a process the command
    started (a worker) outlived it."""
    seen, deadline = b"", time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, (
            f"the terminal was still open {timeout} s later: a process the command started "
            f"still runs; read: {seen[-300:]!r}"
        )
        if select.select([fd], [], [], remaining)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: no process holds the other end any more
                break
            if not chunk:
                break
            seen += chunk
    os.close(fd)
    return seen.decode(errors="replace")


def read_pipe(pipe: IO[bytes], timeout: float = 30.0) -> bytes:
    """Read a pipe to its end, failing (never blocking) if a process still holds it open after `timeout` seconds."""
    fd, seen, deadline = pipe.fileno(), b"", time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"the pipe was still open {timeout} s later: a process the command started still runs"
        if select.select([fd], [], [], remaining)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                return seen
            seen += chunk
