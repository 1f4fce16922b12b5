"""The calibrated law's stage: training FEM -> least-squares fit -> held-out judgement.

1. The training paths: the two-body FEM of the map's spec (``default.toml``, or ``quick.toml``),
   its default runs on symmetric flats (the configuration of a disc held in a packing; the
   clamped-flat study is the paper's configuration and stays out), from the case store or
   computed on the executor (:func:`hertz2d.calibration.validation.map.runs.run_paths`).
2. The fit (:mod:`hertz2d.calibration.calibrate.fit`) of every coefficient group from the fixed start,
   written to ``<results>/calibrated/coefficients.json`` (the quick run: w only, refitted on its
   few paths from the coefficients shipped with hertz2d).
3. The held-out contacts (``heldout.toml``: a Latin hypercube never used to fit or choose
   anything; ``quick-heldout.toml``) run through the map (:func:`run_map`) with every law of the
   catalogue, the calibrated one with the coefficients just fitted: the map's files in
   ``<results>/calibrated/heldout/``, the targets per law in ``targets.csv`` and ``summary.json``,
   the calibrated law's held-out paths by Dundurs coupling in ``by_coupling.csv`` and its
   targets (the amplitude-relative and the floor metric) on the contacts with ``|beta|`` up to
   0.1, 0.2 and on all, on the walls and with ``|beta|`` > 0.25 in ``domain.csv``, its
   energy-per-cycle target per kind of cycle in ``energy.csv``, the figure
   ``heldout.png``, the FEM's first against last cycle of every training cycle path in
   ``cycles.csv``, its cycles against Masing's rule in ``masing.csv``
   (:mod:`hertz2d.calibration.calibrate.masing`), and where on the training paths the floor metric's largest errors fall in
   ``floor_misses.csv`` (:mod:`hertz2d.calibration.calibrate.judgement`).
"""
from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from hertz2d.calibration.calibrate.figures import heldout_errors
from hertz2d.calibration.calibrate.fit import ALL_GROUPS, BASE_GROUPS, fit
from hertz2d.calibration.calibrate.judgement import (by_coupling, by_domain, cycle_energies,
                                                     energy_by_normal_loop, energy_verdicts,
                                                     floor_misses)
from hertz2d.calibration.calibrate.masing import masing_defects
from hertz2d.calibration.calibrate.targets import law_targets, met
from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.calibrate.outputs import (HELDOUT_FIGURE, CalibrateSummary, CoefficientsRecord,
                                           folder, write_tables)
from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients
from hertz2d.calibration.runs.atomic import check_writable, save_figure
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.validation.map.outputs import MapOutputs
from hertz2d.calibration.validation.map.runs import run_paths
from hertz2d.calibration.validation.map.spec import MapSpec, read
from hertz2d.calibration.validation.map.stage import run_map
from hertz2d.checks import InputError

#: the flats' support the law is fitted for
TRAINING_SUPPORT = "symmetric"
#: the laws drawn beside the calibrated one: the best of the paper's laws with memory
COMPARED = ("accurate with memory, refit (confined disc)",)


def training_paths(spec: MapSpec, executor: Executor, progress: bool
                   ) -> tuple[list, list[str]]:
    """``[(run, FEM table)]`` of the spec's finished default runs on :data:`TRAINING_SUPPORT`
    flats, and the failures (recorded, not fitted)."""
    runs = [run for run in spec.default_runs if run.case.support == TRAINING_SUPPORT]
    if not runs:
        raise InputError(f"spec={spec.name!r} has no default runs on {TRAINING_SUPPORT} flats "
                         "to fit the calibrated law on")
    fem_paths = {run: run.fem_path() for run in runs}
    rows = run_paths(list(fem_paths.values()), executor, progress=progress)
    done = [(run, pd.DataFrame(rows[path]["table"])) for run, path in fem_paths.items()
            if rows[path]["failure"] is None]
    failed = [f"{run.case.path} {run.case.load:g}, {run.case.counterpart}: "
              f"{rows[path]['failure']}" for run, path in fem_paths.items()
              if rows[path]["failure"] is not None]
    return done, failed


def training_record(spec: MapSpec, paths: int) -> dict:
    """The training contacts of ``coefficients.json``: spec, paths, support, level, ranges."""
    ranges = spec.samples["training"].ranges if "training" in spec.samples else {}
    return {"spec": spec.name, "paths": paths, "support": TRAINING_SUPPORT, "level": spec.level,
            "ranges": ranges}


def calibrate(spec_path: str | Path | None = None, heldout_path: str | Path | None = None,
              quick: bool = False, executor: Executor = Inline(),
              results: str | Path = "results", progress: bool = True) -> CalibrateSummary:
    """Fit the calibrated law on the training spec and judge it on the held-out one (see the
    module docstring); return a summary."""
    start = time.perf_counter()
    results = Path(results)
    check_writable("results", folder(results), directory=True)
    training = read(spec_path, quick)
    heldout = read(heldout_path, shipped="quick-heldout.toml" if quick else "heldout.toml")
    paths, failed = training_paths(training, executor, progress)
    result = (fit(paths, BASE_GROUPS, start=CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))
              if quick else fit(paths, ALL_GROUPS))
    coefficients = CoefficientsRecord(result.coefficients, training_record(training, len(paths)),
                                      result.summary()).write(results)
    judged = run_map(spec=heldout, executor=executor, results=results, progress=progress,
                     out=layout.HELDOUT)
    errors = MapOutputs.errors_of(results, layout.HELDOUT)
    targets = law_targets(errors) if len(errors) else pd.DataFrame()
    tables = {"cycles": cycle_energies(paths, result.coefficients), "targets": targets,
              "floor_misses": floor_misses(paths, result.coefficients),
              "masing": masing_defects(paths)}
    label = result.coefficients.label
    if len(errors):
        tables.update(by_coupling=by_coupling(errors, label), domain=by_domain(errors, label),
                      energy=energy_verdicts(errors, label),
                      energy_normal=energy_by_normal_loop(errors, label))
        drawn = [law for law in (label, *COMPARED) if law in set(errors.law)]
        save_figure(heldout_errors(errors, drawn), folder(results) / HELDOUT_FIGURE)
    write_tables(results, tables)
    mine = targets[targets.law == label] if len(targets) else targets
    summary = CalibrateSummary(
        str(coefficients), len(paths), failed, judged.paths, judged.failures, result.summary(),
        result.coefficients.as_dict(), mine.iloc[0].to_dict() if len(mine) else None,
        met(mine.iloc[0]) if len(mine) else None, round(time.perf_counter() - start, 1))
    summary.write(results)
    return summary
