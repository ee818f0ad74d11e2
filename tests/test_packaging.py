"""The pack's set-up stays coherent: conda and pip list the same packages, the lock files hold every one of them at the
versions the tests ran with, a student's install holds no test tool, CI runs the README's test command."""

import importlib.metadata
import pathlib
import re
import tomllib

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~\[;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _spec(requirement: str) -> str:
    """Return the requirement without extras and spaces (conda's dask is pip's dask[distributed])."""
    return re.sub(r"\[.*?\]", "", requirement).replace(" ", "")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pip_requirements() -> dict[str, str]:
    """Return name -> requirement for the runtime, class and test dependencies of pyproject.toml."""
    project = _project()
    reqs = (
        project["dependencies"] + project["optional-dependencies"]["class"] + project["optional-dependencies"]["test"]
    )
    return {_name(r): _spec(r) for r in reqs}


def conda_requirements() -> dict[str, str]:
    """Return name -> requirement for the packages of environment.yml: conda's and those of its pip section (python,
    pip and the pack itself excluded)."""
    reqs = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text[text.index("dependencies:") :].splitlines():
        m = re.match(r"^(?:  |      )- ([A-Za-z0-9_.\-\[\]]+[^#]*?)\s*(?:#.*)?$", line)
        if m and not m.group(1).startswith(("pip", "python", "-e")):
            reqs[_name(m.group(1))] = _spec(m.group(1))
    return reqs


def test_environment_yml_and_pyproject_list_the_same_packages_and_bounds():
    assert conda_requirements() == pip_requirements()


def test_ci_runs_the_readme_test_command():
    ci = [
        line.strip()
        for line in (ROOT / ".ci/run").read_text().splitlines()
        if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    assert ci == ["make test"]
    assert "make test" in (ROOT / "README.md").read_text()


def test_every_optional_extra_is_in_the_test_install():
    """CI installs the class and test extras: an extra's packages (cluster's dask, llm's openai) are tested only if
    listed there."""
    extras = _project()["optional-dependencies"]
    tested = {_name(r): _spec(r) for r in extras["test"] + extras["class"]}
    for name, reqs in extras.items():
        for r in reqs:
            assert tested.get(_name(r)) == _spec(r), f"extra {name!r}: {r} is not in the test or class extra"


# The lock files (`make lock`): every install of the pack comes from one of them, with --require-hashes.
CLASS_LOCK = ROOT / "requirements/class.txt"
TEST_LOCK = ROOT / "requirements/test.txt"

TEST_TOOLS = [
    "pytest",
    "pytest-timeout",
    "nbval",
    "hypothesis",
    "playwright",
    "mutmut",
    "openai",
    "dask",
    "distributed",
    "import-linter",
    "sphinx",
    "myst-nb",
    "sphinx-book-theme",
    "jieba",
    "sphinx-copybutton",
    "ruff",
]
"""Packages only the tests, the website build or the optional extras use: none belongs on a student's laptop."""


def lock_pins(path: pathlib.Path) -> dict[tuple[str, str], str]:
    """Return (name, environment marker or "") -> pinned version for every entry of a lock file, checking that each
    entry carries its hashes (pip's --require-hashes refuses an entry without)."""
    pins: dict[tuple[str, str], str] = {}
    entries = re.split(r"\n(?=[A-Za-z0-9])", path.read_text())
    for entry in entries:
        first = entry.splitlines()[0]
        if first.startswith("#"):
            continue
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)\s*(?:;\s*(.*?))?\s*\\?$", first)
        assert m, f"{path.name}: {first!r} is not an exact pin"
        assert "--hash=sha256:" in entry, f"{path.name}: {m.group(1)} has no hash"
        pins[(canonicalize_name(m.group(1)), m.group(3) or "")] = m.group(2)
    return pins


def pins_here(path: pathlib.Path) -> dict[str, str]:
    """Return name -> version of the entries of a lock file that apply to this interpreter and platform."""
    return {
        name: version for (name, marker), version in lock_pins(path).items() if not marker or Marker(marker).evaluate()
    }


def _requirements(*groups: str) -> list[Requirement]:
    project = _project()
    reqs = project["dependencies"] + [r for g in groups for r in project["optional-dependencies"][g]]
    return [Requirement(r) for r in reqs]


@pytest.mark.parametrize("lock, groups", [(CLASS_LOCK, ["class"]), (TEST_LOCK, ["class", "test"])])
def test_the_locks_cover_every_listed_package_within_its_bound(lock, groups):
    """Every package of pyproject.toml's lists (with the packages its extras name: dask[distributed] brings
    distributed) is pinned in the lock at a version its bound allows; `make lock` refreshes a lock that is behind."""
    pins = pins_here(lock)
    for req in _requirements(*groups):
        name = canonicalize_name(req.name)
        assert name in pins, f"{lock.name} lacks {req} (run make lock)"
        assert req.specifier.contains(pins[name], prereleases=True), f"{lock.name}: {name}=={pins[name]} is not {req}"
        for extra in req.extras:
            assert extra in pins, f"{lock.name} lacks {req.name}[{extra}]'s {extra} (run make lock)"


def test_the_class_lock_takes_the_test_locks_versions():
    """A student's laptop runs the versions CI tested: every version the class lock pins (on any platform) is one the
    test lock pins, and on this interpreter both pick the same. (Markers may differ: the tests need some packages on
    more platforms, psutil for distributed.)"""
    tested: dict[str, set[str]] = {}
    for (name, _), version in lock_pins(TEST_LOCK).items():
        tested.setdefault(name, set()).add(version)
    for (name, marker), version in lock_pins(CLASS_LOCK).items():
        assert version in tested.get(name, set()), (
            f"class.txt pins {name}=={version} ({marker or 'everywhere'}); "
            f"test.txt pins {sorted(tested.get(name, set()))}"
        )
    here = pins_here(TEST_LOCK)
    assert {n: v for n, v in pins_here(CLASS_LOCK).items() if here.get(n) != v} == {}


def test_a_students_install_has_no_test_tool():
    """`make lab` installs requirements/class.txt: the notebooks' packages and Voila, and no test tool."""
    class_names = {name for name, _ in lock_pins(CLASS_LOCK)}
    assert not class_names & set(TEST_TOOLS), sorted(class_names & set(TEST_TOOLS))
    assert {"jupyterlab", "numpy", "pandas", "matplotlib", "ipywidgets", "ipykernel", "voila"} <= class_names
    test_names = {name for name, _ in lock_pins(TEST_LOCK)}
    assert set(TEST_TOOLS) - {"ruff"} <= test_names


def test_this_venv_has_the_test_locks_versions():
    """The tests run on the locked versions (make setup and make test install requirements/test.txt)."""
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}
    wrong = {
        name: (version, installed.get(name))
        for name, version in pins_here(TEST_LOCK).items()
        if installed.get(name) != version
    }
    assert not wrong, f"locked vs installed (run make setup): {wrong}"


def test_make_installs_only_from_the_locks_with_hashes():
    makefile = (ROOT / "Makefile").read_text()
    installs = re.findall(r"pip install ([^\n]*)", makefile)
    assert "--quiet --require-hashes -r $(CLASS_LOCK)" in installs
    assert "--quiet --require-hashes -r $(TEST_LOCK)" in installs
    for line in installs:
        assert (
            "-r $(" in line
            and "--require-hashes" in line
            or "--no-deps -e ." in line
            or "--upgrade pip" in line
            or line.endswith("uv; }")
        ), f"an install not from a lock: pip install {line}"
    assert re.search(r"^CLASS_LOCK := requirements/class.txt$", makefile, re.M)
    assert re.search(r"^TEST_LOCK := requirements/test.txt$", makefile, re.M)
    assert re.search(r"^lab: check-edition class-setup ", makefile, re.M) and re.search(
        r"^present: check-edition class-setup( |$)", makefile, re.M
    )
    assert re.search(r"^test: setup ", makefile, re.M) and re.search(r"^setup: \$\(STAMP\)$", makefile, re.M)


def test_the_readme_versions_are_the_locked_ones():
    """README, "Versions": each "name X.Y.Z" it lists is the test lock's pin for this Python."""
    text = (ROOT / "README.md").read_text()
    versions = text[text.index("## Versions") :]
    pins = pins_here(TEST_LOCK)
    named = re.findall(r"([a-z][a-z0-9\-]+) (\d+\.\d+(?:\.\d+)?)\b", versions)
    checked = [(n, v) for n, v in named if n in pins]
    assert len(checked) >= 15, checked
    assert all(pins[n] == v for n, v in checked), [(n, v, pins[n]) for n, v in checked if pins[n] != v]
