"""The Chinese edition's notebooks (notebooks/zh/), kept in step with the English ones (notebooks/).

English is the one source of code. A zh notebook has the English notebook's cells in the same order with the same
ids and tags; its code cells are the English ones byte for byte, except one line put first in the Setup code cell
(`%env TOYHW_LANG=zh`, the package's language switch, toyhw/i18n.py); its markdown cells are translations, each
recording in its metadata the English cell it translates and the hash of that cell's source when it was translated:
`"translation": {"of": "nb02-05", "source_sha": "…"}`. When an English cell changes, its hash no longer matches and the
translation is stale; `status` names it, and tests/test_zh_edition.py fails until it is updated.

Usage:
  python tools/zh_edition.py status [NN ...]        stale and missing translations, by notebook and cell (exit 1 if any)
  python tools/zh_edition.py sync [NN ...]          rebuild notebooks/zh/ from the English cells and the translations
                                                    the zh notebooks hold (a new English cell gets its English text,
                                                    marked untranslated); code outputs are kept where the code is
  python tools/zh_edition.py export NN [--all]      print the markdown cells of notebook NN that need a translation
                                                    (with --all: every one) as JSON: id -> {"en": …, "zh": …}
  python tools/zh_edition.py import FILE.json       write translations {id: zh markdown} into their zh notebooks and
                                                    record the English hash each one translates

After `sync` or `import`, `python tools/notebooks.py execute notebooks/zh/*.ipynb` runs them (the outputs in Chinese).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys
from typing import Optional

import nbformat

REPO = pathlib.Path(__file__).resolve().parents[1]
ENGLISH = REPO / "notebooks"
CHINESE = ENGLISH / "zh"
LANGUAGE_LINE = "%env TOYHW_LANG=zh"
"""The one line a zh notebook's code adds: set before toyhw shows anything, so every table and label is Chinese."""


def source_sha(text: str) -> str:
    """The version of an English cell a translation records: the first 16 hex digits of its source's SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def notebook_text(nb: nbformat.NotebookNode) -> str:
    """The file text of `nb` as `nbformat.write` (tools/notebooks.py execute) leaves it, final newline included, so a
    notebook that sync or import did not change compares equal and its file is not rewritten."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def english_notebooks() -> list[pathlib.Path]:
    return sorted(ENGLISH.glob("[0-9][0-9]_*.ipynb"))


def zh_path(english: pathlib.Path) -> pathlib.Path:
    return CHINESE / english.name


def setup_cell_index(nb: nbformat.NotebookNode) -> int:
    """The index of the Setup code cell: the first code cell (every notebook's Setup comes first)."""
    return next(i for i, cell in enumerate(nb.cells) if cell.cell_type == "code")


def with_language_line(code: str) -> str:
    return f"{LANGUAGE_LINE}\n{code}"


def translation(cell: dict) -> dict:
    return cell.get("metadata", {}).get("translation", {})


def problems(english: pathlib.Path) -> list[str]:
    """What keeps the zh notebook of `english` from being in step: missing notebook, cells out of step, stale or
    untranslated markdown, code that differs from the English. Empty when the two are in step."""
    target = zh_path(english)
    if not target.exists():
        return [f"zh/{target.name} is missing (python tools/zh_edition.py sync)"]
    en, zh = nbformat.read(english, as_version=4), nbformat.read(target, as_version=4)
    if [(c.get("id"), c.cell_type) for c in en.cells] != [(c.get("id"), c.cell_type) for c in zh.cells]:
        return [f"{target.name}: its cells are not the English cells in order (python tools/zh_edition.py sync)"]
    found = []
    setup = setup_cell_index(en)
    for i, (e, z) in enumerate(zip(en.cells, zh.cells)):
        if e.get("metadata", {}).get("tags", []) != z.get("metadata", {}).get("tags", []):
            found.append(f"{target.name} {e.id}: tags differ from the English cell's")
        if e.cell_type == "code":
            expected = with_language_line(e.source) if i == setup else e.source
            if z.source != expected:
                found.append(f"{target.name} {e.id}: code differs from the English cell (sync copies it)")
        elif e.cell_type == "markdown":
            record = translation(z)
            if record.get("of") != e.id or not record.get("source_sha"):
                found.append(f"{target.name} {e.id}: not translated")
            elif record["source_sha"] != source_sha(e.source):
                found.append(f"{target.name} {e.id}: stale (the English cell changed since it was translated)")
    return found


def sync(english: pathlib.Path) -> bool:
    """Rebuild the zh notebook of `english` from its English cells and the translations it already holds; return
    whether the file changed."""
    en = nbformat.read(english, as_version=4)
    target = zh_path(english)
    old = {c.get("id"): c for c in nbformat.read(target, as_version=4).cells} if target.exists() else {}
    out = nbformat.v4.new_notebook(metadata=en.metadata)
    setup = setup_cell_index(en)
    for i, cell in enumerate(en.cells):
        new = nbformat.from_dict(json.loads(json.dumps(cell)))
        before = old.get(cell.get("id"))
        if cell.cell_type == "code":
            if i == setup:
                new.source = with_language_line(cell.source)
            if before is not None and before.cell_type == "code" and before.source == new.source:
                new.outputs, new.execution_count = before.outputs, before.get("execution_count")
            else:
                new.outputs, new.execution_count = [], None
        elif cell.cell_type == "markdown" and before is not None and translation(before).get("of") == cell.id:
            new.source = before.source
            new.metadata["translation"] = translation(before)
        out.cells.append(new)
    out.metadata.setdefault("language_info", {})
    text = notebook_text(out)
    if target.exists() and target.read_text(encoding="utf-8") == text:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return True


def export(number: str, everything: bool) -> dict[str, dict[str, Optional[str]]]:
    """The markdown cells of notebook `number` to translate: id -> {"en": English, "zh": current zh or None}."""
    english = next(p for p in english_notebooks() if p.name.startswith(number))
    target = zh_path(english)
    zh = {c.get("id"): c for c in nbformat.read(target, as_version=4).cells} if target.exists() else {}
    cells = {}
    for cell in nbformat.read(english, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        current = zh.get(cell.id)
        record = translation(current) if current is not None else {}
        if everything or record.get("source_sha") != source_sha(cell.source):
            cells[cell.id] = {"en": cell.source, "zh": current.source if record else None}
    return cells


def import_translations(translations: dict[str, str]) -> list[str]:
    """Write each zh markdown of `translations` (cell id -> text) into its zh notebook, recording the English cell's
    current hash; return the ids written. An id that names no English markdown cell is a ValueError."""
    written = []
    by_notebook: dict[pathlib.Path, dict[str, str]] = {}
    for cell_id, text in translations.items():
        number = cell_id[2:4]
        english = next((p for p in english_notebooks() if p.name.startswith(number)), None)
        if english is None:
            raise ValueError(f"cell id {cell_id!r} names no notebook (ids look like nb02-05)")
        by_notebook.setdefault(english, {})[cell_id] = text
    for english, texts in by_notebook.items():
        sync(english)
        en = {c.id: c for c in nbformat.read(english, as_version=4).cells if c.cell_type == "markdown"}
        unknown = sorted(set(texts) - set(en))
        if unknown:
            raise ValueError(f"{english.name} has no markdown cells {unknown}")
        target = zh_path(english)
        zh = nbformat.read(target, as_version=4)
        for cell in zh.cells:
            if cell.get("id") in texts:
                cell.source = texts[cell.id].rstrip("\n")
                cell.metadata["translation"] = {"of": cell.id, "source_sha": source_sha(en[cell.id].source)}
                written.append(cell.id)
        target.write_text(notebook_text(zh), encoding="utf-8")
    return written


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("status", "sync"):
        sub.add_parser(name).add_argument("numbers", nargs="*", help="only these notebooks (01 .. 08); default: all")
    ex = sub.add_parser("export")
    ex.add_argument("number", help="the notebook's two-digit number, 01 .. 08")
    ex.add_argument("--all", action="store_true", help="every markdown cell, not only those that need a translation")
    im = sub.add_parser("import")
    im.add_argument("file", type=pathlib.Path, help="a JSON object: cell id -> zh markdown")
    args = parser.parse_args(argv)
    chosen = [p for p in english_notebooks() if not getattr(args, "numbers", None) or p.name[:2] in args.numbers]
    if args.command == "status":
        found = [p for english in chosen for p in problems(english)]
        print("\n".join(found) if found else "the zh edition is in step with the English notebooks")
        return 1 if found else 0
    if args.command == "sync":
        changed = [english.name for english in chosen if sync(english)]
        print(f"rewrote {len(changed)} zh notebooks: {', '.join(changed) or '-'}")
        return 0
    if args.command == "export":
        if not any(p.name.startswith(args.number) for p in english_notebooks()):
            parser.error(f"number = {args.number!r} names no notebook; give 01 .. 08")
        json.dump(export(args.number, args.all), sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    written = import_translations(json.loads(args.file.read_text(encoding="utf-8")))
    print(f"wrote {len(written)} translations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
