"""The course layer's tables and observations in Chinese (toyhw.i18n.using("zh")): every header, category value and
sentence is the catalogue's Chinese; English words are left only where they are identifiers (vs_best, the variant
names) or the lecture's own loan words (roofline, split-K, LLM, SM, us)."""

import re

import pandas as pd
import pytest

from toyhw import i18n
from toyhw.course import evolve_tables, feedback_tables, scaling
from toyhw.evolve.experiments import ablations, branch_check, targeting

IDENTIFIERS = {"vs_best", "vs_roofline", "roofline", "split", "K", "LLM", "SM", "us", "x"}
"""Latin words a Chinese reader sees anyway: the feedback keys, the lecture's loan words, units."""
CJK = re.compile(r"[\u4e00-\u9fff]")


def _english_words(text: str, allowed: set[str]) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z_]+", text) if w not in IDENTIFIERS | allowed}


def _headers(frame: pd.DataFrame) -> list[str]:
    return [str(c) for c in frame.columns] + [str(n) for n in frame.index.names if n is not None]


def _check_frame(frame: pd.DataFrame, allowed: set[str] = frozenset()) -> None:
    for header in _headers(frame):
        assert not _english_words(header, set(allowed)), header
    assert sum(bool(CJK.search(h)) for h in _headers(frame)) >= len(_headers(frame)) // 2, _headers(frame)


def _check_text(text: str, allowed: set[str] = frozenset()) -> None:
    assert CJK.search(text), text
    assert not _english_words(text, set(allowed)), (sorted(_english_words(text, set(allowed))), text)


@pytest.fixture(scope="module")
def small_study():
    return ablations.ablation_study(["full", "no_feedback"], seeds=(0, 1), budget=100)


def test_seed_and_rank_tables_in_chinese(small_study):
    with i18n.using("zh"):
        _check_frame(evolve_tables.lecture_frame(small_study))
        _check_frame(evolve_tables.rank_frame(small_study))
        _check_text(evolve_tables.oracle_lines(small_study))
        best = ablations.run_one("full", 0, 100)
        _check_frame(evolve_tables.lineage_frame(best.lineage, small_study.oracle_train))


def test_branch_check_table_and_observations_in_chinese():
    demo = branch_check.branches(seeds=(0, 1), budget=100)
    with i18n.using("zh"):
        frame = evolve_tables.branches_frame(demo)
        _check_frame(frame)
        for column in (i18n.t("tables.branches.check"), i18n.t("tables.branches.best_bad")):
            for value in set(frame[column]):
                _check_text(value)
        for note in evolve_tables.branches_observations(demo):
            _check_text(note)


def test_targeting_tables_in_chinese():
    ctx = ablations.context()
    demo = targeting.targeting(seed=0, budget=100)
    with i18n.using("zh"):
        frame = feedback_tables.targeting_frame(demo)
        _check_frame(frame)
        assert set(frame[i18n.t("tables.targeting.stuck")]) <= {"是", "否"}
        stuck = feedback_tables.stuck_frame(demo, ctx.table)
        _check_frame(stuck)
        for value in set(stuck[i18n.t("tables.stuck.bound")]):
            _check_text(value)
        shares = feedback_tables.stuck_share_frame(seeds=(0,), budgets=(100,))
        _check_frame(shares)
        for value in set(shares[i18n.t("tables.share.larger")]):
            _check_text(value)
        for note in feedback_tables.targeting_observations(demo, ctx.table):
            # shape labels are names, and "decode" is the glossary's own "decode 形状"
            for label in sorted((r.shape.label() for r in demo.rows), key=len, reverse=True):
                note = note.replace(label, "")
            _check_text(note, {"decode", "M", "ratio"})


def test_parallel_note_in_chinese():
    points = [scaling.CostPoint(1, 2.0, 10, 2), scaling.CostPoint(2, 1.0, 10, 2)]
    with i18n.using("zh"):
        _check_text(scaling.parallel_note(points))
        _check_text(scaling.parallel_note(points[:1] + [scaling.CostPoint(2, 1.9, 10, 2)]))
    assert scaling.parallel_note(points) == "2 processes: 2.00x the speed of 1 — 2 processes paid off."
