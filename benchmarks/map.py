"""The validity map's cost: two-body FEM seconds per path at the map's level, and the whole map.

``python benchmarks/map.py [--spec F.toml] [--repeat 3] [--every-case] [--save F.json]
[--before REV | --reference F.json] [--sample 8] [--run] [--jobs 2] [--fit fit.json]`` prints:

1. per path kind of the spec (the shipped default unless ``--spec``), for the base case (equal
   discs) and two corners of the space (a disc on a wall, the smallest contact): the cost of
   one FEM path at the spec's mesh level in the map's own task (a case's paths on bodies
   meshed, assembled and condensed once, :func:`hertz2d.calibration.validation.map.runs.run_group`, one
   BLAS thread): its share of the case's set-up, its load steps (contact iterations and
   milliseconds per step) and its total, in thread CPU seconds (what the load of other
   processes changes least), then its total in wall seconds; every figure is the minimum over
   ``--repeat`` runs, each from a cold mesh cache. A second table splits each case's set-up into
   meshing, assembly and factorisation (wall seconds). With ``--every-case`` (table 1b), every
   default case of the spec once, in this process, and the mean per path of each kind.
2. with a reference (``--reference`` a file that ``--save`` wrote, or ``--before REV``, which
   first runs this script, with the same options, on the package of git revision REV in a
   temporary worktree): the before/after costs of table 1 and their ratio, and the largest
   relative difference of the per-step forces (Fx, Fz, N, T, each relative to its path's
   largest magnitude) over the paths of table 1 (1b), every path of the quick map and the paths
   of every ``--sample``-th case of the spec (its convergence checks included); with
   ``--every-case`` and ``--run`` also their before/after.
3. with ``--run``: the whole map (``hertz2d map``) from an empty case store and mesh cache on
   ``--jobs`` local processes, its wall time, then the same map again (every path reused), and
   the FEM seconds per path the map records. It needs a fit for the laws' penalty factors
   (``--fit``, default the committed run's).

One command for the before/after on a quiet machine:
``python benchmarks/map.py --before REV --every-case [--run]`` with REV the revision before the
change.

Wall times depend on the machine's load, printed with each table.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
#: the per-step forces compared before and after
FORCES = ("Fx", "Fz", "N", "T")


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


class Clock:
    """Wall and thread CPU seconds of a block."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.wall, time.thread_time() - self.cpu


#: the seconds a case's set-up and its paths record (the rest of a record is not a time)
SECONDS = ("wall", "cpu", "mesh", "assembly", "factorisation")


def fastest(best: dict | None, new: dict) -> dict:
    """``new`` with each of its :data:`SECONDS` the minimum of its own and ``best``'s."""
    if best is None:
        return new
    return {k: min(v, best[k]) if k in SECONDS else v for k, v in new.items()}


@contextmanager
def clocked_two_body():
    """The clocks of every :class:`hertz2d.fem.twodisc.TwoBody` set-up and path run in the block, in
    order: ``("set-up", Clock, model)`` and ``("run", Clock, result)``. The class is wrapped,
    not copied, so what is timed is exactly what the map's task runs."""
    from hertz2d.fem.twodisc import TwoBody

    records, build, run = [], TwoBody.__init__, TwoBody.run

    def clocked_build(self, *args, **kwargs):
        with Clock() as clock:
            build(self, *args, **kwargs)
        records.append(("set-up", clock, self))

    def clocked_run(self, *args, **kwargs):
        with Clock() as clock:
            result = run(self, *args, **kwargs)
        records.append(("run", clock, result))
        return result

    TwoBody.__init__, TwoBody.run = clocked_build, clocked_run
    try:
        yield records
    finally:
        TwoBody.__init__, TwoBody.run = build, run


def time_case(runs, repeat: int) -> tuple[dict, list[dict], dict]:
    """The case's set-up and each path's run in the map's task
    (:func:`hertz2d.calibration.validation.map.runs.run_group`), the minimum of ``repeat`` runs from a
    cold mesh cache; and each path's forces."""
    from hertz2d.calibration.validation.map.runs import run_group

    fem_paths = tuple(run.fem_path() for run in runs)
    setup, paths, forces = None, [None] * len(runs), {}
    for _ in range(repeat):
        cold_cache()
        with clocked_two_body() as records:
            rows = run_group(fem_paths)
        (_, clock, model), *ran = records
        setup = fastest(setup, {"wall": clock.wall, "cpu": clock.cpu, **model.timings})
        for index, (fem_path, row, (_, clock, result)) in enumerate(zip(fem_paths, rows, ran)):
            assert row["failure"] is None, row["failure"]
            paths[index] = fastest(paths[index], {
                "steps": len(result.table),
                "iterations": float(result.table["iterations"].mean()),
                "wall": clock.wall, "cpu": clock.cpu})
            forces[fem_path.key()] = {q: row["table"][q] for q in FORCES}
    return setup, paths, forces


def costs(spec, repeat: int) -> tuple[dict, dict]:
    """Table 1's numbers: per case its set-up and paths; and every path's forces by key."""
    measured, forces = {}, {}
    for label, runs in corner_groups(spec):
        setup, paths, case_forces = time_case(runs, repeat)
        measured[label] = {"setup": setup,
                           "paths": {run.case.path: row for run, row in zip(runs, paths)}}
        forces.update(case_forces)
    return measured, forces


def every_case(spec) -> tuple[dict, dict]:
    """Table 1b's numbers: every default case of the spec once (cold mesh cache), the mean per
    path kind and over all paths of a path's CPU and wall seconds, set-up share and CPU per step;
    and every path's forces by key."""
    totals, forces = {}, {}
    for runs in by_case(spec.default_runs):
        setup, paths, case_forces = time_case(runs, 1)
        forces.update(case_forces)
        for run, row in zip(runs, paths):
            share = {clock: setup[clock] / len(paths) for clock in ("cpu", "wall")}
            totals.setdefault(run.case.path, []).append(
                [row["cpu"] + share["cpu"], row["wall"] + share["wall"], share["cpu"],
                 row["cpu"] / row["steps"]])
    totals["all"] = [row for rows in list(totals.values()) for row in rows]
    means = {kind: dict(zip(("cpu", "wall", "setup_cpu", "step_cpu"), np.mean(rows, axis=0)),
                        paths=len(rows)) for kind, rows in totals.items()}
    return means, forces


def print_every_case(means: dict, spec) -> None:
    print(f"\n1b. Every default case of {spec.name} once, its paths as the map runs them "
          f"(cold mesh cache); mean per path; {load()}")
    print(f"{'path':>13} {'paths':>5} {'set-up CPU s':>12} {'CPU ms/step':>11} "
          f"{'total CPU s':>11} {'total wall s':>12}")
    for kind, row in means.items():
        print(f"{kind:>13} {row['paths']:>5} {row['setup_cpu']:>12.3f} "
              f"{1e3 * row['step_cpu']:>11.2f} {row['cpu']:>11.3f} {row['wall']:>12.3f}")


def path_cost(case: dict, kind: str, clock: str) -> float:
    """A path's seconds: its run and its share of the case's set-up."""
    return case["paths"][kind][clock] + case["setup"][clock] / len(case["paths"])


def print_costs(measured: dict, spec, repeat: int) -> None:
    print(f"\n1. Two-body FEM per path at mesh level {spec.level}, as the map runs them "
          f"({spec.name}: {len(spec.default_runs)} paths, "
          f"{len(spec.runs) - len(spec.default_runs)} convergence checks); minimum of {repeat} "
          f"runs from a cold mesh cache; {load()}")
    print("   a case's paths run on bodies meshed and condensed once: set-up is each path's "
          "share; CPU = thread CPU seconds")
    print(f"{'case':>14} {'path':>13} {'steps':>5} {'it/step':>7} {'set-up CPU s':>12} "
          f"{'CPU ms/step':>11} {'total CPU s':>11} {'total wall s':>12}")
    totals = []
    for label, case in measured.items():
        share = case["setup"]["cpu"] / len(case["paths"])
        for kind, row in case["paths"].items():
            totals.append((path_cost(case, kind, "cpu"), path_cost(case, kind, "wall")))
            print(f"{label:>14} {kind:>13} {row['steps']:>5} {row['iterations']:>7.2f} "
                  f"{share:>12.3f} {1e3 * row['cpu'] / row['steps']:>11.2f} "
                  f"{totals[-1][0]:>11.3f} {totals[-1][1]:>12.3f}")
    mean = np.mean(totals, axis=0)
    print(f"{'mean per path':>28} {'':>33} {mean[0]:>11.3f} {mean[1]:>12.3f}")
    print(f"\n   set-up of each case (wall s): {'mesh':>6} {'assembly':>8} {'factorisation':>13} "
          f"{'all':>6} {'all CPU':>7}")
    for label, case in measured.items():
        s = case["setup"]
        print(f"{label:>30}: {s['mesh']:>6.3f} {s['assembly']:>8.3f} {s['factorisation']:>13.3f} "
              f"{s['wall']:>6.3f} {s['cpu']:>7.3f}")


def by_case(items: list) -> list[list]:
    """FEM paths, or map runs, grouped by the bodies they run on (one map task each)."""
    groups: dict[tuple, list] = {}
    for item in items:
        fem_path = item.fem_path() if hasattr(item, "fem_path") else item
        groups.setdefault(fem_path.bodies_key(), []).append(item)
    return list(groups.values())


def sample_forces(spec, every: int) -> dict:
    """Per-step forces of every path of the quick map and of every ``every``-th case of
    ``spec`` (by its bodies, convergence checks included), each case one map task."""
    from hertz2d.calibration.validation.map.runs import run_group
    from hertz2d.calibration.validation.map.spec import read

    groups = by_case([run.fem_path() for run in read(quick=True).runs])
    groups += by_case([run.fem_path() for run in spec.runs])[::every]
    forces = {}
    for group in groups:
        for fem_path, row in zip(group, run_group(tuple(group))):
            forces[fem_path.key()] = ({q: row["table"][q] for q in FORCES}
                                      if row["failure"] is None else {"failure": row["failure"]})
    return forces


def print_comparison(before: dict, after: dict) -> None:
    print(f"\n2. Before ({before['revision']}, {before['load']}) and after "
          f"({after['revision']}); total seconds per path, CPU and wall")
    print(f"{'case':>14} {'path':>13} {'CPU before':>10} {'CPU after':>9} {'ratio':>6} "
          f"{'wall before':>11} {'wall after':>10} {'ratio':>6}")
    ratios = []
    for label, case in after["costs"].items():
        old = before["costs"].get(label)
        for kind in case["paths"]:
            if old is None or kind not in old["paths"]:
                continue
            pair = [(path_cost(old, kind, c), path_cost(case, kind, c)) for c in ("cpu", "wall")]
            ratios.append([b for b, _ in pair] + [a for _, a in pair])
            print(f"{label:>14} {kind:>13} " + " ".join(
                f"{b:>10.3f} {a:>9.3f} {a / b:>6.2f}" for b, a in pair))
    mean = np.mean(ratios, axis=0)
    print(f"{'mean per path':>28} {mean[0]:>10.3f} {mean[2]:>9.3f} {mean[2] / mean[0]:>6.2f} "
          f"{mean[1]:>10.3f} {mean[3]:>9.3f} {mean[3] / mean[1]:>6.2f}")

    common = sorted(set(before["forces"]) & set(after["forces"]))
    largest = {q: (0.0, None) for q in FORCES}
    mismatched = []
    for key in common:
        old, new = before["forces"][key], after["forces"][key]
        if "failure" in old or "failure" in new or len(old["Fx"]) != len(new["Fx"]):
            if old != new:
                mismatched.append(key)
            continue
        for q in FORCES:
            b, a = np.asarray(old[q]), np.asarray(new[q])
            scale = np.abs(b).max()
            difference = np.abs(a - b).max() / scale if scale > 0 else np.abs(a).max()
            if difference >= largest[q][0]:
                largest[q] = (float(difference), key)
    print(f"\n   per-step forces of {len(common)} paths (table 1, the quick map, a sample of the "
          f"spec): largest |after - before| / max |before| of a path")
    for q, (difference, key) in largest.items():
        where = json.loads(key) if key else {}
        print(f"{q:>6}: {difference:.2e}  ({where.get('kind')}, level {where.get('level')}, "
              f"mu {where.get('mu')}, delta_n {where.get('delta_n', 0):.4g})")
    print(f"   paths whose step count or failure differs: {len(mismatched)}")


def print_every_case_comparison(before: dict, after: dict) -> None:
    print("\n   every default case once, mean seconds per path before and after (CPU, wall)")
    print(f"{'path':>13} {'CPU before':>10} {'CPU after':>9} {'ratio':>6} {'wall before':>11} "
          f"{'wall after':>10} {'ratio':>6}")
    for kind, row in after.items():
        old = before[kind]
        print(f"{kind:>13} " + " ".join(f"{old[c]:>10.3f} {row[c]:>9.3f} {row[c] / old[c]:>6.2f}"
                                        for c in ("cpu", "wall")))


def revision(root: Path) -> str:
    described = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"],
                               capture_output=True, text=True)
    return described.stdout.strip() or "unknown"


def measure_before(rev: str, argv: list[str]) -> dict:
    """This script's ``--save`` run on the package of git revision ``rev``."""
    tree = Path(tempfile.mkdtemp(prefix="hertz2d-before-")) / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                   check=True, capture_output=True)
    try:
        out = tree.parent / "before.json"
        # the worktree's packages come first on the path; run from it, not from this tree
        subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--save", str(out)],
                       check=True, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
        return json.loads(out.read_text())
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       check=True, capture_output=True)


def whole_map(spec_path, jobs: int, fit: Path) -> dict:
    """Table 3: the whole map twice (empty store, then all reused); its wall times and the FEM
    seconds per path kind that the map records (``map/summary.json``)."""
    from hertz2d.calibration.runs.executor_choice import open_executor
    from hertz2d.calibration.validation.map.stage import run_map

    results = Path(tempfile.mkdtemp(prefix="hertz2d-map-"))
    (results / "penalty").mkdir()
    shutil.copy(fit, results / "penalty" / "fit.json")
    cold_cache()
    measured = {"load": load(), "jobs": jobs}
    print(f"\n3. The whole map on {jobs} local processes, empty case store and mesh cache; "
          f"{measured['load']}")
    for attempt in ("empty store", "rerun (all reused)"):
        wall, cpu = time.perf_counter(), time.process_time()
        with open_executor(jobs) as executor:
            summary = run_map(spec_path, executor=executor, results=results,
                              progress=False).as_json()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        measured[attempt] = wall
        print(f"{attempt:>20}: {summary['paths']} paths + {summary['check_paths']} checks, "
              f"{summary['failed']} failed, {summary['reused']} reused: {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU in this process; {load()}")
    measured["fem"] = json.loads((results / "map" / "summary.json").read_text())["fem_seconds"]
    print(f"{'FEM per path kind':>20}: " + "; ".join(
        f"{kind} {row['seconds_per_path']:.3f} s a path ({row['setup_seconds']:.3f} s set-up, "
        f"{1e3 * row['seconds_per_step']:.2f} ms a step)" for kind, row in measured["fem"].items())
        + " (wall, as the map records them)")
    return measured


def print_map_comparison(before: dict, after: dict) -> None:
    print(f"\n   the whole map before ({before['load']}) and after ({after['load']}), wall s")
    print(f"{'':>20} {'before':>8} {'after':>8} {'ratio':>6}")
    for attempt in ("empty store", "rerun (all reused)"):
        b, a = before[attempt], after[attempt]
        print(f"{attempt:>20} {b:>8.1f} {a:>8.1f} {a / b:>6.2f}")
    for kind, row in after["fem"].items():
        b, a = before["fem"][kind]["seconds_per_path"], row["seconds_per_path"]
        print(f"{kind + ' path':>20} {b:>8.3f} {a:>8.3f} {a / b:>6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=None, help="map spec (default: the shipped default)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each case, the minimum is shown (3)")
    parser.add_argument("--sample", type=int, default=8,
                        help="compare the forces of every SAMPLE-th case of the spec (8)")
    parser.add_argument("--save", help="write the costs and forces to this JSON file")
    reference = parser.add_mutually_exclusive_group()
    reference.add_argument("--reference", help="a JSON file --save wrote: print before/after")
    reference.add_argument("--before", metavar="REV",
                           help="measure git revision REV first, then print before/after")
    parser.add_argument("--every-case", action="store_true",
                        help="also time every default case of the spec once (table 1b)")
    parser.add_argument("--run", action="store_true", help="also run the whole map, twice")
    parser.add_argument("--jobs", type=int, default=2, help="local processes for --run (2)")
    parser.add_argument("--fit", default=str(ROOT / "results" / "penalty" / "fit.json"),
                        help="the fit.json whose refits the laws use (--run)")
    args = parser.parse_args()
    from hertz2d.calibration.validation.map.spec import read

    before = None
    if args.before:
        shared = ["--repeat", str(args.repeat), "--sample", str(args.sample)]
        if args.every_case:
            shared += ["--every-case"]
        if args.spec:
            shared += ["--spec", str(Path(args.spec).resolve())]
        if args.run:
            shared += ["--run", "--jobs", str(args.jobs), "--fit", str(Path(args.fit).resolve())]
        before = measure_before(args.before, shared)
    elif args.reference:
        before = json.loads(Path(args.reference).read_text())

    spec = read(args.spec)
    measured, forces = costs(spec, args.repeat)
    print_costs(measured, spec, args.repeat)
    after = {"revision": revision(Path(__import__("fem").__file__).parents[1]),
             "load": load(), "costs": measured, "forces": forces}
    if args.every_case:
        after["every_case"], every_forces = every_case(spec)
        print_every_case(after["every_case"], spec)
        forces.update(every_forces)
    if args.save or before is not None:
        forces.update(sample_forces(spec, args.sample))
    if args.run:
        after["map"] = whole_map(args.spec, args.jobs, Path(args.fit))
    if args.save:
        Path(args.save).write_text(json.dumps(after))
    if before is not None:
        print_comparison(before, after)
        if "every_case" in before and "every_case" in after:
            print_every_case_comparison(before["every_case"], after["every_case"])
        if "map" in before and "map" in after:
            print_map_comparison(before["map"], after["map"])


if __name__ == "__main__":
    main()
