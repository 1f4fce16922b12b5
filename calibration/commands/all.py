"""``hertz2d all``: the whole pipeline end to end, each stage reusing what earlier runs finished.

meshes -> half-round FEM sweep -> Eq. 33 refit -> two-disc FEM + every contact law -> report.
Finished FEM cases are kept in the case store, so an interrupted ``all`` resumes where it stopped.
"""
from __future__ import annotations

import sys
import time

from calibration import penalty_stage
from calibration.report import build_report
from calibration.validation.stage import validate
from meshes.checks import count


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "all", parents=parents,
        help="the whole pipeline: sweep -> fit -> validate -> report",
        description="Meshes, FEM, calibration, validation and report in one command. --quick "
                    "uses coarser meshes and grids (a few minutes on 2 cores); without it every "
                    "figure is made at the converged mesh levels.")
    parser.add_argument("--quick", action="store_true", help="quick settings end to end")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.set_defaults(run=run)


def _announce(number: int, text: str) -> None:
    print(f"[{number}/4] {text}", file=sys.stderr, flush=True)


def run(args) -> dict:
    count("jobs", args.jobs)
    start = time.perf_counter()
    _announce(1, "half-round FEM: the penalty factor's parametric studies and a/R x nu grid")
    sweep = penalty_stage.sweep(quick=args.quick, jobs=args.jobs)
    _announce(2, "refit of Eq. 33, constant-w errors, figures 7-9")
    fit = penalty_stage.fit()
    _announce(3, "two-disc frictional contact FEM and every contact law on the same paths")
    validation = validate(quick=args.quick, jobs=args.jobs)
    _announce(4, "report")
    report = build_report(wall_seconds=time.perf_counter() - start)
    return {"out": report["out"], "markdown": report["markdown"], "grid": sweep["out"],
            "fit": fit["out"], "errors": validation["out"], "failed_cases": sweep["failed"],
            "failed_paths": validation["failures"],
            "seconds": round(time.perf_counter() - start, 1)}
