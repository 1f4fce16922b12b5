"""``hertz2d all``: the whole pipeline end to end, each stage reusing what earlier runs finished."""
from __future__ import annotations

import time

from calibration import penalty_stage
from meshes.checks import count


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "all", parents=parents, help="the whole pipeline: sweep -> fit (-> validation -> report)",
        description="Meshes, FEM, calibration, validation and report in one command. --quick "
                    "uses the quick specs (a few minutes); without it every figure is made at "
                    "the converged mesh levels.")
    parser.add_argument("--quick", action="store_true", help="quick settings end to end")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.set_defaults(run=run)


def run(args) -> dict:
    count("jobs", args.jobs)
    start = time.perf_counter()
    stages = {}
    stages["sweep"] = penalty_stage.sweep(quick=args.quick, jobs=args.jobs)
    stages["fit"] = penalty_stage.fit()["out"]
    return {"out": "results", "stages": stages, "seconds": round(time.perf_counter() - start, 1)}
