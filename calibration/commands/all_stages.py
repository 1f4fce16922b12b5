"""``hertz2d all``: the whole pipeline end to end, each stage reusing what earlier runs finished.

meshes -> half-round FEM sweep -> Eq. 33 refit -> two-disc FEM + every contact law -> the
calibrated law fitted on the two-body FEM and judged on held-out contacts (its fit needs numba,
the optional ``dem`` extra; without it the stage is skipped and the law keeps the coefficients
shipped with hertz2d) -> the validity map (every law over a space of contacts) -> the DEM biaxial
test with every law (also skipped without numba) -> report, everything under one results root.
Finished FEM cases are kept in the case store, so an interrupted ``all`` resumes where it
stopped. ``<results>/run.json`` records what the run was (command, versions, quick or full, what
ran the FEM tasks, stage times); the report names it.
"""
from __future__ import annotations

import importlib.util
import logging
import sys
import time

from hertz2d.calibration.commands.executorargs import add_executor_arguments, executor_from

#: the stages, for the progress lines ``[k/STAGES]``
STAGES = 7


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "all", parents=parents,
        help="the whole pipeline: sweep -> fit -> validate -> calibrate -> map -> DEM -> report",
        description="Meshes, FEM, calibration, validation and report in one command. --quick "
                    "uses coarser meshes and grids (under a minute on 2 cores); without it every "
                    "figure is made at the converged mesh levels.")
    parser.add_argument("--quick", action="store_true", help="quick settings end to end")
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def _needs_numba(stage: str) -> bool:
    """Whether numba is there; if not, one warning that ``stage`` is skipped."""
    if importlib.util.find_spec("numba") is None:
        logging.getLogger("hertz2d").warning(
            f"the {stage} stage is skipped: it needs numba (pip install 'hertz2d[dem]')")
        return False
    return True


def _calibrate(quick: bool, executor, results):
    """The calibrated law's fit and held-out judgement, or None without numba."""
    if not _needs_numba("calibrate"):
        return None
    from hertz2d.calibration.calibrate.stage import calibrate
    return calibrate(quick=quick, executor=executor, results=results)


def _biaxial(quick: bool, executor, results):
    """The DEM stage, or None (with a warning) when numba is not installed."""
    if not _needs_numba("DEM biaxial"):
        return None
    from hertz2d.calibration.biaxial.stage import biaxial
    return biaxial(quick=quick, executor=executor, results=results)


def _announce(number: int, text: str) -> None:
    print(f"[{number}/{STAGES}] {text}", file=sys.stderr, flush=True)


def run(args) -> dict:
    from hertz2d.calibration.runs.atomic import check_writable

    results = check_writable("results", args.results, directory=True)
    with executor_from(args) as executor:
        return _pipeline(args, results, executor)


def _pipeline(args, results, executor) -> dict:
    from hertz2d.calibration.penalty import stage as penalty
    from hertz2d.calibration.report import build_report
    from hertz2d.calibration.runs.provenance import provenance
    from hertz2d.calibration.runs.run_record import RunRecord
    from hertz2d.calibration.validation.map.stage import run_map
    from hertz2d.calibration.validation.stage import validate

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
    calibrated = stage(4, "calibrate", "the calibrated law: fitted on the two-body FEM, judged on "
                       "held-out contacts", lambda: _calibrate(args.quick, executor, results))
    validity_map = stage(5, "map", "the validity map: every contact law against the two-body FEM "
                         "over a space of contacts", lambda: run_map(
                             quick=args.quick, executor=executor, results=results))
    biaxial = stage(6, "biaxial", "DEM: the biaxial test (Section 4.3) with every law",
                    lambda: _biaxial(args.quick, executor, results))
    made = provenance()
    RunRecord(made["command"], made["date"], args.quick, round(time.perf_counter() - start, 1),
              clock, executor.description,
              {k: made[k] for k in ("versions", "platform")}).write(results)
    report = stage(7, "report", "report", lambda: build_report(results))
    return {"out": report.out, "markdown": report.markdown, "grid": sweep.out,
            "fit": str(fit.path), "errors": validation.out, "failed_cases": sweep.failed_cases,
            "failed_paths": validation.failures, "map": validity_map.out,
            "failed_map_paths": validity_map.failures,
            "calibrated": calibrated and calibrated.out,
            "biaxial": biaxial and biaxial.out,
            "seconds": round(time.perf_counter() - start, 1)}
