"""The course download linked from each home page (website/course_zip.py): unpacked into a fresh folder, it holds both
editions' notebooks, the package with its data, the class lock and a README in the edition's language whose two
commands set the course up and open it; the course runs from it.

What runs by default: the archive's content, the README's two commands read and checked against what is in the
archive, and notebook 01 of the edition executed in a kernel that imports the package from the unpacked folder
(about 20 s). The README's commands themselves install 100-odd packages into a fresh venv: 1-6 minutes on 2 cores
with a warm pip cache, too long for every CI run; `TOYHW_ZIP_INSTALL=1` runs them too, as a reader would, and starts
the JupyterLab the second command opens.
"""

from __future__ import annotations

import io
import os
import pathlib
import re
import secrets
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile

import nbformat
import pytest
from nbclient import NotebookClient

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "website"))

import course_zip  # noqa: E402
import editions  # noqa: E402

CJK = re.compile(r"[\u3400-\u9fff]")


def _unpack(built_site, edition, folder: pathlib.Path) -> pathlib.Path:
    """Unpack the download linked from the edition's home page into `folder`; return the course's folder."""
    home = (built_site.folder(edition) / "index.html").read_text(encoding="utf-8")
    href = re.search(r'<a class="toyhw-course-zip" href="([^"]+)" download>', home).group(1)
    with zipfile.ZipFile(built_site.folder(edition) / href) as archive:
        assert {name.split("/", 1)[0] for name in archive.namelist()} == {course_zip.FOLDER}
        archive.extractall(folder)
    return folder / course_zip.FOLDER


def readme_commands(course: pathlib.Path) -> list[str]:
    """The README's commands: the lines of its one bash block."""
    blocks = re.findall(r"```bash\n(.*?)```", (course / "README.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "the README has one block of commands"
    return [line for line in blocks[0].splitlines() if line.strip()]


@pytest.mark.parametrize("code", [e.code for e in editions.EDITIONS])
def test_the_download_holds_both_editions_the_package_and_a_readme_with_two_commands(built_site, tmp_path, code):
    edition = next(e for e in built_site.editions if e.code == code)
    course = _unpack(built_site, edition, tmp_path)
    for other in editions.EDITIONS:  # both editions' notebooks, as committed
        for path in other.notebook_files():
            assert (course / other.notebooks / path.name).read_bytes() == path.read_bytes(), path
    for name in ("pyproject.toml", "requirements/class.txt", "toyhw/__init__.py", "toyhw/locale/zh.json"):
        assert (course / name).read_bytes() == (REPO / name).read_bytes(), name
    assert sorted(p.name for p in (course / "data").iterdir()) == sorted(p.name for p in (REPO / "data").iterdir())
    assert not list(course.rglob("__pycache__")) and not (course / "tests").exists() and not (course / "docs").exists()
    readme = (course / "README.md").read_text(encoding="utf-8")
    assert bool(CJK.search(readme)) == edition.language.startswith("zh"), "the README is in the edition's language"
    setup, open_lab = readme_commands(course)
    assert "python3 -m venv .venv" in setup and "--require-hashes -r requirements/class.txt" in setup
    assert setup.endswith("pip install --no-deps -e .")
    lab = shlex.split(open_lab)
    assert lab[:2] == [".venv/bin/jupyter", "lab"] and (course / lab[2]).resolve() == course / edition.notebooks


def test_the_course_runs_from_the_unpacked_download(built_site, tmp_path, monkeypatch):
    """Notebook 01 of the last edition (the zh one: its Setup switches the language) runs top to bottom in a kernel
    whose package and data are the download's."""
    edition = built_site.editions[-1]
    course = _unpack(built_site, edition, tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(course))  # ahead of the test venv's editable install of the repository
    folder = course / edition.notebooks
    notebook = nbformat.read(sorted(folder.glob("01_*.ipynb"))[0], as_version=4)
    notebook.cells.append(
        nbformat.v4.new_code_cell("import toyhw, toyhw.data\nprint(toyhw.__file__, toyhw.data.DATA_DIR)")
    )
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors, errors[:1]
    printed = notebook.cells[-1].outputs[0]["text"].split()
    assert printed == [str(course / "toyhw" / "__init__.py"), str(course / "data")]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.skipif(os.environ.get("TOYHW_ZIP_INSTALL") != "1", reason="a full install: TOYHW_ZIP_INSTALL=1 runs it")
def test_the_readmes_two_commands_set_the_course_up_and_open_jupyterlab(built_site, tmp_path):
    edition = built_site.editions[0]
    course = _unpack(built_site, edition, tmp_path)
    setup, open_lab = readme_commands(course)
    subprocess.run(["bash", "-c", setup], cwd=course, check=True, timeout=1800, stdin=subprocess.DEVNULL)
    port, token = _free_port(), secrets.token_urlsafe(16)
    flags = f" --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port={port}" + (
        " --allow-root" if os.geteuid() == 0 else ""
    )
    env = {**os.environ, "JUPYTER_TOKEN": token}
    lab = subprocess.Popen(["bash", "-c", f"exec {open_lab}{flags}"], cwd=course, env=env, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=5) as reply:
                    assert reply.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline and lab.poll() is None, "JupyterLab did not start"
                time.sleep(1)
    finally:
        lab.terminate()
        lab.wait(timeout=30)


def test_the_archive_is_the_same_bytes_for_the_same_files():
    """No date or order of its own: the build stages it only when a file changed, and a checksum names a course."""
    edition = editions.EDITIONS[-1]
    first = course_zip.archive(edition)
    assert course_zip.archive(edition) == first
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        names = archive.namelist()
        assert names == sorted(names) and f"{course_zip.FOLDER}/README.md" in names
