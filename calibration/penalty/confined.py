"""The confined disc in the penalty stage: its sweep table (``confined.csv``) and its summary.

:func:`run_confined` solves the ``[confined]`` cases of a spec
(:mod:`hertz2d.calibration.penalty.confined_cases`) in parallel, resumable through the case store,
failures recorded, like the half-round sweep;
:func:`read_confined` reads the table back, checked; :func:`summarise` refits Eq. 33's form to
each K's penalty factors and collects the verification (Eq. 17 at K = 2, the mirrored check
against the ``symmetric`` half-round body, equilibrium, mesh convergence) for ``fit.json``.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.closed_forms import half_space_bracket, penalty_bracket, penalty_factor_eq33
from hertz2d.calibration.penalty.confined_cases import (MIRROR, ConfinedCase, groups, solve_group,
                                                solver_namespace)
from hertz2d.calibration.penalty.regression import fit_eq33
from hertz2d.calibration.penalty.sweep import read_table, run_cases
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.store import CaseStore

COLUMNS = ["study", "support", "K", "balance", "R", "a", "a_over_R", "E", "nu", "T", "N", "level",
           "dofs", "u_t", "u_t_mean_axes", "w_fem", "w_mean_axes", "w_eq33", "approach",
           "approach_eq17", "approach_over_eq17", "reaction", "imbalance", "status", "error",
           "seconds", "reused"]
#: columns that must hold finite numbers in every finished (``status == "ok"``) row
NUMERIC = ["K", "R", "a", "a_over_R", "E", "nu", "T", "N", "level", "dofs", "u_t",
           "u_t_mean_axes", "w_fem", "w_mean_axes", "w_eq33", "approach", "approach_eq17",
           "approach_over_eq17", "reaction", "imbalance"]
SUPPORT_PATTERN = re.compile(r"confined-\d+|" + re.escape(MIRROR))
#: the contact counts pooled into the ``confined`` penalty option (see :func:`summarise`)
PACKING_CONTACTS = (3, 4)
#: the two-disc example's contact size (Section 4.2, case 1: a about 13 % of R) and nu
TWO_DISC = {"a_over_R": 0.131, "nu": 0.25}


def run_confined(cases: list[ConfinedCase], executor: Executor = Inline(),
                 store: CaseStore | None = None, progress: bool = True) -> pd.DataFrame:
    """Rows for ``cases`` (in order), computing those missing from ``store`` on ``executor``."""
    rows = run_cases(cases, groups, solve_group, store or CaseStore(solver_namespace()),
                     executor, progress, "confined-disc sweep")
    return pd.DataFrame(rows).reindex(columns=COLUMNS)


def read_confined(path: str | Path) -> pd.DataFrame:
    """A ``confined.csv`` written by :func:`run_confined`, checked before it is used."""
    return read_table(path, "confined", COLUMNS, NUMERIC,
                      lambda s: SUPPORT_PATTERN.fullmatch(s) is not None,
                      f"confined-<K>, {MIRROR}", "hertz2d sweep")


def _finished(table: pd.DataFrame, study: str = "grid", **columns) -> pd.DataFrame:
    mask = (table.study == study) & (table.status == "ok")
    for column, value in columns.items():
        mask &= table[column] == value
    return table[mask]


def pooled(confined: pd.DataFrame, contacts=PACKING_CONTACTS) -> pd.DataFrame:
    """The grid rows of the given contact counts relabelled ``support = "confined"``."""
    rows = confined[confined.support.isin([f"confined-{K}" for K in contacts])].copy()
    rows["support"] = "confined"
    return rows


def _support_summary(rows: pd.DataFrame, support: str) -> dict:
    fit = fit_eq33(rows, support)
    cases = _finished(rows, support=support)
    return {**fit.summary(),
            **{f"w_{k}": float(getattr(cases.w_fem, k)()) for k in ("min", "max", "mean")},
            **{f"w_mean_axes_{k}": float(getattr(cases.w_mean_axes, k)())
               for k in ("min", "max", "mean")}}


def _convergence(confined: pd.DataFrame) -> dict:
    """w per mesh level at the base case for each support, and the grid level's distance from
    the finest."""
    grid_level = int(_finished(confined).level.mode().iloc[0])
    summary = {}
    for support in sorted(set(confined.support)):
        rows = _finished(confined, "convergence", support=support).sort_values("level")
        if rows.empty:
            continue
        default = rows[rows.level == grid_level].w_fem
        summary[support] = {
            "levels": rows.level.tolist(), "dofs": rows.dofs.tolist(), "w": rows.w_fem.tolist(),
            "w_mean_axes": rows.w_mean_axes.tolist(), "default_level": grid_level,
            "default_minus_finest": (float(default.iloc[0] - rows.w_fem.iloc[-1])
                                     if len(default) else None)}
    return summary


def _trend(confined: pd.DataFrame) -> dict | None:
    """w against the contact count K at the base case (study ``contacts``)."""
    rows = _finished(confined, "contacts").drop_duplicates("K").sort_values("K")
    if rows.empty:
        return None
    return {"a_over_R": float(rows.a_over_R.iloc[0]), "nu": float(rows.nu.iloc[0]),
            "level": int(rows.level.iloc[0]), "K": rows.K.astype(int).tolist(),
            "w": rows.w_fem.tolist(), "w_mean_axes": rows.w_mean_axes.tolist()}


def tangential_stiffness_ratio(w, a_over_R, nu):
    """``kt / kn`` of two equal discs (Eqs. 29 and 31 with w1 = w2 = w; E* and R cancel):
    ``(log(4R/a) - 1/2) / (log(2R/a) + 1/2 + w (log(4R/a) + nu/(2(1-nu))))``."""
    return (np.log(4.0 / a_over_R) - 0.5) / (half_space_bracket(1.0, a_over_R)
                                              + w * penalty_bracket(1.0, a_over_R, nu))


def _mirror_check(confined: pd.DataFrame, grid: pd.DataFrame) -> dict | None:
    """The mirrored K = 2 disc against the ``symmetric`` half-round body, case by case."""
    mirror = _finished(confined, support=MIRROR)
    symmetric = grid[(grid.study == "grid") & (grid.support == "symmetric")
                     & (grid.status == "ok")]
    pairs = mirror.merge(symmetric, on=["a_over_R", "nu"], suffixes=("", "_half_round"))
    if pairs.empty:
        return None
    difference = (pairs.w_fem - pairs.w_fem_half_round).abs()
    return {"cases": len(pairs), "max_abs_w_difference": float(difference.max())}


def _against_half_round(grid: pd.DataFrame, packing: dict, fits: dict[str, dict]) -> dict:
    """The packing's refit against each half-round refit over the grid's (a/R, nu): the range of
    the w difference and of the kt ratio (kn is the same, so kt/kt = (kt/kn)/(kt/kn))."""
    x, nu = grid.a_over_R.to_numpy(), grid.nu.to_numpy()
    w = penalty_factor_eq33(x, nu, packing["coefficients"])
    out = {}
    for support, fit in fits.items():
        other = penalty_factor_eq33(x, nu, fit["coefficients"])
        ratio = tangential_stiffness_ratio(w, x, nu) / tangential_stiffness_ratio(other, x, nu)
        out[support] = {"w_difference": [float((w - other).min()), float((w - other).max())],
                        "kt_ratio": [float(ratio.min()), float(ratio.max())]}
    return out


def summarise(confined: pd.DataFrame, grid: pd.DataFrame, fits: dict[str, dict]) -> dict:
    """The confined part of ``fit.json``.

    ``fits``: the Eq. 33 refit and w range of each support (the half-round ones given in
    ``fits``, which also pick the two-disc comparison's reference), each ``confined-<K>`` and the
    pooled ``confined`` (K in :data:`PACKING_CONTACTS`, the mean coordination of 2D disc
    packings: the ``--penalty confined`` option); ``verification``: Eq. 17 at K = 2, the mirrored
    check, the largest constraint reaction and load imbalance; ``convergence``; ``trend``: w
    against K at the base case; ``two_disc``: w and ``kt/kn`` of every support at
    :data:`TWO_DISC` from its refit; ``packing_vs_half_round``: the pooled refit against each
    half-round refit over the grid (w difference and kt ratio, min and max).
    """
    supports = sorted(s for s in set(_finished(confined).support)
                      if s != MIRROR and len(_finished(confined, support=s)) >= 6)
    confined_fits = {s: _support_summary(confined, s) for s in supports}
    packing = pooled(confined)
    if len(_finished(packing)) >= 6:
        confined_fits["confined"] = _support_summary(packing, "confined")
    ok = confined[confined.status == "ok"]
    k2 = _finished(confined, K=2, balance="relief")
    narrow = k2[k2.a_over_R <= 0.1 + 1e-12]
    verification = {
        "eq17_k2_max_abs_error": (float((narrow.approach_over_eq17 - 1).abs().max())
                                  if len(narrow) else None),
        "mirror_vs_symmetric": _mirror_check(confined, grid),
        "max_reaction": float(ok.reaction.max()), "max_imbalance": float(ok.imbalance.max())}
    x, nu = TWO_DISC["a_over_R"], TWO_DISC["nu"]
    every = {**fits, **confined_fits}
    w = {s: float(penalty_factor_eq33(x, nu, f["coefficients"])) for s, f in every.items()}
    two_disc = {**TWO_DISC, "w": w,
                "kt_over_kn": {s: float(tangential_stiffness_ratio(v, x, nu))
                               for s, v in w.items()}}
    comparison = None
    if "confined" in confined_fits:
        comparison = _against_half_round(_finished(confined), confined_fits["confined"], fits)
    return {"fits": confined_fits, "packing_contacts": list(PACKING_CONTACTS),
            "packing_vs_half_round": comparison,
            "verification": verification, "convergence": _convergence(confined),
            "trend": _trend(confined),
            "two_disc": two_disc,
            "failed": int((confined.status == "failed").sum()), "cases": len(confined)}
