"""What lecture 10's names read as in the reader's language: the feedback modes, the failure causes, and the toy
kernel's failure messages (toyhw.i18n's catalogues; the names themselves stay the machine-readable keys).

`run_kernel` writes its message in English, as a compiler's log would be (RunFeedback.message, shown in notebook 01's
source); `failure_message` says the same in the current language, in the lecture script's own words for Chinese. The
English catalogue holds run_kernel's exact sentences (tests/kernels/test_labels.py keeps them equal).
"""

from __future__ import annotations

from toyhw.i18n import N_, t
from toyhw.kernels.knobs import KernelConfig, RunFeedback

MODE_LABELS = {
    "resample": N_("mode.resample"),
    "scalar": N_("mode.scalar"),
    "explain": N_("mode.explain"),
    "suggest": N_("mode.suggest"),
}
"""Message id of each built-in feedback mode's row label (in Chinese the script's "重复采样（不用反馈）" ...)."""

CAUSE_LABELS = {
    "shared_memory_overflow": N_("cause.shared_memory_overflow"),
    "vector_width_indivisible": N_("cause.vector_width_indivisible"),
    "illegal_fusion": N_("cause.illegal_fusion"),
}
"""Message id of each failure cause's short name in tables (study.CAUSE_LABELS is the English, for the plots)."""

FAILURE_MESSAGES = {
    "shared_memory_overflow": N_("failure.shared_memory_overflow"),
    "vector_width_indivisible": N_("failure.vector_width_indivisible"),
    "illegal_fusion": N_("failure.illegal_fusion"),
}
"""Message id of each failure cause's message; placeholders n (the failing size) and vec (the vector width)."""

STATUS_NAMES = {
    "ok": N_("status.ok"),
    "compile_error": N_("status.compile_error"),
    "wrong": N_("status.wrong"),
}
"""Message id of each run status as a result shows it: the status itself in English, the script's words in Chinese."""

CAUSE_NAMES = {
    "shared_memory_overflow": N_("cause_name.shared_memory_overflow"),
    "vector_width_indivisible": N_("cause_name.vector_width_indivisible"),
    "illegal_fusion": N_("cause_name.illegal_fusion"),
}
"""Message id of each failure cause as a result shows it (the task card, the first tasks' table): the cause itself in
English, a short name in Chinese."""

BOTTLENECK_NAMES = {"memory": N_("bottleneck.memory"), "compute": N_("bottleneck.compute")}
"""Message id of each bottleneck as a result shows it ("memory", "compute"; 访存, 计算 as the script says)."""


def mode_label(mode: str) -> str:
    """Return how feedback mode `mode` reads in the current language; a student's own proposer keeps its name."""
    return t(MODE_LABELS[mode]) if mode in MODE_LABELS else mode


def cause_label(cause: str) -> str:
    """Return the short name of failure `cause` in the current language (the outcome table's "cause" column)."""
    return t(CAUSE_LABELS[cause])


def status_name(status: str) -> str:
    """Return run status `status` ("ok", "compile_error", "wrong") as a result shows it in the current language."""
    return t(STATUS_NAMES[status])


def cause_name(cause: str) -> str:
    """Return failure `cause` as a result shows it in the current language (the outcome table's label is longer)."""
    return t(CAUSE_NAMES[cause])


def bottleneck_name(bottleneck: str) -> str:
    """Return `bottleneck` ("memory" or "compute") as a result shows it in the current language."""
    return t(BOTTLENECK_NAMES[bottleneck])


def failure_message(feedback: RunFeedback, config: KernelConfig) -> str:
    """Return the failure message of `feedback` (a failed run of `config`) in the current language."""
    if feedback.cause is None:
        raise ValueError(f"feedback.status = {feedback.status!r} is not a failure; give the feedback of a failed run")
    return t(FAILURE_MESSAGES[feedback.cause], n=feedback.failing_n, vec=config.vec)
