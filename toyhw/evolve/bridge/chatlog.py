"""The JSONL log of a run with a real model: a header line, then one line per call (prompt, reply or error, timing).

Why: a real model is slow, may cost money and answers differently every time. A lecturer records a run once; a class
replays it (toyhw.evolve.bridge.chat.ReplayLLM) with no network and gets the recorded run's results bit for bit. One line per
call, appended as soon as the call ends, so an interrupted run leaves a readable log. API keys are never written.

Header: {"kind": "run", "format": FORMAT, "settings": prompt settings, "endpoint": {...}, ...what the caller adds}.
Call:   {"kind": "call", "step", "messages", "reply", "error", "finish_reason", "attempts", "seconds", "outcome",
         "description", "operator"} - reply None when no try got one; outcome "ok" or "failed" (no program). A reply
         longer than the pack reads keeps its first LOG_PREFIX_CHARS characters, with its length as "reply_chars".

Reading is strict (`read_log`): a regular file of at most MAX_LOG_BYTES, UTF-8, one JSON object per line with each
key once, every field of the type the writer gives it, the header's seed, budget and variant ones a run can have, no
number longer than MAX_NUMBER_DIGITS and no model name shaped like an API key; anything else is refused with one
line naming the file, the line and the field, the value cut to SHOWN_CHARS. A header's bad budget is the log's, not
the reader's option: the message says so.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from typing import Iterable, Mapping, Optional

from toyhw import checks
from toyhw.evolve.bridge.endpoint import looks_like_key

FORMAT = "toyhw-llm-log/1"
LOG_PREFIX_CHARS = 10_000
"""How much of a reply longer than the pack reads the log keeps (its length is logged too)."""
MAX_LOG_BYTES = 512 * 1024 * 1024
"""The largest log read: 1,000 calls of a 20k-character prompt and a reply at the limit are about 150 MB."""
MAX_NUMBER_DIGITS = 20
"""The longest integer a log holds: its numbers are steps, seeds (at most 10 digits), budgets and HTTP statuses."""
SHOWN_CHARS = 40
"""How much of a bad value an error message quotes."""


class LogError(ValueError):
    """A log that cannot be written or read; the message names the file (and the line)."""


def _shown(value: object, limit: int = SHOWN_CHARS) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


class LogWriter:
    """Writes one run's log: the header when made (refusing to overwrite a log), then `write` appends one call.

    The file stays open for the run. A log whose file is deleted or moved during the run (its folder removed, say)
    would lose every call at the end; `write` notices, saves what was written to a new file in the temporary folder
    and raises LogError naming it.
    """

    def __init__(self, path: str | os.PathLike, header: Mapping) -> None:
        self.path = os.fspath(path)
        self.calls = 0
        try:
            self._file = open(self.path, "x+", encoding="utf-8")
        except FileExistsError:
            raise LogError(
                f"log {_shown(self.path, 80)} exists; a recorded run is not overwritten: choose another file or "
                "delete it"
            ) from None
        except (OSError, ValueError) as err:  # no such folder, '', read-only, name too long, permission, NUL byte
            raise LogError(
                f"cannot create the log {_shown(self.path, 80)}: {getattr(err, 'strerror', None) or err}"
            ) from None
        self._id = os.fstat(self._file.fileno())[stat.ST_INO : stat.ST_DEV + 1]
        self._append({"kind": "run", "format": FORMAT, **header})

    def write(self, record: Mapping) -> None:
        """Append one call's record (a line of JSON), flushed at once."""
        self.calls += 1
        self._append({"kind": "call", **record})

    def close(self) -> None:
        """Close the file (the log is complete)."""
        self._file.close()

    def _append(self, record: Mapping) -> None:
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
            there = os.stat(self.path)[stat.ST_INO : stat.ST_DEV + 1]
        except OSError as err:
            there, problem = None, err.strerror or str(err)
        else:
            problem = None if there == self._id else "another file took its place"
        if problem is not None:
            raise LogError(
                f"the log {_shown(self.path, 80)} could not be written ({problem}); {self._rescue()}; stopping the run"
            ) from None

    def _rescue(self) -> str:
        """Copy what the open file holds to a new file in the temporary folder; return where, as a clause."""
        try:
            self._file.seek(0)
            text = self._file.read()
            fd, name = tempfile.mkstemp(prefix=os.path.basename(self.path) or "log", suffix=".rescued.jsonl")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            return f"the {_calls(self.calls)} so far could not be saved ({err.strerror or err})"
        finally:
            self._file.close()
        return f"the {_calls(self.calls)} so far are saved in {name}"


def _calls(n: int) -> str:
    return f"{n} call{'' if n == 1 else 's'}"


def _read_text(name: str) -> str:
    """Return the log's text: a regular file of at most MAX_LOG_BYTES, UTF-8; LogError naming the file else."""
    try:
        kind = os.stat(name).st_mode
        if not stat.S_ISREG(kind):
            raise LogError(
                f"cannot read the log {_shown(name)}: it is not a regular file (a FIFO, a device or a "
                "folder); give the file a recorded run wrote"
            )
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise LogError(f"cannot read the log {_shown(name)}: it is not a regular file")
            raw = f.read(MAX_LOG_BYTES + 1)
    except LogError:
        raise
    except (OSError, ValueError) as err:
        raise LogError(f"cannot read the log {_shown(name)}: {getattr(err, 'strerror', None) or err}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(
            f"cannot read the log {_shown(name)}: it is larger than {MAX_LOG_BYTES:,} bytes, more than "
            "any recorded run writes"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise LogError(f"{name}, line {line}: byte 0x{raw[err.start]:02x} is not UTF-8; a log is UTF-8 text") from None


_OPTIONAL_TEXT = (str, type(None))
_NUMBER = (int, float)
_CALL_FIELDS: Mapping[str, tuple] = {
    "reply": _OPTIONAL_TEXT,
    "error": _OPTIONAL_TEXT,
    "finish_reason": _OPTIONAL_TEXT,
    "attempts": (list,),
    "seconds": _NUMBER,
    "outcome": _OPTIONAL_TEXT,
    "description": _OPTIONAL_TEXT,
    "operator": _OPTIONAL_TEXT,
    "model": _OPTIONAL_TEXT,
    "reply_chars": (int, type(None)),
    "oversized": (bool,),
}
_ATTEMPT_FIELDS: Mapping[str, tuple] = {"seconds": _NUMBER, "error": _OPTIONAL_TEXT, "status": (int, type(None))}
_TYPE_NAMES = {
    str: "a text",
    type(None): "null",
    int: "an integer",
    float: "a number",
    list: "a list",
    bool: "true or false",
    dict: "an object",
}


def _check(where: str, field: str, value: object, kinds: tuple) -> None:
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        allowed = " or ".join(dict.fromkeys(_TYPE_NAMES[k] for k in kinds))
        raise LogError(f"{where}: {field} = {_shown(value)} is not allowed; it must be {allowed}")


def _check_call(where: str, record: dict) -> None:
    messages = record["messages"]
    _check(where, "messages", messages, (list,))
    for i, message in enumerate(messages):
        _check(where, f"messages[{i}]", message, (dict,))
        for key in ("role", "content"):
            _check(where, f"messages[{i}].{key}", message.get(key), (str,))
    for key, kinds in _CALL_FIELDS.items():
        if key in record:
            _check(where, key, record[key], kinds)
    if "model" in record:
        _check_model(where, "model", record["model"])
    for i, attempt in enumerate(record.get("attempts", ())):
        _check(where, f"attempts[{i}]", attempt, (dict,))
        for key, kinds in _ATTEMPT_FIELDS.items():
            if key in attempt:
                _check(where, f"attempts[{i}].{key}", attempt[key], kinds)


def _check_header(
    where: str, header: dict, setting_names: Optional[Iterable[str]], variant_names: Optional[list[str]]
) -> None:
    settings = header.get("settings")
    if not isinstance(settings, dict):
        raise LogError(
            f"{where}: the header's settings = {_shown(settings)} is not allowed; it must be an object "
            "of prompt settings"
        )
    if setting_names is not None:
        known = list(setting_names)
        unknown = [k for k in settings if k not in known]
        missing = [k for k in known if k not in settings]
        if unknown or missing:
            parts = ([f"unknown {', '.join(map(repr, unknown))}"] if unknown else []) + (
                [f"missing {', '.join(map(repr, missing))}"] if missing else []
            )
            raise LogError(
                f"{where}: the header's settings are not this toyhw's ({'; '.join(parts)}); known: {', '.join(known)}"
            )
    endpoint = header.get("endpoint", {})
    _check(where, "endpoint", endpoint, (dict,))
    if "model" in endpoint:
        _check_model(where, "endpoint.model", endpoint["model"])
    for key, kinds in (("variant", (str,)), ("seed", (int,)), ("budget", (int,))):
        if key in header:
            _check(where, key, header[key], kinds)
    for key, check in (("seed", checks.check_seed), ("budget", checks.check_budget)):
        if key in header:
            try:
                check(f"the header's {key}", header[key])
            except ValueError as err:
                raise LogError(f"{where}: {err}") from None
    if variant_names is not None and "variant" in header and header["variant"] not in variant_names:
        raise LogError(
            f"{where}: the header's variant = {_shown(header['variant'])} is not allowed; known: "
            f"{', '.join(variant_names)}"
        )


def _check_model(where: str, field: str, value: object) -> None:
    """Refuse a model name that is not a text or null, or is shaped like an API key (never quoted)."""
    _check(where, field, value, _OPTIONAL_TEXT)
    if isinstance(value, str) and looks_like_key(value):
        raise LogError(
            f"{where}: {field} is not allowed: it is shaped like an API key, not a model name (not shown); a log "
            "never holds a key"
        )


class _Refused(Exception):
    """Raised by the JSON hooks of `_parse`: what is wrong with a line (read_log adds the file and the line)."""


def _pairs(items: list[tuple[str, object]]) -> dict:
    record: dict = {}
    for key, value in items:
        if key in record:  # json.loads would keep the last one without a word
            raise _Refused(f"the key {_shown(key)} appears twice in one record; a log line holds each field once")
        record[key] = value
    return record


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _Refused(
            f"a number of {len(text.lstrip('-')):,} digits ({text[:SHOWN_CHARS]}...) is not allowed; a log's "
            f"numbers are steps, seeds, budgets and seconds, at most {MAX_NUMBER_DIGITS} digits"
        )
    return int(text)


def _number(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(
            f"{text[:SHOWN_CHARS]} is not allowed; it is beyond a float's range (a log's numbers are finite)"
        )
    return value


def _constant(text: str) -> float:
    raise _Refused(f"{text} is not allowed; a log's numbers are finite (JSON has no {text})")


def _parse(line: str) -> object:
    """Return the JSON value of one log line: each key of an object once, no overlong number, no NaN or Infinity."""
    return json.loads(line, object_pairs_hook=_pairs, parse_int=_integer, parse_float=_number, parse_constant=_constant)


def read_log(
    path: str | os.PathLike,
    setting_names: Optional[Iterable[str]] = None,
    variant_names: Optional[Iterable[str]] = None,
) -> tuple[dict, list[dict]]:
    """Return (header, call records in order) of a log; LogError naming the file and line when it is not one.

    `setting_names`: the prompt settings a header must hold, exactly; `variant_names`: the variants a header may name
    (None: not checked).
    """
    name = os.fspath(path)
    lines = [(number, line) for number, line in enumerate(_read_text(name).split("\n"), 1) if line.strip()]
    records = []
    for number, line in lines:
        try:
            record = _parse(line)
        except _Refused as err:
            raise LogError(f"{name}, line {number}: {err}") from None
        except RecursionError:
            raise LogError(
                f"{name}, line {number}: JSON nested too deeply; a log has one flat record per line"
            ) from None
        except json.JSONDecodeError as err:
            raise LogError(f"{name}, line {number}: not JSON ({err.msg}); a log has one JSON object per line") from None
        if not isinstance(record, dict):
            raise LogError(f"{name}, line {number}: a log line must be a JSON object")
        records.append((number, record))
    if not records or records[0][1].get("kind") != "run" or records[0][1].get("format") != FORMAT:
        raise LogError(f"{name} is not a toyhw LLM log: its first line must be the header of format {FORMAT!r}")
    known = list(variant_names) if variant_names is not None else None
    _check_header(f"{name}, line {records[0][0]}", records[0][1], setting_names, known)
    calls = []
    for step, (number, record) in enumerate(records[1:], 1):
        if record.get("kind") != "call" or not checks.is_int(record.get("step")) or record["step"] != step:
            raise LogError(f"{name}, line {number}: expected the record of call {step}")
        if "messages" not in record:
            raise LogError(f"{name}, line {number}: the record of call {step} has no messages")
        _check_call(f"{name}, line {number}", record)
        calls.append(record)
    return records[0][1], calls
