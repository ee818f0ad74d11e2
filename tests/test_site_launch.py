"""Launch links on the notebook pages (`make site HUB_URL=<hub> REPO_URL=<git url>`, website/launch.py): into the
class's JupyterHub in nbgitpuller's form, into Binder only for a GitHub repository, none without a hub and a
repository.
"""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
import sys
import urllib.parse

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "website"))

import launch  # noqa: E402

HUB = "https://hub.example.edu"
GITHUB = "https://github.com/lecturer/toyhw.git"
LAUNCH = re.compile(r'<a class="btn btn-sm toyhw-launch toyhw-launch-(\w+)" href="([^"]+)"')


def test_a_hub_link_pulls_the_repository_and_opens_the_notebook_in_its_edition():
    where = launch.target(HUB + "/", GITHUB, "main")
    link = launch.hub_link(where, "notebooks/zh/02_feedback_loops.ipynb")
    parts = urllib.parse.urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == f"{HUB}/hub/user-redirect/git-pull"
    assert urllib.parse.parse_qs(parts.query) == {
        "repo": [GITHUB],
        "urlpath": ["lab/tree/toyhw/notebooks/zh/02_feedback_loops.ipynb"],  # nbgitpuller clones into toyhw/
        "branch": ["main"],
    }


def test_binder_only_for_a_github_repository_and_no_link_without_one():
    notebook = "notebooks/04_alphaevolve_ablations.ipynb"
    assert launch.binder_link(launch.target("", GITHUB), notebook) == (
        "https://mybinder.org/v2/gh/lecturer/toyhw/HEAD?urlpath=lab/tree/notebooks/04_alphaevolve_ablations.ipynb"
    )
    elsewhere = launch.target(HUB, "https://git.example.edu/course/toyhw.git")
    assert launch.binder_link(elsewhere, notebook) is None and launch.hub_link(elsewhere, notebook)
    nothing = launch.target("", "")
    assert launch.hub_link(nothing, notebook) is None and launch.binder_link(nothing, notebook) is None


@pytest.mark.parametrize(
    "hub, repo, branch, message",
    [
        (HUB, "", "", "HUB_URL = 'https://hub.example.edu' needs REPO_URL"),
        ("hub.example.edu", GITHUB, "", "HUB_URL = 'hub.example.edu' is not allowed"),
        (HUB, "toyhw", "", "REPO_URL = 'toyhw' is not allowed"),
        (HUB, GITHUB, "main&x=1", "REPO_BRANCH = 'main&x=1' is not allowed"),
    ],
)
def test_a_bad_launch_target_is_refused_naming_the_value(hub, repo, branch, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        launch.target(hub, repo, branch)


def test_make_site_refuses_a_hub_without_a_repository_before_building():
    out = subprocess.run(
        ["make", "-s", "-o", ".venv/.toyhw-installed", "site", f"HUB_URL={HUB}", "REPO_URL="],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0 and "needs REPO_URL" in out.stderr, out.stdout + out.stderr


def test_without_a_hub_no_notebook_page_has_a_launch_link(built_site):
    for edition in built_site.editions:
        for path in edition.notebook_files():
            page = (built_site.folder(edition) / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
            assert not LAUNCH.search(page), f"{edition.code} {path.name}: a launch link without HUB_URL"


@pytest.fixture(scope="module")
def site_with_links(built_site, tmp_path_factory) -> pathlib.Path:
    """The site built as `make site HUB_URL=.. REPO_URL=<a GitHub repository>` builds it. It starts from a copy of
    the session's build (its staged sources and Sphinx's caches): only the pages are written anew."""
    import build_site

    work = tmp_path_factory.mktemp("site-links")
    shutil.copytree(built_site.root.parent / "work", work / "work")
    build_site.build(out=work / "site", work=work / "work", where=launch.target(HUB, GITHUB))
    return work / "site"


def test_with_a_hub_every_notebook_page_of_both_editions_links_into_it_and_into_binder(built_site, site_with_links):
    for edition in built_site.editions:
        folder = site_with_links / built_site.folder(edition).relative_to(built_site.root)
        for path in edition.notebook_files():
            page = (folder / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
            links = {kind: urllib.parse.unquote(href.replace("&amp;", "&")) for kind, href in LAUNCH.findall(page)}
            notebook = f"{edition.notebooks}/{path.name}"
            assert links.get("hub", "").startswith(f"{HUB}/hub/user-redirect/git-pull?repo={GITHUB}&"), links
            assert links["hub"].endswith(f"urlpath=lab/tree/toyhw/{notebook}"), links["hub"]
            assert links.get("binder", "").endswith(f"?urlpath=lab/tree/{notebook}"), links
        other = (folder / "glossary.html").read_text(encoding="utf-8")
        assert not LAUNCH.search(other), "a launch link on a page that is no notebook"
