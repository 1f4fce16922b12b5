"""Scaling of the execution layer (local processes, a dask.distributed cluster) and a cost model of
the default validity map on a cluster.

``python benchmarks/scaling.py [--groups 12] [--level 2] [--paths N] [--map-spec F.toml]
[--s-path S --s-max S]`` prints three tables:

1. throughput: a fixed batch of half-round tasks (``--groups`` meshes of a/R at mesh ``--level``,
   4 cases each, the sweep's unit of work) through :func:`hertz2d.calibration.runs.executors.completed` in
   this process, in a local pool of 1 and 2 processes and on a ``LocalCluster`` of 1 and 2 worker
   processes: start-up seconds (not in the rate), wall seconds, tasks per second, speed-up over
   this process, and the CPU seconds of the thread that ran each task (what an executor adds to
   the task itself, whatever the machine's load). The mesh cache is warm, so the rate is the
   solver's, not gmsh's.
2. the overhead per task: a no-op task's round trip (one task at a time) and its amortised cost in
   a batch of 400 with 2 workers, through the local pool and the dask scheduler; and the client's
   cost of storing one two-disc path's result, since the client alone writes the case store.
3. the cost model of the default map on W workers, ``t(W) = n * s / W + ceil(n / W) * o``, with
   ``n`` the map's FEM tasks (its spec's expansion, the shipped default unless ``--map-spec``,
   convergence checks included: one task per case, its load paths on bodies meshed once; or
   ``--paths``), ``s`` the mean seconds of a task at the map's mesh level from a cold mesh cache
   (measured here for the spec's first case, or ``--s-path``; ``s_max`` for the first case of
   its finest convergence check, or ``--s-max``), ``o`` the amortised scheduler overhead per
   task; the prediction is ``max(t(W), s_max, p * c)``: no run is shorter than its longest task
   ``s_max``, nor than the client's serial work ``c`` per result (``p`` paths). Printed for 8,
   64, 512 workers. The map's law tables (one task per path, computed before the FEM) are not
   in the model.

Wall times depend on the machine's load, printed with each table.
"""
from __future__ import annotations

import argparse
import logging
import math
import os
import pickle
import statistics
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

WORKERS = (8, 64, 512)


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def half_round_tasks(groups: int, level: int) -> list[tuple]:
    from hertz2d.calibration.penalty.spec import expand

    spec = {"base": {"R": 0.5, "a": 0.025, "E": 10e9, "nu": 0.25, "T": 1e5, "level": level,
                     "supports": ["clamped", "symmetric"]},
            "grid": {"a_over_R": [round(0.01 + 0.14 * i / max(groups - 1, 1), 4)
                                  for i in range(groups)], "nu": [0.1, 0.3]}}
    by_mesh = defaultdict(list)  # one task per mesh, as the sweep does
    for case in expand(spec):
        by_mesh[case.R, case.a, case.level].append(case)
    return [(group,) for group in by_mesh.values()]


def solve_timed(group: list) -> float:
    """A sweep task (:func:`hertz2d.calibration.penalty.cases.solve_group`): its thread's CPU seconds."""
    from hertz2d.calibration.penalty.cases import solve_group

    begun = time.thread_time()
    solve_group(group)
    return time.thread_time() - begun


def local_cluster(workers: int):
    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                        dashboard_address=":0", silence_logs=logging.CRITICAL)


@contextmanager
def on_local_cluster(workers: int):
    from hertz2d.calibration.runs.cluster import DaskCluster

    with local_cluster(workers) as cluster, DaskCluster.connect(cluster.scheduler_address) as dask:
        yield dask


def executors():
    """(name, workers, a function that opens it) for every executor measured."""
    from hertz2d.calibration.runs.executors import Inline, LocalPool

    yield "this process", 1, Inline
    for workers in (1, 2):
        yield "local pool", workers, lambda w=workers: LocalPool(w)
    for workers in (1, 2):
        yield "LocalCluster", workers, lambda w=workers: on_local_cluster(w)


def throughput(groups: int, level: int) -> None:
    from hertz2d.calibration.runs.executors import Inline, completed

    tasks = half_round_tasks(groups, level)
    list(completed(solve_timed, tasks, Inline()))  # builds the meshes: the cache is warm below
    print(f"\n1. Throughput: {len(tasks)} half-round tasks (one mesh each, level {level}, "
          f"{sum(len(t[0]) for t in tasks)} cases), warm mesh cache; {load()}")
    print(f"{'executor':>13} {'workers':>7} {'start s':>7} {'wall s':>7} {'tasks/s':>8} "
          f"{'speed-up':>8} {'CPU s/task':>10}")
    reference = None
    for name, workers, start in executors():
        begun = time.perf_counter()
        with start() as executor:
            list(completed(len, [((),)] * workers * 2, executor))  # every worker is up
            started = time.perf_counter() - begun
            begun = time.perf_counter()
            cpu = [seconds for _, seconds in completed(solve_timed, tasks, executor)]
            wall = time.perf_counter() - begun
        assert len(cpu) == len(tasks)
        reference = reference or wall
        print(f"{name:>13} {workers:>7} {started:>7.2f} {wall:>7.2f} {len(tasks) / wall:>8.2f} "
              f"{reference / wall:>8.2f} {statistics.mean(cpu):>10.3f}")


def per_task_overhead(executor, batch: int = 400, trips: int = 50) -> tuple[float, float]:
    """Median round trip of one no-op task, and the amortised seconds per task of a batch."""
    from hertz2d.calibration.runs.executors import completed

    list(completed(len, [((),)] * 4, executor))  # workers up
    round_trips = []
    for _ in range(trips):
        begun = time.perf_counter()
        list(completed(len, [((),)], executor))
        round_trips.append(time.perf_counter() - begun)
    begun = time.perf_counter()
    list(completed(len, [((),)] * batch, executor))
    return statistics.median(round_trips), (time.perf_counter() - begun) / batch


def one_task(fem_paths: tuple) -> tuple[float, dict]:
    """Seconds of one FEM task of the map (a case's paths) from a cold mesh cache, and the
    first path's result."""
    from hertz2d.calibration.validation.map.runs import run_group

    os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")
    begun = time.perf_counter()
    rows = run_group(fem_paths)
    return time.perf_counter() - begun, rows[0]


def client_cost(row: dict, repeats: int = 20) -> float:
    """Median seconds for the client to store one path's result (the case store is serial)."""
    from hertz2d.calibration.runs.store import CaseStore

    store = CaseStore("bench", Path(tempfile.mkdtemp()) / "cases.sqlite")
    seconds = []
    for i in range(repeats):
        begun = time.perf_counter()
        store.put([(("path", i), row)])
        seconds.append(time.perf_counter() - begun)
    return statistics.median(seconds)


def map_tasks(tasks: int | None, spec: str | None) -> tuple[int, int, str]:
    """The map's FEM tasks: ``tasks`` if given, else one per group of paths on the same bodies
    in the map spec's expansion (:func:`hertz2d.calibration.validation.map.spec.read`: its cases and
    convergence checks), the paths (results the client stores) and where the numbers come from."""
    if tasks is not None:
        return tasks, 3 * tasks, "--paths, 3 paths a task"
    from hertz2d.calibration.validation.map.spec import read

    expanded = read(spec)
    groups = {run.fem_path().bodies_key() for run in expanded.runs}
    return len(groups), len(expanded.runs), f"{len(expanded.runs)} paths of {expanded.name}"


def cost_model(args, overhead: float, client: float, s_path: float, s_max: float) -> None:
    n, paths, source = map_tasks(args.paths, args.map_spec)
    print(f"\n3. Cost model of the default map: n = {n} tasks ({source}), "
          f"s = {s_path:.2f} s per task, s_max = {s_max:.2f} s, o = {1e3 * overhead:.2f} ms "
          f"per task, c = {1e3 * client:.2f} ms per result at the client")
    print(f"{'workers':>7} {'n*s/W s':>9} {'overhead s':>10} {'t(W) s':>8} {'bound s':>8} "
          f"{'predicted':>9}")
    for workers in WORKERS:
        ideal = n * s_path / workers
        extra = math.ceil(n / workers) * overhead
        bound = max(s_max, paths * client)
        predicted = max(ideal + extra, bound)
        print(f"{workers:>7} {ideal:>9.1f} {extra:>10.3f} {ideal + extra:>8.1f} {bound:>8.1f} "
              f"{predicted:>8.1f}s")
    print("Assumptions: the paths are independent tasks of equal cost s (their spread is the\n"
          "bound s_max, the longest task, which no number of workers shortens); each worker\n"
          "meshes the paths it meets from its own cold cache (no shared file system: s is\n"
          "measured from a cold mesh cache); the scheduler's overhead o per task is paid once\n"
          "per task a worker runs, measured through a scheduler on this machine (a network adds\n"
          "its latency to o); the client receives and stores every result one after another,\n"
          "c each, overlapped with the workers' computing; worker start-up (a batch job's\n"
          "queue wait, Python imports) is not included.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=12, help="half-round tasks in table 1")
    parser.add_argument("--level", type=int, default=2, help="their mesh level")
    parser.add_argument("--paths", type=int, default=None,
                        help="FEM tasks of the map (default: counted from its spec)")
    parser.add_argument("--map-spec", default=None,
                        help="the map's spec file (default: the shipped default map)")
    parser.add_argument("--s-path", type=float, default=None,
                        help="seconds per FEM task of the map (default: measured)")
    parser.add_argument("--s-max", type=float, default=None,
                        help="seconds of the longest path (default: measured, or --s-path)")
    args = parser.parse_args()
    os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")
    throughput(args.groups, args.level)

    from dataclasses import replace

    from hertz2d.calibration.runs.executors import LocalPool
    from hertz2d.calibration.validation.map.spec import read

    print(f"\n2. Overhead per task (no-op tasks, 2 workers); {load()}")
    print(f"{'executor':>13} {'round trip ms':>13} {'amortised ms':>12}")
    with LocalPool(2) as pool:
        trip, amortised = per_task_overhead(pool)
    print(f"{'local pool':>13} {1e3 * trip:>13.2f} {1e3 * amortised:>12.3f}")
    with on_local_cluster(2) as dask:
        trip, overhead = per_task_overhead(dask)
    print(f"{'LocalCluster':>13} {1e3 * trip:>13.2f} {1e3 * overhead:>12.3f}")

    spec = read(args.map_spec)
    fem_paths = [run.fem_path() for run in spec.runs]

    def task_of(fem_path) -> tuple:
        return tuple(p for p in fem_paths if p.bodies_key() == fem_path.bodies_key())

    task = task_of(fem_paths[0])
    if args.s_path is None:
        s_path, row = one_task(task)
        finest = max(fem_paths, key=lambda p: p.level)  # a convergence check's task, if any
        s_max = max(s_path, one_task(task_of(finest))[0])
        print(f"the map's first FEM task ({len(task)} paths) at level {spec.level}, cold mesh "
              f"cache: {s_path:.2f} s; its first at level {finest.level}: {s_max:.2f} s; a "
              f"path's result pickles to {len(pickle.dumps(row)) / 1024:.0f} KiB")
    else:
        s_path, s_max = args.s_path, args.s_max or args.s_path
        # a result's shape for the client's cost (the coarsest mesh)
        row = one_task((replace(task[0], level=0),))[1]
    client = client_cost(row)
    print(f"client: storing one path's result {1e3 * client:.2f} ms")
    cost_model(args, overhead, client, s_path, s_max)


if __name__ == "__main__":
    main()
