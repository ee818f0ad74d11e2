"""Binder gets a student's install (the class lock, the pack, the Lab settings override), and the README's badge is
the one tools/binder_badge.py builds from the clone's remote (or its sentence where there is none)."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import binder_badge  # noqa: E402


def test_binder_installs_the_class_lock_on_the_packs_python():
    lines = [
        line
        for line in (ROOT / "binder/requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines == ["-r ../requirements/class.txt"]
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert (ROOT / "binder/runtime.txt").read_text().strip() == "python-" + requires.removeprefix(">=")
    assert not (ROOT / "binder/environment.yml").exists()  # repo2docker would take it over requirements.txt


def test_binder_postbuild_installs_the_pack_and_the_lab_settings_override():
    path = ROOT / "binder/postBuild"
    assert path.stat().st_mode & 0o111, "postBuild must be executable"
    text = path.read_text()
    assert text.startswith("#!/bin/bash\n") and "set -euo pipefail" in text
    assert "python -m pip install --no-deps -e ." in text
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^LAB_OVERRIDES := \$\(VENV\)/(.+)$", makefile, re.M).group(1)  # where make lab puts it
    assert f'install -D -m 644 tools/jupyterlab-overrides.json "$prefix/{target}"' in text
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0


def test_binder_postbuild_installs_the_apps_voila_template_where_make_present_does():
    """voila.json selects the pack's template: a Voila on Binder needs it installed as `make present` installs it."""
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^VOILA_TEMPLATE := \$\(VENV\)/(.+)$", makefile, re.M).group(1)
    text = (ROOT / "binder/postBuild").read_text()
    assert f'install -D -m 644 -t "$prefix/{target}" tools/voila-template/*' in text


@pytest.mark.parametrize(
    "url, found",
    [
        ("https://github.com/alice/toyhw.git", ("alice", "toyhw")),
        ("https://github.com/alice/toyhw", ("alice", "toyhw")),
        ("git@github.com:uni-ml/gpu-course.git", ("uni-ml", "gpu-course")),
        ("ssh://git@github.com/uni-ml/toyhw.git", ("uni-ml", "toyhw")),
        ("https://gitlab.example/alice/toyhw.git", None),
        ("/srv/git/toyhw", None),
        (None, None),
    ],
)
def test_the_badge_names_the_remotes_github_repository(url, found):
    assert binder_badge.github(url) == found
    text = binder_badge.block(url)
    if found:
        assert f"https://mybinder.org/v2/gh/{found[0]}/{found[1]}/HEAD?urlpath=lab/tree/notebooks" in text
    else:
        assert text == binder_badge.NO_REMOTE


def test_the_badge_is_read_from_git_remote_get_url_origin(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert binder_badge.remote_url(tmp_path) is None
    subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", "git@github.com:bob/pack.git"], check=True)
    assert binder_badge.github(binder_badge.remote_url(tmp_path)) == ("bob", "pack")


def test_the_readme_holds_a_badge_block_the_script_writes():
    readme = (ROOT / "README.md").read_text()
    inside = readme[readme.index(binder_badge.START) + len(binder_badge.START) : readme.index(binder_badge.END)]
    badge = re.search(r"mybinder\.org/v2/gh/([^/]+)/([^/]+)/HEAD", inside)
    url = f"https://github.com/{badge.group(1)}/{badge.group(2)}" if badge else None
    assert binder_badge.rewrite(readme, url) == readme
    assert "OWNER" not in readme.split("\n## ", 1)[0]
