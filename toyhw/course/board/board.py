"""The board's logic, without HTTP: take a submission's body, refuse it in one line or score and store it; rank the
entries with the fixed rows. toyhw.course.board.server puts it behind HTTP; tests call it directly too.

The order of the checks is the order of their cost: the body's size, text and fields (no work), the class code (a
wrong code learns nothing else), the name, the rate limit (counted from here, so a student who sends malformed
programs in a loop is slowed as much as one who sends good ones), the parser and the static check of every branch,
and only then the scores.
"""

from __future__ import annotations

import hmac
import time
from typing import Any, Callable, Optional

from toyhw.course.board import protocol, scoring
from toyhw.course.board.protocol import Refusal
from toyhw.course.board.store import Entry, Store, code_text
from toyhw.i18n import N_, t

WAIT_SECONDS = 10
"""The rate limit's default: a name may submit once every this many seconds."""
MAX_ENTRIES = 1_000
"""The most students one board keeps (a lecture hall; a name beyond it is refused, replacing still works)."""
ACCEPTED = {False: N_("board.accepted"), True: N_("board.accepted.replaced")}
"""Message id of an accepted submission, by whether it replaced the student's earlier entry."""
FIXED = {"oracle": N_("board.row.oracle"), "evolved": N_("board.row.evolved"), "expert": N_("board.row.expert")}
"""Message id of each fixed row's name."""
_KIND_ORDER = {"oracle": 0, "evolved": 1, "expert": 2, "student": 3}


def accepted_line(replaced: bool, params: dict[str, Any]) -> str:
    """Return an accepted submission's line in the reader's language (`params`: name, rank, rows, held_out, train)."""
    return protocol.one_line(t(ACCEPTED[bool(replaced)], **params))


def fixed_name(kind: str) -> str:
    """Return a fixed row's name in the reader's language."""
    return t(FIXED[kind])


def ranked(entries: list[Entry], fixed=None) -> list[dict[str, Any]]:
    """Return the board's rows, best first: every entry and the fixed rows, by held-out score, then training score,
    then fixed rows before a student's equal score, then the earlier submission. Each row: rank (1 = best), name
    (None for a fixed row: its name is the reader's language's), kind ("student" or a fixed kind), held_out, train."""
    rows = [
        {"name": None, "kind": kind, "held_out": s.held_out, "train": s.train, "revision": 0}
        for kind, s in (scoring.fixed_rows() if fixed is None else fixed)
    ]
    rows += [
        {"name": e.name, "kind": "student", "held_out": e.held_out, "train": e.train, "revision": e.revision}
        for e in entries
    ]
    rows.sort(key=lambda r: (-r["held_out"], -r["train"], _KIND_ORDER[r["kind"]], r["revision"]))
    return [{"rank": i + 1, **{k: v for k, v in r.items() if k != "revision"}} for i, r in enumerate(rows)]


class Board:
    """A class's board: its store (the class code and the entries), the rate limit and a log of submissions.

    Attributes:
        store: the SQLite store; wait: seconds a name must wait between submissions; clock: time.time or a test's;
        log: called with one line per submission (None: silent).
    """

    def __init__(
        self,
        store: Store,
        wait: float = WAIT_SECONDS,
        clock: Callable[[], float] = time.time,
        log: Optional[Callable[[str], None]] = None,
    ) -> None:
        self.store, self.wait, self.clock, self.log = store, wait, clock, log
        self.code = store.code

    def table(self) -> dict[str, Any]:
        """Return the board as sent to a table view: rows, revision, how many shapes each score is over."""
        from toyhw.course.board.shapes import held_out_shapes, train_shapes

        return {
            "rows": ranked(self.store.entries()),
            "revision": self.store.revision(),
            "held_out_shapes": len(held_out_shapes()),
            "train_shapes": len(train_shapes()),
        }

    def submit(self, body: bytes) -> tuple[int, dict[str, Any]]:
        """Return (HTTP status, answer) for a submission's request body; never raises for anything in the body."""
        try:
            status, answer = 200, self._accept(body)
        except Refusal as refusal:
            status, answer = (
                refusal.status,
                {
                    "ok": False,
                    "kind": refusal.kind,
                    "params": refusal.params,
                    "message": refusal.line(),
                },
            )
        if self.log is not None:
            self.log(answer["message"])
        return status, answer

    def _accept(self, body: bytes) -> dict[str, Any]:
        sub = protocol.read_submission(body)
        if not hmac.compare_digest(code_text(sub.code).encode("utf-8"), code_text(self.code).encode("utf-8")):
            raise Refusal("code", {})
        with self.store.lock:  # the rate check, the scores and the write: one step
            now = self.clock()
            last = self.store.last_attempt(sub.key)
            if last is not None and now - last < self.wait:
                raise Refusal("rate", {"name": sub.name, "seconds": max(1, round(self.wait - (now - last)))})
            if self.store.count() >= MAX_ENTRIES and not self.store.has(sub.key):
                raise Refusal("full", {"limit": MAX_ENTRIES})
            self.store.note_attempt(sub.key, now)
            try:
                _program, scores = scoring.score_source(sub.source)
            except scoring.BadBranch as err:
                p = err.problem
                raise Refusal(
                    "branch", {"line": p.line, "branch": p.branch, "config": p.config, "reason": p.reason}
                ) from None
            except scoring.SourceError as err:
                raise Refusal("source", {"message": protocol.one_line(str(err))}) from None
            entry, replaced = self.store.put(sub.name, sub.source, scores.held_out, scores.train, now)
            rows = ranked(self.store.entries())
        rank = next(r["rank"] for r in rows if r["kind"] == "student" and r["name"] == entry.name)
        params = {
            "name": entry.name,
            "rank": rank,
            "rows": len(rows),
            "held_out": f"{scores.held_out:.3f}",
            "train": f"{scores.train:.3f}",
        }
        return {
            "ok": True,
            "kind": "replaced" if replaced else "accepted",
            "params": params,
            "message": accepted_line(replaced, params),
            "entry": {"name": entry.name, "held_out": scores.held_out, "train": scores.train, "rank": rank},
        }
