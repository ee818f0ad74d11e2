"""The Chinese edition's notebooks (notebooks/zh/), kept in step with the English ones (notebooks/).

English is the one source of code. A zh notebook has the English notebook's cells in the same order with the same
ids and tags; its code cells are the English ones byte for byte, except one line put first in the Setup code cell
(LANGUAGE_LINE: it sets TOYHW_LANG, the package's language switch, toyhw/i18n.py) and the exercises' starting cells
(stubs), whose comments and docstrings are Chinese on the same code (`same_code`); its markdown cells are
translations, each recording in its metadata the English cell it translates and the hash of that cell's source when
it was translated: `"translation": {"of": "nb02-05", "source_sha": "…"}`. When an English cell changes, its hash no
longer matches and the translation is stale; `status` names it, and tests/test_zh_edition.py fails until it is updated.

Usage:
  python tools/zh_edition.py status [NN ...]        stale and missing translations, by notebook and cell (exit 1 if any)
  python tools/zh_edition.py sync [NN ...]          rebuild notebooks/zh/ from the English cells and the translations
                                                    the zh notebooks hold (a new English cell gets its English text,
                                                    marked untranslated); code outputs are kept where the code is
  python tools/zh_edition.py export NN [--all]      print the markdown cells of notebook NN that need a translation
                                                    (with --all: every one) as JSON: id -> {"en": …, "zh": …}
  python tools/zh_edition.py import FILE.json       write translations {id: zh markdown} into their zh notebooks and
                                                    record the English hash each one translates (every id is
                                                    checked first: a bad one writes nothing)

Bad input (a number that names no notebook, a file that is not a UTF-8 JSON object of texts, an id that names no
English markdown cell) is one line on stderr, exit code 2, and nothing written.

After `sync` or `import`, `python tools/notebooks.py execute notebooks/zh/*.ipynb` runs them (the outputs in Chinese).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import pathlib
import re
import sys
from typing import NoReturn, Optional

import nbformat

REPO = pathlib.Path(__file__).resolve().parents[1]
ENGLISH = REPO / "notebooks"
CHINESE = ENGLISH / "zh"
LANGUAGE_LINE = 'import os; os.environ["TOYHW_LANG"] = "zh"  # 从这一行起，课程包的输出都用中文'
"""The one line a zh notebook's code adds: set before toyhw shows anything, so every table and label is Chinese.

Plain Python, not IPython's `%env`, which prints "env: TOYHW_LANG=zh" under the Setup cell: the app (Voila) shows
that cell's output to the room. The environment variable, not `toyhw.set_language`, so that worker processes a
notebook starts read the same language."""


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


def is_stub(cell: dict) -> bool:
    """Whether `cell` is an exercise's starting cell (id `nbNN-exK-stub`), whose comments and docstrings a zh notebook
    writes in Chinese."""
    return str(cell.get("id", "")).endswith("-stub")


def same_code(zh: str, english: str) -> bool:
    """Whether two sources are the same code: equal ASTs, docstrings left out (comments never reach the AST)."""

    def code(text: str) -> str:
        tree = ast.parse(text)
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
        return ast.dump(tree)

    try:
        return code(zh) == code(english)
    except SyntaxError:
        return False


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
            if z.source != expected and not (is_stub(e) and same_code(z.source, e.source)):
                found.append(f"{target.name} {e.id}: code differs from the English cell (sync copies it)")
        elif e.cell_type == "markdown":
            record = translation(z)
            if record.get("of") != e.id or not record.get("source_sha"):
                found.append(f"{target.name} {e.id}: not translated")
            elif record["source_sha"] != source_sha(e.source):
                found.append(f"{target.name} {e.id}: stale (the English cell changed since it was translated)")
    return found


def synced(english: pathlib.Path) -> nbformat.NotebookNode:
    """The zh notebook of `english` rebuilt from its English cells and the translations the zh notebook already holds
    (nothing written)."""
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
            elif is_stub(cell) and before is not None and same_code(before.source, cell.source):
                new.source = before.source  # the stub's Chinese instructions, on the English code
            if before is not None and before.cell_type == "code" and before.source == new.source:
                new.outputs, new.execution_count = before.outputs, before.get("execution_count")
            else:
                new.outputs, new.execution_count = [], None
        elif cell.cell_type == "markdown" and before is not None and translation(before).get("of") == cell.id:
            new.source = before.source
            new.metadata["translation"] = translation(before)
        out.cells.append(new)
    out.metadata.setdefault("language_info", {})
    return out


def write_if_changed(english: pathlib.Path, nb: nbformat.NotebookNode) -> bool:
    """Write `nb` as the zh notebook of `english` unless the file already holds it; return whether it was written."""
    target = zh_path(english)
    text = notebook_text(nb)
    if target.exists() and target.read_text(encoding="utf-8") == text:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return True


def sync(english: pathlib.Path) -> bool:
    """Rebuild the zh notebook of `english` from its English cells and the translations it already holds; return
    whether the file changed."""
    return write_if_changed(english, synced(english))


def export(number: str, everything: bool) -> dict[str, dict[str, Optional[str]]]:
    """The markdown cells of notebook `number` to translate: id -> {"en": English, "zh": current zh or None}."""
    english = notebook(number)
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


def notebook(number: str) -> pathlib.Path:
    """The English notebook whose two-digit number is `number` ("02"); ValueError naming the numbers there are."""
    found = [p for p in english_notebooks() if p.name[:2] == number] if re.fullmatch(r"[0-9]{2}", number) else []
    if not found:
        numbers = [p.name[:2] for p in english_notebooks()]
        hint = f" (did you mean {number.zfill(2)}?)" if number.zfill(2) in numbers else ""
        raise ValueError(f"number = {_shown(number)} names no notebook{hint}; give one of {', '.join(numbers)}")
    return found[0]


def _shown(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def read_translations(path: pathlib.Path) -> dict[str, str]:
    """The translations in the file at `path`: a UTF-8 JSON object of cell id -> zh markdown (each id once, each
    text non-empty); ValueError naming the file (and the id) for anything else."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ValueError(f"cannot read {path} ({err.strerror or err})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise ValueError(
            f"{path}, line {line}: byte 0x{raw[err.start]:02x} is not UTF-8; save the file as UTF-8 (not GBK)"
        ) from None
    if not text.strip():
        raise ValueError(f"{path} is empty; give a JSON object of cell id -> zh markdown")

    def pairs(items: list[tuple[str, object]]) -> dict:
        seen: dict = {}
        for key, value in items:
            if key in seen:
                raise ValueError(f"{path}: cell id {_shown(key)} appears twice; give each translation once")
            seen[key] = value
        return seen

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}, line {err.lineno}: not JSON ({err.msg})") from None
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply; give a flat object of cell id -> zh markdown") from None
    if not isinstance(data, dict) or not data:
        what = "an empty object" if isinstance(data, dict) else f"a {type(data).__name__}"
        raise ValueError(f"{path} holds {what}; give a JSON object of cell id -> zh markdown")
    for cell_id, value in data.items():
        if not isinstance(value, str) or not value.strip():
            raise ValueError(
                f"{path}: the translation of {_shown(cell_id)} is {_shown(value)}; give its zh markdown as a "
                "non-empty text"
            )
    return data


def import_translations(translations: dict[str, str]) -> list[str]:
    """Write each zh markdown of `translations` (cell id -> text) into its zh notebook, recording the English cell's
    current hash; return the ids written. Every id is checked before any file is written: one that names no
    English markdown cell (no such notebook or cell, or a code cell) is a ValueError and nothing is written."""
    by_notebook: dict[pathlib.Path, dict[str, str]] = {}
    for cell_id, text in translations.items():
        found = re.fullmatch(r"nb([0-9]{2})-.+", cell_id)
        english = next((p for p in english_notebooks() if found and p.name[:2] == found.group(1)), None)
        if english is None:
            raise ValueError(f"cell id {_shown(cell_id)} names no notebook (ids look like nb02-05)")
        by_notebook.setdefault(english, {})[cell_id] = text
    rebuilt = {}
    for english, texts in by_notebook.items():  # every id checked, every notebook built, before any write
        cells = {c.id: c for c in nbformat.read(english, as_version=4).cells}
        for cell_id in texts:
            if cell_id not in cells:
                raise ValueError(f"{english.name} has no cell {_shown(cell_id)}")
            if cells[cell_id].cell_type != "markdown":
                raise ValueError(
                    f"{english.name}: {_shown(cell_id)} is a {cells[cell_id].cell_type} cell; only markdown is "
                    "translated (code is the English code)"
                )
        zh = synced(english)
        for cell in zh.cells:
            if cell.get("id") in texts:
                cell.source = texts[cell.id].rstrip("\n")
                cell.metadata["translation"] = {"of": cell.id, "source_sha": source_sha(cells[cell.id].source)}
        rebuilt[english] = zh
    for english, zh in rebuilt.items():
        write_if_changed(english, zh)
    return [cell_id for texts in by_notebook.values() for cell_id in texts]


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its errors in one line (no usage block): `zh_edition.py status: error: ...`, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def main(argv: Optional[list[str]] = None) -> int:
    """Run one command; return its exit code (0, 1 for `status` when out of step, 2 for bad input)."""
    parser = _Parser(prog="zh_edition.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in ("status", "sync"):
        sub.add_parser(name).add_argument("numbers", nargs="*", help="only these notebooks (01 .. 08); default: all")
    ex = sub.add_parser("export")
    ex.add_argument("number", help="the notebook's two-digit number, 01 .. 08")
    ex.add_argument("--all", action="store_true", help="every markdown cell, not only those that need a translation")
    im = sub.add_parser("import")
    im.add_argument("file", type=pathlib.Path, help="a JSON object: cell id -> zh markdown")
    args = parser.parse_args(argv)
    try:
        if args.command in ("status", "sync"):
            wanted = {notebook(number) for number in args.numbers}
            chosen = [p for p in english_notebooks() if not wanted or p in wanted]
        if args.command == "status":
            found = [p for english in chosen for p in problems(english)]
            print("\n".join(found) if found else "the zh edition is in step with the English notebooks")
            return 1 if found else 0
        if args.command == "sync":
            changed = [english.name for english in chosen if sync(english)]
            print(f"rewrote {len(changed)} zh notebooks: {', '.join(changed) or '-'}")
            return 0
        if args.command == "export":
            json.dump(export(args.number, args.all), sys.stdout, ensure_ascii=False, indent=1)
            print()
            return 0
        written = import_translations(read_translations(args.file))
    except ValueError as err:
        print(f"{parser.prog} {args.command}: error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} translations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
