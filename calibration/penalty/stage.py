"""The penalty-factor stage of the pipeline: sweep -> ``grid.csv``; fit -> ``fit.json`` + figures.

Outputs in ``<results>/penalty/``: ``grid.csv`` (one row per case, both supports),
``confined.csv`` (one row per case of the disc held by K contacts, when the spec has a
``[confined]`` table), ``fit.json`` (the Eq. 33 refit per support next to the paper's, w range,
constant-w errors, mesh convergence, provenance; under ``confined`` the confined disc's refits
and checks, :func:`calibration.penalty.confined.summarise`), ``fig7_parameters.png``,
``fig8_grid.png``, ``fig9_constant_w.png``, ``convergence.png``, ``confined_w.png``.
"""
from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from calibration.penalty import figures
from calibration.penalty.confined import read_confined, run_confined
from calibration.penalty.confined import summarise as summarise_confined
from calibration.penalty.regression import CONSTANT_W, constant_w_errors, fit_eq33
from calibration.penalty.confined_cases import expand_confined
from calibration.penalty.spec import expand
from calibration.penalty.spec import read as read_spec
from calibration.penalty.sweep import read_grid, run_sweep
from calibration.runs.atomic import (check_writable, save_figure, write_csv, write_json,
                                     writes_together)
from calibration.runs.executors import Executor, Inline
from calibration.runs.provenance import provenance
from fem.supports import DEFAULT_SUPPORT, SUPPORTS


def folder(results: str | Path) -> Path:
    """Where the stage's files go under a results root."""
    return Path(results) / "penalty"


@writes_together
def sweep(spec: str | None = None, quick: bool = False, executor: Executor = Inline(),
          results: str | Path = "results", progress: bool = True) -> dict:
    """Run a spec's cases on ``executor`` (reusing finished ones) and write
    ``<results>/penalty/grid.csv``, and ``confined.csv`` when the spec has a ``[confined]``
    table."""
    start = time.perf_counter()
    parsed = read_spec(spec, quick=quick)
    cases, confined_cases = expand(parsed), expand_confined(parsed)
    out = check_writable("results", folder(results) / "grid.csv")
    confined_out = check_writable("results", folder(results) / "confined.csv")
    grid = run_sweep(cases, executor, progress=progress)
    write_csv(grid, out)
    summary = {**_table_summary(grid), "out": str(out)}
    if confined_cases:
        table = run_confined(confined_cases, executor, progress=progress)
        write_csv(table, confined_out)
        summary["confined"] = {**_table_summary(table), "out": str(confined_out)}
    elif confined_out.exists():  # from an earlier spec: `fit` must not mix it with this grid
        confined_out.unlink()
    return {**summary, "seconds": round(time.perf_counter() - start, 2)}


def _table_summary(table: pd.DataFrame) -> dict:
    failed = table[table.status == "failed"]
    return {"rows": len(table), "failed": len(failed), "reused": int(table.reused.sum()),
            "failures": sorted(set(failed.error))[:5]}


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
def fit(grid_path: str | Path | None = None, results: str | Path = "results") -> dict:
    """Refit Eq. 33 for both supports, write ``fit.json`` and the figures into
    ``<results>/penalty``; the grid is ``<results>/penalty/grid.csv`` unless given."""
    out_dir = check_writable("results", folder(results), directory=True)
    grid_path = Path(grid_path) if grid_path else out_dir / "grid.csv"
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
    confined_path = out_dir / "confined.csv"
    confined = read_confined(confined_path) if confined_path.exists() else None
    if confined is not None:
        summary["confined"] = summarise_confined(confined, grid, by_support)
    write_json(summary, out_dir / "fit.json")
    if confined is not None:
        save_figure(figures.confined_figure(grid, confined), out_dir / "confined_w.png")
    save_figure(figures.figure7(grid), out_dir / "fig7_parameters.png")
    save_figure(figures.figure8(grid, fits), out_dir / "fig8_grid.png")
    save_figure(figures.figure9(grid, default.support), out_dir / "fig9_constant_w.png")
    save_figure(figures.convergence_figure(grid), out_dir / "convergence.png")
    return {**summary, "out": str(out_dir / "fit.json")}
