"""`make present NB=.. PORT=.. PREHEAT=..`: the values are names, never shell text (NB='x; y' runs nothing)."""

import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture
def fake_voila(tmp_path):
    """A folder whose `voila` only prints its arguments (make's BIN points at it: nothing is served; -o: setup is
    not remade)."""
    (tmp_path / "voila").write_text('#!/bin/sh\necho voila "$@"\n')
    (tmp_path / "voila").chmod(0o755)
    return tmp_path


def present(fake_voila, *assignments):
    return subprocess.run(
        [
            "make",
            "-s",
            "-o",
            ".venv/.toyhw-installed",
            "-o",
            ".venv/.toyhw-class",
            "present",
            f"BIN={fake_voila}",
            *assignments,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "assignment",
    [
        "NB=x; touch {marker}",
        "NB=$(touch {marker})",
        "PORT=1; touch {marker}",
        "NB=`touch {marker}`",
        "PREHEAT=1; touch {marker}",
    ],
)
def test_shell_text_in_nb_or_port_runs_nothing(assignment, fake_voila, tmp_path):
    marker = tmp_path / "ran"
    out = present(fake_voila, assignment.format(marker=marker))
    assert out.returncode != 0 and "is not allowed" in out.stdout and not marker.exists()
    assert not list(ROOT.glob("*ran*.ipynb"))


def test_a_notebook_number_or_path_is_served(fake_voila):
    out = present(fake_voila, "NB=notebooks/03_gemm_cost_model.ipynb", "PORT=9001")
    assert out.returncode == 0
    assert "voila notebooks/03_gemm_cost_model.ipynb --Voila.ip=127.0.0.1 --port=9001" in out.stdout


@pytest.mark.parametrize("edition", ["fr", "zh; touch {marker}", "$(touch {marker})"])
def test_an_unknown_edition_is_refused_naming_the_editions(edition, fake_voila, tmp_path):
    marker = tmp_path / "ran"
    out = present(fake_voila, "NB=02", f"EDITION={edition.format(marker=marker)}")
    assert out.returncode != 0 and "is not allowed; editions: en, zh" in out.stdout and not marker.exists()


def test_preheat_starts_voila_with_a_preheated_kernel_and_is_off_by_default(fake_voila):
    out = present(fake_voila, "NB=02", "PREHEAT=1")
    assert out.returncode == 0 and "--preheat_kernel=True --pool_size=1" in out.stdout
    plain = present(fake_voila, "NB=02")
    assert plain.returncode == 0 and "preheat" not in plain.stdout
