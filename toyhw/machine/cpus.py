"""How many CPUs this process may use: its CPU affinity and its cgroup's CPU quota, with an override.

Why not `os.cpu_count()`: on a shared server (The Littlest JupyterHub, a container, a batch job) each user's processes
run in a cgroup whose CPU quota may grant 1 CPU of a 64-core host, and a process may be pinned to a few cores. A pool
sized by the host's cores would start 64 workers per student, each throttled to a share of that one CPU. This module
reads what the kernel actually grants:

- the affinity mask (`os.sched_getaffinity`, set by `taskset`, cpusets, batch schedulers);
- cgroup v2's `cpu.max` ("$MAX $PERIOD", or "max $PERIOD" for no limit), the tightest of the process's cgroup and its
  ancestors (a parent's limit binds its children) — Linux, Documentation/admin-guide/cgroup-v2.rst, "CPU Interface
  Files";
- cgroup v1's `cpu.cfs_quota_us` / `cpu.cfs_period_us` (-1 for no limit) — Linux,
  Documentation/scheduler/sched-bwc.rst, "Management".

A quota is rounded up to whole CPUs: 1.5 CPUs of quota run two workers at 1.5 CPUs' throughput, where one worker would
leave half a CPU idle; a quota under one CPU still gets one worker. `TOYHW_WORKERS` overrides all of it (a hub's
administrator sets it in the users' environment; a lecturer sets it to try another pool size).

Why a bad TOYHW_WORKERS is a warning, not an error: it is read by every sweep, so an error would fail every study cell
and panel of a notebook until the kernel is restarted; the pool's size changes how fast a study runs, never its
results. So `available` writes one line on stderr (once per value) naming the value and what is allowed, and uses
what it detects. Only ASCII digits are read: `int()` would also take "١٢" (Arabic-Indic) or "1_000".

Every path is read below `root`, so a test can lay fake `/proc/self` and `/sys/fs/cgroup` files in a folder.
"""

from __future__ import annotations

import functools
import math
import os
import pathlib
import re
import sys
from typing import Mapping, Optional

ENV_VAR = "TOYHW_WORKERS"
"""The environment variable that overrides the detected CPU count (an integer >= 1)."""


def available(
    root: str | os.PathLike = "/", environ: Optional[Mapping[str, str]] = None, most: Optional[int] = None
) -> int:
    """Return the worker processes a pool should start: `TOYHW_WORKERS` if set, else the CPUs this process may use
    (the smaller of its affinity mask and its cgroup CPU quota rounded up), at least 1 and at most `most` if given.

    A TOYHW_WORKERS that is not an integer from 1 to `most` in ASCII digits is ignored after one line on stderr
    naming it (the module docstring says why).
    """
    environ = os.environ if environ is None else environ
    override = environ.get(ENV_VAR, "").strip()
    if override:
        value = _override(override, most)
        if value is not None:
            return value
    cpus = affinity()
    limit = quota(root)
    if limit is not None:
        cpus = min(cpus, math.ceil(limit))
    return max(1, min(cpus, most) if most is not None else cpus)


def affinity() -> int:
    """Return the CPUs this process may run on (its affinity mask; the host's CPU count where there is none)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def quota(root: str | os.PathLike = "/") -> Optional[float]:
    """Return the CPUs the cgroup CPU quota grants this process (e.g. 1.5), or None where no quota is set or there is
    no cgroup file system to read (not Linux, or not mounted)."""
    root = pathlib.Path(root)
    limits = [q for q in (_v2_quota(root), _v1_quota(root)) if q is not None]
    return min(limits) if limits else None


MAX_SHOWN_CHARS = 40
"""How much of a bad TOYHW_WORKERS the warning quotes."""


def check_override(text: str, most: Optional[int] = None) -> int:
    """Return TOYHW_WORKERS's `text` as a worker count: an integer from 1 to `most` in ASCII digits; else ValueError
    naming the variable, the value (cut to MAX_SHOWN_CHARS) and what is allowed."""
    digits = text.strip()
    value = int(digits) if re.fullmatch(r"[0-9]{1,9}", digits) else 0  # beyond 9 digits it is above every bound
    if value < 1 or (most is not None and value > most):
        shown = (
            repr(text) if len(text) <= MAX_SHOWN_CHARS else f"{text[:MAX_SHOWN_CHARS]!r}... ({len(text):,} characters)"
        )
        bound = f" and <= {most:,}" if most is not None else ""
        raise ValueError(
            f"{ENV_VAR} = {shown} is not allowed; it must be an integer >= 1{bound} in ASCII digits (the worker "
            "processes of a sweep), or unset"
        )
    return value


def _override(text: str, most: Optional[int]) -> Optional[int]:
    """Return `check_override(text, most)`, or None after one line on stderr when it refuses the value."""
    try:
        return check_override(text, most)
    except ValueError as err:
        _warn(str(err))
        return None


@functools.lru_cache(maxsize=8)
def _warn(message: str) -> None:
    """Write `message` on stderr, once per message (a notebook's every sweep reads the variable)."""
    print(f"toyhw: {message}; ignored: sweeps use the CPUs this process may use", file=sys.stderr)


def _read(path: pathlib.Path) -> Optional[str]:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def _mounts(root: pathlib.Path) -> list[tuple[str, str, str, set[str]]]:
    """Return (mount root, mount point, file system type, super options) of every cgroup mount in mountinfo."""
    mounts = []
    for line in (_read(root / "proc/self/mountinfo") or "").splitlines():
        fields = line.split()
        if " - " not in line or len(fields) < 5:
            continue
        after = line.split(" - ", 1)[1].split()
        if len(after) >= 1 and after[0] in ("cgroup", "cgroup2"):
            options = set(after[2].split(",")) if len(after) >= 3 else set()
            mounts.append((fields[3], fields[4], after[0], options))
    return mounts


def _cgroup_paths(root: pathlib.Path) -> dict[str, str]:
    """Return controller -> cgroup path from /proc/self/cgroup ("" for the v2 unified hierarchy)."""
    paths = {}
    for line in (_read(root / "proc/self/cgroup") or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(",") if parts[1] else [""]:
                paths[controller] = parts[2]
    return paths


def _directories(root: pathlib.Path, mount_root: str, mount_point: str, path: str) -> list[pathlib.Path]:
    """Return the process's cgroup directory under the mount, then each ancestor up to the mount point."""
    relative = path
    if mount_root != "/" and (path == mount_root or path.startswith(mount_root.rstrip("/") + "/")):
        relative = path[len(mount_root) :]
    base = root / mount_point.lstrip("/")
    here = base / relative.strip("/") if relative.strip("/") else base
    if not here.is_dir():  # a container whose /proc/self/cgroup names the host's path: its mount is its own cgroup
        here = base
    directories = [here]
    while here != base and base in here.parents:
        here = here.parent
        directories.append(here)
    return directories


def _v2_quota(root: pathlib.Path) -> Optional[float]:
    path = _cgroup_paths(root).get("")
    if path is None:
        return None
    limits = []
    for mount_root, mount_point, fstype, _ in _mounts(root):
        if fstype != "cgroup2":
            continue
        for directory in _directories(root, mount_root, mount_point, path):
            fields = (_read(directory / "cpu.max") or "").split()
            if len(fields) == 2 and fields[0] != "max":
                limits.append(_ratio(fields[0], fields[1]))
    limits = [q for q in limits if q is not None]
    return min(limits) if limits else None


def _v1_quota(root: pathlib.Path) -> Optional[float]:
    path = _cgroup_paths(root).get("cpu")
    if path is None:
        return None
    limits = []
    for mount_root, mount_point, fstype, options in _mounts(root):
        if fstype != "cgroup" or "cpu" not in options:
            continue
        for directory in _directories(root, mount_root, mount_point, path):
            quota_us = (_read(directory / "cpu.cfs_quota_us") or "").strip()
            period_us = (_read(directory / "cpu.cfs_period_us") or "").strip()
            if quota_us and period_us and quota_us != "-1":
                limits.append(_ratio(quota_us, period_us))
    limits = [q for q in limits if q is not None]
    return min(limits) if limits else None


def _ratio(quota_text: str, period_text: str) -> Optional[float]:
    try:
        quota_us, period_us = int(quota_text), int(period_text)
    except ValueError:
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None
