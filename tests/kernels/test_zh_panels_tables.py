"""Lecture 10's widgets, tables and printed observations in Chinese (toyhw.i18n): the labels come from the catalogue,
the failure messages and row labels are the lecture script's, and the numbers are the English edition's."""

import pytest

from toyhw import i18n
from toyhw.kernels import study
from toyhw.course import kernel_tables as tables
from toyhw.panels import fastp as fastp_panels
from toyhw.panels import progress


@pytest.fixture
def zh():
    with i18n.using("zh"):
        yield


def test_feedback_panel_shows_the_scripts_mode_labels_and_keeps_the_mode_names(zh):
    panel = fastp_panels.feedback_panel(max_rounds=5)
    select = panel.children[0].children[0]
    assert select.description == "反馈模式"
    assert dict(select.options)["重复采样（不用反馈）"] == "resample"
    assert set(select.value) <= {"resample", "scalar", "explain", "suggest"}
    assert panel.children[0].children[1].children[0].description == "最多轮数"


def test_task_card_says_the_scripts_failure_message(zh):
    failed = next(k for k in study.one_shot(230, 200).kernels if k.feedback.cause == "vector_width_indivisible")
    card = fastp_panels.describe_kernel(failed)
    assert f"在规模 n = {failed.task.n} 的输入上结果不对" in card and "隐藏的特性" in card
    assert f"任务 {failed.index}" in card


def test_one_shot_panel_labels(zh):
    panel = fastp_panels.one_shot_panel(n_tasks=20)
    assert [w.description for w in panel.children[0].children] == ["任务种子", "任务数", "p"]


def test_tables_have_chinese_heads_and_the_same_numbers():
    report, table = study.one_shot(230, 200), study.feedback_table(230, 200)
    english = tables.feedback_frame(table)
    with i18n.using("zh"):
        chinese = tables.feedback_frame(table)
        outcome = tables.outcome_frame(report)
    assert list(chinese.columns) == ["5 轮", "10 轮", "20 轮", "50 轮"]
    assert list(chinese.index) == ["重复采样（不用反馈）", "只有标量反馈", "+ 执行反馈（解释错误）", "+ 性能分析建议"]
    assert chinese.to_numpy().tolist() == english.to_numpy().tolist()
    assert list(outcome.columns) == ["结果", "原因", "任务数", "比例"]
    assert outcome["任务数"].tolist() == tables.outcome_frame(report)["tasks"].tolist()


def test_observations_in_chinese_state_the_english_numbers():
    table = study.feedback_table(230, 200)
    with i18n.using("zh"):
        notes = tables.observations(table)
    english = tables.observations(table)
    assert len(notes) == len(english)
    assert "好的反馈是建议，不是命令" in notes[3] and "0.40 对 0.49" in notes[3]
    assert "(at 50 rounds: 0.40 vs 0.49)" in english[3]


def test_progress_summary_in_chinese(zh, monkeypatch):
    shown = []
    monkeypatch.setattr(progress, "display", lambda obj, **kwargs: shown.append(obj))
    show = progress.notebook_progress("evolution runs")
    show(2, 2)  # outside a kernel (display returns None) the summary is displayed after the bar
    assert shown[-1].data == "*2 次进化运行中已完成 2 次。*"
    assert shown[0].children[0].value.startswith("次进化运行:")  # tqdm's label


def test_gemm_and_evolution_panels_label_their_controls_in_chinese(zh):
    from toyhw.panels import evolution as evolution_panels, gemm as gemm_panels

    gemm = gemm_panels.gemm_panel()
    descriptions = [w.description for w in gemm.children[0].children if hasattr(w, "description")]
    assert "层" in descriptions and "M（token 数）" in descriptions
    branches = evolution_panels.branches_panel(budget=100)
    seed, budget = branches.children[0].children
    check = branches.children[1]
    assert [seed.description, budget.description, check.description] == ["种子", "预算", "分支检查"]
    assert check.options == (("不检查", False), ("检查", True))
    assert "分支检查关，种子 0" in branches.children[-1].value
