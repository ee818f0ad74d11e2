"""The JSONL log of a run with a real model: a header line, then one line per call (prompt, reply or error, timing).

Why: a real model is slow, may cost money and answers differently every time. A lecturer records a run once; a class
replays it (toyhw.evolve.chat.ReplayLLM) with no network and gets the recorded run's results bit for bit. One line per
call, appended as soon as the call ends, so an interrupted run leaves a readable log. API keys are never written.

Header: {"kind": "run", "format": FORMAT, "settings": prompt settings, "endpoint": {...}, ...what the caller adds}.
Call:   {"kind": "call", "step", "messages", "reply", "error", "finish_reason", "attempts", "seconds", "outcome",
         "description", "operator"} - reply None when no try got one; outcome "ok" or "failed" (no program).
"""
from __future__ import annotations

import json
import os
from typing import Mapping

FORMAT = "toyhw-llm-log/1"


class LogWriter:
    """Writes one run's log: the header when made (refusing to overwrite a log), then `write` appends one call."""

    def __init__(self, path: str | os.PathLike, header: Mapping) -> None:
        self.path = os.fspath(path)
        try:
            with open(self.path, "x", encoding="utf-8") as f:
                f.write(json.dumps({"kind": "run", "format": FORMAT, **header}) + "\n")
        except FileExistsError:
            raise ValueError(f"log {self.path!r} exists; a recorded run is not overwritten: choose another file or "
                             "delete it") from None

    def write(self, record: Mapping) -> None:
        """Append one call's record (a line of JSON), flushed at once."""
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"kind": "call", **record}) + "\n")


def read_log(path: str | os.PathLike) -> tuple[dict, list[dict]]:
    """Return (header, call records in order) of a log; ValueError naming the file and line when it is not one."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as f:
            lines = [line for line in f.read().splitlines() if line.strip()]
    except OSError as err:
        raise ValueError(f"cannot read the log {name!r}: {err.strerror or err}") from None
    records = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"{name}, line {number}: not JSON ({err.msg}); a log has one JSON object per line") \
                from None
        if not isinstance(record, dict):
            raise ValueError(f"{name}, line {number}: a log line must be a JSON object")
        records.append(record)
    if not records or records[0].get("kind") != "run" or records[0].get("format") != FORMAT:
        raise ValueError(f"{name} is not a toyhw LLM log: its first line must be the header of format {FORMAT!r}")
    calls = records[1:]
    for number, record in enumerate(calls, 2):
        if record.get("kind") != "call" or record.get("step") != number - 1 or "messages" not in record:
            raise ValueError(f"{name}, line {number}: expected the record of call {number - 1}")
    return records[0], calls
