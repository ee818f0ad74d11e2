"""The course download: a .zip from an edition's home page that a reader at home sets up with two commands.

It holds what the notebooks run on and nothing of the pack's own tooling: both editions' notebooks with their
exercise solutions, the package with its data, `pyproject.toml` (so `pip install -e .` installs the package), the
class lock `requirements/class.txt` and, as README.md, the edition's course README (`Edition.course_readme`: the two
commands, in the edition's language). Everything sits in one folder, `toyhw-course/`.

The archive is the same bytes for the same files (sorted entries, a fixed date, fixed permissions): the build stages
it only when a file in it changed, and a download's checksum says which course it is.
"""

from __future__ import annotations

import io
import pathlib
import zipfile

import editions

FOLDER = "toyhw-course"
"""The one folder everything unpacks into."""
_DATE = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: no build time in the bytes
_LEFT_OUT = ("__pycache__", ".ipynb_checkpoints")


def _tree(folder: pathlib.Path, pattern: str = "*") -> list[pathlib.Path]:
    return [
        path
        for path in folder.rglob(pattern)
        if path.is_file() and not any(part in _LEFT_OUT for part in path.parts) and path.suffix != ".pyc"
    ]


def members(edition: editions.Edition, repo: pathlib.Path = editions.REPO) -> dict[str, pathlib.Path]:
    """Return the archive's files: name inside `toyhw-course/` -> the file of the repository it copies."""
    files = [
        repo / "pyproject.toml",
        repo / "requirements" / "class.txt",
        *_tree(repo / "toyhw"),
        *_tree(repo / "data"),
    ]
    for other in editions.EDITIONS:  # both editions' notebooks, whichever edition's download this is
        notebooks = repo / other.notebooks
        files += sorted(notebooks.glob("*.ipynb")) + sorted((notebooks / "solutions").glob("*.py"))
    found = {path.relative_to(repo).as_posix(): path for path in files}
    found["README.md"] = repo / edition.course_readme
    return dict(sorted(found.items()))


def archive(edition: editions.Edition, repo: pathlib.Path = editions.REPO) -> bytes:
    """Return the edition's course download as the bytes of a .zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for name, path in members(edition, repo).items():
            info = zipfile.ZipInfo(f"{FOLDER}/{name}", date_time=_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, path.read_bytes())
    return buffer.getvalue()
