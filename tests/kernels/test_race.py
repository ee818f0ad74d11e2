"""Races keep every competitor: unique visible row names, and a student's proposer is never served from a cache."""

import ipywidgets as widgets
import pytest

from toyhw.kernels import knobs, proposers, race, study
from toyhw.course import kernel_tables as tables
from toyhw.panels import fastp as fastp_panels

MODES = ["resample", "scalar", "explain", "suggest"]
SMALL = dict(task_seed=230, n_tasks=40, rounds=(5, 10))


def scalar(feedback, config, rng):  # a student's proposer that happens to share a built-in's name
    return knobs.KernelConfig() if not feedback.ok else knobs.mutate(config, rng, "vec")


def my_proposer(feedback, config, rng):
    return knobs.KernelConfig() if not feedback.ok else knobs.mutate(config, rng)


def test_a_students_scalar_does_not_replace_the_built_in_row():
    table = study.feedback_table(modes=MODES + [scalar], **SMALL)
    assert list(table) == MODES + ["scalar (yours)"]
    assert table["scalar"] == study.feedback_table(modes=["scalar"], **SMALL)["scalar"]
    assert table["scalar (yours)"] != table["scalar"]


def test_two_lambdas_become_two_numbered_rows():
    first = lambda feedback, config, rng: knobs.random_config(rng)  # noqa: E731
    second = lambda feedback, config, rng: config if feedback.ok else knobs.KernelConfig()  # noqa: E731
    table = study.feedback_table(modes=[first, second], **SMALL)
    assert list(table) == ["<lambda> #1", "<lambda> #2"]
    assert table["<lambda> #1"] != table["<lambda> #2"]
    curves = study.fastp_curves([first, second], max_rounds=5, task_seed=230, n_tasks=40)
    assert list(curves) == ["<lambda> #1", "<lambda> #2"]


def test_a_proposer_named_my_proposer_keeps_its_name_and_races_as_in_notebook_02():
    table = study.feedback_table(modes=MODES + [my_proposer], **SMALL)
    assert list(table) == MODES + ["my_proposer"]
    assert tables.race_verdict(table, "my_proposer", 10, 1.0).startswith("After 10 rounds, my_proposer reaches fast_1")


KNOB = {"value": "tile"}


def reads_a_global(feedback, config, rng):
    return knobs.KernelConfig() if not feedback.ok else knobs.mutate(config, rng, KNOB["value"])


def test_a_proposer_that_reads_a_global_is_never_served_a_stale_result():
    KNOB["value"] = "tile"
    before = study.feedback_table(modes=[reads_a_global], **SMALL)
    KNOB["value"] = "vec"
    after = study.feedback_table(modes=[reads_a_global], **SMALL)
    assert after != before
    assert after == study.feedback_table(modes=[reads_a_global], **SMALL)  # and still deterministic
    KNOB["value"] = "tile"
    assert study.feedback_table(modes=[reads_a_global], **SMALL) == before


def test_the_registered_function_is_the_built_in_and_a_mapping_keeps_its_names():
    assert list(race.competitors([proposers.scalar, "explain"])) == ["scalar", "explain"]
    named = race.competitors({"mine": my_proposer, "scalar": scalar, "explain": "explain"})
    assert list(named) == ["mine", "scalar (yours)", "explain"]


@pytest.mark.parametrize(
    "modes, message",
    [
        (["scalar", "scalar"], "modes lists 'scalar' twice"),
        (["scalar", proposers.scalar], "modes lists 'scalar' twice"),
        ([my_proposer, my_proposer], "modes lists <function my_proposer"),
        ([], "modes is empty; give at least one mode"),
        ("scalar", "modes = 'scalar' is not allowed; give a list of modes"),
        (["magic"], "unknown feedback mode 'magic'; known: resample, scalar, explain, suggest"),
        ([42], r"modes\[0\] = 42 is not allowed; give a mode name"),
    ],
)
def test_a_race_without_distinct_competitors_is_refused(modes, message):
    with pytest.raises(ValueError, match=message):
        study.feedback_table(modes=modes, **SMALL)


def test_the_panel_shows_a_students_scalar_beside_the_built_in():
    panel = fastp_panels.feedback_panel(["explain"], max_rounds=5, extra={"scalar": scalar}, n_tasks=20)
    select = next(c for c in panel.children[0].children if isinstance(c, widgets.SelectMultiple))
    assert [value for _, value in select.options] == MODES + ["scalar (yours)"]
    assert select.value == ("explain", "scalar (yours)")
