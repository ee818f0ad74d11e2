"""The lecturer's guide states the leaderboard's fixed rows as the board computes them, in both languages: the
training and held-out scores of the expert, the oracle and the evolved best (tests/prose/guide_board.py), and the
plan's leaderboard slot (tests/prose/guide.py, BOARD_MINUTES) in lecture 14, which keeps its slack."""

from __future__ import annotations

import pathlib

import pytest

from prose import guide, guide_board, timing

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDES = {"en": ROOT / "docs" / "lecturer_guide.md", "zh": ROOT / "docs" / "zh" / "lecturer_guide.md"}


@pytest.mark.parametrize("language", sorted(GUIDES))
def test_both_guides_quote_the_fixed_rows_as_the_board_computes_them(language):
    text = GUIDES[language].read_text(encoding="utf-8")
    phrases = guide_board.phrases() if language == "en" else guide_board.zh_phrases()
    missing = [p for p in phrases.values() if p not in text]
    assert not missing, f"{GUIDES[language].relative_to(ROOT)} lacks: {missing}"


def test_a_changed_score_fails():
    text = GUIDES["en"].read_text(encoding="utf-8")
    row = guide_board.phrases()["evolved"]
    assert row in text and row.replace("| 1.0", "| 2.0") not in text


def test_the_leaderboard_slot_is_in_lecture_14_and_the_lecture_keeps_its_slack():
    slots = [s for s in guide.LECTURE_14 if s.kind == "activity"]
    assert [timing.slot_minutes(s) for s in slots] == [guide.BOARD_MINUTES] == [10]
    assert guide.plan_total(guide.LECTURE_14) <= (1 - timing.SLACK) * guide.LECTURE_14_MINUTES
