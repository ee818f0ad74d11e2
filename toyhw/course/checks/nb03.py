"""Notebook 03's exercise checks: a heuristic that beats the expert, the oracle's BLOCK_M on two GPUs, vLLM's ranks
at another load latency, and the model's error without its timing methods.

Each check recomputes its answer with the pack (the H100 time table, the oracle per shape, a fresh table for a GPU
with another latency, the validation set) and compares the student's value with it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
import reprlib
from collections.abc import Callable, Mapping
from typing import Any

from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.gemm import expert, report, shapes, validate, vllm
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import get_gpu
from toyhw.gemm.time_table import TimeTable, shared_table
from toyhw.i18n import N_, t

RULE_CONFIGS = 8  # four ranges of M, each with at most a narrow-layer variant: at most 8 distinct configs
NARROW_N = 2048  # the narrow-layer test Exercise 1 allows: N <= 2048
BLOCK_M_GPUS = ("H100", "A100")
BLOCK_M_MS = (16, 24, 48, 64)
BLOCK_M_LAYER = "8B gate_up"
LATENCIES_S = (0.5e-6, 1.2e-6)  # the two loaded latencies Exercise 3 asks about
TOLERANCE = 1e-6  # the errors of Exercise 4 are computed, not measured: they must agree to rounding

ERRORS = {"model": N_("check.nb03.exercise_4.model_error"), "kernel": N_("check.nb03.exercise_4.kernel_error")}
"""Exercise 4: the two errors a pair holds, as its verdict names them."""

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 30


def _shown(value: Any) -> str:
    """A student's value as a short one-line repr, for a verdict."""
    return " ".join(_REPR.repr(value).split())


def _table() -> TimeTable:
    return shared_table("H100")


def expert_speedup(configs: Mapping[shapes.Shape, GemmConfig], shape_list: list[shapes.Shape]) -> float:
    """Lecture 14's score: the geometric-mean speedup of the chosen configs over the expert on `shape_list`."""
    table = _table()
    return report.geomean([table.time(expert.expert_config(s), s) / table.time(configs[s], s) for s in shape_list])


@on_one_line
def exercise_1(choose: Any) -> Verdict:
    """Does `choose(M, N, K)` return launchable configs, within the rule budget, that beat the expert on TRAIN?"""
    if not callable(choose):
        return failed(t("check.nb03.exercise_1.not_a_function", type=type(choose).__name__))
    table = _table()
    every = shapes.all_shapes()
    train, test = shapes.split_shapes(every)
    configs: dict[shapes.Shape, GemmConfig] = {}
    for s in every:
        config, error = attempt("choose", lambda s=s: choose(s.M, s.N, s.K))
        if error is not None:
            return error
        call = f"choose({s.M}, {s.N}, {s.K})"
        if not isinstance(config, GemmConfig):
            return failed(t("check.nb03.exercise_1.not_a_config", call=call, value=_shown(config)))
        if not math.isfinite(table.time(config, s)):
            return failed(t("check.nb03.exercise_1.cannot_launch", call=call, config=config.short()))
        configs[s] = config
    distinct = set(configs.values())
    if len(distinct) > RULE_CONFIGS:
        return failed(t("check.nb03.exercise_1.too_many", configs=len(distinct), most=RULE_CONFIGS))
    for s in every:
        for other in every:
            if s.M == other.M and (s.N <= NARROW_N) == (other.N <= NARROW_N) and configs[s] != configs[other]:
                return failed(
                    t("check.nb03.exercise_1.layers_apart", M=s.M, layer=s.name, other=other.name, narrow=NARROW_N)
                )
            if (
                s.M == other.M
                and s.N <= NARROW_N < other.N
                and dataclasses.replace(configs[s], split_k=1) != dataclasses.replace(configs[other], split_k=1)
            ):
                return failed(t("check.nb03.exercise_1.more_than_split_k", M=s.M))
    score_train, score_test = expert_speedup(configs, train), expert_speedup(configs, test)
    if score_train <= 1.0:
        return failed(t("check.nb03.exercise_1.no_win", score=score_train))
    return passed(
        t(
            "check.nb03.exercise_1.passed",
            train=score_train,
            test=score_test,
            oracle_train=report.oracle_speedup(train, table),
            oracle_test=report.oracle_speedup(test, table),
        )
    )


def oracle_block_ms(gpu_name: str) -> dict[int, int]:
    """The oracle's BLOCK_M for 8B gate_up at M = 16, 24, 48 and 64 on `gpu_name`."""
    table = shared_table(gpu_name)
    return {m: table.oracle(shapes.layer_shape(BLOCK_M_LAYER, m))[0].block_m for m in BLOCK_M_MS}


@on_one_line
def exercise_2(oracle_block_m: Any) -> Verdict:
    """Does `oracle_block_m(gpu_name)` give the oracle's BLOCK_M for 8B gate_up at M = 16, 24, 48, 64 on both GPUs?"""
    if not callable(oracle_block_m):
        return failed(t("check.nb03.exercise_2.not_a_function", type=type(oracle_block_m).__name__))
    found = {}
    for name in BLOCK_M_GPUS:
        value, error = attempt("oracle_block_m", lambda name=name: oracle_block_m(name))
        if error is not None:
            return error
        call = f"oracle_block_m({name!r})"
        if not isinstance(value, Mapping):
            return failed(t("check.nb03.exercise_2.not_a_dict", call=call, value=_shown(value)))
        truth = oracle_block_ms(name)
        for m, block_m in truth.items():
            if m not in value:
                return failed(t("check.nb03.exercise_2.no_entry", call=call, M=m))
            if value[m] != block_m:
                return failed(
                    t(
                        "check.nb03.exercise_2.wrong_tile",
                        call=call,
                        M=m,
                        value=_shown(value[m]),
                        layer=BLOCK_M_LAYER,
                        gpu=name,
                    )
                )
        found[name] = truth
    gpus = (
        t(
            "check.nb03.exercise_2.gpu",
            gpu=name,
            tiles=t("list.separator").join(f"M={m} {bm}" for m, bm in truth.items()),
        )
        for name, truth in found.items()
    )
    return passed(t("check.nb03.exercise_2.passed", gpus=t("check.nb03.separator").join(gpus)))


@functools.cache
def ranks_at_latency(load_latency_s: float) -> dict[tuple[int, str], int]:
    """vLLM's ranks, by (M, GEMM), on an H100 whose loaded latency is `load_latency_s` (a fresh table)."""
    h100 = dataclasses.replace(get_gpu("H100"), load_latency_s=load_latency_s)
    return {(r.M, r.gemm): r.rank for r in vllm.vllm_ranks(TimeTable(h100))}


@on_one_line
def exercise_3(vllm_ranks_at: Any) -> Verdict:
    """Does `vllm_ranks_at(s)` rank vLLM's configs as the model does with a loaded latency of s seconds?"""
    if not callable(vllm_ranks_at):
        return failed(t("check.nb03.exercise_3.not_a_function", type=type(vllm_ranks_at).__name__))
    for latency in LATENCIES_S:
        call = f"vllm_ranks_at({latency * 1e6:g}e-6)"
        value, error = attempt("vllm_ranks_at", lambda latency=latency: list(vllm_ranks_at(latency)))
        if error is not None:
            return error
        if not all(hasattr(r, "M") and hasattr(r, "gemm") and hasattr(r, "rank") for r in value):
            return failed(t("check.nb03.exercise_3.not_ranks", call=call, value=_shown(value)))
        got = {(r.M, r.gemm): r.rank for r in value}
        truth = ranks_at_latency(latency)
        if set(got) != set(truth):
            return failed(t("check.nb03.exercise_3.entries", call=call, entries=len(got), pairs=len(truth)))
        wrong = [key for key in truth if got[key] != truth[key]]
        if wrong:
            m, gemm = wrong[0]
            return failed(
                t(
                    "check.nb03.exercise_3.wrong_rank",
                    call=call,
                    M=m,
                    gemm=gemm,
                    got=got[(m, gemm)],
                    want=truth[(m, gemm)],
                )
            )
    fast, slow = (ranks_at_latency(latency)[(256, "gate/up")] for latency in LATENCIES_S)
    return passed(
        t(
            "check.nb03.exercise_3.passed",
            fast=fast,
            fast_us=LATENCIES_S[0] * 1e6,
            slow=slow,
            slow_us=LATENCIES_S[1] * 1e6,
        )
    )


@functools.cache
def _found() -> tuple[validate.Check, ...]:
    return tuple(validate.checks())


def _error(members: list[validate.Check], us: Callable[[validate.Check], float]) -> float:
    """Section 8's error: the geometric mean of max(model / measured, measured / model), minus one."""
    logs = [abs(math.log(us(c) / c.measurement.measured_us)) for c in members]
    return math.exp(sum(logs) / len(logs)) - 1.0


def errors_without_timing() -> dict[str, tuple[float, float]]:
    """Per timing method and "all": (the model's error, the error of the kernel time alone)."""
    groups: dict[str, list[validate.Check]] = {"all": list(_found())}
    for c in _found():
        groups.setdefault(c.measurement.timing, []).append(c)
    return {
        name: (_error(members, lambda c: c.model_us), _error(members, lambda c: c.kernel_us))
        for name, members in groups.items()
    }


def _pair(value: Any) -> tuple[float, float] | None:
    """`value` as two finite numbers, or None."""
    try:
        first, second = value
    except (TypeError, ValueError):
        return None
    if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x) for x in (first, second)):
        return None
    return float(first), float(second)


@on_one_line
def exercise_4(error_without_timing: Any) -> Verdict:
    """Does `error_without_timing(found)` give, per timing method and "all", the model's error and the kernel's?"""
    if not callable(error_without_timing):
        return failed(t("check.nb03.exercise_4.not_a_function", type=type(error_without_timing).__name__))
    value, error = attempt("error_without_timing", lambda: error_without_timing(list(_found())))
    if error is not None:
        return error
    if not isinstance(value, Mapping):
        return failed(t("check.nb03.exercise_4.not_a_dict", value=_shown(value)))
    truth = errors_without_timing()
    for name, (model, kernel) in truth.items():
        if name not in value:
            return failed(t("check.nb03.exercise_4.no_entry", name=repr(name), methods=", ".join(truth)))
        pair = _pair(value[name])
        if pair is None:
            return failed(t("check.nb03.exercise_4.not_two_numbers", name=repr(name), value=_shown(value[name])))
        for key, got, want in (("model", pair[0], model), ("kernel", pair[1], kernel)):
            if abs(got - want) > TOLERANCE:
                return failed(
                    t("check.nb03.exercise_4.differs", name=repr(name), error=t(ERRORS[key]), got=got, want=want)
                )
    model, kernel = truth["all"]
    return passed(t("check.nb03.exercise_4.passed", model=model, kernel=kernel, timings=len(_found())))
