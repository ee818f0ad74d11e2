"""What a submission is, on the wire, and every way it can be refused, as one line in the reader's language.

A submission is a JSON object `{"source": ..., "name": ..., "code": ...}` in UTF-8, at most MAX_BODY_BYTES: the
source text of a heuristic (never executed: toyhw.course.board.scoring parses it), the student's display name and
the class code. Nothing else is read: no file, no pickled object, no code.

A refusal is a `Refusal(kind, params)`: the board sends its kind and parameters with the line in the board's
language, and the client shows the line again in the student's language from the same catalogue (`line()`), so a
Chinese notebook submitting to an English board reads Chinese. Source errors carry the parser's own message (in
the pack's words for the rule language: English in both editions, like the notebooks' static check).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toyhw.checks import MAX_SOURCE_CHARS
from toyhw.course.board.store import name_key
from toyhw.evolve.source import BranchProblem
from toyhw.i18n import N_, t

MAX_NAME_CHARS = 40
"""The longest display name: it must fit a column of the table on a projector."""
MAX_BODY_BYTES = 6 * MAX_SOURCE_CHARS + 4096
"""The largest request body: the parser's MAX_SOURCE_CHARS even if JSON writes every character as a 6-byte
\\uXXXX escape, plus room for the name and the code. A larger body is refused unread."""
FIELDS = ("source", "name", "code")

REFUSALS = {
    "too_big": N_("board.refused.too_big"),
    "length": N_("board.refused.length"),
    "not_utf8": N_("board.refused.not_utf8"),
    "not_json": N_("board.refused.not_json"),
    "fields": N_("board.refused.fields"),
    "code": N_("board.refused.code"),
    "name_empty": N_("board.refused.name_empty"),
    "name_long": N_("board.refused.name_long"),
    "name_chars": N_("board.refused.name_chars"),
    "rate": N_("board.refused.rate"),
    "source": N_("board.refused.source"),
    "branch": N_("board.refused.branch"),
    "full": N_("board.refused.full"),
    "busy": N_("board.refused.busy"),
    "not_found": N_("board.refused.not_found"),
}
"""Every kind of refusal -> its message id (the catalogue's placeholders are the kind's params)."""
STATUS = {"too_big": 413, "length": 411, "code": 403, "rate": 429, "busy": 503, "full": 507, "not_found": 404}
"""The HTTP status of a refusal kind (400 for the others)."""


class Refusal(Exception):
    """A refused request: its `kind` (a key of REFUSALS) and the `params` of its message."""

    def __init__(self, kind: str, params: dict[str, Any]) -> None:
        super().__init__(kind, params)
        self.kind, self.params = kind, dict(params)

    def line(self) -> str:
        """Return the refusal as one line in the reader's language (a bad branch worded as the static check words
        it: toyhw.evolve.source.BranchProblem)."""
        if self.kind == "branch":
            problem = BranchProblem(**{k: self.params[k] for k in ("line", "branch", "config", "reason")})
            return one_line(t(REFUSALS["branch"], problem=problem.message()))
        return one_line(t(REFUSALS[self.kind], **self.params))

    @property
    def status(self) -> int:
        return STATUS.get(self.kind, 400)


def one_line(text: str) -> str:
    """Return `text` on one line (a parser message never spans lines; a name or a path could)."""
    return " ".join(str(text).split())


@dataclass(frozen=True)
class Submission:
    """A submission read from a request: the heuristic's `source`, the display `name`, the class `code`."""

    source: str
    name: str
    code: str

    @property
    def key(self) -> str:
        return name_key(self.name)


def read_submission(body: bytes) -> Submission:
    """Return the submission in a request `body`, or raise Refusal naming what is wrong with it."""
    if len(body) > MAX_BODY_BYTES:
        raise Refusal("too_big", {"size": f"{len(body):,}", "limit": f"{MAX_BODY_BYTES:,}"})
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Refusal("not_utf8", {"position": err.start}) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # json's errors, and a deeply nested array that exhausts its stack
        raise Refusal("not_json", {}) from None
    if not isinstance(data, dict) or set(data) != set(FIELDS) or not all(isinstance(data[f], str) for f in FIELDS):
        raise Refusal("fields", {})
    for name in FIELDS:
        try:
            data[name].encode("utf-8")
        except UnicodeEncodeError as err:  # a lone surrogate written as \ud800: not text
            raise Refusal("not_utf8", {"position": err.start}) from None
    return Submission(data["source"], check_name(data["name"]), data["code"])


def check_name(name: str) -> str:
    """Return the display name stripped, or raise Refusal: empty, longer than MAX_NAME_CHARS, or holding a control
    character (a name is shown on the lecturer's screen and terminal)."""
    name = name.strip()
    if not name:
        raise Refusal("name_empty", {})
    if len(name) > MAX_NAME_CHARS:
        raise Refusal("name_long", {"length": len(name), "limit": MAX_NAME_CHARS})
    if not name.isprintable():
        raise Refusal("name_chars", {})
    return name


def submission_body(source: str, name: str, code: str) -> bytes:
    """Return the request body of a submission (the client's side of read_submission)."""
    return json.dumps({"source": source, "name": name, "code": code}, ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )
