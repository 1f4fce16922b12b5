"""``hertz2d all``: the whole pipeline end to end, each stage reusing what earlier runs finished.

meshes -> half-round FEM sweep -> Eq. 33 refit -> two-disc FEM + every contact law -> report.
Finished FEM cases are kept in the case store, so an interrupted ``all`` resumes where it stopped.
"""
from __future__ import annotations

import sys
import time

from pathlib import Path

from calibration import penalty_stage
from calibration.atomic import write_json
from calibration.provenance import provenance
from calibration.report import build_report
from calibration.validation.stage import validate
from meshes.checks import count


#: what the last ``hertz2d all`` was and how long each stage took (read by the report)
RUN_RECORD = Path("results") / "run.json"


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
    clock = {}

    def stage(number, name, text, work):
        _announce(number, text)
        begun = time.perf_counter()
        result = work()
        clock[name] = round(time.perf_counter() - begun, 1)
        return result

    sweep = stage(1, "sweep", "half-round FEM: the penalty factor's parametric studies and a/R "
                  "x nu grid", lambda: penalty_stage.sweep(quick=args.quick, jobs=args.jobs))
    fit = stage(2, "fit", "refit of Eq. 33, constant-w errors, figures 7-9", penalty_stage.fit)
    validation = stage(3, "validate", "two-disc frictional contact FEM and every contact law on "
                       "the same paths", lambda: validate(quick=args.quick, jobs=args.jobs))
    write_json({**provenance(), "quick": args.quick, "jobs": args.jobs, "stage_seconds": clock,
                "seconds": round(time.perf_counter() - start, 1)}, RUN_RECORD)
    report = stage(4, "report", "report", build_report)
    return {"out": report["out"], "markdown": report["markdown"], "grid": sweep["out"],
            "fit": fit["out"], "errors": validation["out"], "failed_cases": sweep["failed"],
            "failed_paths": validation["failures"],
            "seconds": round(time.perf_counter() - start, 1)}
