"""The guide's timing plan, computed from the notebooks: each slot's minutes and the words the class reads in it.

A slot is a stretch of a notebook shown live (its minutes are the notebook's own "*Estimated timing to here*" lines,
differenced), a question asked live (a Think! with its answer, or a demo's question with its "What to look for"
item; its minutes are the plan's), or an exercise done live (its minutes are the plan's). The reading load of a slot
is the words on screen in it — the prose the room sees (not the lab-only cells, not collapsed answers, not code
listings) — per minute of the slot. A class reads about 100 words a minute while the lecturer talks (READING_LIMIT);
each lecture keeps at least 10% of its minutes free (SLACK) for questions, moving between notebooks and the
unexpected.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import nbformat

import notebook_text as nt

READING_LIMIT = 100
SLACK = 0.10

HEADING = re.compile(r"^## (Section \d+ · .*|Interactive demo.*|Summary|Exercises|References|Glossary)$", re.M)
TIMING = re.compile(r"\*Estimated timing to here: (\d+) minutes")
TOTAL = re.compile(r"estimated time: (\d+) minutes")
DETAILS = re.compile(r"<details>\s*<summary>(.*?)</summary>(.*?)</details>", re.S)
FENCE = re.compile(r"```.*?```", re.S)
WORD = re.compile(r"[A-Za-z0-9][\w'’.%-]*")
AFTER_CLASS = ("Exercises", "References", "Glossary")


@dataclass(frozen=True)
class Slot:
    """One row of the plan. A section slot runs from heading `start` to heading `stop` ("start" is the notebook's
    beginning, "end" the end of its Summary); a question slot names `question` ("Think! 2", or "demo question 2"
    with `start` the demo's heading); an exercise slot names `exercise`; an activity slot names `activity`, the
    heading (`## <activity>`, not one of HEADING's) of a part of the notebook done live, e.g. the class leaderboard.
    Question, exercise and activity slots carry their `minutes`; a section slot's minutes are the notebook's."""

    notebook: str
    what: str
    start: str = "start"
    stop: str = "end"
    question: str = ""
    exercise: int = 0
    minutes: int = 0
    activity: str = ""

    @property
    def kind(self) -> str:
        if self.activity:
            return "activity"
        return "question" if self.question else "exercise" if self.exercise else "section"


@functools.lru_cache(maxsize=None)
def _parts(number: str) -> tuple[tuple[str, str, bool], ...]:
    """The notebook's markdown as (heading it falls under, text, lab-only) pieces, in order; the opening text falls
    under "start". A cell that holds several headings is cut at each."""
    path = next(p for p in nt.notebook_paths() if p.name.startswith(number))
    pieces, heading = [], "start"
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        lab_only = "lab-only" in cell.metadata.get("tags", [])
        text, at = cell.source, 0
        for m in HEADING.finditer(text):
            pieces.append((heading, text[at : m.start()], lab_only))
            heading, at = _label(m.group(1)), m.start()
        pieces.append((heading, text[at:], lab_only))
    return tuple(pieces)


def _label(heading: str) -> str:
    if heading.startswith("Interactive demo"):
        return "Interactive demo"
    return heading.split(" · ")[0]


def headings(number: str) -> list[str]:
    """The notebook's headings in order, "start" first (each heading once)."""
    seen: list[str] = []
    for heading, _, _ in _parts(number):
        if heading not in seen:
            seen.append(heading)
    return seen


def total(number: str) -> int:
    """The notebook's own estimate of its whole time ("estimated time: N minutes" under its title)."""
    return int(TOTAL.search("".join(text for _, text, _ in _parts(number))).group(1))


def minute(number: str, heading: str) -> int:
    """The minute the notebook reaches `heading`: its "*Estimated timing to here*" line; "start" 0, "end" the total
    (the Summary is the end of the live part: what follows it is for after class)."""
    if heading == "start":
        return 0
    if heading == "end":
        return total(number)
    for h, text, _ in _parts(number):
        if h == heading:
            found = TIMING.search(text)
            if found:
                return int(found.group(1))
    raise KeyError(f"notebook {number} has no heading {heading!r} with a timing line")


def _between(number: str, start: str, stop: str) -> list[tuple[str, bool]]:
    """The (text, lab-only) pieces from heading `start` up to heading `stop` ("end": up to the after-class part)."""
    order = headings(number)
    first = order.index(start)
    last = len(order) if stop == "end" else order.index(stop)
    inside = set(order[first:last]) - set(AFTER_CLASS)
    return [(text, lab) for h, text, lab in _parts(number) if h in inside]


def count_words(text: str) -> int:
    return len(WORD.findall(text))


def on_screen(text: str) -> str:
    """What a room reads of a markdown piece: collapsed answers and code listings left out."""
    return FENCE.sub(" ", DETAILS.sub(" ", text))


def slot_minutes(slot: Slot) -> int:
    if slot.kind == "section":
        return minute(slot.notebook, slot.stop) - minute(slot.notebook, slot.start)
    return slot.minutes


def slot_words(slot: Slot) -> int:
    """The words the room reads during the slot (see the module's docstring)."""
    if slot.kind == "section":
        return sum(
            count_words(on_screen(text)) for text, lab in _between(slot.notebook, slot.start, slot.stop) if not lab
        )
    if slot.kind == "activity":
        return count_words(on_screen(activity_text(_parts(slot.notebook), slot.activity)))
    if slot.kind == "exercise":
        texts = [text for h, text, _ in _parts(slot.notebook) if h == "Exercises"]
        found = re.search(rf"^### Exercise {slot.exercise} · .*?(?=^### |\Z)", "".join(texts), re.S | re.M)
        if not found:
            raise KeyError(f"notebook {slot.notebook} has no Exercise {slot.exercise}")
        return count_words(on_screen(found.group(0)))
    return count_words(question_text(slot))


def activity_text(parts, heading: str) -> str:
    """The room's text of an activity: the shown (not lab-only) markdown from `## <heading>` to the next `## `."""
    out, inside = [], False
    for _, text, lab in parts:
        for line in text.splitlines(keepends=True):
            if line.startswith("## "):
                inside = line.strip() == f"## {heading}"
            if inside and not lab:
                out.append(line)
    if not out:
        raise KeyError(f"no part headed '## {heading}'")
    return "".join(out)


def question_text(slot: Slot) -> str:
    """A live question's text and its answer: a Think! prompt and its collapsed answer, or a demo's question and its
    "What to look for" item."""
    text = "".join(t for h, t, _ in _parts(slot.notebook))
    think = re.match(r"Think! (\d+)$", slot.question)
    if think:
        found = re.search(
            rf"\*\*Think! {think.group(1)}\.\*\*(.*?)<details>\s*<summary>Answer</summary>(.*?)</details>", text, re.S
        )
        if not found:
            raise KeyError(f"notebook {slot.notebook} has no Think! {think.group(1)} with an answer")
        return found.group(1) + found.group(2)
    demo = re.match(r"demo question (\d+)$", slot.question)
    if not demo:
        raise ValueError(f"question = {slot.question!r}: give 'Think! N' or 'demo question N'")
    section = "".join(t for t, _ in _between(slot.notebook, slot.start, _next_heading(slot.notebook, slot.start)))
    look = next((body for summary, body in DETAILS.findall(section) if summary.strip() == "What to look for"), None)
    items = re.split(r"^\d+\. ", look or "", flags=re.M)[1:]
    k = int(demo.group(1))
    if len(items) < k:
        raise KeyError(f"notebook {slot.notebook}, {slot.start}: no 'What to look for' item {k}")
    return items[k - 1]


def _next_heading(number: str, heading: str) -> str:
    order = headings(number)
    i = order.index(heading)
    return order[i + 1] if i + 1 < len(order) else "end"


def rows(plan: tuple[Slot, ...]) -> list[str]:
    """The plan's table rows as the guide prints them: clock, notebook, part, minutes, words, words a minute."""
    out, clock = [], 0
    for slot in plan:
        m, w = slot_minutes(slot), slot_words(slot)
        out.append(f"| {clock}-{clock + m} | {slot.notebook} | {slot.what} | {m} | {w} | {round(w / m)} |")
        clock += m
    return out


def planned(plan: tuple[Slot, ...]) -> int:
    return sum(slot_minutes(slot) for slot in plan)


def heaviest(plan: tuple[Slot, ...]) -> tuple[Slot, float]:
    """The slot with the most words a minute, and that rate."""
    return max(((slot, slot_words(slot) / slot_minutes(slot)) for slot in plan), key=lambda pair: pair[1])
