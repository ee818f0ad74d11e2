"""A chart description turned into SVG elements: the one drawing algorithm, which chart.js repeats line for line.

Why a scene of plain elements: the static SVG (stored outputs, the website) and the page's drawing must not disagree,
so both follow the same steps over the same description, in the same order, with the same arithmetic; the browser
tests compare the two element by element (tests/browser). Everything that needs judgement (where a plot sits, how wide
a label is, where a legend entry goes) was decided when the description was built (toyhw.charts.figure): what is left
here is mapping data to pixels and writing elements, which is small enough to keep identical in two languages.
"""

from __future__ import annotations

import math
from typing import Any, Iterator, Mapping, Sequence

Element = tuple[str, dict[str, str], str]
"""(tag, attributes, text): one SVG element, in drawing order."""

FONT = "'DejaVu Sans', Helvetica, Arial, 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'PingFang SC', sans-serif"
LINE_HEIGHT = 1.25
"""A line of text is this many times its font size below the one before it."""
FRAME, TICK, TEXT = "#bbbbbb", "#555555", "#222222"


def num(value: float) -> str:
    """Return `value` rounded to 0.1 px, without a trailing ".0" (chart.js's `num` gives the same string)."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def scale(axis: Mapping[str, Any], start: float, stop: float):
    """Return the function from `axis`'s data values to pixels, its domain onto [start, stop] (reversed if asked)."""
    lo, hi = axis["domain"]
    if axis.get("reverse"):
        start, stop = stop, start
    if axis.get("scale") == "log":
        lo, hi = math.log10(lo), math.log10(hi)
        return lambda v: start + (math.log10(v) - lo) / (hi - lo) * (stop - start)
    return lambda v: start + (v - lo) / (hi - lo) * (stop - start)


def text_elements(
    x: float, y: float, text: str, size: float, anchor: str = "start", baseline: str = "alphabetic", **style: str
) -> Iterator[Element]:
    """Yield one <text> per line of `text`, the block placed on (x, y) by `anchor` and `baseline` (middle, top,
    bottom or alphabetic)."""
    lines = str(text).split("\n")
    step = size * LINE_HEIGHT
    if baseline == "middle":
        first = y - (len(lines) - 1) * step / 2 + 0.35 * size
    elif baseline == "top":
        first = y + 0.8 * size
    elif baseline == "bottom":
        first = y - (len(lines) - 1) * step - 0.25 * size
    else:
        first = y
    for k, line in enumerate(lines):
        attrs = {"x": num(x), "y": num(first + k * step), "font-size": num(size), "text-anchor": anchor}
        attrs.update(style)
        yield ("text", attrs, line)


def _stroke(mark: Mapping[str, Any]) -> dict[str, str]:
    attrs = {"stroke": mark["color"], "stroke-width": num(mark.get("width", 1.5)), "fill": "none"}
    if mark.get("dash"):
        attrs["stroke-dasharray"] = mark["dash"]
    return attrs


def mark_elements(mark: Mapping[str, Any], sx, sy, box: Sequence[float]) -> Iterator[Element]:
    """Yield the elements of one mark (line, area, rule, rect, text, dot) in data coordinates."""
    kind = mark["type"]
    if kind == "line":
        points = [f"{num(sx(x))} {num(sy(y))}" for x, y in zip(mark["x"], mark["y"])]
        yield ("path", {"d": "M" + " L".join(points), **_stroke(mark)}, "")
        for x, y in zip(mark["x"], mark["y"]) if mark.get("dots") else ():
            yield ("circle", {"cx": num(sx(x)), "cy": num(sy(y)), "r": num(mark["dots"]), "fill": mark["color"]}, "")
    elif kind == "area":
        upper = [f"{num(sx(x))} {num(sy(y))}" for x, y in zip(mark["x"], mark["hi"])]
        lower = [f"{num(sx(x))} {num(sy(y))}" for x, y in zip(reversed(mark["x"]), reversed(mark["lo"]))]
        attrs = {"d": "M" + " L".join(upper + lower) + " Z", "fill": mark["color"]}
        yield ("path", {**attrs, "fill-opacity": mark.get("opacity", "0.15"), "stroke": "none"}, "")
    elif kind == "rule":
        x0, y0, w, h = box
        if mark["axis"] == "x":
            at = num(sx(mark["at"]))
            yield ("line", {"x1": at, "y1": num(y0), "x2": at, "y2": num(y0 + h), **_stroke(mark)}, "")
        else:
            at = num(sy(mark["at"]))
            yield ("line", {"x1": num(x0), "y1": at, "x2": num(x0 + w), "y2": at, **_stroke(mark)}, "")
    elif kind == "rect":
        xa, xb, ya, yb = sx(mark["x0"]), sx(mark["x1"]), sy(mark["y0"]), sy(mark["y1"])
        attrs = {
            "x": num(min(xa, xb)),
            "y": num(min(ya, yb)),
            "width": num(abs(xb - xa)),
            "height": num(abs(yb - ya)),
            "fill": mark.get("fill", "none"),
        }
        if mark.get("stroke"):
            attrs.update({"stroke": mark["stroke"], "stroke-width": num(mark.get("width", 1))})
        yield ("rect", attrs, "")
    elif kind == "text":
        style = {"fill": mark.get("color", TEXT)}
        if mark.get("bold"):
            style["font-weight"] = "bold"
        yield from text_elements(
            sx(mark["x"]) + mark.get("dx", 0),
            sy(mark["y"]) + mark.get("dy", 0),
            mark["text"],
            mark.get("size", 11),
            mark.get("anchor", "start"),
            mark.get("baseline", "middle"),
            **style,
        )
    elif kind == "dot":
        yield (
            "circle",
            {"cx": num(sx(mark["x"])), "cy": num(sy(mark["y"])), "r": num(mark.get("r", 4)), "fill": mark["color"]},
            "",
        )
    else:
        raise ValueError(f"mark type = {kind!r} is not allowed; marks: line, area, rule, rect, text, dot")


def _swatch(item: Mapping[str, Any], x: float, y: float) -> Element:
    """Return a legend entry's sample: a short line (solid, dashed or dotted) or a filled box."""
    if item.get("kind", "line") == "box":
        return ("rect", {"x": num(x), "y": num(y - 5), "width": "18", "height": "10", "fill": item["color"]}, "")
    attrs = {"x1": num(x), "y1": num(y), "x2": num(x + 18), "y2": num(y), "stroke": item["color"], "stroke-width": "2"}
    if item.get("dash"):
        attrs["stroke-dasharray"] = item["dash"]
    return ("line", attrs, "")


def plot_elements(plot: Mapping[str, Any]) -> Iterator[Element]:
    """Yield one plot's elements: marks, frame, ticks, axis labels, title, legend."""
    x0, y0, w, h = plot["box"]
    sx, sy = scale(plot["x"], x0, x0 + w), scale(plot["y"], y0 + h, y0)
    for mark in plot["marks"]:
        yield from mark_elements(mark, sx, sy, plot["box"])
    yield ("rect", {"x": num(x0), "y": num(y0), "width": num(w), "height": num(h), "fill": "none", "stroke": FRAME}, "")
    for value, label in plot["x"].get("ticks", []):
        at = sx(value)
        yield ("line", {"x1": num(at), "y1": num(y0 + h), "x2": num(at), "y2": num(y0 + h + 4), "stroke": TICK}, "")
        yield from text_elements(at, y0 + h + 6, label, 11, "middle", "top", fill=TEXT)
    for side, axis in (("left", plot["y"]), ("right", plot.get("y2"))):
        for value, label in (axis or {}).get("ticks", []):
            at = sy(value)
            edge, out = (x0, -4) if side == "left" else (x0 + w, 4)
            yield ("line", {"x1": num(edge), "y1": num(at), "x2": num(edge + out), "y2": num(at), "stroke": TICK}, "")
            anchor = "end" if side == "left" else "start"
            yield from text_elements(edge + 1.5 * out, at, label, 11, anchor, "middle", fill=TEXT)
    if plot["x"].get("label"):
        yield from text_elements(x0 + w / 2, plot["x"]["label_at"], plot["x"]["label"], 12, "middle", "top", fill=TEXT)
    for side, axis in (("left", plot["y"]), ("right", plot.get("y2"))):
        if axis and axis.get("label"):
            at, mid = axis["label_at"], y0 + h / 2
            turn = f"rotate({-90 if side == 'left' else 90} {num(at)} {num(mid)})"
            yield from text_elements(at, mid, axis["label"], 12, "middle", "middle", fill=TEXT, transform=turn)
    if plot.get("title"):
        yield from text_elements(
            x0 + w / 2, plot["title_at"], plot["title"], 13, "middle", "top", fill=TEXT, **{"font-weight": "bold"}
        )
    for item in plot.get("legend", []):
        yield _swatch(item, item["x"], item["y"])
        yield from text_elements(item["x"] + 24, item["y"], item["label"], 11, "start", "middle", fill=TEXT)


def elements(spec: Mapping[str, Any]) -> Iterator[Element]:
    """Yield every element of the figure `spec` (toyhw.charts.figure) in drawing order, the background first."""
    width, height = spec["width"], spec["height"]
    yield ("rect", {"x": "0", "y": "0", "width": num(width), "height": num(height), "fill": "#ffffff"}, "")
    if spec.get("title"):
        yield from text_elements(width / 2, 8, spec["title"], 14, "middle", "top", fill=TEXT, **{"font-weight": "bold"})
    for plot in spec["plots"]:
        yield from plot_elements(plot)
