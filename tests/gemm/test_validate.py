"""The GEMM model against published measurements: the dataset cites every row, the calibration holds, the targets too."""

from __future__ import annotations

import ast
import math
import pathlib
import re

import pytest

from toyhw import data
from toyhw.gemm import validate
from toyhw.gemm.gpu import get_gpu

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_dataset_cites_every_row_and_covers_the_regimes():
    rows = data.measurement_rows()
    assert len(rows) >= 15 and len({r["id"] for r in rows}) == len(rows)
    assert all(r["source"] and r["source_location"] and r["quote"] for r in rows)
    used = validate.measurements()
    assert len(used) >= 15
    assert {m.regime for m in used} == {"decode", "mid", "prefill"}
    assert {"H100", "A100"} <= {m.gpu for m in used}
    # some compute-bound shapes below one full wave of 128x128 tiles
    sub_wave = [
        m
        for m in used
        if math.ceil(m.shape.M / 128) * math.ceil(m.shape.N / 128) < get_gpu(m.gpu).sms and m.shape.M >= 512
    ]
    assert len(sub_wave) >= 3
    unused = [r for r in rows if r["use"] == "no"]
    assert all(r["why_not_used"] for r in unused)


def test_the_model_meets_its_accuracy_targets():
    s = validate.summary(validate.checks())
    assert s["geomean_error"] <= validate.TARGET_GEOMEAN_ERROR
    assert s["worst"]["off_by"] <= validate.TARGET_WORST_RATIO
    assert s["within_targets"] and s["misses"] == []


@pytest.mark.parametrize("gpu, row", [("H100", "G003"), ("A100", "G001"), ("B200", "G005")])
def test_each_gpus_ceiling_is_its_best_published_efficiency(gpu, row):
    published = {r["id"]: r for r in data.measurement_rows()}[row]
    target = published["measured_tflops"] * 1e12 / get_gpu(gpu).bf16_flops
    assert validate.best_efficiency(get_gpu(gpu)) == pytest.approx(target, rel=2e-3)


def test_each_timing_method_adds_what_the_benchmark_adds():
    m = next(m for m in validate.measurements() if m.id == "G043")  # inside a CUDA graph
    graph = validate.predict(m)
    assert graph.model_us == graph.kernel_us
    trace = validate.predict(validate.Measurement(**{**m.__dict__, "timing": "trace"}))
    assert trace.model_us == pytest.approx(graph.kernel_us - get_gpu("H100").launch_s * 1e6)
    per_call = validate.predict(validate.Measurement(**{**m.__dict__, "timing": "per_call"}))
    assert per_call.model_us == pytest.approx(trace.model_us + validate.PER_CALL_OVERHEAD_US)
    tiny = validate.Measurement("x", "H100", validate.Shape("measured", 64, 64, 64), 1.0, "back_to_back", False, "", "")
    assert validate.predict(tiny).model_us == validate.EAGER_FLOOR_US  # the host cannot launch faster
    with pytest.raises(ValueError, match="timing = 'unknown'"):
        validate.predict(validate.Measurement(**{**m.__dict__, "timing": "unknown"}))


def test_regimes_and_empty_summaries():
    assert [validate.regime(m) for m in (1, 16, 17, 512, 513)] == ["decode", "decode", "mid", "mid", "prefill"]
    with pytest.raises(ValueError, match="M = 0"):
        validate.regime(0)
    with pytest.raises(ValueError, match="no measurements"):
        validate.geomean_error([])


def _constants(path: pathlib.Path) -> dict[str, str]:
    """Return NAME -> its trailing comment for every module-level constant assignment of the file."""
    source = path.read_text()
    lines = source.splitlines()
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and not isinstance(node.value, (ast.Dict, ast.Subscript)):
                line = lines[node.lineno - 1]
                found[name] = line.split("#", 1)[1].strip() if "#" in line else ""
    return found


@pytest.mark.parametrize("module", ["toyhw/gemm/cost.py", "toyhw/gemm/validate.py"])
def test_every_model_constant_has_a_source_or_is_named_a_fit(module):
    calibration = (ROOT / "tools" / "calibrate_gemm.py").read_text()
    for name, comment in _constants(ROOT / module).items():
        assert comment, f"{module}: {name} has no comment saying where it comes from"
        if comment.startswith("fit"):
            assert f'"{name}"' in calibration, f"{name} is called a fit but tools/calibrate_gemm.py does not fit it"
        else:
            assert re.search(r"\(.+\)|by definition|one more launch|the pack's target|\.\.\.|looks for", comment), (
                f"{module}: {name}'s comment names no source: {comment!r}"
            )


def test_every_gpu_figure_has_a_source():
    for row in data.gpu_rows():
        assert row["spec_source"] and row["calibration_source"]
        for column in ("tc_sustained_share", "hbm_achievable_share", "load_latency_us", "launch_us"):
            assert (
                column.split("_us")[0].split("_share")[0] in row["calibration_source"]
                or "assumed as" in row["calibration_source"]
            ), f"{row['key']}: {column} has no source"


def test_the_error_table_has_every_group_and_matches_the_summary():
    found = validate.checks()
    rows = validate.error_table(found)
    s = validate.summary(found)
    assert rows[0]["by"] == "all" and rows[0]["n"] == s["n"] and rows[0]["geomean_error"] == s["geomean_error"]
    assert rows[0]["worst"] == s["worst"]["id"]
    for by, key in (("regime", "by_regime"), ("gpu", "by_gpu")):
        mine = {r["group"]: r for r in rows if r["by"] == by}
        assert list(mine) == list(s[key])
        assert all(
            mine[g]["geomean_error"] == s[key][g]["geomean_error"] and mine[g]["n"] == s[key][g]["n"] for g in mine
        )
    timing = {r["group"]: r["n"] for r in rows if r["by"] == "timing"}
    assert set(timing) <= set(validate.TIMINGS) and sum(timing.values()) == s["n"]
    for r in rows:  # the worst row of a group is off by at least the group's mean error
        assert max(r["worst_ratio"], 1 / r["worst_ratio"]) >= 1 + r["geomean_error"]
    with pytest.raises(ValueError, match="no measurements"):
        validate.error_table([])


def test_worst_checks_come_first_and_each_timing_method_adds_its_overhead():
    found = validate.checks()
    worst = validate.worst_checks(found, 4)
    assert [c.off_by for c in worst] == sorted((c.off_by for c in found), reverse=True)[:4]
    assert worst[0].measurement.id == validate.summary(found)["worst"]["id"]
    m = next(m for m in validate.measurements() if m.id == "G017")  # 1024^3 on H100, per-call events
    timed = validate.as_timed(m)
    assert list(timed) == list(validate.TIMINGS)
    assert timed["trace"] < timed["graph"] < timed["back_to_back"] < timed["per_call"]
    assert timed["per_call"] == pytest.approx(validate.predict(m).model_us)
    assert timed["graph"] - timed["trace"] == pytest.approx(get_gpu("H100").launch_s * 1e6)


def test_a_library_without_stream_k_shows_a_deeper_dip_than_the_measurement():
    rows = {m.id: m for m in validate.measurements()}
    small, big = rows["G020"], rows["G021"]  # 2048^3 and 2176^3: 2.19 waves of 128x128 tiles
    measured = big.measured_us / small.measured_us
    waves = (
        validate.predict(big, schedules=("waves",)).model_us / validate.predict(small, schedules=("waves",)).model_us
    )
    both = validate.predict(big).model_us / validate.predict(small).model_us
    assert both < measured < waves
    assert validate.predict(big).schedule == "stream_k"
    assert validate.best_kernel(big.shape, get_gpu("H100"), schedules=("waves",))[2] == "waves"


def test_the_formatted_table_and_the_calibrated_figures():
    rows = validate.error_table(validate.checks())
    text = validate.format_error_table(rows)
    assert len(text.splitlines()) == len(rows) + 1 and f"{rows[0]['geomean_error']:.1%}" in text.splitlines()[1]
    h100 = validate.calibration(get_gpu("H100"))
    assert h100["launch us"] == 1.0 and h100["achievable share"] == 0.92
    assert h100["achievable TB/s"] == pytest.approx(3.35 * 0.92)
    assert h100["best square GEMM"] == pytest.approx(validate.best_efficiency(get_gpu("H100")))
    assert h100["sustained share"] > h100["best square GEMM"]  # the best tile still loses its ramp-up and tail
