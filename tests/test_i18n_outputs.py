"""What notebooks 02-05, 07 and 08 print from the package, in Chinese (toyhw.i18n.using("zh")): every header, row label
and printed line is the catalogue's Chinese, with no run of six English words left; and in English, what the
notebooks printed before (their own f-strings, the paper's labels, the variants' summaries).

Left in English on purpose and not checked here: the mock LLM's descriptions (what a model writes), the prompt's part
names (the keys `Prompt.part` takes), Triton-like launch messages, variant and mode names, shape labels. The edit
kinds, run statuses, causes, bottlenecks, regimes, timing methods and schedules a result shows are labelled: the
names themselves in English, the notebooks' words in Chinese."""

import re
import types

import pandas as pd
import pytest

from toyhw import data, i18n
from toyhw.course import evolve_tables, kernel_tables, loop_tables, prompt_view, proposal_trace, scaling
from toyhw.evolve import variants
from toyhw.evolve.evaluator import Evaluator
from toyhw.evolve.experiments import ablations
from toyhw.evolve.llm import MockLLM
from toyhw.evolve.loop import evolve
from toyhw.gemm import shapes

CJK = re.compile(r"[\u4e00-\u9fff]")
WORD = r"[A-Za-z][A-Za-z'\-]*"
SIX_WORDS = re.compile(rf"{WORD}(?:[ ,;:()]+{WORD}){{5,}}")
"""Six English words in a row (an identifier like no_feedback or vs_best is one word, a number breaks the run)."""


def _english_run(text: str) -> str | None:
    found = SIX_WORDS.search(text.replace("_", ""))
    return found.group(0) if found else None


def _check_text(text: str) -> None:
    assert CJK.search(text), text
    assert _english_run(text) is None, (_english_run(text), text)


NAMES = {
    "vs_best",
    "vs_roofline",
    "full",
    "small_llm",
    "roofline",
    "GEMM",
    "vLLM",
    "LLM",
    "token",
    "M",
    "n",
    "us",
    "TB",
    "s",
}
"""Latin words a Chinese header keeps: feedback keys, variant names, the lecture's loan words, units."""


def _check_labels(labels) -> None:
    """Every label is Chinese or a name, with no other English word; most are Chinese (the rest: vs_best, GEMM, M)."""
    labels = [str(label) for label in labels]
    for label in labels:
        assert not set(re.findall(r"[A-Za-z_]+", label)) - NAMES, label
    assert sum(bool(CJK.search(label)) for label in labels) >= len(labels) // 2, labels


def _headers(frame: pd.DataFrame) -> list[str]:
    return [str(c) for c in frame.columns] + [str(n) for n in [*frame.index.names, frame.columns.name] if n]


@pytest.fixture(scope="module")
def parent_run():
    ctx = ablations.context()
    ev = Evaluator(ctx.train, ctx.table)
    run = evolve(ev, 100, seed=0)
    parent = run.db.best()
    return ev, run, parent, ev.feedback(parent.times)


@pytest.fixture(scope="module")
def trace():
    return proposal_trace.trace("full", 0, 300)


@pytest.fixture(scope="module")
def views():
    return [prompt_view.prompt_at(v, 0, 100) for v in ("full", "small_llm", "no_borrow")]


# notebook 02


def test_kernelbench_row_labels_are_the_papers_in_english_and_chinese_under_zh():
    frame = kernel_tables.kernelbench_frame(rounds=1, n_tasks=20)
    assert list(frame.index) == [r["method"] for r in data.kernelbench_rows()]
    assert set(kernel_tables.KERNELBENCH_METHODS) == {r["toy_mode"] for r in data.kernelbench_rows()}
    with i18n.using("zh"):
        frame = kernel_tables.kernelbench_frame(rounds=1, n_tasks=20)
    for label in frame.index:
        _check_text(label)
        assert "G" not in label or " w G" in label  # the paper's G / G+E / G+E+P stay, as the zh notebook quotes them


# notebook 04


def test_variant_summaries_english_is_the_variants_own_and_chinese_under_zh():
    assert set(variants.SUMMARIES) == set(variants.available())
    for name in variants.available():
        assert variants.summary(name) == variants.get(name).summary
    frame = evolve_tables.variants_frame()
    assert list(frame.columns) == ["what changes", "from"] and frame.index.name == "variant"
    assert set(frame["from"]) == {"lecture", "AlphaEvolve analogue"}
    with i18n.using("zh"):
        frame = evolve_tables.variants_frame()
        _check_labels(_headers(frame))
        for text in [*frame.iloc[:, 0], *frame.iloc[:, 1]]:
            _check_text(text)


def test_static_check_and_best_program_lines():
    best = types.SimpleNamespace(final=1.1234, test=1.0471, rules=14)
    assert evolve_tables.static_check_line((True, ())) == "static check of every branch: every branch can launch"
    assert evolve_tables.static_check_line((False, ("a", "b"))) == "static check of every branch: 2 cannot launch"
    assert evolve_tables.best_program_line(best) == "training score 1.123, held-out score 1.047, 14 rules"
    with i18n.using("zh"):
        _check_text(evolve_tables.static_check_line((True, ())))
        _check_text(evolve_tables.static_check_line((False, ("a",))))
        _check_text(evolve_tables.best_program_line(best))


def test_ablation_observations_in_chinese():
    study = ablations.ablation_study(["full", "no_feedback", "small_llm", "no_evolution", "no_cascade"], (0, 1), 150)
    with i18n.using("zh"):
        notes = evolve_tables.ablation_observations(study)
    assert len(notes) == len(evolve_tables.ablation_observations(study))
    for note in notes:
        _check_text(note)


# notebook 05


def test_notebook_05_tables_in_chinese(parent_run, trace, views):
    ev, run, parent, feedback = parent_run
    inspirations = [max(pop, key=lambda e: e.score) for pop in run.db.islands]
    inspirations = [e for e in inspirations if e.program != parent.program]
    with i18n.using("zh"):
        target = loop_tables.target_frame(feedback)
        full = loop_tables.proposal_frame(MockLLM(), parent, inspirations, feedback, ev, n=100)
        small = loop_tables.proposal_frame(MockLLM(knowledge=False), parent, inspirations, feedback, ev, n=100)
        knowledge = loop_tables.knowledge_frame(full, small)
        kinds = loop_tables.operator_frame(loop_tables.trace_frame(trace))
        parts = loop_tables.parts_frame(views[0])
        prompts = loop_tables.prompt_frame(views)
    _check_labels(_headers(target))
    _check_labels(_headers(knowledge) + list(knowledge.index))
    _check_labels(_headers(kinds))
    assert kinds.columns.name == "结果" and set(kinds.index) <= {"重调", "特化", "泛化", "借规则"}
    _check_labels(_headers(parts))
    from toyhw.evolve.bridge.prompt import PART_NAMES

    assert list(parts.index) == [name for name, _ in views[0].prompt.parts]  # the part names stay: they are keys
    others = [h for h in _headers(prompts) if h not in PART_NAMES]
    _check_labels(others)
    assert all(CJK.search(h) for h in others)


def test_operator_frame_is_the_notebooks_crosstab_in_english(trace):
    steps = loop_tables.trace_frame(trace)
    kinds = pd.crosstab(steps["operator"], steps["status"])
    kinds["beat its parent"] = steps.groupby("operator")["beat its parent"].mean().round(3)
    pd.testing.assert_frame_equal(loop_tables.operator_frame(steps), kinds)


def test_every_status_of_the_loop_has_a_label():
    result = evolve(Evaluator(ablations.context().train, ablations.context().table), 5, seed=0)
    assert set(loop_tables.STATUS_LABELS) == set(result.statuses)
    for status in loop_tables.STATUS_LABELS:
        assert loop_tables.status_label(status) == status
        with i18n.using("zh"):
            _check_text(loop_tables.status_label(status))


def test_notebook_05_lines(parent_run, trace, views):
    ev, run, parent, feedback = parent_run
    stuck = feedback.vs_best == 1
    weights = 1 / feedback.vs_best - 1 + 0.05
    frame = loop_tables.proposal_frame(MockLLM(), parent, (), feedback, ev, n=50)
    could = frame[frame["faster config known"]]
    cut = next(s for s in trace.steps if s.status == "cascade")
    view = views[0]
    english = {
        loop_tables.entry_line(parent): f"entry {parent.id}, training score {parent.score:.3f}",
        loop_tables.at_best_line(stuck): f"{stuck.sum()} of {len(stuck)} training shapes have vs_best = 1: the parent "
        "runs the best config seen there",
        loop_tables.at_best_share_line(stuck, weights): f"the {stuck.sum()} shapes at vs_best = 1 get "
        f"{weights[stuck].sum() / weights.sum():.1%} of the draws",
        loop_tables.adopted_line(frame, could): f"adopted: {frame['adopted'].mean():.1%} of all proposals, "
        f"{could['adopted'].mean():.1%} of the {len(could)} that could adopt",
        loop_tables.cascade_line(cut): f"#{cut.step}: stage 1 {cut.stage1:.3f} against the bar {cut.bar:.3f} -> "
        f"{cut.status}, {cut.runs} kernel runs",
        loop_tables.kernel_runs_line(29711, 8217): "kernel runs spent 29,711; saved by the cascade 8,217",
        loop_tables.prompt_size_line(view): f"{view.chars:,} characters, about {view.tokens:,} tokens",
        loop_tables.child_line(view): f"parent {view.parent_score:.3f} -> child {view.child_score:.3f} "
        f"({view.operator})",
    }
    for line, expected in english.items():
        assert line == expected
    with i18n.using("zh"):
        for line in (
            loop_tables.entry_line(parent),
            loop_tables.at_best_line(stuck),
            loop_tables.at_best_share_line(stuck, weights),
            loop_tables.adopted_line(frame, could),
            loop_tables.cascade_line(cut),
            loop_tables.kernel_runs_line(29711, 8217),
            loop_tables.prompt_size_line(view),
            loop_tables.child_line(view),
        ):
            _check_text(line)


# notebook 07


def test_notebook_07_lines():
    unchecked = types.SimpleNamespace(status="ok", score=1.0, runs=44)
    checked = types.SimpleNamespace(status="bad branch", score=None, runs=0)
    shape = shapes.layer_shape("70B/8 o", 32)
    crash = [types.SimpleNamespace(shape=shape, line=17)] * 3
    assert evolve_tables.check_lines(unchecked, checked) == (
        "without the check: ok, score 1.000, 44 kernel runs\nwith the check:    bad branch, 0 kernel runs"
    )
    assert evolve_tables.crash_line(crash, 100) == (
        "It fails on 3 of the 100 new shapes, e.g. 70B/8 o M=32 (N=8192, K=1024), decided by line 17."
    )
    assert evolve_tables.unseen_line(1.1284) == "Training score 1.128: the evaluator never saw the problem."
    assert [evolve_tables.launch_score_line(n, s) for n, s in (("train", 1.01), ("new", 0.0))] == [
        "train: 1.010 (0.000 = fails to launch on some shape)",
        "  new: 0.000 (0.000 = fails to launch on some shape)",
    ]
    with i18n.using("zh"):
        for line in evolve_tables.check_lines(unchecked, checked).splitlines():
            _check_text(line)
        _check_text(evolve_tables.crash_line(crash, 100))
        _check_text(evolve_tables.unseen_line(1.1284))
        for name in evolve_tables.SHAPE_SETS:
            _check_text(evolve_tables.launch_score_line(name, 1.0))


# notebook 08


def test_notebook_08_lines():
    point = scaling.CostPoint(100, 3.6543, 2288, 18)
    assert scaling.budget_line(point) == "budget   100:   2,288 kernel runs, 22.9 per program"
    assert scaling.worker_line(point) == "100 worker process(es): 3.65 s for 18 runs (2,288 kernel runs)"
    with i18n.using("zh"):
        _check_text(scaling.budget_line(point))
        _check_text(scaling.worker_line(point))


# results that were raw names: the task card, the first tasks, statuses, the database, a branch's problem


def test_the_task_card_and_the_first_tasks_name_statuses_causes_and_bottlenecks():
    from toyhw.kernels import study
    from toyhw.panels import fastp as fastp_panels

    report = study.one_shot(230, 200)
    ok = report.kernels[0]
    failed = next(k for k in report.kernels if k.feedback.status == "compile_error")
    english = kernel_tables.first_tasks_frame(report)
    assert list(english.columns[-3:]) == ["status", "cause", "speedup"] and english.index.name == "task"
    assert "compile_error" in set(english["status"]) and "shared_memory_overflow" in set(english["cause"])
    assert "[cause: shared_memory_overflow]" in fastp_panels.describe_kernel(failed)
    with i18n.using("zh"):
        frame = kernel_tables.first_tasks_frame(report)
        card, ok_card = fastp_panels.describe_kernel(failed), fastp_panels.describe_kernel(ok)
    assert set(frame["结果"]) <= {"正确", "编译 / 启动失败", "结果不对"} and "共享内存超出容量" in set(frame["原因"])
    assert "[cause:" not in card and "原因：共享内存超出容量" in card and "编译 / 启动失败：" in card
    assert "瓶颈：访存" in ok_card or "瓶颈：计算" in ok_card
    assert frame.to_numpy()[:, :9].tolist() == english.to_numpy()[:, :9].tolist()


def test_statuses_database_and_branch_problems_in_chinese(trace):
    from toyhw.evolve.source import static_check

    statuses = trace.result.statuses
    assert loop_tables.statuses_line(statuses) == ", ".join(
        f"{s} {statuses.get(s, 0)}" for s in loop_tables.STATUS_LABELS
    )
    counts = evolve_tables.database_counts(trace.result)
    assert list(counts.index)[:2] == ["islands", "capacity per island"]
    source = (
        "def choose(M, N, K):\n    return Config(block_m=256, block_n=256, block_k=128, num_warps=8, num_stages=5)\n"
    )
    problem = static_check(source)[1][0]
    assert (
        problem.message().startswith("line 2 (default): Config(")
        and " cannot launch: out of resource" in problem.message()
    )
    with i18n.using("zh"):
        _check_text(loop_tables.statuses_line(statuses))
        zh_counts = evolve_tables.database_counts(trace.result)
        message = problem.message()
    _check_labels(list(zh_counts.index) + _headers(zh_counts))
    assert zh_counts.to_numpy().tolist() == counts.to_numpy().tolist()
    assert message.startswith("第 2 行（默认）：Config(") and "不能启动：out of resource" in message
