"""Sweeps give identical results serially, on local processes, and on a (local) Dask cluster."""

import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time

import pytest

from toyhw.evolve.experiments import ablations, sweep

JOBS = sweep.grid(["full", "small_llm", "no_evolution"], [0, 3], [120])


def _fingerprint(results):
    return [(r.variant, r.seed, r.budget, r.history, r.final, r.test, r.kernel_runs, r.rules) for r in results]


@pytest.fixture(scope="module")
def serial():
    return _fingerprint(sweep.run_grid(JOBS, workers=1))


def test_jobs_come_back_in_job_order(serial):
    assert [(v, s, b) for v, s, b, *_ in serial] == [(j.variant, j.seed, j.budget) for j in JOBS]


def test_local_processes_give_identical_results(serial):
    spawn = multiprocessing.get_context("spawn")  # fresh interpreters: nothing inherited from this process's caches
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=spawn) as pool:
        assert _fingerprint(sweep.run_grid(JOBS, executor=pool)) == serial


def test_default_workers_give_identical_results_and_report_progress(serial):
    seen = []
    results = sweep.run_grid(JOBS, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert _fingerprint(results) == serial
    assert seen == [(i, len(JOBS)) for i in range(1, len(JOBS) + 1)]


def test_dask_cluster_gives_identical_results(serial):
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is the optional 'cluster' extra")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert _fingerprint(sweep.run_grid(JOBS, executor=client.get_executor())) == serial


def test_study_matches_the_serial_ablation_study():
    spread = sweep.ablation_study(["full", "one_island"], [1, 2], 80, workers=2)
    local = ablations.ablation_study(["full", "one_island"], [1, 2], 80)
    assert {k: _fingerprint(v) for k, v in spread.runs.items()} == {k: _fingerprint(v) for k, v in local.runs.items()}
    assert (spread.oracle_train, spread.oracle_test) == (local.oracle_train, local.oracle_test)


@pytest.mark.parametrize(
    "variants,budgets,error,match",
    [
        (["fulll"], [10], KeyError, "unknown variant 'fulll'; known: full,"),
        (["full"], [0], ValueError, r"budgets\[0\] = 0 is not allowed"),
    ],
)
def test_a_bad_grid_is_refused_before_anything_runs(variants, budgets, error, match):
    with pytest.raises(error, match=match):
        sweep.grid(variants, [0], budgets)


def test_bad_worker_count_is_refused():
    with pytest.raises(ValueError, match="workers = 0 is not allowed"):
        sweep.run_grid(JOBS, workers=0)


def test_a_ctrl_c_while_workers_fork_waits_until_they_are_recorded():
    """While the pool forks its workers, a Ctrl-C is noted, not raised; it is raised once the block ends.

    Another thread that does not block SIGINT is running, like the progress bar's monitor: a SIGINT sent to the process
    then reaches that thread, so blocking SIGINT in the main thread would not hold it back (KeyboardInterrupt mid-fork
    left a worker running after Ctrl-C)."""
    stop, reached_the_end = threading.Event(), False
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)  # CI may start pytest with SIGINT ignored
    try:
        with pytest.raises(KeyboardInterrupt):
            with sweep._ctrl_c_held():
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(10_000):  # Python checks for signals between bytecodes: it had every chance to raise
                    pass
                time.sleep(0.05)
                reached_the_end = True
            pytest.fail("the held Ctrl-C was dropped")
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, inherited)
        stop.set()
    assert reached_the_end
