"""Notebook 03's exercise checks: a heuristic that beats the expert, the oracle's BLOCK_M on two GPUs, vLLM's ranks
at another load latency, and the model's error without its timing methods.

Each check recomputes its answer with the pack (the H100 time table, the oracle per shape, a fresh table for a GPU
with another latency, the validation set) and compares the student's value with it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toyhw.course import compare, pristine
from toyhw.course.check import Verdict, attempt, failed, on_one_line, passed
from toyhw.gemm import expert, report, shapes, validate, vllm
from toyhw.gemm.config import GemmConfig
from toyhw.gemm.gpu import get_gpu
from toyhw.gemm.time_table import TimeTable, shared_table
from toyhw.i18n import N_, t

CHOOSE_SECONDS = RANKS_SECONDS = 10.0  # the solutions answer in well under a second
RULE_CONFIGS = 8  # four ranges of M, each with at most a narrow-layer variant: at most 8 distinct configs
NARROW_N = 2048  # the narrow-layer test Exercise 1 allows: N <= 2048
BLOCK_M_GPUS = ("H100", "A100")
BLOCK_M_MS = (16, 24, 48, 64)
BLOCK_M_LAYER = "8B gate_up"
LATENCIES_S = (0.5e-6, 1.2e-6)  # the two loaded latencies Exercise 3 asks about
OTHER_LATENCY_S = 0.8e-6  # and one it does not: a copy of the notebook's two answers fails there
OTHER_BLOCK_M_CALLS = (("L40S", {}), ("H100", {"layer": "70B/8 o", "ms": (8, 32, 96)}))
"""Exercise 2's calls the notebook does not show: another GPU, and another layer at other token counts."""
TOLERANCE = 1e-6  # the errors of Exercise 4 are computed, not measured: they must agree to rounding

ERRORS = {"model": N_("check.nb03.exercise_4.model_error"), "kernel": N_("check.nb03.exercise_4.kernel_error")}
"""Exercise 4: the two errors a pair holds, as its verdict names them."""

_shown = compare.shown


def _table() -> TimeTable:
    return shared_table("H100")


def expert_speedup(configs: Mapping[shapes.Shape, GemmConfig], shape_list: list[shapes.Shape]) -> float:
    """Lecture 14's score: the geometric-mean speedup of the chosen configs over the expert on `shape_list`."""
    table = _table()
    return report.geomean([table.time(expert.expert_config(s), s) / table.time(configs[s], s) for s in shape_list])


@on_one_line
def exercise_1(choose: Any) -> Verdict:
    """Does `choose(M, N, K)` return launchable configs, within the rule budget, that beat the expert on TRAIN?

    Asked for every lecture shape and for demo 3's new shapes (other token counts, two 405B layers), which the notebook
    never scores: a table of the lecture shapes' configs is no heuristic there.
    """
    if not callable(choose):
        return failed(t("check.nb03.exercise_1.not_a_function", type=compare.type_name(choose)))
    table = _table()
    every = shapes.all_shapes()
    train, test = shapes.split_shapes(every)
    asked = every + [s for s in shapes.new_shapes() if s not in set(every)]
    found, error = attempt("choose", lambda: [compare.plain(choose(s.M, s.N, s.K)) for s in asked], CHOOSE_SECONDS)
    if error is not None:
        return error
    configs: dict[shapes.Shape, GemmConfig] = {}
    for s, config in zip(asked, found):
        call = f"choose({s.M}, {s.N}, {s.K})"
        if type(config) is not GemmConfig:
            return failed(t("check.nb03.exercise_1.not_a_config", call=call, value=_shown(config)))
        if not math.isfinite(table.time(config, s)):
            return failed(t("check.nb03.exercise_1.cannot_launch", call=call, config=config.short()))
        configs[s] = config
    distinct = set(configs.values())
    if len(distinct) > RULE_CONFIGS:
        return failed(t("check.nb03.exercise_1.too_many", configs=len(distinct), most=RULE_CONFIGS))
    by_m: dict[tuple[int, bool], list[shapes.Shape]] = {}
    for s in asked:
        by_m.setdefault((s.M, s.N <= NARROW_N), []).append(s)
    for (m, narrow), group in sorted(by_m.items()):
        apart = next((other for other in group if configs[other] != configs[group[0]]), None)
        if apart is not None:
            return failed(
                t("check.nb03.exercise_1.layers_apart", M=m, layer=group[0].name, other=apart.name, narrow=NARROW_N)
            )
        wide = by_m.get((m, False))
        if (
            narrow
            and wide
            and dataclasses.replace(configs[group[0]], split_k=1) != dataclasses.replace(configs[wide[0]], split_k=1)
        ):
            return failed(t("check.nb03.exercise_1.more_than_split_k", M=m))
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


def oracle_block_ms(gpu_name: str, layer: str = BLOCK_M_LAYER, ms: Sequence[int] = BLOCK_M_MS) -> dict[int, int]:
    """The oracle's BLOCK_M for `layer` (8B gate_up) at each M of `ms` (16, 24, 48 and 64) on `gpu_name`."""
    table = shared_table(gpu_name)
    return {m: table.oracle(shapes.layer_shape(layer, m))[0].block_m for m in ms}


def _block_m_calls() -> list[tuple[str, str, tuple[int, ...], dict[str, Any]]]:
    """Exercise 2's calls: (GPU, layer, token counts, the keyword arguments the call passes)."""
    calls = [(name, {}) for name in BLOCK_M_GPUS] + list(OTHER_BLOCK_M_CALLS)
    return [
        (name, kwargs.get("layer", BLOCK_M_LAYER), tuple(kwargs.get("ms", BLOCK_M_MS)), kwargs)
        for name, kwargs in calls
    ]


@on_one_line
def exercise_2(oracle_block_m: Any) -> Verdict:
    """Does `oracle_block_m(gpu_name)` give the oracle's BLOCK_M for 8B gate_up at M = 16, 24, 48, 64 on both GPUs?

    Then on a GPU and a layer the notebook does not show (with the stub's `layer` and `ms`): a copy of the two
    answers is no function of the GPU.
    """
    if not callable(oracle_block_m):
        return failed(t("check.nb03.exercise_2.not_a_function", type=compare.type_name(oracle_block_m)))
    found = {}
    for name, layer, ms, kwargs in _block_m_calls():
        given = "".join(f", {key}={value!r}" for key, value in kwargs.items())
        call = f"oracle_block_m({name!r}{given})"
        value, error = attempt(call, lambda: compare.plain(oracle_block_m(name, **kwargs)))
        if error is not None:
            return error
        if not isinstance(value, dict):
            return failed(t("check.nb03.exercise_2.not_a_dict", call=call, value=_shown(value)))
        truth = oracle_block_ms(name, layer, ms)
        for m, block_m in truth.items():
            if not any(compare.same(key, m) for key in value):
                return failed(t("check.nb03.exercise_2.no_entry", call=call, M=m))
            got = next(v for key, v in value.items() if compare.same(key, m))
            if not compare.same(got, block_m):
                return failed(
                    t("check.nb03.exercise_2.wrong_tile", call=call, M=m, value=_shown(got), layer=layer, gpu=name)
                )
        if name in BLOCK_M_GPUS and not kwargs:
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
    """Does `vllm_ranks_at(s)` rank vLLM's configs as the model does with a loaded latency of s seconds?

    Asked at the exercise's two latencies and at one the notebook does not show (0.8 us).
    """
    if not callable(vllm_ranks_at):
        return failed(t("check.nb03.exercise_3.not_a_function", type=compare.type_name(vllm_ranks_at)))
    for latency in LATENCIES_S + (OTHER_LATENCY_S,):
        call = f"vllm_ranks_at({latency * 1e6:g}e-6)"
        value, error = attempt(call, lambda latency=latency: compare.plain(vllm_ranks_at(latency)), RANKS_SECONDS)
        if error is not None:
            return error
        if not isinstance(value, (list, tuple)) or not all(type(r) is vllm.VllmRank for r in value):
            return failed(t("check.nb03.exercise_3.not_ranks", call=call, value=_shown(value)))
        got = {(r.M, r.gemm): r.rank for r in value}
        truth = ranks_at_latency(latency)
        if set(got) != set(truth) or len(value) != len(truth):
            return failed(t("check.nb03.exercise_3.entries", call=call, entries=len(value), pairs=len(truth)))
        wrong = [key for key in truth if not compare.same(got[key], truth[key])]
        if wrong:
            m, gemm = wrong[0]
            return failed(
                t(
                    "check.nb03.exercise_3.wrong_rank",
                    call=call,
                    M=m,
                    gemm=gemm,
                    got=_shown(got[(m, gemm)]),
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


def errors_without_timing(found: Sequence[validate.Check] | None = None) -> dict[str, tuple[float, float]]:
    """Per timing method and "all": (the model's error, the error of the kernel time alone), over `found` (default:
    every validation check)."""
    found = list(_found() if found is None else found)
    groups: dict[str, list[validate.Check]] = {"all": found}
    for c in found:
        groups.setdefault(c.measurement.timing, []).append(c)
    return {
        name: (_error(members, lambda c: c.model_us), _error(members, lambda c: c.kernel_us))
        for name, members in groups.items()
    }


def _error_cases() -> list[tuple[str, list[validate.Check]]]:
    """Exercise 4's inputs: every check of Section 8, then every other one (a list the notebook never shows)."""
    return [("error_without_timing(found)", list(_found())), ("error_without_timing(found[::2])", list(_found())[::2])]


@on_one_line
def exercise_4(error_without_timing: Any) -> Verdict:
    """Does `error_without_timing(found)` give, per timing method and "all", the model's error and the kernel's?

    Given Section 8's checks, then every other one of them: a copy of the notebook's answer holds only for the first.
    """
    if not callable(error_without_timing):
        return failed(t("check.nb03.exercise_4.not_a_function", type=compare.type_name(error_without_timing)))
    for call, found in _error_cases():
        given = compare.copied(found)
        value, error = attempt(call, lambda: compare.plain(error_without_timing(given)))
        if error is not None:
            return error
        if not isinstance(value, dict):
            return failed(t("check.nb03.exercise_4.not_a_dict", call=call, value=_shown(value)))
        truth = errors_without_timing(found)
        for name, (model, kernel) in truth.items():
            if name not in value:
                return failed(t("check.nb03.exercise_4.no_entry", call=call, name=repr(name), methods=", ".join(truth)))
            pair = value[name]
            if not isinstance(pair, (tuple, list)) or len(pair) != 2 or any(compare.number(x) is None for x in pair):
                return failed(
                    t("check.nb03.exercise_4.not_two_numbers", call=call, name=repr(name), value=_shown(pair))
                )
            for key, got, want in (("model", pair[0], model), ("kernel", pair[1], kernel)):
                if abs(compare.number(got) - want) > TOLERANCE:
                    shown_got, shown_want = compare.apart(compare.number(got), want, decimals=4)
                    return failed(
                        t(
                            "check.nb03.exercise_4.differs",
                            call=call,
                            name=repr(name),
                            error=t(ERRORS[key]),
                            got=shown_got,
                            want=shown_want,
                        )
                    )
    model, kernel = errors_without_timing()["all"]
    return passed(t("check.nb03.exercise_4.passed", model=model, kernel=kernel, timings=len(_found())))


pristine.watch()
