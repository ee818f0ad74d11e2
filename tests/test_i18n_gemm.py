"""Notebook 03's package text in Chinese (toyhw.i18n.using("zh")): the GEMM report's observations and tables, the
validation and vLLM tables, the one-line sentences the notebook prints. Every head and label is the catalogue's
Chinese, no run of six English words is left (identifiers, configs, shape labels and the lecture's loan words are
short), and the fixed-width text tables line up by display width (a CJK character takes two columns). English stays
the text the notebook has always printed."""

from __future__ import annotations

import re
import textwrap

import pandas as pd
import pytest

from toyhw import i18n, textwidth
from toyhw.gemm import config as gemm_config, cost as gemm_cost, gpu, report, shapes, validate, vllm
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.time_table import shared_table
from toyhw.textwidth import display_width

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_RUN = re.compile(r"[A-Za-z][\w'/-]*(?:[ ,.:;()-]+[A-Za-z][\w'/-]*){5,}")
"""Six or more English words in a row: a sentence left untranslated."""
TRITON = "out of resource"
"""Where a launch failure's own message starts: worded like Triton's error on purpose, in every language."""


@pytest.fixture(scope="module")
def table():
    return shared_table("H100")


@pytest.fixture(scope="module")
def found():
    return validate.checks()


def _chinese(text: str) -> None:
    assert CJK.search(text), text
    run = ENGLISH_RUN.search(text.split(TRITON)[0])
    assert run is None, (run.group(0), text)


def _edges(line: str, cells: list[str]) -> list[tuple[int, int]]:
    """Return the display columns where each of `cells` starts and ends in `line` (found left to right)."""
    edges, at = [], 0
    for cell in cells:
        i = line.index(cell, at)
        edges.append((display_width(line[:i]), display_width(line[: i + len(cell)])))
        at = i + len(cell)
    return edges


def _aligned(lines: list[str], cells: list[list[str]], right: set[int]) -> None:
    """Every line's cells start (left-aligned columns) or end (`right`) at the header's display column."""
    head = _edges(lines[0], cells[0])
    for line, row in zip(lines[1:], cells[1:]):
        for k, (edge, want) in enumerate(zip(_edges(line, row), head)):
            side = 1 if k in right else 0
            assert edge[side] == want[side], (k, line, lines[0])


def test_headline_in_chinese_and_english_unchanged(table):
    train, test = shapes.split_shapes(shapes.all_shapes())
    with i18n.using("zh"):
        lines = report.headline(table, shapes.all_shapes(), train, test)
    assert len(lines) == 4
    for line in lines:
        _chinese(line)
        wrapped = textwidth.fill(line, 100, initial_indent="· ", subsequent_indent="  ")
        assert max(display_width(w) for w in wrapped.splitlines()) <= 100
    with i18n.using("en"):
        english = report.headline(table, shapes.all_shapes(), train, test)
    assert english[0].startswith("oracle speedup over the expert: 1.148x on all 88 shapes (train 1.157x")
    assert english[2] == "oracle time as a share of the roofline (geometric mean): decode 64%, mid 59%, prefill 71%"


def test_expert_losses_and_shape_rows_in_chinese(table):
    with i18n.using("zh"):
        losses = pd.DataFrame(report.expert_losses(table, shapes.all_shapes()))
        cells = pd.DataFrame(report.row_cells(report.shape_rows(table, shapes.all_shapes())))
        problem, why, bound = (
            i18n.t("gemmview.head.problem"),
            i18n.t("gemmview.head.why"),
            i18n.t("gemmview.head.bound"),
        )
    for frame in (losses, cells):
        heads = [str(c) for c in frame.columns]
        assert sum(bool(CJK.search(h)) for h in heads) == len(heads), heads
        assert not any(ENGLISH_RUN.search(h) for h in heads)
    for text in losses[problem]:
        _chinese(text)
    for text in cells[why]:
        if text:
            _chinese(text)
    assert set(cells[bound]) <= {"算力", "延迟", "SM 负载", "显存带宽"}
    with i18n.using("en"):
        english = report.expert_losses(table, shapes.all_shapes())
    assert list(english[0]) == ["shape", "expert", "slowdown", "oracle", "expert's problem"]


def test_an_expert_that_cannot_launch_keeps_the_triton_message():
    with i18n.using("zh"):
        rows = report.expert_losses(shared_table("L40S"), shapes.all_shapes())
        problem = i18n.t("gemmview.head.problem")
    failed = [r[problem] for r in rows if TRITON in r[problem]]
    assert failed and all(text.startswith("不能启动：out of resource") for text in failed)


def test_neighbours_and_the_cell_sentences_in_chinese(table, found):
    prefill = shapes.layer_shape("8B gate_up", 2048)
    m = next(m for m in validate.measurements() if m.id == "G021")
    with i18n.using("zh"):
        lines = report.neighbours(table, prefill)
        launches = gemm_config.shared_memory_line(GemmConfig(128, 256, 64, 8, 4), table.gpu)
        too_big = gemm_config.shared_memory_line(GemmConfig(128, 256, 64, 8, 5), table.gpu)
        config = GemmConfig(128, 128, 64, num_warps=8, num_stages=4)
        sentences = [
            gemm_cost.schedules_line(config, shapes.Shape("sweep", 7 * 128, 19 * 128, 8192), table.gpu),
            validate.schedules_line(m),
            *validate.check_lines(validate.worst_checks(found)[0]).splitlines(),
            launches,
        ]
        labels = list(validate.calibration_cells(gpu.get_gpu("H100")))
    for text in lines + sentences + labels:
        _chinese(text)
    assert "不能启动（寄存器）" in "\n".join(lines) and launches.endswith("能启动")
    assert too_big.startswith("stages=5：245,760 B -> out of resource")  # the launch error stays worded like Triton's
    with i18n.using("en"):
        assert validate.schedules_line(m) == (
            "G021 2176^3: measured 44.2 us, model with waves only 52.2 us, with stream-K too 44.2 us (stream_k)"
        )
        assert list(validate.calibration_cells(gpu.get_gpu("H100"))) == list(validate.calibration(gpu.get_gpu("H100")))
        assert report.neighbours(table, prefill)[7] == "   block_n = 256  cannot launch (registers)"


def test_error_table_in_chinese_aligned_by_display_width(found):
    rows = validate.error_table(found)
    with i18n.using("zh"):
        text = validate.format_error_table(rows)
        heads = [i18n.t(f"gemmview.errors.head.{k}") for k in ("by", "group", "n", "error", "worst")]
        bys = [i18n.t(validate.ERROR_GROUPS[r["by"]]) for r in rows]
    lines = text.splitlines()
    for line in lines[:2]:
        _chinese(line)
    with i18n.using("zh"):
        groups = [validate.group_name(r["by"], r["group"]) for r in rows]
    assert {"预填充", "中间区间", "逐次调用", "CUDA 图"} <= set(groups) and not {"prefill", "mid", "per_call"} & set(
        groups
    )
    cells = [heads] + [
        [by, group, str(r["n"]), f"{r['geomean_error']:.1%}", r["worst"]] for r, by, group in zip(rows, bys, groups)
    ]
    _aligned(lines, cells, right={2, 3})
    with i18n.using("en"):
        assert validate.format_error_table(rows).splitlines()[:2] == [
            "by      group            n   error  worst row (model / measured)",
            "all     all             53    8.5%  G022 (0.76x)",
        ]


def test_vllm_table_in_chinese_aligned_by_display_width(table):
    ranks = vllm.vllm_ranks(table)
    with i18n.using("zh"):
        text = vllm.format_vllm(ranks)
        keys = ("key", "config", "model_us", "rank", "top", "vs_best", "bound", "best")
        heads = [i18n.t(f"gemmview.vllm.{k}") for k in keys]
        bounds = [report.bound_name(r.bound) for r in ranks]
    lines = text.splitlines()
    _chinese(lines[0])
    cells = [["M", heads[0], "GEMM", *heads[1:]]] + [
        [
            str(r.M),
            str(r.key),
            r.gemm,
            r.config.short(),
            f"{r.time_us:.1f}",
            f"{r.rank} / {r.n_launchable}",
            f"{r.top_share:.1%}",
            f"{r.slowdown:.2f}x",
            bound,
            r.oracle.short(),
        ]
        for r, bound in zip(ranks, bounds)
    ]
    _aligned(lines, cells, right={0, 1, 4, 5, 6, 7})
    assert {"显存带宽", "延迟", "SM 负载", "算力"} <= set(bounds)
    with i18n.using("en"):
        assert vllm.format_vllm(ranks).splitlines()[0] == (
            "   M  key GEMM    vLLM config         model us        rank top % vs best bound   model's best"
        )


def test_fill_is_textwrap_without_wide_characters_and_counts_columns_with_them():
    english = "oracle speedup over the expert: 1.148x on all 88 shapes, and a few more words " * 3
    assert textwidth.fill(english, 40, "· ", "  ") == textwrap.fill(
        english, 40, initial_indent="· ", subsequent_indent="  "
    )
    chinese = (
        "收益很集中：88 个形状中只有 32 个的收益超过 5%；前 5 个（70B/8 qkv M=256 4.02x，8B o M=256 2.08x）"
        "占了对数收益的 38%"
    )
    for width in (20, 31, 50):
        lines = textwidth.fill(chinese, width, "· ", "  ").splitlines()
        assert all(display_width(line) <= width for line in lines), lines
        assert not any(line.lstrip()[:1] in "，。；：）%" for line in lines[1:]), lines
        assert "".join(line[2:] for line in lines).replace(" ", "") == chinese.replace(" ", "")
