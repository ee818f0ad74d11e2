"""The notebook pages' launch links: `make site HUB_URL=<hub> REPO_URL=<git url>` (tools/build_site.py).

- Into the class's JupyterHub, in nbgitpuller's form: the hub's `git-pull` pulls the repository into the student's
  home (into a folder named after the repository; a second click updates it and keeps the student's changes) and
  opens that notebook, in that edition's folder, in JupyterLab.
- Into Binder, when the repository is on GitHub: mybinder.org builds public GitHub repositories (from `binder/`).

Without a hub and a repository the pages have no launch link: a hub needs the repository to pull from, and a
repository without a hub gets only its Binder link (none where it is not on GitHub).
"""

from __future__ import annotations

import dataclasses
import pathlib
import sys
import urllib.parse
from typing import Optional

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))

import binder_badge  # noqa: E402  (the README's Binder badge reads GitHub remotes the same way)


@dataclasses.dataclass(frozen=True)
class Target:
    """Where the launch links go.

    Attributes:
        hub: the class's JupyterHub, e.g. https://hub.example.edu (no trailing slash), or "" for none.
        repo: the git URL the hub clones the course from (public: nbgitpuller clones without credentials), or "".
        branch: the branch to pull, or "" for the repository's default branch.
    """

    hub: str = ""
    repo: str = ""
    branch: str = ""


def target(hub: Optional[str], repo: Optional[str], branch: Optional[str] = "") -> Target:
    """Return the launch target of `make site`'s HUB_URL, REPO_URL and REPO_BRANCH (empty or None: not given).
    Raises ValueError naming the value when a hub is given without a repository or either is not a URL."""
    hub, repo, branch = (hub or "").strip().rstrip("/"), (repo or "").strip(), (branch or "").strip()
    if hub and urllib.parse.urlsplit(hub).scheme not in ("http", "https"):
        raise ValueError(f"HUB_URL = {hub!r} is not allowed; give the hub's address, e.g. https://hub.example.edu")
    if hub and not repo:
        raise ValueError(
            f"HUB_URL = {hub!r} needs REPO_URL: nbgitpuller pulls the course from a git repository "
            "(e.g. REPO_URL=https://github.com/OWNER/toyhw)"
        )
    if repo and not (urllib.parse.urlsplit(repo).scheme in ("http", "https") or binder_badge.github(repo)):
        raise ValueError(f"REPO_URL = {repo!r} is not allowed; give the repository's clone URL, e.g. https://...")
    if any(c in branch for c in " ?&#"):
        raise ValueError(f"REPO_BRANCH = {branch!r} is not allowed; give a branch name, e.g. main")
    return Target(hub, repo, branch)


def _folder(repo: str) -> str:
    """The folder nbgitpuller clones `repo` into: the last part of its path, without `.git`."""
    name = repo.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return name[: -len(".git")] if name.endswith(".git") else name


def hub_link(where: Target, notebook: str) -> Optional[str]:
    """Return the nbgitpuller link that opens `notebook` (its path in the repository, e.g. notebooks/zh/02_x.ipynb)
    on the hub, or None without a hub."""
    if not where.hub:
        return None
    query = {"repo": where.repo, "urlpath": f"lab/tree/{_folder(where.repo)}/{notebook}"}
    if where.branch:
        query["branch"] = where.branch
    return f"{where.hub}/hub/user-redirect/git-pull?{urllib.parse.urlencode(query, quote_via=urllib.parse.quote)}"


def binder_link(where: Target, notebook: str) -> Optional[str]:
    """Return the Binder link that opens `notebook` in JupyterLab, or None unless the repository is on GitHub."""
    found = binder_badge.github(where.repo)
    if found is None:
        return None
    owner, name = found
    ref = urllib.parse.quote(where.branch or "HEAD", safe="")
    return f"https://mybinder.org/v2/gh/{owner}/{name}/{ref}?urlpath={urllib.parse.quote('lab/tree/' + notebook)}"
