"""hertz2d.calibration.runs.executors and .cluster: every executor hands back every result, a sweep on a
dask cluster gives the rows of ``--jobs 1``, a killed worker loses nothing, Ctrl-C cancels what has
not started and keeps what finished, a worker with other code is refused, an FEM task on a worker
pages memory like one in a local process, a bad scheduler address is one line and exit 2.

The cluster is a ``LocalCluster`` of two worker processes, started once for the module.
"""
import json
import math
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pandas as pd
import pytest
from distributed import LocalCluster

from hertz2d.calibration.cli import main
from hertz2d.calibration.penalty import sweep as sweep_module
from hertz2d.calibration.penalty.cases import solve_group
from hertz2d.calibration.penalty.spec import expand
from hertz2d.calibration.penalty.sweep import run_sweep
from hertz2d.calibration.runs import cluster
from hertz2d.calibration.runs.executor_choice import SCHEDULER_VARIABLE, open_executor
from hertz2d.calibration.runs.executors import Inline, LocalPool, completed
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.checks import InputError

#: level-0 half-round cases: 5 meshes (one task each), 16 cases with both supports
SPEC = {
    "base": {"R": 0.5, "a": 0.025, "E": 10e9, "nu": 0.25, "T": 1e5, "level": 0,
             "supports": ["clamped", "symmetric"]},
    "studies": {"radius": {"R": [0.25, 1.0], "hold": "a_over_R"}},
    "grid": {"a_over_R": [0.02, 0.05, 0.1], "nu": [0.1, 0.3]},
}
#: the columns that say when and how a row was made, not what it is
CIRCUMSTANCES = ["seconds", "reused"]


def _toml(spec: dict) -> str:
    lines = []
    for table, values in spec.items():
        plain = {k: v for k, v in values.items() if not isinstance(v, dict)}
        if plain:
            lines += [f"[{table}]", *(f"{k} = {json.dumps(v)}" for k, v in plain.items())]
        for name, sub in values.items():
            if isinstance(sub, dict):
                lines += [f"[{table}.{name}]", *(f"{k} = {json.dumps(v)}" for k, v in sub.items())]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def scheduler():
    """The address of a two-worker LocalCluster (workers inherit the test cache directory)."""
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=":0") as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def on_cluster(scheduler):
    with open_executor(scheduler=scheduler) as executor:
        yield executor


@pytest.fixture(params=["inline", "local pool", "dask"])
def executor(request):
    if request.param == "dask":
        yield request.getfixturevalue("on_cluster")
    else:
        with Inline() if request.param == "inline" else LocalPool(2) as opened:
            yield opened


def test_every_task_comes_back_with_its_result(executor):
    tasks = [(x,) for x in (1.0, 4.0, 9.0, 16.0, 25.0)]
    assert sorted(completed(math.sqrt, tasks, executor)) == [(t, math.sqrt(*t)) for t in tasks]


def test_a_failing_task_raises_its_own_error(executor):
    with pytest.raises(ValueError, match="math domain error"):
        list(completed(math.sqrt, [(4.0,), (-1.0,)], executor))


def test_the_flags_and_the_environment_choose_the_executor(scheduler, monkeypatch):
    monkeypatch.delenv(SCHEDULER_VARIABLE, raising=False)
    assert isinstance(open_executor(), LocalPool) and isinstance(open_executor(jobs=1), Inline)
    monkeypatch.setenv(SCHEDULER_VARIABLE, scheduler)
    with open_executor() as executor:
        assert isinstance(executor, cluster.DaskCluster)
        assert len(executor.client.nthreads()) == 2
    assert isinstance(open_executor(jobs=3), LocalPool)  # an explicit --jobs wins
    with pytest.raises(InputError, match="exclude each other"):
        open_executor(jobs=2, scheduler=scheduler)
    with pytest.raises(InputError, match="jobs=0"):
        open_executor(jobs=0)


def test_a_handshake_broken_by_another_clients_message_is_tried_again(scheduler, monkeypatch):
    """dask fails a client whose greeting shares a batch with a message the scheduler sends to
    every client (another client's cancel) with a bare AssertionError; here the first handshake
    fails so, the second connects, and a handshake that always fails still raises."""
    real, attempts = cluster.Client, []

    def first_fails(*args, **kwargs):
        attempts.append(args)
        if len(attempts) == 1:
            raise AssertionError
        return real(*args, **kwargs)

    monkeypatch.setattr(cluster, "Client", first_fails)
    with cluster.DaskCluster.connect(scheduler) as executor:
        assert len(executor.client.nthreads()) == 2 and len(attempts) == 2

    def always_fails(*args, **kwargs):
        attempts.append(args)
        raise AssertionError

    monkeypatch.setattr(cluster, "Client", always_fails)
    with pytest.raises(AssertionError):
        cluster.DaskCluster.connect(scheduler)
    assert len(attempts) == 2 + cluster.CONNECT_ATTEMPTS


def _grid(results: Path) -> pd.DataFrame:
    return pd.read_csv(results / "penalty" / "grid.csv", keep_default_na=False)


def test_a_sweep_on_the_cluster_gives_the_rows_of_jobs_1(scheduler, tmp_path, monkeypatch, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(_toml(SPEC))
    for name, where in (("serial", ["--jobs", "1"]), ("dask", ["--scheduler", scheduler])):
        monkeypatch.setenv("HERTZ2D_CACHE", str(tmp_path / f"cache-{name}"))  # its own store
        assert main(["sweep", "--spec", str(spec), *where, "--results", str(tmp_path / name),
                     "--json"]) == 0
        summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert summary["rows"] == 16 and summary["reused"] == 0 and summary["failed"] == 0
    serial, dask = _grid(tmp_path / "serial"), _grid(tmp_path / "dask")
    pd.testing.assert_frame_equal(dask.drop(columns=CIRCUMSTANCES),
                                  serial.drop(columns=CIRCUMSTANCES), check_exact=True)




def test_the_map_on_the_cluster_gives_the_errors_of_jobs_1(scheduler, tmp_path, monkeypatch,
                                                            capsys):
    """The map's FEM tasks and law tables through the scheduler: the same rows as in one
    process (the validation stage runs on the same executor layer), on test_map's tiny spec
    (three paths and a mesh check; the shipped quick map took 46 s here)."""
    from hertz2d.calibration.laws.penalty_factor import EQ33_COEFFICIENTS
    from tests.test_map import TINY

    fit = {"default_support": "clamped", "coefficients": list(EQ33_COEFFICIENTS),
           "by_support": {"clamped": {"coefficients": list(EQ33_COEFFICIENTS)},
                          "symmetric": {"coefficients": list(EQ33_COEFFICIENTS)}},
           "confined": {"fits": {"confined": {"coefficients": list(EQ33_COEFFICIENTS)}}}}
    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY)
    paths = {}
    for name, where in (("serial", ["--jobs", "1"]), ("dask", ["--scheduler", scheduler])):
        (tmp_path / name / "penalty").mkdir(parents=True)
        (tmp_path / name / "penalty" / "fit.json").write_text(json.dumps(fit))
        monkeypatch.setenv("HERTZ2D_CACHE", str(tmp_path / f"cache-{name}"))  # its own store
        assert main(["map", "--spec", str(spec), "--loops", "0", *where, "--results",
                     str(tmp_path / name), "--json"]) == 0
        summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert summary["failed"] == 0 and summary["reused"] == 0
        paths[name] = summary["paths"] + summary["check_paths"]
    assert paths["dask"] == paths["serial"] == 4  # every path of the spec computed
    serial, dask = (pd.read_csv(tmp_path / name / "map" / "errors.csv")
                    for name in ("serial", "dask"))
    assert len(serial) > 100
    pd.testing.assert_frame_equal(dask, serial, check_exact=True)


def _dies_first_time(marker: Path, function, *args):
    """A task that kills its own worker process the first time it runs (any worker)."""
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return function(*args)


def test_a_worker_killed_mid_task_is_retried_and_nothing_is_lost(on_cluster, tmp_path,
                                                                 monkeypatch):
    cases = expand(SPEC)
    serial = run_sweep(cases, store=CaseStore("serial", tmp_path / "serial.sqlite"),
                       progress=False)
    marker = tmp_path / "killed"
    monkeypatch.setattr(sweep_module, "solve_group",
                        partial(_dies_first_time, marker, sweep_module.solve_group))
    table = run_sweep(cases, on_cluster, store=CaseStore("dask", tmp_path / "dask.sqlite"),
                      progress=False)
    killed = int(marker.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(killed, 0)  # that worker process is gone
    assert (table.status == "ok").all() and not table.reused.any()
    pd.testing.assert_frame_equal(table.drop(columns=CIRCUMSTANCES),
                                  serial.drop(columns=CIRCUMSTANCES), check_exact=True)


def _marks_its_start(folder: Path, number: int) -> int:
    (folder / str(number)).touch()
    time.sleep(0.3)
    return number


def _marking_tasks_on_scheduler(dask_scheduler) -> int:
    return sum(str(key).startswith("_marks_its_start-") for key in dask_scheduler.tasks)


def test_ctrl_c_cancels_the_tasks_not_started(on_cluster, tmp_path):
    tasks = [(tmp_path, n) for n in range(16)]
    with pytest.raises(KeyboardInterrupt):
        for _ in completed(_marks_its_start, tasks, on_cluster):
            raise KeyboardInterrupt  # Ctrl-C in the caller's loop, after the first result
    for _ in range(100):  # the scheduler forgets the cancelled tasks
        if on_cluster.client.run_on_scheduler(_marking_tasks_on_scheduler) == 0:
            break
        time.sleep(0.05)
    assert on_cluster.client.run_on_scheduler(_marking_tasks_on_scheduler) == 0
    # a task a worker had already taken may still start; wait until nothing has started for
    # longer than three tasks (uncancelled, all 16 would have run by then on the 2 workers)
    started, quiet_since = len(list(tmp_path.iterdir())), time.monotonic()
    while time.monotonic() - quiet_since < 1.0:
        time.sleep(0.05)
        now = len(list(tmp_path.iterdir()))
        if now != started:
            started, quiet_since = now, time.monotonic()
    assert started < len(tasks) // 2


class _InterruptedStore(CaseStore):
    """Stores the first result it is given, then raises KeyboardInterrupt (Ctrl-C)."""

    def put(self, items):
        super().put(items)
        raise KeyboardInterrupt


def test_after_ctrl_c_the_finished_cases_are_kept_and_reused(on_cluster, tmp_path):
    cases = expand(SPEC)
    path = tmp_path / "cases.sqlite"
    with pytest.raises(KeyboardInterrupt):
        run_sweep(cases, on_cluster, store=_InterruptedStore("test", path), progress=False)
    kept = CaseStore("test", path).get([case.key for case in cases])
    assert 0 < len(kept) < len(cases)
    rerun = run_sweep(cases, store=CaseStore("test", path), progress=False)
    assert rerun.reused.sum() == len(kept) and (rerun.status == "ok").all()
    fresh = run_sweep(cases, store=CaseStore("fresh", tmp_path / "fresh.sqlite"), progress=False)
    pd.testing.assert_frame_equal(rerun.drop(columns=CIRCUMSTANCES),
                                  fresh.drop(columns=CIRCUMSTANCES), check_exact=True)


def test_a_worker_with_other_code_is_refused(on_cluster):
    other = "0" * 20  # not the digest of any code
    future = on_cluster.client.submit(cluster.run_checked, other, math.sqrt, 4.0, pure=False)
    with pytest.raises(InputError, match=r"worker tcp://\S+ computes math with other code"):
        future.result()
    assert on_cluster.client.submit(cluster.run_checked, cluster.code_identity("math"),
                                    math.sqrt, 4.0, pure=False).result() == 2.0


def _page_faults(function, *args) -> int:
    """Minor page faults of the thread that runs ``function(*args)``."""
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    function(*args)
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before


def test_an_fem_task_on_a_cluster_worker_pages_memory_like_a_local_process(on_cluster):
    group = [c for c in expand({**SPEC, "base": {**SPEC["base"], "level": 1}})
             if c.study == "grid" and c.a_over_R == 0.05]
    tasks = [(solve_group, group)] * 3  # the first one in a process also imports and meshes
    with LocalPool(1) as local:
        locally = min(faults for _, faults in completed(_page_faults, tasks, local))
    on_worker = min(faults for _, faults in completed(_page_faults, tasks, on_cluster))
    assert on_worker < 2 * locally  # 8 times as many with dask's malloc settings


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("where, named", [
    (["--scheduler", "tcp://127.0.0.1:{port}"], "scheduler='tcp://127.0.0.1:{port}'"),
    (["--scheduler", "garbage://nowhere"], "scheduler='garbage://nowhere'"),
    ([], f"{SCHEDULER_VARIABLE}='tcp://127.0.0.1:{{port}}'"),
])
def test_a_bad_scheduler_address_exits_2_in_one_line(where, named, tmp_path, monkeypatch,
                                                     capsys):
    port = _closed_port()
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    monkeypatch.setenv(SCHEDULER_VARIABLE, f"tcp://127.0.0.1:{port}")
    where = [w.format(port=port) for w in where]
    assert main(["sweep", "--quick", *where, "--results", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hertz2d sweep: error: ")
    assert named.format(port=port) in err and "cannot reach a dask scheduler" in err
    assert not (tmp_path / "penalty").exists()


def test_a_port_that_answers_in_another_protocol_is_named_as_such(tmp_path, monkeypatch,
                                                                   capsys):
    """A service that is not dask (here one that sends eight bytes of 0xff, which dask reads as
    a frame length of 2^64 - 1) is one line saying so, not the allocation error dask meets."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]

        def answer():
            connection, _ = server.accept()
            with connection:
                connection.sendall(b"\xff" * 64)
                connection.recv(1024)

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2.0)
        address = f"tcp://127.0.0.1:{port}"
        assert main(["sweep", "--quick", "--scheduler", address, "--results",
                     str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"scheduler='{address}': cannot reach a dask scheduler there (what answers there does " \
           "not speak dask's protocol" in err


def _stored_rows(store: Path) -> int:
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.mark.slow
def test_sigint_to_a_sweep_on_the_cluster_exits_130_and_a_rerun_reuses_its_cases(scheduler,
                                                                                 tmp_path):
    # enough work that the interrupt lands mid-sweep: the parametric solve does a mesh's nu
    # values in one task, about 0.5 s each at level 3
    spec = {"base": {**SPEC["base"], "level": 3},
            "grid": {"a_over_R": [round(0.01 * i, 2) for i in range(1, 17)], "nu": [0.1, 0.3]}}
    (tmp_path / "spec.toml").write_text(_toml(spec))
    env = {**os.environ, "HERTZ2D_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "hertz2d.calibration", "sweep", "--spec", str(tmp_path / "spec.toml"),
               "--results", str(tmp_path / "results"), "--json"]
    # SIGINT as a terminal's foreground job gets it: not inherited as ignored, as it is when the
    # test suite itself runs in the background (Python then installs no KeyboardInterrupt)
    run = subprocess.Popen([*command, "--scheduler", scheduler], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    store = tmp_path / "cache" / "cases.sqlite"
    while _stored_rows(store) == 0 and run.poll() is None:
        time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "interrupted; finished work is kept" in err
    kept = _stored_rows(store)
    assert 0 < kept < 64
    rerun = subprocess.run([*command, "--jobs", "1"], env=env, capture_output=True, text=True,
                           check=True)
    summary = json.loads(rerun.stdout.strip().splitlines()[-1])
    assert summary["rows"] == 64 and summary["reused"] == kept and summary["failed"] == 0
