"""Notebook 03's panel builds, redraws when a control moves, and shows errors instead of half-drawing.

How fast it redraws is measured by benchmarks/ (bench_panels.py, bench_browser.py), never asserted here.
"""

import ipywidgets as widgets

from toyhw.gemm.config import GemmConfig
from toyhw.panels import gemm as gemm_panels

from panel_widgets import chart, controls, error, redrawn, texts


def test_gemm_panel_redraws_on_every_control():
    panel = gemm_panels.gemm_panel()
    found = {w.description: w for w in controls(panel) if isinstance(w, (widgets.Dropdown, widgets.FloatLogSlider))}
    assert set(found) == {"GPU", "layer", "M (tokens)", "BLOCK_M", "BLOCK_N", "BLOCK_K", "warps", "stages", "split_k"}
    assert found["M (tokens)"].continuous_update is False
    for name, value in [("M (tokens)", 2048), ("BLOCK_N", 128), ("split_k", 2), ("layer", "8B o")]:
        before = chart(panel).spec
        found[name].value = value
        assert redrawn(panel, before), name
    found["GPU"].value = "L40S"  # the expert's 5-stage config cannot launch there: shown, not an error
    assert not error(panel) and any(text.startswith("cannot launch (") for text in texts(chart(panel).spec))


def test_the_red_box_follows_block_m_and_block_n():
    spec = gemm_panels.explorer_figure("H100", "70B/8 qkv", 16, GemmConfig(64, 128, 128, 4, 3, 1)).spec
    boxes = [m for m in spec["plots"][0]["marks"] if m["type"] == "rect" and m.get("stroke")]
    assert [(b["x0"], b["y0"]) for b in boxes] == [(2.5, 1.5)]  # BLOCK_N 128 is column 3, BLOCK_M 64 row 2
