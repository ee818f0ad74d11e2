"""The zh guide's timing plan (docs/zh/lecturer_guide.md): the English plan's slots, read in the zh notebooks.

The slots and their minutes are the English guide's (tests/prose/guide.py: the zh notebooks have the same cells and
the same timing lines). What differs is the reading load: a Chinese reader reads characters, not words, so a slot's
load is the 汉字 (CJK ideographs) on screen in the zh notebooks — the same cells as the English count (not the lab-only
cells, not collapsed answers, not code listings) — per minute of the slot. READING_LIMIT is the rate a class reads
while the lecturer talks: 200 汉字 a minute, about half of an adult's silent reading of Chinese prose, as the English
limit of 100 words a minute is about half of silent reading in English. (The pack's zh text runs about 1.5 汉字 per
English word, so the same slot weighs about the same in both editions.)
"""

from __future__ import annotations

import functools
import re

import nbformat

from prose import timing
from prose.timing import Slot
import notebook_text as nt

READING_LIMIT = 200
"""汉字 a minute a class reads while the lecturer talks (see the module's docstring)."""

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
HEADING = re.compile(r"^## (第 \d+ 节 · .*|交互演示.*|小结|练习|参考文献|术语表)$", re.M)
TIMING = re.compile(r"\*预计到这里用时：(\d+) 分钟")
TOTAL = re.compile(r"预计用时：(?:课上 )?(\d+) 分钟")
HEADINGS = {"小结": "Summary", "练习": "Exercises", "参考文献": "References", "术语表": "Glossary"}
"""The zh headings a slot names by their English label (timing.AFTER_CLASS and "Summary")."""

WHAT = {
    "Setup and Section 1: the toy kernel, its knobs and hidden traits": "准备和第 1 节：玩具 kernel、它的旋钮和隐藏的特性",
    "Section 2: fast_p": "第 2 节：fast_p",
    "Think! 2, a show of hands: should a tie count?": "想一想 2，举手表决：打平算不算？",
    "Section 3: 200 one-shot kernels and why they fail": "第 3 节：200 个一次写出来的 kernel，以及它们为什么失败",
    "Think! 3, a vote among the three bars": "想一想 3，在三根条形之间投票",
    "Setup and Section 1: the loop": "准备和第 1 节：循环",
    "Section 2: lecture 10's table": "第 2 节：第 10 讲的表格",
    "Think! 2: guess the chance that one random knob change repairs a kernel": (
        "想一想 2：猜一猜随机改一个旋钮能修好 kernel 的机会有多大"
    ),
    "Section 3: fast_p against rounds and the ceiling": "第 3 节：fast_p 随轮数的变化和可达上限",
    "Think! 3: which mode plateaus below the ceiling, and why": "想一想 3：哪种模式停在可达上限之下，为什么",
    "Section 5: your own proposer, the race demo, the summary": "第 5 节：你自己的提议者、比赛演示、小结",
    "the race demo's question 2: at p = 1.5, where does `suggest` fall behind `explain`?": (
        "比赛演示的问题 2：p = 1.5 时，`suggest` 从哪里开始落后于 `explain`？"
    ),
    "Section 2: the roofline chart (recap of the pre-reading)": "第 2 节：roofline 图（回顾课前阅读）",
    "Section 6: the best config per regime and the expert's headroom": "第 6 节：每个区间的最优配置和专家留下的余量",
    "Setup and Sections 1-4: the program, the loop, the table, the curves": (
        "准备和第 1-4 节：被进化的程序、循环、讲义的表、曲线"
    ),
    "Think! 2: why can `no_evolution` not collect the best configs into one program?": (
        "想一想 2：`no_evolution` 为什么不能把最好的配置收进一个程序？"
    ),
    "Think! 4: at which budget would you conclude that feedback does not matter?": (
        "想一想 4：预算到多少时，你会得出“反馈无所谓”的结论？"
    ),
    "Setup and Section 1: picking a target shape": "准备和第 1 节：挑一个目标形状",
    "Think! 1: why add 0.05 to every weight?": "想一想 1：为什么每个权重都要加 0.05？",
    "Section 4: the cascade": "第 4 节：级联",
    "Setup and Sections 1-4: two ratios, two top fives, where the target draw points, why": (
        "准备和第 1-4 节：两个比值、两份前五名、目标抽样指向哪里、为什么"
    ),
    "Think! 2: the best ten proposals on roofline's first shape can hope for": (
        "想一想 2：在 roofline 排第一的形状上提议十次，最多能指望什么"
    ),
    "Setup and Sections 1-2: a bad branch by hand, the table": "准备和第 1-2 节：手工构造一个不合法分支、讲义的表",
    "Think! 1: which shapes would the evaluator need to catch the bad branch itself?": (
        "想一想 1：评估器需要哪些形状，才能自己抓住这个不合法分支？"
    ),
    "the class leaderboard: students submit heuristics, scored on held-out shapes": (
        "全班排行榜：学生提交启发式，在测试形状上打分"
    ),
}
"""Each slot of the English plan as the zh guide names it, in the zh notebooks' own headings and terms."""


ACTIVITIES = {"The class leaderboard": "全班排行榜"}
"""An activity slot's heading in the zh notebooks."""


def count_han(text: str) -> int:
    """The 汉字 of `text` (numbers, Latin terms and punctuation are not counted)."""
    return len(HAN.findall(text))


def _label(heading: str) -> str:
    """A zh heading as the English plan names it: "第 3 节 · ..." is "Section 3", "交互演示..." "Interactive demo"."""
    section = re.match(r"第 (\d+) 节", heading)
    if section:
        return f"Section {section.group(1)}"
    if heading.startswith("交互演示"):
        return "Interactive demo"
    return HEADINGS[heading]


@functools.lru_cache(maxsize=None)
def _parts(number: str) -> tuple[tuple[str, str, bool], ...]:
    """The zh notebook's markdown as (the English label of the heading it falls under, text, lab-only) pieces."""
    path = next(p for p in nt.notebook_paths() if p.name.startswith(number))
    pieces, heading = [], "start"
    for cell in nbformat.read(path.parent / "zh" / path.name, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        lab_only = "lab-only" in cell.metadata.get("tags", [])
        text, at = cell.source, 0
        for m in HEADING.finditer(text):
            pieces.append((heading, text[at : m.start()], lab_only))
            heading, at = _label(m.group(1)), m.start()
        pieces.append((heading, text[at:], lab_only))
    return tuple(pieces)


def _headings(number: str) -> list[str]:
    seen: list[str] = []
    for heading, _, _ in _parts(number):
        if heading not in seen:
            seen.append(heading)
    return seen


def minute(number: str, heading: str) -> int:
    """The minute the zh notebook reaches `heading` (its "*预计到这里用时*" line), as timing.minute does."""
    text = "".join(t for _, t, _ in _parts(number))
    if heading == "start":
        return 0
    if heading == "end":
        return int(TOTAL.search(text).group(1))
    for h, t, _ in _parts(number):
        if h == heading and TIMING.search(t):
            return int(TIMING.search(t).group(1))
    raise KeyError(f"zh notebook {number} has no heading {heading!r} with a timing line")


def _between(number: str, start: str, stop: str) -> list[tuple[str, bool]]:
    order = _headings(number)
    first = order.index(start)
    last = len(order) if stop == "end" else order.index(stop)
    inside = set(order[first:last]) - set(timing.AFTER_CLASS)
    return [(text, lab) for h, text, lab in _parts(number) if h in inside]


def question_text(slot: Slot) -> str:
    """A live question's zh text and its answer: a 想一想 and its 答案, or a demo's question and its 看点 item."""
    text = "".join(t for _, t, _ in _parts(slot.notebook))
    think = re.match(r"Think! (\d+)$", slot.question)
    if think:
        found = re.search(
            rf"\*\*想一想 {think.group(1)}\.\*\*(.*?)<details>\s*<summary>答案</summary>(.*?)</details>", text, re.S
        )
        if not found:
            raise KeyError(f"zh notebook {slot.notebook} has no 想一想 {think.group(1)} with an answer")
        return found.group(1) + found.group(2)
    k = int(re.match(r"demo question (\d+)$", slot.question).group(1))
    order = _headings(slot.notebook)
    following = order[order.index(slot.start) + 1] if order.index(slot.start) + 1 < len(order) else "end"
    section = "".join(t for t, _ in _between(slot.notebook, slot.start, following))
    look = next((body for summary, body in timing.DETAILS.findall(section) if summary.strip() == "看点"), "")
    items = re.split(r"^\d+\. ", look, flags=re.M)[1:]
    if len(items) < k:
        raise KeyError(f"zh notebook {slot.notebook}, {slot.start}: no 看点 item {k}")
    return items[k - 1]


def slot_minutes(slot: Slot) -> int:
    """The slot's minutes, read from the zh notebook (the same as the English: tests/test_guide.py holds it)."""
    if slot.kind == "section":
        return minute(slot.notebook, slot.stop) - minute(slot.notebook, slot.start)
    return slot.minutes


def slot_han(slot: Slot) -> int:
    """The 汉字 the room reads during the slot in the zh app."""
    if slot.kind == "section":
        return sum(
            count_han(timing.on_screen(text)) for text, lab in _between(slot.notebook, slot.start, slot.stop) if not lab
        )
    if slot.kind == "activity":
        return count_han(timing.on_screen(timing.activity_text(_parts(slot.notebook), ACTIVITIES[slot.activity])))
    if slot.kind == "exercise":
        texts = "".join(t for h, t, _ in _parts(slot.notebook) if h == "Exercises")
        found = re.search(rf"^### 练习 {slot.exercise} · .*?(?=^### |\Z)", texts, re.S | re.M)
        return count_han(timing.on_screen(found.group(0)))
    return count_han(question_text(slot))


def rows(plan: tuple[Slot, ...]) -> list[str]:
    """The plan's table rows as the zh guide prints them: clock, notebook, part, minutes, 汉字, 汉字 a minute."""
    out, clock = [], 0
    for slot in plan:
        m, n = slot_minutes(slot), slot_han(slot)
        out.append(f"| {clock}-{clock + m} | {slot.notebook} | {WHAT[slot.what]} | {m} | {n} | {round(n / m)} |")
        clock += m
    return out


def heaviest(plan: tuple[Slot, ...]) -> tuple[Slot, float]:
    """The slot with the most 汉字 a minute, and that rate."""
    return max(((slot, slot_han(slot) / slot_minutes(slot)) for slot in plan), key=lambda pair: pair[1])


def phrases(plans: tuple[tuple[Slot, ...], ...]) -> dict[str, str]:
    """The zh guide's sentences on the reading load, built from the computed rates."""
    top = max(heaviest(plan)[1] for plan in plans)
    return {
        "limit": f"每分钟大约读 {READING_LIMIT} 个汉字",
        "heaviest": f"（最重的一段是 {top:.0f}）",
    }
