"""A chart description exported as an SVG document: the static view of a panel (stored outputs, the website).

The elements come from toyhw.charts.scene, the algorithm the page's chart.js follows too, so the picture a notebook
stores and the one the page draws from the same description are the same drawing.
"""

from __future__ import annotations

from typing import Any, Mapping
from xml.sax.saxutils import escape, quoteattr

from toyhw.charts.scene import FONT, elements, num


def to_svg(spec: Mapping[str, Any]) -> str:
    """Return the figure `spec` as a standalone SVG document (one element per line, so diffs read well)."""
    width, height = num(spec["width"]), num(spec["height"])
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family={quoteattr(FONT)}>'
    )
    lines = [head]
    for tag, attrs, text in elements(spec):
        attributes = "".join(f" {name}={quoteattr(value)}" for name, value in attrs.items())
        lines.append(f"<{tag}{attributes}>{escape(text)}</{tag}>" if text else f"<{tag}{attributes}/>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
