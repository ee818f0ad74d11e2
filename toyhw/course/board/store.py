"""The board's state in one SQLite file (the standard library's sqlite3): the class code and one entry per student.

Why SQLite: one file the lecturer can copy, and transactions. Every submission is one transaction, committed before
the student's answer is sent, in write-ahead-log mode with `synchronous=FULL`: a board killed at any moment (kill -9,
a hub that restarts, a laptop that sleeps and dies) opens again with every answered submission and nothing half
written. All SQL takes its values as parameters, never pasted into the statement, so a name such as
`x'); DROP TABLE entries; --` is a name like any other.

One entry per student: the entry's key is the display name, NFKC-normalized and case-folded (`Ada`, `ADA` and `Ａｄａ`
are one student), so a new submission under the same name replaces that student's entry; the submission must carry
the class code (toyhw.course.board.protocol), so only the class can replace an entry. The store also keeps, per name,
when it last submitted (the rate limit).
"""

from __future__ import annotations

import os
import pathlib
import secrets
import sqlite3
import threading
import time
import unicodedata
from dataclasses import dataclass
from typing import Optional

SCHEMA_VERSION = "1"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be misread on a projector (no I, O, 0, 1)."""
CODE_LENGTH = 8
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    held_out REAL NOT NULL,
    train REAL NOT NULL,
    submitted REAL NOT NULL,
    revision INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (key TEXT PRIMARY KEY, last REAL NOT NULL);
"""


class StoreError(ValueError):
    """A database file that cannot be used as the board's; the message names the option, the path and why."""


@dataclass(frozen=True)
class Entry:
    """A student's entry: display `name`, the `source` submitted, its scores, when (`submitted`, Unix time) and the
    board's `revision` at that moment (it grows by one per accepted submission)."""

    name: str
    source: str
    held_out: float
    train: float
    submitted: float
    revision: int


def name_key(name: str) -> str:
    """Return the key of a display name: one entry per student however the name is cased or its width written."""
    return unicodedata.normalize("NFKC", name).casefold()


def new_code() -> str:
    """Return a fresh class code, XXXX-XXXX from CODE_ALPHABET (40 bits: not guessable during a lecture)."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{chars[:4]}-{chars[4:]}"


def code_text(code: str) -> str:
    """Return a class code as compared: upper case, without dashes and spaces."""
    return "".join(ch for ch in code.upper() if ch not in "- ")


def check_path(option: str, path: str) -> pathlib.Path:
    """Return `path` as a Path the board can keep its file at; StoreError naming `option`, the path and what is
    allowed when it is a folder, its folder does not exist, or it cannot be written."""
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise StoreError(f"{option} = {path!r} is not allowed; give a file path, e.g. board.sqlite3")
    where = pathlib.Path(path).expanduser()
    if where.is_dir():
        raise StoreError(
            f"{option} = {path!r} is not allowed; it is a folder: give a file in it, e.g. {where}/board.sqlite3"
        )
    folder = where.parent
    if not folder.is_dir():
        raise StoreError(f"{option} = {path!r} is not allowed; its folder {str(folder)!r} does not exist")
    if where.exists() and not os.access(where, os.R_OK | os.W_OK):
        raise StoreError(f"{option} = {path!r} is not allowed; the file cannot be read and written (permissions)")
    if not where.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"{option} = {path!r} is not allowed; its folder {str(folder)!r} cannot be written")
    return where


class Store:
    """The board's SQLite file, opened once, used by every request thread under one lock.

    Why one connection and a lock: a submission is milliseconds of work and a class is tens of students, so
    serializing is cheap, and it makes the rate check, the scoring and the write of one submission one step that no
    other submission can interleave with.
    """

    def __init__(self, path: pathlib.Path, option: str = "--db") -> None:
        self.path = path
        self.lock = threading.RLock()
        try:
            self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=5.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            with self.transaction():
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    self.db.execute(statement)
                version = self._meta("schema")
                if version is None:
                    self._set_meta("schema", SCHEMA_VERSION)
                elif version != SCHEMA_VERSION:
                    raise StoreError(
                        f"{option} = {str(path)!r} is not allowed; it holds a board of schema {version!r}, this toyhw "
                        f"reads schema {SCHEMA_VERSION!r}: give another file"
                    )
                if self._meta("code") is None:
                    self._set_meta("code", new_code())
        except sqlite3.DatabaseError as err:
            raise StoreError(
                f"{option} = {str(path)!r} is not allowed; it is not a board's SQLite database ({err}): give a new "
                "file or one an earlier `board serve` wrote"
            ) from None

    def transaction(self):
        """Return a context manager: BEGIN IMMEDIATE ... COMMIT (ROLLBACK on an error), under the store's lock."""
        store = self

        class _Transaction:
            def __enter__(self):
                store.lock.acquire()
                store.db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, value, tb):
                try:
                    store.db.execute("ROLLBACK" if kind else "COMMIT")
                finally:
                    store.lock.release()

        return _Transaction()

    def _meta(self, key: str) -> Optional[str]:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    @property
    def code(self) -> str:
        """The class code (kept in the file: a restarted board keeps the code the class has)."""
        with self.lock:
            return self._meta("code") or ""

    def revision(self) -> int:
        """Return the number of accepted submissions so far (a table view redraws when it changes)."""
        with self.lock:
            row = self.db.execute("SELECT MAX(revision) FROM entries").fetchone()
            return int(row[0] or 0)

    def entries(self) -> list[Entry]:
        """Return every student's entry (one per name key), in no particular order."""
        with self.lock:
            rows = self.db.execute(
                "SELECT name, source, held_out, train, submitted, revision FROM entries ORDER BY revision"
            ).fetchall()
        return [Entry(*row) for row in rows]

    def count(self) -> int:
        """Return the number of entries (students)."""
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def has(self, key: str) -> bool:
        """Return whether a student with name key `key` has an entry."""
        with self.lock:
            return self.db.execute("SELECT 1 FROM entries WHERE key = ?", (key,)).fetchone() is not None

    def last_attempt(self, key: str) -> Optional[float]:
        """Return when the name with `key` last submitted (Unix time), or None."""
        with self.lock:
            row = self.db.execute("SELECT last FROM attempts WHERE key = ?", (key,)).fetchone()
        return None if row is None else float(row[0])

    def note_attempt(self, key: str, when: float) -> None:
        """Record that the name with `key` submitted at `when` (its own transaction)."""
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO attempts (key, last) VALUES (?, ?)", (key, when))

    def put(
        self, name: str, source: str, held_out: float, train: float, when: Optional[float] = None
    ) -> tuple[Entry, bool]:
        """Store `name`'s entry, replacing that student's earlier one; return (the entry, whether one was replaced)."""
        key = name_key(name)
        with self.transaction():
            replaced = self.db.execute("SELECT 1 FROM entries WHERE key = ?", (key,)).fetchone() is not None
            revision = int(self.db.execute("SELECT COALESCE(MAX(revision), 0) FROM entries").fetchone()[0]) + 1
            entry = Entry(name, source, held_out, train, time.time() if when is None else when, revision)
            self.db.execute(
                "INSERT OR REPLACE INTO entries (key, name, source, held_out, train, submitted, revision) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, entry.name, entry.source, entry.held_out, entry.train, entry.submitted, entry.revision),
            )
        return entry, replaced

    def close(self) -> None:
        """Close the file (every transaction is already committed)."""
        with self.lock:
            self.db.close()
