"""Build the pack's website into _build/site/: every edition of website/editions.py that has notebooks, from the
committed files, without executing anything (`make site`).

For each edition it stages the pages' sources in _build/site-src/<code>/ (the home page, the notebooks, the guide,
the references, a glossary page gathered from the notebooks' glossaries, the README's sections the home page
includes, the course download website/course_zip.py builds and, for a Chinese edition, the search's word list) and
runs Sphinx on them, the editions side by side; the first edition goes to the site's root, the others to <code>/.
With a hub and a repository (`make site HUB_URL=.. REPO_URL=..`) every notebook page links into the hub, and into
Binder for a GitHub repository (website/launch.py). Sphinx's warnings are errors: a broken reference fails the build. Staged files are rewritten only when
they change and Sphinx keeps what it read, so a second build reads only what changed; the pages themselves are
written afresh every time, so no page of an older build lingers.

Usage: python tools/build_site.py [--out DIR] [--work DIR] [--hub-url URL --repo-url URL [--repo-branch NAME]]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
WEBSITE = REPO / "website"
sys.path.insert(0, str(WEBSITE))

import course_zip  # noqa: E402
import editions  # noqa: E402
import launch  # noqa: E402
import notebook_view  # noqa: E402
import toyhw_site  # noqa: E402

SITE = REPO / "_build" / "site"
WORK = REPO / "_build"


def glossary_page(edition: editions.Edition) -> str:
    """Return the glossary page: every notebook's glossary, under the notebook's title (a link to it)."""
    parts = [f"# {edition.glossary_heading}\n"]
    for path in edition.notebook_files():
        notebook = json.loads(path.read_text(encoding="utf-8"))
        section = notebook_view.glossary_section(notebook, edition.glossary_heading)
        if section:
            parts.append(f"## [{notebook_view.title(notebook)}](notebooks/{path.name})\n\n{section}\n")
    return "\n".join(parts)


_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
_HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)


def search_words(edition: editions.Edition, files: dict[str, bytes]) -> list[str]:
    """Return the words jieba should keep whole in the edition's search index: every run of two or more Chinese
    characters in the glossary's Chinese terms and in the headings of the edition's pages (`files`, its staged
    sources), so that a term or a title typed as it is written is one word of the index."""
    with open(REPO / "docs" / "glossary.csv", encoding="utf-8", newline="") as table:
        texts = [row["chinese"] for row in csv.DictReader(table)]
    for name, content in files.items():
        if name.endswith(".ipynb"):
            cells = json.loads(content.decode("utf-8"))["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        elif name.endswith(".md"):
            text = content.decode("utf-8")
        else:
            continue
        texts += _HEADING.findall(text)
    return sorted({run for text in texts for run in _HAN_RUN.findall(text)})


def staged_files(edition: editions.Edition) -> dict[str, bytes]:
    """Return the edition's Sphinx sources: path inside its source folder -> content."""
    files = {
        "index.md": edition.index_page.read_bytes(),
        "glossary.md": glossary_page(edition).encode("utf-8"),
        "docs/lecturer_guide.md": (REPO / edition.guide).read_bytes(),
        "docs/references.md": (REPO / edition.references).read_bytes(),
        "_parts/README.md": (REPO / edition.readme).read_bytes(),
    }
    for path in edition.notebook_files():
        files[f"notebooks/{path.name}"] = path.read_bytes()
        solution = path.parent / "solutions" / f"{path.stem}.py"  # the exercises link it: a download on the page
        if solution.is_file():
            files[f"notebooks/solutions/{solution.name}"] = solution.read_bytes()
    if edition.language.startswith("zh"):
        files[toyhw_site.SEARCH_WORDS] = "".join(f"{word}\n" for word in search_words(edition, files)).encode("utf-8")
    files[f"{toyhw_site.EXTRA}/{edition.course_zip}"] = course_zip.archive(edition)
    return files


def stage(edition: editions.Edition, folder: pathlib.Path) -> None:
    """Make `folder` hold exactly the edition's sources, touching only the files whose content changed."""
    files = staged_files(edition)
    for name, content in files.items():
        target = folder / name
        if not target.is_file() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    for stale in [p for p in folder.rglob("*") if p.is_file() and p.relative_to(folder).as_posix() not in files]:
        stale.unlink()


def _sphinx(
    edition: editions.Edition,
    source: pathlib.Path,
    out: pathlib.Path,
    doctrees: pathlib.Path,
    log: pathlib.Path,
    where: launch.Target,
) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-q",
        "-W",
        "--keep-going",
        "-c",
        str(WEBSITE),
        "-d",
        str(doctrees),
        str(source),
        str(out),
    ]
    env = {
        **os.environ,
        "TOYHW_SITE_EDITION": edition.code,
        "TOYHW_SITE_HUB_URL": where.hub,
        "TOYHW_SITE_REPO_URL": where.repo,
        "TOYHW_SITE_REPO_BRANCH": where.branch,
    }
    with open(log, "wb") as sink:
        return subprocess.Popen(cmd, env=env, stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def build(
    out: pathlib.Path = SITE, work: pathlib.Path = WORK, where: launch.Target = launch.Target()
) -> list[editions.Edition]:
    """Build every edition that has notebooks into `out` (staging and Sphinx's caches under `work`), the notebook
    pages linking into `where` (launch.target: none by default); return the editions built. Raises RuntimeError with
    Sphinx's messages when an edition does not build cleanly."""
    built = editions.built()
    if not built:
        raise RuntimeError(f"no edition has notebooks (looked in {[e.notebooks for e in editions.EDITIONS]})")
    runs = []
    for edition in built:
        source = work / "site-src" / edition.code
        stage(edition, source)
        # Each edition's own output folder: myst-nb writes its images next to it (../jupyter_execute), which must
        # neither land inside another edition's pages nor be shared by two builds running side by side.
        html = work / "site-html" / edition.code / "html"
        shutil.rmtree(html, ignore_errors=True)
        log = work / f"site-{edition.code}.log"
        runs.append(
            (edition, html, log, _sphinx(edition, source, html, work / "site-doctrees" / edition.code, log, where))
        )
    failed = [(edition, log) for edition, html, log, proc in runs if proc.wait() != 0]
    if failed:
        raise RuntimeError(
            "\n\n".join(
                f"edition {edition.code} did not build cleanly (log: {log}):\n{log.read_text(errors='replace')[-6000:]}"
                for edition, log in failed
            )
        )
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    for edition, html, _, _ in runs:  # the first edition becomes the root, the others go inside it
        shutil.move(html, out / editions.folder(edition, built))
    return built


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=SITE, help="the site's folder (default: _build/site)")
    parser.add_argument(
        "--work", type=pathlib.Path, default=WORK, help="staged sources, Sphinx's caches and logs (default: _build)"
    )
    parser.add_argument("--hub-url", default="", help="the class's JupyterHub: nbgitpuller links on notebook pages")
    parser.add_argument("--repo-url", default="", help="the git URL the hub pulls the course from (GitHub: Binder too)")
    parser.add_argument("--repo-branch", default="", help="the branch to pull (default: the repository's own)")
    args = parser.parse_args()
    try:
        where = launch.target(args.hub_url, args.repo_url, args.repo_branch)
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    start = time.monotonic()
    try:
        built = build(args.out.resolve(), args.work.resolve(), where)
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 1
    names = ", ".join(f"{e.code} ({e.name})" for e in built)
    print(f"site: {names} in {args.out} ({time.monotonic() - start:.0f} s); `make site-serve` shows it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
