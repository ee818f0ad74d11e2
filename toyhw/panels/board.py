"""The class leaderboard in a notebook: `submit` (from toyhw.course.board.client) and `table()`, the live table.

`table()` shows the board's rows and redraws when they change: a thread of the kernel asks the board for them every
`every` seconds (toyhw.course.board.client.fetch_board) and sets the widget's HTML, which ipywidgets sends to the
page. Why the kernel polls and not the page: the kernel reaches the board where students' kernels do (on a hub, the
hub's own network), while the page of a browser outside the hub may not; and a board on another port would need
cross-origin headers to be read from the page. Without a board (a notebook run before class, nbval, the website's
build) the table shows the fixed rows, computed here by the package, under one line saying where it looked.

Where it looks: `url`, else the environment variable TOYHW_BOARD_URL (set it for every kernel of a hub), else
http://127.0.0.1:8765, `board serve`'s default on the same machine.
"""

from __future__ import annotations

import html
import threading
from typing import Any, Optional

import ipywidgets as widgets
from IPython.display import HTML

from toyhw.course.board import client
from toyhw.course.board.board import FIXED, fixed_name, ranked
from toyhw.course.board.client import submit
from toyhw.i18n import t

POLL_S = 2.0
"""Seconds between two looks at the board."""
MAX_POLLS = 3 * 3600
"""Looks before the thread stops by itself (6 hours at POLL_S): a kernel left open overnight does not poll forever."""
_STYLE = (
    "<style>.toyhw-board td,.toyhw-board th{padding:2px 12px;text-align:left}"
    ".toyhw-board td.num,.toyhw-board th.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".toyhw-board tr.fixed td{font-style:italic;color:#555}</style>"
)


def rows_html(rows: list[dict[str, Any]]) -> str:
    """Return the board's rows as an HTML table in the reader's language (every name escaped)."""
    heads = [
        ("", t("board.head.rank")),
        ("", t("board.head.name")),
        ("num", t("board.head.held_out")),
        ("num", t("board.head.train")),
    ]
    out = [_STYLE, '<table class="toyhw-board"><thead><tr>']
    out += [f'<th class="{cls}">{html.escape(text)}</th>' for cls, text in heads]
    out.append("</tr></thead><tbody>")
    for row in rows:
        kind = row.get("kind")
        name = fixed_name(kind) if kind in FIXED else str(row.get("name", ""))
        out.append(
            f'<tr class="{"fixed" if kind in FIXED else "student"}"><td>{int(row["rank"])}</td>'
            f"<td>{html.escape(name)}</td>"
            f'<td class="num">{float(row["held_out"]):.3f}</td><td class="num">{float(row["train"]):.3f}</td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


def fixed_table() -> HTML:
    """Return the table with the fixed rows only, as a board starts: the static view of `table()` (an IPython HTML
    object, stored with the notebook for a reader without a kernel)."""
    return HTML(f"<b>{html.escape(t('board.title'))}</b>" + rows_html(ranked([])))


class BoardTable:
    """The live table: `box` (a VBox: a title, the rows, a status line) and a daemon thread that polls the board
    until `close()` or until the box is closed.

    Why `box` is a plain VBox and not a subclass: the stored notebook and the website know a panel by its widget
    class (website/notebook_view.py), and the app's tests by the same."""

    def __init__(self, url: Optional[str] = None, every: float = POLL_S) -> None:
        self.url = client.board_url(url)
        self.every = float(every)
        self.title = widgets.HTML(f"<b>{html.escape(t('board.title'))}</b>")
        self.rows = widgets.HTML(rows_html(ranked([])))
        self.status = widgets.HTML()
        self.box = widgets.VBox([self.title, self.rows, self.status])
        self._shown: Any = None
        self._stop = threading.Event()
        self.poll()
        self._thread = threading.Thread(target=self._loop, name="toyhw-board-table", daemon=True)
        self._thread.start()

    def poll(self) -> None:
        """Look at the board once and redraw when its rows changed."""
        try:
            board = client.fetch_board(self.url, timeout=max(1.0, min(self.every, 3.0)))
        except client.BoardUnreachable:
            state: Any = None
            status = t("board.status.offline", url=self.url)
        else:
            state = (board.get("revision"), board["rows"])
            students = sum(1 for r in board["rows"] if r.get("kind") == "student")
            status = t("board.status.live", url=self.url, students=students, revision=board.get("revision", 0))
        if state != self._shown:
            try:
                self.rows.value = rows_html(board["rows"]) if state is not None else rows_html(ranked([]))
            except (KeyError, TypeError, ValueError):  # a row that is not a board's: keep the last table
                return
            self._shown = state
        if self.status.value != html.escape(status):
            self.status.value = html.escape(status)

    def _loop(self) -> None:
        for _ in range(MAX_POLLS):
            if self._stop.wait(self.every) or self.box.comm is None:  # stopped, or the box was closed
                return
            self.poll()

    def close(self) -> None:
        """Stop polling and close the widgets."""
        self._stop.set()
        self.box.close()


def table(url: Optional[str] = None, every: float = POLL_S) -> widgets.VBox:
    """Return the live table of the board at `url` (else TOYHW_BOARD_URL, else http://127.0.0.1:8765); its poller is
    the box's `board_table` attribute (`.close()` stops it)."""
    poller = BoardTable(url, every)
    poller.box.board_table = poller
    return poller.box


__all__ = ["BoardTable", "fixed_table", "rows_html", "submit", "table"]
