"""Notebook 04's computed helpers: one meaning of "within the seed spread", the two rankings, the database's counts."""

import numpy as np
import pytest

from toyhw.evolve.experiments import ablations
from toyhw.course import proposal_trace, evolve_tables as tables
from toyhw.evolve import variants


@pytest.fixture(scope="module")
def study():
    return ablations.ablation_study(variants.available(), ablations.SEEDS, 1000)


def test_within_the_seed_spread_means_inside_the_references_min_max_at_the_end(study):
    for name in study.runs:
        median = float(np.median([r.final for r in study.runs[name]]))
        finals = [r.final for r in study.runs["full"]]
        expected = "within" if min(finals) <= median <= max(finals) else "above" if median > max(finals) else "below"
        assert tables.spread_position(study, name) == expected
    assert tables.spread_position(study, "full") == "within"  # a median lies inside its own range


def test_the_observations_use_that_one_definition(study):
    notes = " ".join(tables.ablation_observations(study))
    for name in ("fb_roofline", "no_feedback", "fb_worst3"):
        position = tables.spread_position(study, name)
        words = "within full's seed spread" if position == "within" else f"{position} full's seed spread"
        assert f"{name} " in notes and f"({words})" in notes
    lo, hi = (f"{f([r.final for r in study.runs['full']]):.3f}" for f in (min, max))
    assert f"{lo}-{hi}" in notes  # the range the table's "end min-max" column shows


def test_rank_frame_ranks_training_and_test_medians(study):
    frame = tables.rank_frame(study)
    assert list(frame["training rank"]) == sorted(frame["training rank"])
    assert sorted(frame["test rank"]) == list(range(1, len(study.runs) + 1))
    best_test = max(study.runs, key=lambda n: np.median([r.test for r in study.runs[n]]))
    assert frame.loc[best_test, "test rank"] == 1


def test_database_counts_separate_capacity_copies_and_distinct_programs():
    counts = tables.database_counts(proposal_trace.trace("full", 0, 1000).result).iloc[:, 0]
    assert counts["capacity per island"] * counts["islands"] == 100
    assert counts["entries held"] == counts["distinct entries"] + counts["migration copies"]
    assert counts["distinct programs"] <= counts["distinct entries"] <= counts["entries held"] <= 100
    assert counts["added over the run"] > counts["entries held"]
    one = tables.database_counts(proposal_trace.trace("one_island", 0, 300).result).iloc[:, 0]
    assert one["capacity per island"] == 100 and one["migration copies"] == 0
