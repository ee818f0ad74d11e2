"""Test set-up shared by all test modules: make tests/ importable (for seed_reference), plots headless, the
property-based tests reproducible, and the pack's website built once per session for the tests that read it.

Hypothesis runs derandomized (the examples depend only on the test, so CI sees the same ones on every run) without an
example database (nothing written into the checkout) and without deadlines (a shared machine's pauses are no bugs);
each property test sets its own max_examples so the whole suite of them stays well under a minute.
"""

import dataclasses
import json
import os
import pathlib
import shutil
import sys
import time

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")
sys.path.insert(0, str(pathlib.Path(__file__).parent))
_REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_REPO / "tools"))

settings.register_profile("toyhw", derandomize=True, database=None, deadline=None)
settings.load_profile("toyhw")


@dataclasses.dataclass(frozen=True)
class BuiltSite:
    """The website as `make site` builds it.

    Attributes:
        root: the site's folder (the first edition at its root, the others in <code>/).
        editions: the editions built, first one first.
        seconds: how long the build took.
    """

    root: pathlib.Path
    editions: list
    seconds: float

    def folder(self, edition) -> pathlib.Path:
        """Return the folder of `edition`'s pages."""
        import editions as site_editions

        return self.root / site_editions.folder(edition, self.editions)

    def pages(self, edition) -> list[str]:
        """Return the edition's HTML pages relative to its folder: every one but the theme's (_static/...) and those
        of an edition in a folder inside it (the root edition holds zh/)."""
        folder = self.folder(edition)
        nested = [self.folder(e) for e in self.editions if folder in self.folder(e).parents]
        return sorted(
            p.relative_to(folder).as_posix()
            for p in folder.rglob("*.html")
            if not p.relative_to(folder).parts[0].startswith("_") and not any(inner in p.parents for inner in nested)
        )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The website built from the committed files into a fresh folder, as on a fresh clone (no cached pages), once
    per session: with pytest-xdist, the first worker that needs it builds it into the run's shared temp folder and the
    others read that build (a lock file orders them; a build takes 10-25 s of a worker on two cores). The build
    time goes to test-artifacts/site-build.txt."""
    import build_site

    if os.environ.get("PYTEST_XDIST_WORKER"):  # the workers' temp folders share this run's parent folder
        import fcntl

        work = tmp_path_factory.getbasetemp().parent / "site"
        with open(work.parent / "site.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            record = work / "built.json"
            if not record.exists():
                shutil.rmtree(work, ignore_errors=True)  # a build an earlier worker did not finish
                _build_into(build_site, work)
            done = json.loads(record.read_text())
    else:
        work = tmp_path_factory.mktemp("site")
        done = _build_into(build_site, work)
    import editions as site_editions

    built = [e for e in site_editions.built() if e.code in done["editions"]]
    assert [e.code for e in built] == done["editions"], (done, [e.code for e in built])
    return BuiltSite(root=work / "site", editions=built, seconds=done["seconds"])


def _build_into(build_site, work: pathlib.Path) -> dict:
    """Build the site into `work`/site (staging under `work`/work); write and return {"editions": codes, "seconds"}."""
    work.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    built = build_site.build(out=work / "site", work=work / "work")
    seconds = time.monotonic() - start
    artifacts = _REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "site-build.txt").write_text(
        f"site built from scratch in {seconds:.1f} s: {', '.join(e.code for e in built)}\n"
    )
    done = {"editions": [e.code for e in built], "seconds": seconds}
    (work / "built.json").write_text(json.dumps(done))
    return done
