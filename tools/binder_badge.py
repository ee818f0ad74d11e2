"""The README's Binder badge, built from this clone's remote: `python tools/binder_badge.py [--write]`.

Why a script: the badge's link names the GitHub account and repository Binder builds from, and a copy of the pack
lives wherever a lecturer pushed it. The script reads `git remote get-url origin`; for a GitHub remote it prints the
badge (launching JupyterLab on notebooks/ from the default branch), for anything else a sentence saying why there is
none. `--write` puts that between the README's two `binder-badge` markers, so the README always says one or the other.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys
from typing import Optional

ROOT = pathlib.Path(__file__).resolve().parents[1]
START = "<!-- binder-badge: written by `python tools/binder_badge.py --write` from `git remote get-url origin` -->"
END = "<!-- /binder-badge -->"
NO_REMOTE = (
    "No Binder badge: this copy has no GitHub remote (`git remote get-url origin`), and Binder builds a\n"
    "public GitHub repository. Push the pack to one, then run `python tools/binder_badge.py --write`."
)

_GITHUB = re.compile(
    r"^(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)"
    r"(?P<owner>[A-Za-z0-9][A-Za-z0-9-]*)/(?P<repo>[A-Za-z0-9._-]+?)(?:\.git)?/?$"
)


def remote_url(repo: pathlib.Path = ROOT) -> Optional[str]:
    """Return `git remote get-url origin` in `repo`, or None where there is no such remote (or no git)."""
    try:
        out = subprocess.run(["git", "remote", "get-url", "origin"], cwd=repo, capture_output=True, text=True)
    except OSError:
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


def github(url: Optional[str]) -> Optional[tuple[str, str]]:
    """Return (owner, repository) of a GitHub remote URL (https, ssh or scp-like), else None."""
    m = _GITHUB.match(url or "")
    return (m.group("owner"), m.group("repo")) if m else None


def block(url: Optional[str]) -> str:
    """Return what stands between the markers: the badge for a GitHub remote, else the sentence saying why not."""
    found = github(url)
    if found is None:
        return NO_REMOTE
    owner, repo = found
    link = f"https://mybinder.org/v2/gh/{owner}/{repo}/HEAD?urlpath=lab/tree/notebooks"
    return (
        f"[![Binder](https://mybinder.org/badge_logo.svg)]({link})\n"
        "(Binder installs the class lock, `binder/requirements.txt`, and runs `binder/postBuild`.)"
    )


def rewrite(readme: str, url: Optional[str]) -> str:
    """Return `readme` with the text between the markers replaced by `block(url)`."""
    start, end = readme.index(START) + len(START), readme.index(END)
    return readme[:start] + "\n" + block(url) + "\n" + readme[end:]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite README.md's badge block (else print it)")
    args = parser.parse_args(argv)
    url = remote_url()
    if not args.write:
        print(block(url))
        return 0
    path = ROOT / "README.md"
    path.write_text(rewrite(path.read_text(), url))
    print(f"README.md: {'badge for ' + '/'.join(github(url)) if github(url) else 'no GitHub remote, sentence written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
