"""The exercise solutions of notebook 01 run, and what each Solution block says about its result holds."""
import numpy as np
import pytest

from toyhw import metrics
from toyhw.kernels import failures, solutions, study

TASKS = list(study.tasks())


# ----- notebook 01

def test_correct_and_faster_share_ignores_failures_and_so_rewards_handing_in_less():
    s = study.one_shot().speedups()
    assert solutions.correct_and_faster_share(s) == pytest.approx(64 / 84)
    sure = np.zeros(200)
    sure[int(np.argmax(s))] = s.max()  # only the fastest kernel handed in
    assert solutions.correct_and_faster_share(sure) == 1.0 and metrics.fast_p(sure, 1.0) == 0.005
    assert solutions.correct_and_faster_share([0.0, 0.0]) == 0.0


def test_the_calm_writer_changes_only_the_tile_and_wins_everywhere():
    eager, calm = study.one_shot(), solutions.calm_one_shot()
    for a, b in zip(eager.kernels, calm.kernels):
        assert b.config == (a.config.replace(tile=32) if a.config.tile == 64 else a.config)
    assert calm.status_shares() == {"compile_error": 0.0, "wrong": 0.42, "ok": 0.58}
    assert calm.fast() == {0.0: 0.58, 1.0: 0.495, 1.5: 0.135}
    assert sum(k.feedback.status == "wrong" for k in eager.kernels) == 62
    assert sum(k.feedback.status == "wrong" for k in calm.kernels) == 84
    improved = [(a, b) for a, b in zip(eager.kernels, calm.kernels) if a.config.tile == 64 and a.feedback.ok]
    assert len(improved) == 26 and all(b.speedup > a.speedup for a, b in improved)


def test_one_explained_fix_repairs_exactly_the_single_rule_failures():
    report = study.one_shot()
    assert solutions.one_explained_fix(report) == {"failing": 116, "correct after one fix": 86, "still failing": 30}
    assert sum(len(failures.broken_rules(k.task, k.config)) > 1 for k in report.kernels) == 30
    assert solutions.one_explained_fix(report, seed=7) == solutions.one_explained_fix(report)  # the coin never matters
