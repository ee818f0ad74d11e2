"""Compare a chart as the page drew it (chart.js) with its static SVG (toyhw.charts.svg, from toyhw.charts.scene).

Both are read as a sequence of elements, (tag, {attribute: value}, text), the `<svg>` first, in document order; they
agree when they have the same tags in the same order, each element the same attributes with the same values (numbers
within TOLERANCE: both sides round to 0.1 px, and JavaScript's toFixed rounds a tie up where Python's format rounds it
to even) and the same text. Namespace declarations (xmlns) are not attributes here: the DOM holds none, the file one.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Sequence

Element = tuple[str, dict[str, str], str]

TOLERANCE = 0.11
# A number in an attribute value: a coordinate, also in `d` ("M10.2 5 L3 4") and `transform`, a size, a dash array.
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_svg(text: str) -> list[Element]:
    """Return the elements of an SVG document as (tag, attributes, text), the root first, in document order."""
    root = ET.fromstring(text)
    found = []
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        attrs = {name.rsplit("}", 1)[-1]: value for name, value in el.attrib.items()}
        found.append((tag, attrs, "" if el is root or len(el) else (el.text or "")))
    return found


def from_page(drawn: Sequence) -> list[Element]:
    """Return the elements a page reported (widget_driver.drawn_charts: [tag, {attribute: value}, text] lists)."""
    return [(tag, dict(attrs), text) for tag, attrs, text in drawn]


def _without_namespaces(attrs: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in attrs.items() if k != "xmlns" and not k.startswith("xmlns:")}


def values_agree(a: str, b: str, tolerance: float = TOLERANCE) -> bool:
    """Whether two attribute values are the same, but for numbers that differ by at most `tolerance`."""
    if a == b:
        return True
    if a.startswith("#") or b.startswith("#"):  # a colour: its digits are no numbers
        return False
    words_a, words_b = _NUMBER.split(a), _NUMBER.split(b)
    numbers_a, numbers_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if words_a != words_b or len(numbers_a) != len(numbers_b):
        return False
    return all(abs(float(x) - float(y)) <= tolerance for x, y in zip(numbers_a, numbers_b))


def _show(element: Element) -> str:
    tag, attrs, text = element
    shown = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    shown = shown if len(shown) <= 300 else shown[:300] + "..."
    return f"<{tag} {shown}>{text}" if text else f"<{tag} {shown}>"


def differences(drawn: Sequence[Element], static: Sequence[Element], limit: int = 10) -> list[str]:
    """Return how `drawn` (the page's) differs from `static` (the static SVG's), at most `limit` findings, each naming
    the element by its index (0 is the <svg>) and showing both sides; [] when they agree."""
    found: list[str] = []
    tags_drawn, tags_static = [e[0] for e in drawn], [e[0] for e in static]
    if tags_drawn != tags_static:
        k = next((i for i, (a, b) in enumerate(zip(tags_drawn, tags_static)) if a != b), min(len(drawn), len(static)))
        found.append(
            f"the tags differ from element {k} on: the page drew {len(drawn)} elements, the static SVG has "
            f"{len(static)}; page: {_show(drawn[k]) if k < len(drawn) else '(none)'}; "
            f"static: {_show(static[k]) if k < len(static) else '(none)'}"
        )
    for k, (a, b) in enumerate(zip(drawn, static)):
        if len(found) >= limit:
            break
        if a[0] != b[0]:
            break  # reported above; what follows is out of step
        attrs_a, attrs_b = _without_namespaces(a[1]), _without_namespaces(b[1])
        problems = []
        if set(attrs_a) != set(attrs_b):
            problems.append(
                f"attributes only on the page {sorted(set(attrs_a) - set(attrs_b))}, "
                f"only in the static SVG {sorted(set(attrs_b) - set(attrs_a))}"
            )
        problems += [
            f"{name}: page {attrs_a[name]!r}, static {attrs_b[name]!r}"
            for name in attrs_a.keys() & attrs_b.keys()
            if not values_agree(attrs_a[name], attrs_b[name])
        ]
        if a[2] != b[2]:
            problems.append(f"text: page {a[2]!r}, static {b[2]!r}")
        if problems:
            found.append(
                f"element {k} <{a[0]}>: " + "; ".join(problems) + f"\n    page:   {_show(a)}\n    static: {_show(b)}"
            )
    return found[:limit]


def same(drawn: Sequence[Element], static: Sequence[Element]) -> bool:
    """Whether the two agree to the last character (namespace declarations aside)."""
    return [(t, _without_namespaces(a), x) for t, a, x in drawn] == [
        (t, _without_namespaces(a), x) for t, a, x in static
    ]


def texts(elements: Sequence[Element]) -> str:
    """Return the text the chart shows (every <text>'s content), a line each."""
    return "\n".join(text for tag, _, text in elements if tag == "text" and text)
