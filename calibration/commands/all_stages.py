"""``hertz2d all``: the whole pipeline end to end, each stage reusing what earlier runs finished.

meshes -> half-round FEM sweep -> Eq. 33 refit -> two-disc FEM + every contact law -> the validity
map (every law over a space of contacts) -> the DEM biaxial test with every law (skipped without
numba, the optional ``dem`` extra) -> report, everything under one results root. Finished FEM
cases are kept in the case store, so an interrupted ``all`` resumes where it stopped.
``<results>/run.json`` records what the run was
(command, versions, quick or full, what ran the FEM tasks, stage times); the report names it.
"""
from __future__ import annotations

import importlib.util
import logging
import sys
import time
from pathlib import Path

from calibration.commands.executorargs import add_executor_arguments, executor_from
from calibration.penalty import stage as penalty
from calibration.report import build_report
from calibration.runs.atomic import check_writable, write_json
from calibration.runs.provenance import provenance
from calibration.runs.run_record import RUN_RECORD
from calibration.validation.map.stage import run_map
from calibration.validation.stage import validate

#: the stages, for the progress lines ``[k/STAGES]``
STAGES = 6


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "all", parents=parents,
        help="the whole pipeline: sweep -> fit -> validate -> map -> report",
        description="Meshes, FEM, calibration, validation and report in one command. --quick "
                    "uses coarser meshes and grids (under a minute on 2 cores); without it every "
                    "figure is made at the converged mesh levels.")
    parser.add_argument("--quick", action="store_true", help="quick settings end to end")
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def _biaxial(quick: bool, executor, results: Path) -> dict | None:
    """The DEM stage, or None (with a warning) when numba is not installed."""
    if importlib.util.find_spec("numba") is None:
        logging.getLogger("hertz2d").warning(
            "the DEM biaxial stage is skipped: it needs numba (pip install 'hertz2d[dem]')")
        return None
    from calibration.biaxial.stage import biaxial
    return biaxial(quick=quick, executor=executor, results=results)


def _announce(number: int, text: str) -> None:
    print(f"[{number}/{STAGES}] {text}", file=sys.stderr, flush=True)


def run(args) -> dict:
    results = check_writable("results", args.results, directory=True)
    with executor_from(args) as executor:
        return _pipeline(args, results, executor)


def _pipeline(args, results: Path, executor) -> dict:
    start = time.perf_counter()
    clock = {}

    def stage(number, name, text, work):
        _announce(number, text)
        begun = time.perf_counter()
        result = work()
        clock[name] = round(time.perf_counter() - begun, 1)
        return result

    sweep = stage(1, "sweep", "half-round FEM: the penalty factor's parametric studies and a/R "
                  "x nu grid", lambda: penalty.sweep(quick=args.quick, executor=executor,
                                                     results=results))
    fit = stage(2, "fit", "refit of Eq. 33, constant-w errors, figures 7-9",
                lambda: penalty.fit(results=results))
    validation = stage(3, "validate", "two-disc frictional contact FEM and every contact law on "
                       "the same paths", lambda: validate(quick=args.quick, executor=executor,
                                                          results=results))
    validity_map = stage(4, "map", "the validity map: every contact law against the two-body FEM "
                         "over a space of contacts", lambda: run_map(
                             quick=args.quick, executor=executor, results=results))
    biaxial = stage(5, "biaxial", "DEM: the biaxial test (Section 4.3) with every law",
                    lambda: _biaxial(args.quick, executor, results))
    write_json({**provenance(), "quick": args.quick, "executor": executor.description,
                "stage_seconds": clock,
                "seconds": round(time.perf_counter() - start, 1)}, Path(results) / RUN_RECORD)
    report = stage(6, "report", "report", lambda: build_report(results))
    return {"out": report["out"], "markdown": report["markdown"], "grid": sweep["out"],
            "fit": fit["out"], "errors": validation["out"],
            "failed_cases": sweep["failed"] + sweep.get("confined", {}).get("failed", 0),
            "failed_paths": validation["failures"], "map": validity_map["out"],
            "failed_map_paths": validity_map["failures"],
            "biaxial": biaxial and biaxial["out"],
            "seconds": round(time.perf_counter() - start, 1)}
