"""Lecture 10's names and failure messages in the reader's language (toyhw.kernels.labels): the English catalogue says
exactly what run_kernel's log says, and Chinese uses the lecture script's own sentences."""

import pytest

from toyhw import i18n
from toyhw.kernels import knobs, labels
from toyhw.kernels.knobs import KernelConfig, Task

FAILING = {  # cause -> (task, config) that fails with it
    "shared_memory_overflow": (Task(0.5, 32, 1024, True), KernelConfig(tile=64, fuse=0, vec=1, shared=1, unroll=1)),
    "vector_width_indivisible": (Task(0.5, 32, 1003, True), KernelConfig(tile=32, fuse=0, vec=2, shared=0, unroll=1)),
    "illegal_fusion": (Task(0.5, 32, 1024, False), KernelConfig(tile=32, fuse=1, vec=1, shared=0, unroll=1)),
}
SCRIPT = {  # the lecture script's run_kernel, word for word
    "shared_memory_overflow": "共享内存超出容量（tile 64 时每个 block 需要的共享内存太大）",
    "vector_width_indivisible": "在规模 n = 1003 的输入上结果不对（1003 不能被向量宽度 2 整除）",
    "illegal_fusion": "融合之后结果不对（中间结果需要单独保存）",
}


@pytest.mark.parametrize("cause", sorted(FAILING))
def test_english_message_is_run_kernels_own(cause):
    task, config = FAILING[cause]
    feedback = knobs.run_kernel(task, config)
    assert feedback.cause == cause
    with i18n.using("en"):
        assert labels.failure_message(feedback, config) == feedback.message


@pytest.mark.parametrize("cause", sorted(FAILING))
def test_chinese_message_is_the_scripts(cause):
    task, config = FAILING[cause]
    with i18n.using("zh"):
        assert labels.failure_message(knobs.run_kernel(task, config), config) == SCRIPT[cause]


def test_every_cause_and_mode_has_a_label():
    assert set(labels.FAILURE_MESSAGES) == set(knobs.Cause.__args__)
    from toyhw.kernels.proposers import PROPOSERS

    assert set(labels.MODE_LABELS) == set(PROPOSERS.available())


def test_mode_labels_are_the_scripts_row_labels_and_own_proposers_keep_their_name():
    with i18n.using("zh"):
        assert [labels.mode_label(m) for m in ("resample", "scalar", "explain", "suggest", "mine")] == [
            "重复采样（不用反馈）",
            "只有标量反馈",
            "+ 执行反馈（解释错误）",
            "+ 性能分析建议",
            "mine",
        ]
    with i18n.using("en"):
        assert labels.mode_label("explain") == "explain"


def test_a_successful_run_has_no_failure_message():
    config = KernelConfig(tile=32, fuse=0, vec=1, shared=0, unroll=1)
    with pytest.raises(ValueError, match="feedback.status = 'ok' is not a failure"):
        labels.failure_message(knobs.run_kernel(Task(0.5, 32, 1024, True), config), config)
