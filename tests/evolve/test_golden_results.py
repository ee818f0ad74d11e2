"""Lecture 14's seeded results, pinned so that speed-ups and refactors provably change nothing, on any CPU.

The payload (tests/golden_payload.py, committed in tests/data/golden_results.json) is compared in two parts: discrete
outcomes exactly (kernel runs, rules, programs added, statuses, where each best-so-far curve steps up, the best
programs' source, the printed tables) and floats within golden_payload.FLOAT_RTOL. If a change is *meant* to move
results, regenerate the file in the same commit (`.venv/bin/python tests/golden_payload.py --write`), re-execute the
notebooks (`make notebooks`) and say why in the commit message.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import golden_payload

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "golden_payload.py"
AVX512_GROUPS = "X86_V4 AVX512_ICL AVX512_SPR"  # numpy 2.4's names for its AVX-512 kernels


def _run_payload_script(*args: str, env: dict | None = None) -> tuple[int, str, dict]:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )
    summary = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else {}
    return proc.returncode, proc.stdout + proc.stderr, summary


def _has_avx512() -> bool:
    return (
        "X86_V4" in np._core._multiarray_umath.__cpu_features__
        and np._core._multiarray_umath.__cpu_features__["X86_V4"]
    )


def test_the_golden_results_hold_on_this_cpu():
    found = list(golden_payload.differences(golden_payload.load(), json.loads(json.dumps(golden_payload.payload()))))
    assert not found, "results moved:\n" + "\n".join(found[:40])


@pytest.mark.skipif(not _has_avx512(), reason="this CPU has no AVX-512: numpy runs its AVX2/baseline kernels already")
def test_the_golden_results_hold_with_numpys_avx512_kernels_turned_off():
    # a fresh process in which numpy must not use its AVX-512 kernels (they round some last bits differently)
    check = subprocess.run(
        [sys.executable, "-c", "import numpy as np; print(np._core._multiarray_umath.__cpu_features__['X86_V4'])"],
        capture_output=True,
        text=True,
        env={**os.environ, "NPY_DISABLE_CPU_FEATURES": AVX512_GROUPS},
    )
    assert check.stdout.strip() == "False", check.stdout + check.stderr
    code, output, summary = _run_payload_script(env={"NPY_DISABLE_CPU_FEATURES": AVX512_GROUPS})
    assert code == 0 and summary["differences"] == 0, output[-4000:]


def test_the_discrete_results_survive_last_bit_noise_in_log_exp_and_pow():
    """Another CPU's libm differs in last bits: no comparison of the search may hang on them."""
    code, output, summary = _run_payload_script("--nudge-libm")
    assert code == 0 and summary["differences"] == 0, output[-4000:]
    assert summary["floats_moved"] > 0, "the nudge moved no float: it did not reach the computation"


def test_a_difference_is_reported_only_where_a_result_moved():
    golden = {"runs": 3, "score": 1.1234, "source": "return Config(64)", "curve": [[0, 1.0], [5, 1.1]]}
    assert list(golden_payload.differences(golden, json.loads(json.dumps(golden)))) == []
    assert list(golden_payload.differences(golden, {**golden, "score": 1.1234 * (1 + 1e-15)})) == []
    assert len(list(golden_payload.differences(golden, {**golden, "score": 1.1234 * (1 + 1e-9)}))) == 1
    assert len(list(golden_payload.differences(golden, {**golden, "runs": 4}))) == 1
    assert len(list(golden_payload.differences(golden, {**golden, "runs": 3.0}))) == 1
    assert len(list(golden_payload.differences(golden, {**golden, "curve": [[0, 1.0], [6, 1.1]]}))) == 1
    assert len(list(golden_payload.differences(golden, {**golden, "curve": [[0, 1.0]]}))) == 1
    assert len(list(golden_payload.differences(golden, {**golden, "source": "return Config(32)"}))) == 1


# numpy's functions whose float64 kernels depend on the CPU (numpy dispatches them to AVX-512 code where it can)
_CPU_DEPENDENT = {
    "log",
    "log2",
    "log10",
    "log1p",
    "exp",
    "exp2",
    "expm1",
    "power",
    "float_power",
    "cbrt",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "arctan2",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "logaddexp",
    "logaddexp2",
    "hypot",
    "dot",
    "vdot",
    "inner",
    "matmul",
    "einsum",
    "linalg",
}  # BLAS: its summation order depends on the CPU


def test_no_result_goes_through_numpys_cpu_dependent_math():
    """toyhw computes with toyhw.machine.libm instead (plots are drawings, not results: they may use numpy's)."""
    found = []
    for path in sorted((ROOT / "toyhw").rglob("*.py")):
        if "plots" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in _CPU_DEPENDENT
                and isinstance(node.value, ast.Name)
                and node.value.id in ("np", "numpy")
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: np.{node.attr}")
    assert not found, "use toyhw.machine.libm (the same bits on every CPU):\n" + "\n".join(found)
