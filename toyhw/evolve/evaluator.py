"""The evaluator: score a tiling heuristic by running its kernels on the training shapes, with a cascade and a check.

Score = geometric-mean speedup over the expert heuristic on the training shapes (AlphaEvolve scored its Gemini tiling
heuristic the same way, on half of the shapes, the other half held out). Options:

- check all branches: a static launchability check of every branch *before* any run (rejects latent bad branches);
- cascade: run a cheap subset of the shapes first and the rest only if the program is promising there.

It counts kernel runs (`kernel_runs`, the cost of the search) and keeps the best time and config ever seen per shape,
which is what per-shape feedback (`vs_best`) is made of: it costs nothing beyond measurements already made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter
from typing import Mapping, Optional, Sequence

import numpy as np

from toyhw.machine import libm
from toyhw.gemm import config as gemm_config
from toyhw.evolve.config import DEFAULT, EvolveConfig
from toyhw.evolve.llm import Feedback
from toyhw.evolve.programs import Program, expert_program
from toyhw.evolve.shape_times import ShapeTimes
from toyhw.gemm.shapes import Shape

CASCADE_EVERY = DEFAULT.cascade_every
"""Stage 1 of the cascade runs every 4th training shape (a quarter of the runs)."""
CASCADE_RATIO = DEFAULT.cascade_ratio
"""Stage 1 passes when its score is at least this share of the best stage-1 score seen so far."""


@dataclass(frozen=True)
class EvalResult:
    """The outcome of evaluating one program.

    Attributes:
        score: geometric-mean speedup over the expert on the training shapes, None if rejected.
        times: time per training shape (microseconds), None if rejected.
        status: "ok", "bad branch" (static check), "crash" (a run failed to launch), "cascade" (stage 1 not
            promising) or "invalid" (no program to run: the LLM's reply gave none).
        runs: kernel runs this evaluation cost.
        stage1: the score on the cascade's stage-1 shapes; bar: the stage-1 score it had to reach (both None when
            the cascade is off or the branch check rejected the program first).
    """

    score: Optional[float]
    times: Optional[np.ndarray]
    status: str
    runs: int
    stage1: Optional[float] = None
    bar: Optional[float] = None


@dataclass(frozen=True)
class ShapeFeedback:
    """Per-shape feedback on one program.

    Attributes:
        shape: the training shape.
        config: the config the program picks for it.
        time: its time (microseconds; inf if it cannot launch).
        vs_roofline: roofline time / time (<= 1; small = far from the hardware bound).
        vs_best: best time ever seen on this shape / time (<= 1; small = a known faster config exists).
        best_config: the config that gave the best time seen.
    """

    shape: Shape
    config: gemm_config.GemmConfig
    time: float
    vs_roofline: float
    vs_best: float
    best_config: gemm_config.GemmConfig

    def __getitem__(self, key: str):
        return getattr(self, key)  # the seed's driver reads rows like dicts: row["vs_best"]


_INVALID = EvalResult(None, None, "invalid", 0)
_CONFIG = attrgetter("config")


def _geomean_ratio(base: np.ndarray, times: np.ndarray) -> float:
    return _geomean_from_logs(libm.log(base), libm.log(times))


def _geomean_from_logs(log_base: np.ndarray, log_times: np.ndarray) -> float:
    return math.exp(_log_ratio_sum(log_base, log_times) / len(log_times))


def _log_ratio_sum(log_base: np.ndarray, log_times: np.ndarray) -> float:
    # Times are positive, inf where a config cannot launch, and the base is finite: the sum is -inf exactly when some
    # time is inf, which spares the loop a separate isfinite pass.
    return float(np.add.reduce(log_base - log_times))


class Evaluator:
    """Scores programs on the training shapes; counts kernel runs; remembers the best time and config per shape."""

    def __init__(
        self,
        train_shapes: Sequence[Shape],
        table,
        check_all_branches: bool = True,
        cascade: bool = True,
        expert: Optional[Program] = None,
        cascade_every: int = CASCADE_EVERY,
        cascade_ratio: float = CASCADE_RATIO,
    ) -> None:
        if isinstance(train_shapes, Sequence) and not train_shapes:
            raise ValueError("train_shapes is empty; the evaluator needs at least one shape")
        _check_shapes(train_shapes)
        self.data = ShapeTimes(train_shapes, table)
        self.shapes = self.data.shapes
        self.table = table
        self.check_all_branches = check_all_branches
        self.cascade = cascade
        self.expert = expert if expert is not None else expert_program()
        self.expert_times = self.data.program_times(self.expert)
        if not np.all(np.isfinite(self.expert_times)):
            raise ValueError("the expert program cannot launch on every training shape")
        self.roofline = np.array([table.roofline(s) for s in self.shapes])
        self.best_time = np.full(len(self.shapes), math.inf)
        self.best_index = np.zeros(len(self.shapes), dtype=np.int64)
        self.kernel_runs = 0
        self._launchable = self.data._launchable
        self._config_ok: dict[gemm_config.GemmConfig, bool] = {}
        # ids of the table's own launchable configs (the table keeps them alive, so ids stay theirs): the mock LLM
        # writes only these instances, and a set test over all branches at C speed replaces a loop per rule
        self._good_ids = {id(c) for c, ok in zip(table.configs, self._launchable) if ok}
        self._good_ids.update(id(c) for c in self.expert.branches() if not self.has_bad_branch(Program((), c)))
        self._log_expert = self.data.program_log_times(self.expert)
        self._best_stage1 = 1.0
        self._set_stage1(cascade_every, cascade_ratio)

    def _set_stage1(self, every: int, ratio: float) -> None:
        stage1 = np.arange(0, len(self.shapes), every)
        self.cascade_every, self.cascade_ratio = every, ratio
        self._stage1 = stage1
        self._log_expert1 = self._log_expert[stage1]
        self._stage2 = np.setdiff1d(self.data.rows, stage1)

    def configure_cascade(self, config: EvolveConfig) -> None:
        """Take a run's cascade settings from `config`: on or off (unless None), stage-1 stride and pass ratio."""
        if config.cascade is not None:
            self.cascade = config.cascade
        if (config.cascade_every, config.cascade_ratio) != (self.cascade_every, self.cascade_ratio):
            self._set_stage1(config.cascade_every, config.cascade_ratio)

    def feedback(
        self,
        times: np.ndarray,
        mix: Optional[Mapping[str, float]] = None,
        best_configs: Optional[Sequence[gemm_config.GemmConfig]] = None,
    ) -> Feedback:
        """Return the prompt's feedback on a program with per-shape `times` (a parent's): its share of the roofline
        and of the best time seen on every training shape, the best configs seen, and the edit kinds' `mix`.

        `best_configs` defaults to a list of the best configs seen now (the loop passes a view that follows them).
        """
        if best_configs is None:
            best_configs = [self.table.configs[i] for i in self.best_index]
        return Feedback(self.shapes, self.roofline / times, self.best_time / times, best_configs, mix)

    def has_bad_branch(self, program: Program) -> bool:
        """Return True when some branch of `program` returns a config that cannot launch (the static check)."""
        if self._good_ids.issuperset(map(id, map(_CONFIG, program.rules))) and id(program.default) in self._good_ids:
            return False
        info = self.data.rule_info  # some config is not a known launchable instance: decide rule by rule
        if not all(info(rule)[3] for rule in program.rules):
            return True
        good = self._config_ok.get(program.default)
        if good is None:
            good = self._config_ok[program.default] = bool(self._launchable[self.data.config_index(program.default)])
        return not good

    def _record(self, rows: np.ndarray, times: np.ndarray, idx: np.ndarray) -> None:
        """Count kernel runs on `rows` (their `times`; `idx`: the config column of every shape) and keep the best."""
        self.kernel_runs += len(rows)
        better = times < self.best_time[rows]
        if np.count_nonzero(better):  # the C-level count: ndarray.any goes through a Python wrapper
            where = rows[better]
            self.best_time[where] = times[better]
            self.best_index[where] = idx[where]

    def evaluate_root(self, program: Program) -> EvalResult:
        """Evaluate a search's initial program in full and let its stage-1 score set the cascade's bar.

        A search cannot start without its root's score, and the bar is the best stage-1 score *seen in this search*:
        a root weaker than the expert (stage-1 score below 0.95) would otherwise be cut by the expert's bar of 1.0.
        For the expert as root (stage-1 score 1.0) this changes nothing.
        """
        self._best_stage1 = 0.0  # nothing seen yet: any stage-1 score passes, and the root's becomes the bar
        return self.evaluate(program)

    def evaluate(self, program: Optional[Program]) -> EvalResult:
        """Return the program's score and per-shape times, or the reason it was rejected (and count the runs).

        `program` None is a failed proposal (toyhw.evolve.llm.failed_proposal): rejected as "invalid", no runs.
        """
        if program is None:
            return _INVALID
        if self.check_all_branches and self.has_bad_branch(program):
            return EvalResult(None, None, "bad branch", 0)
        idx = self.data.config_indices(program)
        # every shape's time read at once; only what `_record` counts was run (the cascade may stop after stage 1)
        times = self.data.times[self.data.rows, idx]
        logs = self.data.log_times[self.data.rows, idx]
        before = self.kernel_runs
        stage1_score = bar = None
        if self.cascade:
            stopped, stage1_score, bar = self._cascade_stage1(idx, times, logs)
            if stopped is not None:
                return EvalResult(None, None, stopped, self.kernel_runs - before, stage1_score, bar)
            self._record(self._stage2, times[self._stage2], idx)
        else:
            self._record(self.data.rows, times, idx)
        total = _log_ratio_sum(self._log_expert, logs)
        if total == -math.inf:  # some kernel could not launch
            return EvalResult(None, None, "crash", self.kernel_runs - before, stage1_score, bar)
        return EvalResult(math.exp(total / len(times)), times, "ok", self.kernel_runs - before, stage1_score, bar)

    def _cascade_stage1(
        self, idx: np.ndarray, times: np.ndarray, logs: np.ndarray
    ) -> tuple[Optional[str], float, float]:
        """Run the cascade's stage 1 (every shape's config column `idx`, times and log times given).

        Return (None if the program goes on to stage 2, else "crash" or "cascade"; its stage-1 score; the bar
        it faced)."""
        stage1 = self._stage1
        self._record(stage1, times[stage1], idx)
        total = _log_ratio_sum(self._log_expert1, logs[stage1])
        score = math.exp(total / len(stage1))
        bar = self.cascade_ratio * self._best_stage1
        if total == -math.inf:  # some stage-1 kernel could not launch
            return "crash", score, bar
        if score < bar:
            return "cascade", score, bar
        self._best_stage1 = max(self._best_stage1, score)
        return None, score, bar

    def per_shape(self, program: Program) -> list[ShapeFeedback]:
        """Return per-shape feedback on `program` (a report: it reads the table and counts no runs)."""
        idx = self.data.config_indices(program)
        times = self.data.times[self.data.rows, idx]
        best = np.minimum(self.best_time, times)
        best_idx = np.where(times <= self.best_time, idx, self.best_index)
        configs = self.table.configs
        return [
            ShapeFeedback(
                s,
                configs[idx[i]],
                float(times[i]),
                float(self.roofline[i] / times[i]),
                float(best[i] / times[i]),
                configs[best_idx[i]],
            )
            for i, s in enumerate(self.shapes)
        ]


def _check_shapes(shapes: Sequence[Shape]) -> None:
    """Refuse an empty or malformed shape list: a geometric mean over no shapes is NaN, not a score."""
    if isinstance(shapes, (str, bytes)) or not isinstance(shapes, Sequence) or not shapes:
        raise ValueError(f"shapes = {shapes!r} is not allowed; give a non-empty list of Shape (e.g. ctx.train)")
    for i, shape in enumerate(shapes):
        if not isinstance(shape, Shape):
            raise ValueError(f"shapes[{i}] = {shape!r} is not allowed; each must be a Shape (toyhw.gemm.shapes)")


def geomean_speedup(program: Program, shapes: Sequence[Shape], table, expert: Optional[Program] = None) -> float:
    """Return `program`'s geometric-mean speedup over the expert on `shapes` (0.0 if it cannot launch on one)."""
    _check_shapes(shapes)
    data = ShapeTimes(shapes, table)
    times = data.program_times(program)
    if not np.all(np.isfinite(times)):
        return 0.0
    return _geomean_ratio(data.program_times(expert if expert is not None else expert_program()), times)


def oracle_speedup(shapes: Sequence[Shape], table, expert: Optional[Program] = None) -> float:
    """Return the geometric-mean speedup of the best launchable config per shape over the expert (the ceiling)."""
    _check_shapes(shapes)
    data = ShapeTimes(shapes, table)
    best = data.times.min(axis=1)
    return _geomean_ratio(data.program_times(expert if expert is not None else expert_program()), best)
