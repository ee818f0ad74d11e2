"""The pack's set-up stays coherent: conda and pip list the same packages, CI runs the README's test command."""
import pathlib
import re
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~\[;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _spec(requirement: str) -> str:
    """Return the requirement without extras and spaces (conda's dask is pip's dask[distributed])."""
    return re.sub(r"\[.*?\]", "", requirement).replace(" ", "")


def pip_requirements() -> dict[str, str]:
    """Return name -> requirement for the runtime and test dependencies of pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = project["dependencies"] + project["optional-dependencies"]["test"]
    return {_name(r): _spec(r) for r in reqs}


def conda_requirements() -> dict[str, str]:
    """Return name -> requirement for the conda packages of environment.yml (python and pip excluded)."""
    reqs = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text[text.index("dependencies:"):].splitlines():
        m = re.match(r"^  - ([A-Za-z0-9_.\-\[\]]+[^#]*)$", line)
        if m and not m.group(1).startswith(("pip", "python")):
            reqs[_name(m.group(1))] = _spec(m.group(1))
    return reqs


def test_environment_yml_and_pyproject_list_the_same_packages_and_bounds():
    assert conda_requirements() == pip_requirements()


def test_ci_runs_the_readme_test_command():
    ci = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()
          if line.strip() and not line.startswith(("#", "set ", "cd "))]
    assert ci == ["make test"]
    assert "make test" in (ROOT / "README.md").read_text()


def test_every_optional_extra_is_in_the_test_extra():
    """CI installs the test extra: an extra's packages (cluster's dask, llm's openai) are tested only if listed there."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    tested = {_name(r): _spec(r) for r in extras["test"]}
    for name, reqs in extras.items():
        for r in reqs:
            assert tested.get(_name(r)) == _spec(r), f"extra {name!r}: {r} is not in the test extra"
