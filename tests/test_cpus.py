"""The CPUs a process may use (toyhw.machine.cpus): cgroup quotas laid as fake files, a real affinity mask, the override."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from toyhw.machine import cpus
from toyhw.evolve.experiments import sweep

ROOT = pathlib.Path(__file__).resolve().parents[1]

V2_MOUNT = "30 23 0:27 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
V1_MOUNT = "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"


def lay(root: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    """Write `files` (path below root -> text) and return root."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def v2(tmp_path: pathlib.Path, cpu_max: str, parent_max: str = "max 100000") -> pathlib.Path:
    """A cgroup v2 host: the process in user.slice/user-1001.slice (a TLJH user's systemd slice)."""
    return lay(
        tmp_path,
        {
            "proc/self/mountinfo": V2_MOUNT,
            "proc/self/cgroup": "0::/user.slice/user-1001.slice/session.scope\n",
            "sys/fs/cgroup/user.slice/cpu.max": parent_max,
            "sys/fs/cgroup/user.slice/user-1001.slice/cpu.max": cpu_max,
            "sys/fs/cgroup/user.slice/user-1001.slice/session.scope/cpu.max": "max 100000\n",
        },
    )


def test_a_v2_quota_of_one_cpu_gives_one_worker(tmp_path):
    root = v2(tmp_path, "100000 100000\n")
    assert cpus.quota(root) == 1.0
    assert cpus.available(root, environ={}) == 1


def test_a_v2_quota_binds_from_an_ancestor_and_the_tightest_wins(tmp_path):
    root = v2(tmp_path, "400000 100000\n", parent_max="150000 100000\n")
    assert cpus.quota(root) == 1.5


def test_a_fraction_of_a_cpu_is_rounded_up_and_never_below_one(tmp_path):
    assert cpus.available(v2(tmp_path / "a", "150000 100000"), environ={}) == min(2, cpus.affinity())
    assert cpus.available(v2(tmp_path / "b", "20000 100000"), environ={}) == 1


def test_no_v2_limit_leaves_the_affinity(tmp_path):
    root = v2(tmp_path, "max 100000\n")
    assert cpus.quota(root) is None
    assert cpus.available(root, environ={}) == len(os.sched_getaffinity(0))


def test_a_v1_quota_of_one_cpu_gives_one_worker(tmp_path):
    root = lay(
        tmp_path,
        {
            "proc/self/mountinfo": V1_MOUNT,
            "proc/self/cgroup": "4:cpu,cpuacct:/user/jupyter-alice\n0::/\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
            "sys/fs/cgroup/cpu,cpuacct/user/jupyter-alice/cpu.cfs_quota_us": "50000\n",
            "sys/fs/cgroup/cpu,cpuacct/user/jupyter-alice/cpu.cfs_period_us": "50000\n",
        },
    )
    assert cpus.quota(root) == 1.0
    assert cpus.available(root, environ={}) == 1


def test_a_v1_container_reads_its_own_mount_when_the_host_path_is_not_there(tmp_path):
    root = lay(
        tmp_path,
        {
            "proc/self/mountinfo": V1_MOUNT.replace(" / /sys", " /docker/abc /sys"),
            "proc/self/cgroup": "4:cpu,cpuacct:/docker/abc\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "100000\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        },
    )
    assert cpus.quota(root) == 1.0


def test_no_cgroup_files_mean_no_quota(tmp_path):
    assert cpus.quota(tmp_path) is None
    assert cpus.available(tmp_path, environ={}) == cpus.affinity()


@pytest.fixture
def fresh_warnings():
    """Forget which bad values were already warned about (the warning is once per value)."""
    cpus._warn.cache_clear()
    yield
    cpus._warn.cache_clear()


def test_the_override_wins(tmp_path):
    root = v2(tmp_path, "100000 100000\n")
    assert cpus.available(root, environ={"TOYHW_WORKERS": "3"}) == 3
    assert cpus.available(root, environ={"TOYHW_WORKERS": " 3 "}) == 3
    assert cpus.available(root, environ={"TOYHW_WORKERS": "  "}) == 1  # blank: unset


BAD = ["0", "-2", "two", "abc", "1.5", "1_000", "+3", "0x10", "١٢", "３", "1e3", "9" * 6000]
"""Refused: not a positive integer, or not in ASCII digits (int() reads Arabic-Indic "١٢", full-width "３" and
"1_000"), or beyond every bound."""


@pytest.mark.parametrize("bad", BAD)
def test_a_bad_override_is_one_line_naming_the_value_cut_and_what_is_allowed(bad, tmp_path, capsys, fresh_warnings):
    root = v2(tmp_path, "100000 100000\n")
    with pytest.raises(ValueError) as err:
        cpus.check_override(bad, 256)
    shown = repr(bad) if len(bad) <= 40 else f"{bad[:40]!r}... ({len(bad):,} characters)"
    assert str(err.value) == (
        f"TOYHW_WORKERS = {shown} is not allowed; it must be an integer >= 1 and <= 256 in ASCII digits (the worker "
        "processes of a sweep), or unset"
    )
    assert cpus.available(root, environ={"TOYHW_WORKERS": bad}, most=256) == 1  # what the quota grants
    assert cpus.available(root, environ={"TOYHW_WORKERS": bad}, most=256) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1  # one line, once
    assert err.startswith(f"toyhw: TOYHW_WORKERS = {shown} is not allowed") and len(err) < 300
    assert err.endswith("; ignored: sweeps use the CPUs this process may use\n")


def test_the_sweep_sizes_its_default_pool_from_here(monkeypatch, capsys, fresh_warnings):
    monkeypatch.setenv("TOYHW_WORKERS", "1")
    assert sweep.default_workers() == 1
    monkeypatch.setenv("TOYHW_WORKERS", "5")
    assert sweep.default_workers() == 5
    monkeypatch.setenv("TOYHW_WORKERS", "257")
    assert sweep.default_workers() == min(cpus.available(environ={}), 256)
    assert "TOYHW_WORKERS = '257' is not allowed; it must be an integer >= 1 and <= 256" in capsys.readouterr().err


def test_a_notebooks_study_runs_under_a_bad_override_with_one_line(tmp_path):
    """`TOYHW_WORKERS=abc` once made a notebook's sweep raise: the study runs, one line says why the value was
    ignored."""
    env = {**os.environ, "TOYHW_WORKERS": "abc"}
    code = (
        "from toyhw.evolve.experiments import sweep\n"
        "print(len(sweep.ablation_study(['full'], [0, 1], 20, workers=None).runs['full']))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.split() == ["2"]
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("toyhw: TOYHW_WORKERS = 'abc' is not allowed")


# Run in a fresh process: the sweep's default pool, with process pools made to fail, over a 2-job study.
STUDY_ON_ONE_CPU = """
import concurrent.futures
from toyhw.evolve.experiments import sweep

class NoPool:
    def __init__(self, *args, **kwargs):
        raise AssertionError("a process pool was started")

concurrent.futures.ProcessPoolExecutor = NoPool
study = sweep.ablation_study(["full"], [0, 1], 20)
print(sweep.default_workers(), len(study.runs["full"]))
"""


def test_a_study_on_one_cpu_runs_serially_without_a_pool(monkeypatch):
    """The quota (here the override a quota of 1 CPU gives) reaches the study: no process pool is started."""
    env = {**os.environ, "TOYHW_WORKERS": "1"}
    out = subprocess.run([sys.executable, "-c", STUDY_ON_ONE_CPU], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "2"]


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset (util-linux) is not installed")
def test_a_process_pinned_to_one_cpu_runs_its_study_on_one_worker():
    """A real process under `taskset -c 0`: the affinity mask, read by the sweep's default, with no override."""
    env = {k: v for k, v in os.environ.items() if k != "TOYHW_WORKERS"}
    out = subprocess.run(
        ["taskset", "-c", "0", sys.executable, "-c", STUDY_ON_ONE_CPU],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "2"]
