"""The module paths that notebooks, the README and scripts import keep working after the course layer and the
engine's subpackages moved: each old path is the moved module itself (one object, so monkeypatching and private
names behave as before), whichever way it is imported."""

import importlib

import pytest

OLD_TO_NEW = {
    "toyhw.evolve.tables": "toyhw.course.evolve_tables",
    "toyhw.evolve.feedback_tables": "toyhw.course.feedback_tables",
    "toyhw.evolve.loop_tables": "toyhw.course.loop_tables",
    "toyhw.evolve.proposal_trace": "toyhw.course.proposal_trace",
    "toyhw.evolve.prompt_view": "toyhw.course.prompt_view",
    "toyhw.evolve.scaling": "toyhw.course.scaling",
    "toyhw.kernels.tables": "toyhw.course.kernel_tables",
    "toyhw.evolve.prompt": "toyhw.evolve.bridge.prompt",
    "toyhw.evolve.replies": "toyhw.evolve.bridge.replies",
    "toyhw.evolve.endpoint": "toyhw.evolve.bridge.endpoint",
    "toyhw.evolve.chat": "toyhw.evolve.bridge.chat",
    "toyhw.evolve.chatlog": "toyhw.evolve.bridge.chatlog",
    "toyhw.evolve.ablations": "toyhw.evolve.experiments.ablations",
    "toyhw.evolve.targeting": "toyhw.evolve.experiments.targeting",
    "toyhw.evolve.branch_check": "toyhw.evolve.experiments.branch_check",
    "toyhw.evolve.sweep": "toyhw.evolve.experiments.sweep",
}


@pytest.mark.parametrize("old, new", OLD_TO_NEW.items())
def test_an_old_path_is_the_moved_module(old, new):
    moved = importlib.import_module(new)
    assert importlib.import_module(old) is moved
    package, _, name = old.rpartition(".")
    assert getattr(importlib.import_module(package), name) is moved  # `from toyhw.evolve import tables`
    assert moved.__name__ == new


def test_a_private_name_and_a_monkeypatch_reach_through_the_old_path(monkeypatch):
    from toyhw.evolve import ablations as old
    from toyhw.evolve.experiments import ablations as new

    assert old.context is new.context
    monkeypatch.setattr("toyhw.evolve.ablations.BUDGET", 7)
    assert new.BUDGET == 7


def test_the_old_paths_work_in_a_fresh_process():
    import subprocess
    import sys

    code = (
        "; ".join(f"import {old}" for old in OLD_TO_NEW)
        + "; import sys; "
        + "; ".join(f"assert sys.modules[{old!r}] is sys.modules[{new!r}]" for old, new in OLD_TO_NEW.items())
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
