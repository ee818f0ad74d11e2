"""A stored notebook as the website shows it: what a reader without a kernel should see.

The site renders the committed notebooks without executing them. What differs from the notebook itself:

- A widget panel's output is dropped: without a kernel it renders as its text repr (`VBox(children=(IntSlider(...`).
  Every widget panel has a static view (a stored figure or table) in the cell above it, which stays; where the panel
  was, the site says so (the edition's `widget_note`).
- Cells tagged `app-only` (text only for a room watching the classroom app) are dropped. Cells tagged `static-view`
  (a demo's stored figure or table) and `lab-only` (instructions for a student with code, exercises) stay.
- A sentence for a student in Lab that a reader without a kernel cannot follow ("*Run the cell.*") carries the site's
  sentence right after it, in an HTML comment that Lab and every notebook viewer hide:
  `*Run the cell.*<!-- site: *The set-up code.* -->`. The site shows the comment's sentence in place of the
  emphasised one (an empty comment drops it, and a cell left with nothing is dropped), so both come from the same
  cell, translated together in the zh edition.
- The test markers of code cells (`# NBVAL_IGNORE_OUTPUT` and the like: nbval's, for CI) are not shown.
- Every cell keeps its id as an anchor (`#nb02-13`), the ids the guide names cells by: a markdown cell gets a MyST
  target line (or, when it opens with HTML such as `<details>`, which a target cannot attach to, an empty
  `<span id>`), a code cell the id in its metadata (`toyhw_cell_id`, which toyhw_site.py makes the cell's anchor).

Nothing else changes: prose, code and every other stored output are shown as committed.
"""

from __future__ import annotations

import copy
import functools
import json
import re

WIDGET_VIEW_MIME = "application/vnd.jupyter.widget-view+json"
REMOVED_TAG = "app-only"  # `static-view` and `lab-only` cells are shown like untagged ones
_NBVAL_MARKER = re.compile(r"^\s*#\s*NBVAL_\w+\s*$")
_FOR_THE_SITE = re.compile(r"\*[^*]+\*<!--\s*site:(.*?)-->", re.S)  # *Lab's sentence*<!-- site: the site's -->


@functools.cache
def widget_class_names() -> frozenset[str]:
    """Return the names of every ipywidgets widget class (VBox, IntSlider, ...): the words a widget's repr starts
    with."""
    import ipywidgets

    names, todo = set(), [ipywidgets.Widget]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return frozenset(names)


def is_widget_output(output: dict) -> bool:
    """Whether `output` shows a widget: it carries a widget view, or its only content is a widget's text repr."""
    data = output.get("data", {})
    if WIDGET_VIEW_MIME in data:
        return True
    if output.get("output_type") not in ("execute_result", "display_data") or set(data) != {"text/plain"}:
        return False
    head = re.match(r"([A-Za-z_]\w*)\(", _text(data["text/plain"]))
    return bool(head) and head.group(1) in widget_class_names()


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _text(source: str | list[str]) -> str:
    return "".join(source) if isinstance(source, list) else source


def _anchored(cell_id: str, text: str) -> str:
    """Return markdown `text` with an anchor named `cell_id` in front."""
    if text.lstrip().startswith("<"):
        return f'<span id="{cell_id}"></span>\n\n{text}'
    return f"({cell_id})=\n{text}"


def for_the_site(text: str) -> str:
    """Return markdown `text` with each Lab sentence that carries a site sentence (`*...*<!-- site: ... -->`)
    replaced by the site's."""
    return _FOR_THE_SITE.sub(lambda found: found.group(1).strip(), text)


def _source_without_markers(source: str | list[str]) -> str:
    text = _text(source)
    return "".join(line for line in text.splitlines(keepends=True) if not _NBVAL_MARKER.match(line))


def site_view(notebook: dict, widget_note: str) -> dict:
    """Return a copy of `notebook` as the site shows it (see the module's docstring); `notebook` is left as it is."""
    view = copy.deepcopy(notebook)
    cells = []
    for cell in view["cells"]:
        if REMOVED_TAG in _tags(cell):
            continue
        if cell["cell_type"] == "markdown":
            cell["source"] = for_the_site(_text(cell["source"]))
            if not cell["source"].strip():
                continue
        cells.append(cell)
        if cell["cell_type"] == "markdown" and "id" in cell:
            cell["source"] = _anchored(cell["id"], _text(cell["source"]))
        if cell["cell_type"] != "code":
            continue
        if "id" in cell:
            cell["metadata"]["toyhw_cell_id"] = cell["id"]
        cell["source"] = _source_without_markers(cell["source"])
        kept = [output for output in cell.get("outputs", []) if not is_widget_output(output)]
        if len(kept) < len(cell.get("outputs", [])):
            cell["outputs"] = kept
            cells.append(
                {
                    "cell_type": "markdown",
                    "metadata": {"tags": ["toyhw-widget-note"]},
                    "source": f"```{{note}}\n:class: toyhw-widget-note\n{widget_note}\n```\n",
                }
            )
    view["cells"] = cells
    view["metadata"].pop("widgets", None)
    for number, cell in enumerate(view["cells"]):  # the inserted notes need ids; nbformat 4.5 wants them unique
        cell.setdefault("id", f"toyhw-note-{number}")
    return view


def site_view_text(text: str, widget_note: str) -> str:
    """Return the JSON text of the site's view of the notebook whose JSON text is `text`."""
    return json.dumps(site_view(json.loads(text), widget_note), ensure_ascii=False, indent=1)


def glossary_section(notebook: dict, heading: str) -> str | None:
    """Return the markdown under the notebook's `## {heading}` (up to the next heading of that level or the end of
    its cell), or None when the notebook has no such section."""
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = _text(cell["source"])
        found = re.search(rf"^## {re.escape(heading)}\s*$", text, flags=re.MULTILINE)
        if found:
            rest = text[found.end() :]
            following = re.search(r"^#{1,2} ", rest, flags=re.MULTILINE)
            return (rest[: following.start()] if following else rest).strip()
    return None


def title(notebook: dict) -> str:
    """Return the notebook's title: its first level-1 heading."""
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            text = _text(cell["source"])
            found = re.search(r"^# (.+)$", text, flags=re.MULTILINE)
            if found:
                return found.group(1).strip()
    raise ValueError("notebook has no level-1 heading ('# title') to name its page by")
