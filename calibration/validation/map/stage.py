"""The validity-map stage: spec -> every law on every path -> the FEM paths -> errors, regions.

Outputs in ``<results>/map/``: ``cases.csv`` (one row per FEM path: the case's axes, the check
variant, the prescribed path, the FEM's contact half-width and peak normal force, the shares of
its loaded steps in partial and in full slip, ``status``
``ok`` or ``failed`` with the reason in ``error``, seconds, ``reused``), ``errors.csv`` (one row
per case x variant x law x quantity, :mod:`hertz2d.calibration.validation.map.errors`), in the map of
``map/`` (not the held-out one) ``loops.csv`` and ``admissibility.csv`` (every law around random
closed loops, :mod:`hertz2d.calibration.validation.map.loops`), ``summary.json``
(the spec's size, the laws, each law's region within 5 % and 10 %, the convergence checks, the
FEM's seconds per path by kind, the failures, provenance), the heatmaps ``<study>.png`` and
``summary.png``. The laws' penalty factors need ``<results>/penalty/fit.json`` (``hertz2d fit``).
"""
from __future__ import annotations

import sys
import time
from dataclasses import asdict
from pathlib import Path, PurePosixPath

import numpy as np
import pandas as pd

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.fitted import calibrated_coefficients, fit_keys, penalty_fit
from hertz2d.calibration.runs.atomic import check_writable, save_figure, writes_together
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.calibration.validation.map import figures, outputs
from hertz2d.calibration.validation.map.outputs import MapSummary, folder
from hertz2d.calibration.validation.map.errors import (ENERGY, QUANTITIES, REVERSING, error_table,
                                               law_tables, map_laws)
from hertz2d.calibration.validation.map import loops as closed_loops
from hertz2d.calibration.validation.map.regions import (THRESHOLDS, convergence, force_errors, percent,
                                                regions)
from hertz2d.calibration.validation.map.runs import run_paths
from hertz2d.calibration.validation.map.spec import (DEFAULT_VARIANT, MAX_CPU_HOURS, MapRun, MapSpec,
                                             read)

#: columns of ``cases.csv``
CASE_COLUMNS = ("case", "variant", "studies", "counterpart", "R2_over_R1", "E2_over_E1", "nu1",
                "nu2", "mu", "a_over_R", "support", "path", "load", "R1", "E1", "level", "steps",
                "delta_n", "delta_t", "a_fem_over_R", "N_fem", "partial_slip_share", "full_slip_share",
                "status", "error", "seconds",
                "setup_seconds", "step_seconds", "reused")


def _case_row(run: MapRun, case_id: int, spec: MapSpec, fem_path, row: dict) -> dict:
    table = pd.DataFrame(row["table"])
    seconds = row["seconds"]
    ok = row["failure"] is None
    return {"case": case_id, "variant": run.variant,
            "studies": ";".join(spec.case_studies[run.case]), **run.case.row(),
            "level": run.level, "steps": len(fem_path.path()), "delta_n": fem_path.delta_n,
            "delta_t": fem_path.delta_t,
            "a_fem_over_R": float(table.a.max()) / run.case.R1 if len(table) else np.nan,
            "N_fem": float(table.N.max()) if len(table) else np.nan,
            **_slip_shares(table),
            "status": "ok" if ok else "failed", "error": "" if ok else row["failure"],
            "seconds": seconds["total"], "setup_seconds": seconds.get("set-up"),
            "step_seconds": seconds.get("per step"), "reused": row["reused"]}


def _slip_shares(table: pd.DataFrame) -> dict:
    """The shares of a path's steps after the normal stage on which the FEM's contact slips
    partly (a stick zone inside slipping edges, 0 < c < a: the steps that test a law's partial
    slip) and fully (c = 0: there Fx is Coulomb's mu N, and only the normal law is tested)."""
    loaded = table[table.stage != "normal"] if len(table) else table
    if loaded.empty:
        return {"partial_slip_share": np.nan, "full_slip_share": np.nan}
    return {"partial_slip_share": float(((loaded.c > 0) & (loaded.c < loaded.a)).mean()),
            "full_slip_share": float((loaded.c <= 0).mean())}


def fem_seconds(cases: pd.DataFrame) -> dict:
    """Per path kind at the map's level: paths timed, mean seconds per path, of set-up, per
    step (as measured when each path was computed, possibly by an earlier run)."""
    done = cases[(cases.variant == DEFAULT_VARIANT) & (cases.status == "ok")]
    return {kind: {"paths": int(len(rows)), "seconds_per_path": float(rows.seconds.mean()),
                   "setup_seconds": float(rows.setup_seconds.mean()),
                   "seconds_per_step": float(rows.step_seconds.mean()),
                   "steps": float(rows.steps.mean())}
            for kind, rows in done.groupby("path")}


@writes_together
def run_map(spec_path: str | Path | None = None, quick: bool = False,
            executor: Executor = Inline(), results: str | Path = "results",
            progress: bool = True, max_cpu_hours: float = MAX_CPU_HOURS,
            spec: MapSpec | None = None, out: PurePosixPath = layout.MAP,
            loops: int | None = None) -> MapSummary:
    """Run the map of a spec (``spec``, or read from ``spec_path``, or the shipped default or
    quick one; refused when its estimated CPU time exceeds ``max_cpu_hours``), the FEM on
    ``executor``, reusing stored paths; write ``<results>/<out>/``; return a summary. Every
    law of the catalogue runs, the calibrated one with the coefficients of
    :func:`hertz2d.calibration.fitted.calibrated_coefficients`. The map of ``map/`` also runs every law
    around ``loops`` random closed loops (:mod:`hertz2d.calibration.validation.map.loops`; None: its
    default count, 0: none)."""
    start = time.perf_counter()
    results = Path(results)
    own_map = out == layout.MAP
    out = check_writable("results", folder(results, out), directory=True)
    spec = spec or read(spec_path, quick, max_cpu_hours=max_cpu_hours)
    if progress:
        print(f"map: {len(spec.runs)} FEM paths, about {spec.estimated_seconds / 60:.2g} CPU "
              "minutes (an estimate, before reuse)", file=sys.stderr, flush=True)
    refit, fit = penalty_fit(results)
    calibrated, calibrated_file = calibrated_coefficients(results)
    laws = map_laws(refit, calibrated)
    tables = law_tables(spec, laws, executor, progress)
    fem_paths = {run: run.fem_path() for run in spec.runs}
    rows = run_paths(list(fem_paths.values()), executor, progress=progress)
    case_ids = {case: number for number, case in enumerate(spec.case_studies)}
    cases = pd.DataFrame([_case_row(run, case_ids[run.case], spec, fem_path, rows[fem_path])
                          for run, fem_path in fem_paths.items()], columns=list(CASE_COLUMNS))
    finished = {run: pd.DataFrame(rows[fem_path]["table"])
                for run, fem_path in fem_paths.items() if rows[fem_path]["failure"] is None}
    errors = error_table(spec, finished, laws, tables, case_ids)
    admissibility = None
    loop_settings = closed_loops.settings(quick, loops)
    if own_map and loop_settings["loops"]:
        judged = closed_loops.judged_laws(laws)
        loop_rows = closed_loops.loop_table(judged, loop_settings, executor, progress)
        admissibility = closed_loops.admissibility_table(judged, loop_rows)
        outputs.write_loops(out, loop_rows, admissibility)
    region = regions(force_errors(errors), spec) if len(errors) else []
    checks = convergence(errors) if len(errors) else pd.DataFrame()
    failed = cases[cases.status == "failed"]
    failures = {f"case {r.case} ({r.variant}): {r.counterpart}, {r.path} {r.load:g}, a/R1 {r.a_over_R:g}, "
                f"mu {r.mu:g}": r.error for r in failed.itertuples()}
    summary = {
        "spec": spec.name, "level": spec.level, "base": spec.base,
        "paths": len(spec.default_runs), "check_paths": len(spec.runs) - len(spec.default_runs),
        "failed": len(failed), "reused": int(cases.reused.sum()),
        "laws": [law.label for law in laws], "quantities": [*QUANTITIES, ENERGY],
        "calibrated": {"coefficients": str(calibrated_file.path),
                       "source": calibrated_file.source},
        "thresholds": [percent(t) for t in THRESHOLDS], "judged_by_amplitude": list(REVERSING),
        "studies": {name: study.axes for name, study in spec.studies.items()},
        "samples": {name: asdict(sample) for name, sample in spec.samples.items()},
        "settings": asdict(spec.settings),
        "regions": region, "convergence": checks.to_dict("records"),
        "fem_seconds": fem_seconds(cases), "failures": failures, **fit_keys(fit),
        "closed_loops": loop_settings if admissibility is not None else None,
        "provenance": provenance()}
    outputs.write(out, cases, errors)
    if len(errors):
        force = force_errors(errors)
        labels = [entry["law"] for entry in region]
        for name, study in spec.studies.items():
            save_figure(figures.study_figure(force, study, labels), out / f"{name}.png")
        save_figure(figures.summary_figure(region, errors), out / outputs.SUMMARY_FIGURE)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    outputs.write_summary(out, summary)
    return MapSummary(summary["paths"], summary["check_paths"], summary["failed"],
                      summary["reused"], summary["laws"], str(out / outputs.ERRORS), failures,
                      summary["seconds"], fit_keys(fit))
