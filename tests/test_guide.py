"""The lecturer's guide (docs/lecturer_guide.md) and the references (docs/references.md) stay true to the pack.

- Every number of the guide is recomputed: `tests/prose/guide.py` builds its phrases from toyhw's values, and every
  other number of the guide must lie inside one (the notebooks' numbers are claims: tests/test_claims.py).
- The guide's map has one row per observation of the two lecture scripts, each naming a notebook and a cell id that
  exist, a status that is one of three words, and, for a difference, a reason.
- The references collect every primary source the pack cites: each arXiv id and repository commit the notebooks, data
  files and code name, and each source of the published GEMM timings.

The checks are functions of the text, so the last tests can show them failing on a changed number and a removed row.
"""

from __future__ import annotations

import csv
import json
import pathlib
import re

import pytest

import notebook_text as nt
from prose import guide, timing, timing_zh

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "lecturer_guide.md"
ZH_GUIDE = ROOT / "docs" / "zh" / "lecturer_guide.md"
REFERENCES = ROOT / "docs" / "references.md"
STATUSES = ("reproduced", "differs", "not shown")
ROW = re.compile(r"^\| (L1[04]-\d+) \|(.*)\|\s*$", re.M)
CELL_ID = re.compile(r"\bnb(\d\d)-(?:\d\d|[a-z][a-z0-9-]*[a-z0-9])\b")  # nb07-10, nb07-summary, nb07-ex2
REASON = re.compile(r"\b(Why|why|because|[Tt]he script)\b")

# The observations of the two lecture scripts, read off the scripts themselves: the lecture-10 script's header
# docstring (the claims a student can test), demo 1's printed lines, demo 2's table and every bullet of main()'s
# observation list; the lecture-14 script's header docstring, each demo's printed table and summary line and every
# item of its three print_observations([...]) lists. A bullet that makes two claims has two ids. The guide's map must
# hold exactly these rows.
OBSERVATIONS = {
    "L10-1": "header: five knobs and their values",
    "L10-2": "header: hidden traits (memory-bound share, best tile, problem size, fusability)",
    "L10-3": "header: the three failure rules",
    "L10-4": "header: the time model",
    "L10-5": "header: PyTorch's baseline = default config x 0.9",
    "L10-6": "header: fast_p's definition",
    "L10-7": "header: scalar feedback (OpenTuner-like)",
    "L10-8": "header: execution feedback repairs the cause",
    "L10-9": "header: profiler suggestions (AutoGuide)",
    "L10-10": "header: repeated sampling as the control",
    "L10-11": "header: how proposers use information is set by hand",
    "L10-12": "header: more informative feedback, cheaper search",
    "L10-13": "header: run time about one second, standard library only",
    "L10-14": "demo 1: compile error / wrong / correct shares",
    "L10-15": "demo 1: fast_0, fast_1, fast_1.5",
    "L10-16": "demo 1: fast_0 = correctness rate, fast_1 = correct and faster",
    "L10-17": "demo 2: the feedback table",
    "L10-18": "observation 1: one-shot kernels mostly wrong, aggressive choices",
    "L10-19": "observation 1: KernelBench, frontier reasoning models under 20%",
    "L10-20": "observation 2: scalar feedback worse than resampling early",
    "L10-21": "observation 3: explained errors, fast_1 above scalar and resampling",
    "L10-22": "observation 3: explained errors, best fast_1.5 from 10 rounds",
    "L10-23": "observation 4: suggestions best early (fast_1 at 10 rounds)",
    "L10-24": "observation 4: suggestions narrow the search, behind at fast_1.5",
    "L10-25": "observation 4: advice, not a command",
    "L10-26": "observation 5: Agent-System Interface, 10 vs 1000 iterations",
    "L10-27": "observation 5: KernelBench, DeepSeek-R1 36% to 72%",
    "L10-28": "observation 6: larger p is harder; the fall shows the depth",
    "L14-1": "header: AlphaEvolve's Figure 8 ablations, done on the mini version",
    "L14-2": "header: demo 1, variants x seeds, score, test score, cost",
    "L14-3": "header: demo 2, which shape and which reference matter",
    "L14-4": "header: demo 3, latent unlaunchable branches in the database",
    "L14-5": "header: the variants (full and one change each)",
    "L14-6": "header: the LLM is a mock",
    "L14-7": "header: lecture 13's analytic model, deterministic results",
    "L14-8": "header: run time about 50 seconds",
    "L14-9": "demo 1: the table",
    "L14-10": "demo 1: the ceiling line",
    "L14-11": "demo 1, item 1: no evolution costs the most",
    "L14-12": "demo 1, item 1: AlphaEvolve's No evolution among the worst",
    "L14-13": "demo 1, item 2: small_llm low, multi-field configs",
    "L14-14": "demo 1, item 2: AlphaEvolve's Small base LLM only worse",
    "L14-15": "demo 1, item 3: best-seen beats roofline and random",
    "L14-16": "demo 1, item 3: fb_worst3 (worse than random?)",
    "L14-17": "demo 1, item 4: borrowing and islands within seed noise",
    "L14-18": "demo 1, item 4: the cascade within seed noise",
    "L14-19": "demo 1, item 4: the cascade saves only a small part",
    "L14-20": "demo 1, item 4: small experiment, 0.02 is not a finding",
    "L14-21": "demo 1, item 5: small differences early, large late; curves",
    "L14-22": "demo 2: the two top-5 table",
    "L14-23": "demo 2: stuck shapes and shares line",
    "L14-24": "demo 2, item 1: the top-5 lists often the same",
    "L14-25": "demo 2, item 1: roofline weighting sends more to stuck shapes",
    "L14-26": "demo 2, item 1: read as where the proposals land",
    "L14-27": "demo 2, item 1: the stuck examples (or decode) and why they stay",
    "L14-28": "demo 2, item 1: proposals on stuck shapes seldom hit",
    "L14-29": "demo 2, item 2: best-seen is actionable and free",
    "L14-30": "demo 2, item 2: KernelBench's profiler feedback more useful",
    "L14-31": "demo 2, item 3: worst-3 loses diversity; weighted draws",
    "L14-32": "demo 2, item 3: a real LLM has no fixed rule",
    "L14-33": "demo 3: the table",
    "L14-34": "demo 3, item 1: bad branches enter, stay, best carries one",
    "L14-35": "demo 3, item 2: crashes on 100 new shapes",
    "L14-36": "demo 3, item 2: how untested branches fail in production",
    "L14-37": "demo 3, item 3: a static check of every branch is cheap",
    "L14-38": "demo 3, item 3: AlphaEvolve's verification; samples vs everything",
}


def _cell_ids() -> dict[str, set[str]]:
    """Return notebook number -> the cell ids of that notebook."""
    return {p.name[:2]: {c.id for c in nt.cells(p)} for p in nt.notebook_paths()}


def map_rows(text: str) -> list[tuple[str, list[str]]]:
    """Return (id, cells after the id) for every row of the guide's map."""
    return [(m.group(1), [c.strip() for c in m.group(2).split("|")]) for m in ROW.finditer(text)]


def map_problems(text: str) -> list[str]:
    """Return what is wrong with the guide's map (empty when nothing is)."""
    problems, ids = [], [i for i, _ in map_rows(text)]
    cells = _cell_ids()
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        problems.append(f"ids used twice: {repeated}")
    if set(ids) != set(OBSERVATIONS):
        problems.append(
            f"rows missing: {sorted(set(OBSERVATIONS) - set(ids))}; rows not in the list of "
            f"observations: {sorted(set(ids) - set(OBSERVATIONS))}"
        )
    for row_id, row in map_rows(text):
        if len(row) != 5:
            problems.append(
                f"{row_id}: {len(row)} columns after the id, expected 5 (observation, notebook, cell, "
                "status, what the pack shows)"
            )
            continue
        observation, notebook, cell, status, shows = row
        number = re.fullmatch(r"notebook (\d\d)", notebook)
        cell_id = re.fullmatch(r"`(nb(\d\d)-(?:\d\d|[a-z][a-z0-9-]*[a-z0-9]))`", cell)
        if not observation:
            problems.append(f"{row_id}: no observation")
        if not number or number.group(1) not in cells:
            problems.append(f"{row_id}: {notebook!r} names no notebook of notebooks/")
        elif not cell_id or cell_id.group(2) != number.group(1) or cell_id.group(1) not in cells[number.group(1)]:
            problems.append(f"{row_id}: {cell!r} is not a cell id of notebook {number.group(1)}")
        if status not in STATUSES:
            problems.append(f"{row_id}: status {status!r} is none of {STATUSES}")
        if len(re.findall(r"\w+", shows)) < 3:
            problems.append(f"{row_id}: says nothing about what the pack shows")
        if status == "differs" and not (re.search(r"\d", shows) and REASON.search(shows)):
            problems.append(
                f"{row_id}: a difference needs the pack's number and a reason ('why', 'because' or "
                f"what the script does), got {shows[:80]!r}"
            )
    return problems


def number_problems(text: str) -> list[str]:
    """Return the guide's quoted phrases that are missing and the numbers no phrase covers."""
    quotes = guide.quotes()
    missing = [f"phrase not in the guide: {q!r}" for q in quotes + guide.PARAMETERS if q not in text]
    loose = [f"number nobody recomputes: {x}" for x in nt.uncovered_numbers(text, quotes + guide.PARAMETERS)]
    return missing + loose


# ----- the guide


def test_every_phrase_of_the_guide_matches_the_computed_values():
    problems = [p for p in number_problems(GUIDE.read_text(encoding="utf-8")) if p.startswith("phrase")]
    assert not problems, (
        "phrases of tests/prose/guide.py missing from docs/lecturer_guide.md (the guide was "
        "edited, or a computed value changed):\n" + "\n".join(f"  {p}" for p in problems)
    )


def test_every_number_in_the_guide_is_recomputed():
    problems = [p for p in number_problems(GUIDE.read_text(encoding="utf-8")) if p.startswith("number")]
    assert not problems, (
        "numbers of docs/lecturer_guide.md that no phrase of tests/prose/guide.py recomputes:\n"
        + "\n".join(f"  {p}" for p in problems)
    )


def test_the_map_has_one_valid_row_per_observation():
    problems = map_problems(GUIDE.read_text(encoding="utf-8"))
    assert not problems, "the guide's map:\n" + "\n".join(f"  {p}" for p in problems)


def test_every_cell_id_the_guide_names_exists():
    cells = _cell_ids()
    text = GUIDE.read_text(encoding="utf-8")
    unknown = sorted({m.group(0) for m in CELL_ID.finditer(text) if m.group(0) not in cells.get(m.group(1), set())})
    assert not unknown, f"cell ids the guide names that no notebook has: {unknown}"


@pytest.mark.parametrize(
    "plan, minutes",
    [(guide.LECTURE_10, guide.LECTURE_10_MINUTES), (guide.LECTURE_14, guide.LECTURE_14_MINUTES)],
    ids=["lecture 10", "lecture 14"],
)
def test_the_timing_plan_keeps_its_slack_and_its_reading_load(plan, minutes):
    """Each lecture plans at most 90% of its minutes, and no slot asks the room to read faster than a class reads
    while the lecturer talks (timing.READING_LIMIT words a minute)."""
    assert all(timing.slot_minutes(slot) > 0 for slot in plan), "a slot of the plan has no minutes"
    assert guide.plan_total(plan) <= (1 - timing.SLACK) * minutes, (
        f"{guide.plan_total(plan)} of {minutes} minutes planned: less than {timing.SLACK:.0%} slack"
    )
    slot, rate = timing.heaviest(plan)
    assert rate <= timing.READING_LIMIT, f"{slot.notebook} {slot.what!r}: {rate:.0f} words a minute"


QUESTION = re.compile(r"^- Notebook (\d\d), (Think! \d+|the [\w\s-]+demo's question \d+)[:.]", re.M)


def test_every_question_for_the_room_is_a_slot_of_the_plan():
    """The guide's "Questions that work in a room" are the plan's question slots, each with its minutes."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("### Questions that work in a room") : text.index("### More questions")]
    listed = {(n, re.sub(r"^the [\w\s-]+demo's question", "demo question", q)) for n, q in QUESTION.findall(section)}
    planned = {(s.notebook, s.question) for plan in (guide.LECTURE_10, guide.LECTURE_14) for s in plan if s.question}
    assert listed == planned, (
        f"listed, not planned: {sorted(listed - planned)}; planned, not listed: {sorted(planned - listed)}"
    )


def test_the_reading_load_counts_what_the_room_reads():
    """A slot's words are its prose on screen: collapsed answers and code listings are not read in the room."""
    assert (
        timing.count_words(
            timing.on_screen("One two.<details><summary>Answer</summary>three four</details>```python\nfive = 6\n```")
        )
        == 2
    )


def test_the_guide_links_the_references_and_the_readme_links_both():
    assert "(references.md)" in GUIDE.read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/lecturer_guide.md" in readme and "docs/references.md" in readme


# ----- the zh guide: the same plan, read in the zh notebooks


def test_the_zh_guides_plan_counts_chinese_characters_in_the_zh_notebooks():
    """The zh guide's plan rows are computed (tests/prose/timing_zh.py): the English slots and minutes, named in the
    zh notebooks' words, with the 汉字 on screen in the zh app and 汉字 a minute; no slot asks for more than the
    stated limit, and the guide states the limit and the heaviest slot as computed."""
    text = ZH_GUIDE.read_text(encoding="utf-8")
    plans = (guide.LECTURE_10, guide.LECTURE_14)
    missing = [row for plan in plans for row in timing_zh.rows(plan) if row not in text]
    assert not missing, "zh guide plan rows that differ from the computed ones:\n" + "\n".join(missing)
    for plan in plans:
        assert [timing_zh.slot_minutes(s) for s in plan] == [timing.slot_minutes(s) for s in plan]
        slot, rate = timing_zh.heaviest(plan)
        assert rate <= timing_zh.READING_LIMIT, f"{slot.notebook} {slot.what!r}: {rate:.0f} 汉字 a minute"
    phrases = timing_zh.phrases(plans)
    assert all(p in text for p in phrases.values()), [p for p in phrases.values() if p not in text]


def test_the_han_count_counts_what_the_room_reads():
    assert timing_zh.count_han(timing.on_screen("一二 fast_p 3。<details><summary>答案</summary>四五</details>")) == 2


ZH_COMMAND = re.compile(r"`(make (?:lab|present)[^`]*)`")
README_SECTION = re.compile(r"README(?:\.zh\.md)?[ 的]*[\"“]([^\"”]+)[\"”]")


def test_the_zh_guide_leads_to_the_zh_edition():
    """Its `make lab` and `make present` open the zh notebooks, its solutions are the zh ones, and every README
    section it sends a reader to is a section of README.zh.md."""
    text = ZH_GUIDE.read_text(encoding="utf-8")
    english = [c for c in ZH_COMMAND.findall(text) if "EDITION=zh" not in c]
    assert ZH_COMMAND.findall(text) and not english, f"zh guide commands that open the English edition: {english}"
    assert "notebooks/solutions/" not in text and "notebooks/zh/solutions/" in text
    headings = set(re.findall(r"^#+ (.+)$", (ROOT / "README.zh.md").read_text(encoding="utf-8"), re.M))
    named = README_SECTION.findall(text)
    assert named and not [n for n in named if n not in headings], f"README sections README.zh.md lacks: {named}"
    assert not re.search(r"README 的(基准测试|\")", text.replace("README.zh.md 的", "")), "a bare README reference"


# ----- the checks catch what they are for


def _row_line(text: str, row_id: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| {row_id} |"))


def test_a_changed_number_fails():
    text = GUIDE.read_text(encoding="utf-8")
    phrase = guide.phrases()["oneshot"]
    changed = text.replace(phrase, phrase.replace(phrase.split("%")[0], "28.0"))
    assert changed != text
    problems = number_problems(changed)
    assert any(p.startswith("phrase") and "do not build" in p for p in problems)
    assert any(p.startswith("number") and "'28.0%'" in p for p in problems)


def test_a_removed_row_fails():
    text = GUIDE.read_text(encoding="utf-8")
    removed = text.replace(_row_line(text, "L14-24") + "\n", "")
    assert any("rows missing: ['L14-24']" in p for p in map_problems(removed))


def test_a_wrong_cell_a_wrong_status_and_a_difference_without_a_reason_fail():
    text = GUIDE.read_text(encoding="utf-8")
    line = _row_line(text, "L14-16")
    id_, observation, notebook, cell, status, shows = [c.strip() for c in line.strip("| ").split(" | ")]
    for broken, expected in (
        (line.replace(cell, "`nb04-99`"), "not a cell id"),
        (line.replace(notebook, "notebook 09"), "names no notebook"),
        (line.replace(" differs ", " partly "), "is none of"),
        (line.replace(shows, "fb_worst3 ends at 1.128."), "needs the pack's number and a reason"),
        (line + "\n" + line, "ids used twice"),
    ):
        assert any(expected in p for p in map_problems(text.replace(line, broken))), expected


# ----- the references


def _pack_texts() -> dict[str, str]:
    """Return the notebooks' markdown, the data files and the package's source, by path."""
    texts = {str(p.relative_to(ROOT)): nt.markdown(p) for p in nt.notebook_paths()}
    for path in sorted((ROOT / "data").glob("*.csv")) + sorted((ROOT / "toyhw").rglob("*.py")):
        texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return texts


def test_the_references_hold_every_arxiv_id_and_commit_the_pack_cites():
    references = REFERENCES.read_text(encoding="utf-8")
    missing = {}
    for name, text in _pack_texts().items():
        ids = set(re.findall(r"\b\d{4}\.\d{4,5}\b", " ".join(re.findall(r"arXiv[: ]*\d{4}\.\d{4,5}", text))))
        commits = set(re.findall(r"\b[0-9a-f]{40}\b", text))
        absent = sorted(x for x in ids | commits if x not in references)
        if absent:
            missing[name] = absent
    assert not missing, "cited in the pack but not in docs/references.md:\n" + "\n".join(
        f"  {name}: {ids}" for name, ids in missing.items()
    )


def test_the_references_hold_every_source_of_the_published_gemm_timings():
    references = REFERENCES.read_text(encoding="utf-8")
    with open(ROOT / "data" / "gemm_measurements.csv", encoding="utf-8") as f:
        sources = {re.match(r"[\w./-]+ (issue|PR) #\d+|[\w./-]+", row["source"]).group(0) for row in csv.DictReader(f)}
    absent = sorted(s for s in sources if s not in references)
    assert not absent, f"sources of data/gemm_measurements.csv missing from docs/references.md: {absent}"


def test_the_references_name_every_gpus_datasheet():
    references = REFERENCES.read_text(encoding="utf-8")
    with open(ROOT / "data" / "gpus.csv", encoding="utf-8") as f:
        keys = [row["key"] for row in csv.DictReader(f)]
    lines = [line for line in references.splitlines() if "datasheet" in line]
    absent = [k for k in keys if not any(k in line for line in lines)]
    assert not absent, f"GPUs of data/gpus.csv whose datasheet docs/references.md does not name: {absent}"


@pytest.mark.parametrize("path", nt.notebook_paths(), ids=[p.stem for p in nt.notebook_paths()])
def test_every_notebook_with_references_is_listed_in_them(path):
    """Every notebook whose References section cites a source appears in docs/references.md's "where" notes."""
    references = REFERENCES.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    if any("## References" in "".join(c["source"]) for c in cells):
        assert f"notebook {path.name[:2]}" in references, f"docs/references.md never names notebook {path.name[:2]}"
