"""Notebook 03's panel builds, redraws when a control moves, and shows errors instead of half-drawing.

How fast it redraws is measured by benchmarks/ (profile_panels.py, bench_browser.py), never asserted here.
"""

import ipywidgets as widgets

from toyhw.panels import gemm as gemm_panels


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def test_gemm_panel_redraws_on_every_control():
    panel = gemm_panels.gemm_panel()
    controls = {w.description: w for w in _walk(panel) if isinstance(w, (widgets.Dropdown, widgets.FloatLogSlider))}
    assert set(controls) == {
        "GPU",
        "layer",
        "M (tokens)",
        "BLOCK_M",
        "BLOCK_N",
        "BLOCK_K",
        "warps",
        "stages",
        "split_k",
    }
    assert controls["M (tokens)"].continuous_update is False
    (out,) = [w for w in _walk(panel) if isinstance(w, widgets.Output)]
    first = out.outputs
    controls["M (tokens)"].value = 2048
    assert out.outputs and out.outputs != first and "Error" not in str(out.outputs)
    assert "image/png" in out.outputs[0]["data"]
    controls["GPU"].value = "L40S"  # the expert's 5-stage config cannot launch there: shown, not an error
    assert "Error" not in str(out.outputs)
