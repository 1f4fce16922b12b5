"""The penalty-factor stage of the pipeline: sweep -> ``grid.csv``; fit -> ``fit.json`` + figures.

Outputs in ``<results>/penalty/``: ``grid.csv`` (one row per case, both supports),
``confined.csv`` (one row per case of the disc held by K contacts, when the spec has a
``[confined]`` table), ``fit.json`` (the Eq. 33 refit per support next to the paper's, w range,
constant-w errors, mesh convergence, provenance; under ``confined`` the confined disc's refits
and checks, :func:`hertz2d.calibration.penalty.confined.summarise`), ``fig7_parameters.png``,
``fig8_grid.png``, ``fig9_constant_w.png``, ``convergence.png``, ``confined_w.png``.
"""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from hertz2d.calibration.penalty import figures, outputs
from hertz2d.calibration.penalty.confined import read_confined, run_confined
from hertz2d.calibration.penalty.confined import summarise as summarise_confined
from hertz2d.calibration.penalty.regression import CONSTANT_W, constant_w_errors, fit_eq33
from hertz2d.calibration.penalty.confined_cases import expand_confined
from hertz2d.calibration.penalty.outputs import (PenaltyFit, SweepSummary, confined_path, figure_path,
                                         folder, grid_path)
from hertz2d.calibration.penalty.spec import expand
from hertz2d.calibration.penalty.spec import read as read_spec
from hertz2d.calibration.penalty.sweep import read_grid, run_sweep
from hertz2d.calibration.runs.atomic import check_writable, save_figure, write_csv, writes_together
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.fem.supports import DEFAULT_SUPPORT, SUPPORTS


@writes_together
def sweep(spec: str | None = None, quick: bool = False, executor: Executor = Inline(),
          results: str | Path = "results", progress: bool = True) -> SweepSummary:
    """Run a spec's cases on ``executor`` (reusing finished ones) and write
    ``<results>/penalty/grid.csv``, and ``confined.csv`` when the spec has a ``[confined]``
    table."""
    start = time.perf_counter()
    parsed = read_spec(spec, quick=quick)
    cases, confined_cases = expand(parsed), expand_confined(parsed)
    out = check_writable("results", grid_path(results))
    confined_out = check_writable("results", confined_path(results))
    grid = run_sweep(cases, executor, progress=progress)
    write_csv(grid, out)
    confined = None
    if confined_cases:
        table = run_confined(confined_cases, executor, progress=progress)
        write_csv(table, confined_out)
        confined = _table_summary(table, confined_out)
    elif confined_out.exists():  # from an earlier spec: `fit` must not mix it with this grid
        confined_out.unlink()
    return replace(_table_summary(grid, out), confined=confined,
                   seconds=round(time.perf_counter() - start, 2))


def _table_summary(table: pd.DataFrame, out: Path) -> SweepSummary:
    failed = table[table.status == "failed"]
    return SweepSummary(len(table), len(failed), int(table.reused.sum()),
                        sorted(set(failed.error))[:5], str(out))


def _convergence(grid: pd.DataFrame) -> dict:
    """w per mesh level at the base case, and the default level's distance from the finest."""
    summary = {}
    base_level = int(grid[grid.study == "grid"].level.mode().iloc[0]) if (
        grid.study == "grid").any() else None
    for support in SUPPORTS:
        rows = grid[(grid.study == "convergence") & (grid.support == support)
                    & (grid.status == "ok")].sort_values("level")
        if rows.empty:
            continue
        finest = rows.w_fem.iloc[-1]
        default = rows[rows.level == base_level].w_fem
        summary[support] = {
            "levels": rows.level.tolist(), "dofs": rows.dofs.tolist(), "w": rows.w_fem.tolist(),
            "default_level": base_level,
            "default_minus_finest": float(default.iloc[0] - finest) if len(default) else None}
    return summary


@writes_together
def fit(grid: str | Path | None = None, results: str | Path = "results") -> PenaltyFit:
    """Refit Eq. 33 for both supports, write ``fit.json`` and the figures into
    ``<results>/penalty``; the grid is ``<results>/penalty/grid.csv`` unless given."""
    out_dir = check_writable("results", folder(results), directory=True)
    grid_path = Path(grid) if grid else outputs.grid_path(results)
    grid = read_grid(grid_path)
    supports = [s for s in SUPPORTS if ((grid.support == s) & (grid.study == "grid")).any()]
    fits = {support: fit_eq33(grid, support) for support in supports}
    errors = constant_w_errors(grid)
    by_support = {}
    for support, result in fits.items():
        cases = grid[(grid.study == "grid") & (grid.support == support) & (grid.status == "ok")]
        mine = errors[errors.support == support]
        by_support[support] = {
            **result.summary(),
            "w_min": float(cases.w_fem.min()), "w_max": float(cases.w_fem.max()),
            "w_mean": float(cases.w_fem.mean()),
            "constant_w": CONSTANT_W,
            "max_abs_displacement_error": float(mine.displacement_error.abs().max()),
            "max_abs_force_error": float(mine.force_error.abs().max())}
    default = fits.get(DEFAULT_SUPPORT) or next(iter(fits.values()))
    summary = {**default.summary(), "default_support": default.support,
               "by_support": by_support, "convergence": _convergence(grid),
               "grid": str(grid_path), "provenance": provenance()}
    confined_table = confined_path(results)
    confined = read_confined(confined_table) if confined_table.exists() else None
    if confined is not None:
        summary["confined"] = summarise_confined(confined, grid, by_support)
    written = PenaltyFit(summary)
    path = written.write(results)
    if confined is not None:
        save_figure(figures.confined_figure(grid, confined), figure_path(out_dir, "confined_w"))
    save_figure(figures.figure7(grid), figure_path(out_dir, "fig7_parameters"))
    save_figure(figures.figure8(grid, fits), figure_path(out_dir, "fig8_grid"))
    save_figure(figures.figure9(grid, default.support), figure_path(out_dir, "fig9_constant_w"))
    save_figure(figures.convergence_figure(grid), figure_path(out_dir, "convergence"))
    return replace(written, path=path)
