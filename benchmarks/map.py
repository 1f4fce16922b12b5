"""The validity map's cost: two-body FEM seconds per path at the map's level, and the whole map.

``python benchmarks/map.py [--spec F.toml] [--run] [--jobs 2] [--fit results/penalty/fit.json]``
prints:

1. per path kind of the spec (the shipped default unless ``--spec``): the seconds of one FEM
   path at the spec's mesh level from a cold mesh cache, for the base case (equal discs) and
   two corners of the space (a disc on a wall, the smallest contact): its share of the set-up
   (mesh, assembly, factorisation, done once for a case's paths) and its load steps; and the
   wall and thread CPU time of the case's whole task; and the spec's size;
2. with ``--run``: the whole map (``hertz2d map``) from an empty case store and mesh cache on
   ``--jobs`` local processes, its wall time and stage split (laws, FEM, errors and figures),
   then the same map again (every path reused). It needs a fit for the laws' penalty factors
   (``--fit``, default the committed run's).

Wall times depend on the machine's load, printed with each table; CPU times less so.
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def cold_cache() -> None:
    os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")


def corner_groups(spec) -> list[tuple[str, list]]:
    """(label, runs) of the base case and two corners: each case's runs on every path kind of
    the spec, which the map runs as one task on bodies meshed once."""
    runs = spec.default_runs
    smallest = min(run.case.a_over_R for run in runs)
    chosen = []
    for label, test in (
            ("base case", lambda c: c.counterpart == "disc" and c.R2_over_R1 == 1.0
             and c.E2_over_E1 == 1.0 and c.nu1 == c.nu2 and c.a_over_R == runs[0].case.a_over_R),
            ("wall", lambda c: c.wall),
            (f"a/R1 = {smallest:g}", lambda c: c.a_over_R == smallest and not c.wall)):
        first = next(r for r in runs if test(r.case))
        chosen.append((label, [r for r in runs if r.fem_path().bodies_key()
                               == first.fem_path().bodies_key()]))
    return chosen


def per_path(spec) -> None:
    from calibration.validation.map.runs import run_group

    print(f"\n1. Two-body FEM per path at mesh level {spec.level}, cold mesh cache "
          f"({spec.name}: {len(spec.default_runs)} paths, {len(spec.runs) - len(spec.default_runs)}"
          f" convergence checks); {load()}")
    print("   a case's paths run as one task on bodies meshed once: set-up is each path's share")
    print(f"{'case':>14} {'path':>13} {'steps':>5} {'nodes':>6} {'set-up s':>8} {'s/step':>7} "
          f"{'total s':>7} | {'task wall s':>11} {'task CPU s':>10}")
    for label, runs in corner_groups(spec):
        cold_cache()
        wall, cpu = time.perf_counter(), time.thread_time()
        rows = run_group(tuple(run.fem_path() for run in runs))
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        for index, (run, row) in enumerate(zip(runs, rows)):
            assert row["failure"] is None, row["failure"]
            seconds = row["seconds"]
            task = f"{wall:>11.2f} {cpu:>10.2f}" if index == 0 else ""
            print(f"{label:>14} {run.case.path:>13} {seconds['steps']:>5} {seconds['nodes']:>6} "
                  f"{seconds['set-up']:>8.2f} {seconds['per step']:>7.3f} "
                  f"{seconds['total']:>7.2f} | {task}")


def whole_map(spec_path, jobs: int, fit: Path) -> None:
    from calibration.runs.executor_choice import open_executor
    from calibration.validation.map.stage import run_map

    results = Path(tempfile.mkdtemp(prefix="hertz2d-map-"))
    (results / "penalty").mkdir()
    shutil.copy(fit, results / "penalty" / "fit.json")
    cold_cache()
    print(f"\n2. The whole map on {jobs} local processes, empty case store and mesh cache; "
          f"{load()}")
    for attempt in ("empty store", "rerun (all reused)"):
        wall, cpu = time.perf_counter(), time.process_time()
        with open_executor(jobs) as executor:
            summary = run_map(spec_path, executor=executor, results=results, progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{attempt:>20}: {summary['paths']} paths + {summary['check_paths']} checks, "
              f"{summary['failed']} failed, {summary['reused']} reused: {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU in this process; {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=None, help="map spec (default: the shipped default)")
    parser.add_argument("--run", action="store_true", help="also run the whole map, twice")
    parser.add_argument("--jobs", type=int, default=2, help="local processes for --run (2)")
    parser.add_argument("--fit", default=str(ROOT / "results" / "penalty" / "fit.json"),
                        help="the fit.json whose refits the laws use (--run)")
    args = parser.parse_args()
    from calibration.validation.map.spec import read

    spec = read(args.spec)
    per_path(spec)
    if args.run:
        whole_map(args.spec, args.jobs, Path(args.fit))


if __name__ == "__main__":
    main()
