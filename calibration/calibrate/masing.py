"""The FEM's tangential cycles at constant approach against Masing's rule: evidence, free of any
law, for what a law with one curve per contact can reach.

Masing's rule: from a turning point ``(delta*, T*)`` an unloading branch is the virgin curve G
doubled, ``T = T* - 2 G((delta* - delta)/2)``. Cattaneo and Mindlin's superposition makes it
exact for two bodies of one material at constant N, with G the first loading; the calibrated law
obeys it by construction, with its one curve per pair, for the first loading and every branch
(so that stick is elastic at any friction). Two measures, on the training contacts' ``cycle``
paths (delta_n held, two cycles) whose amplitude stays below the slip onset (``load`` < 1: a loop
turning at the onset itself has a corner the steps do not resolve):

- ``first loading doubled``: the first unloading branch against Masing's rule with G the FEM's
  own first loading (:func:`first_loading`);
- ``largest loop doubled``: the last unloading branch against Masing's rule with G taken from the
  last unloading branch of the contact's largest such loop (:func:`branch_virgin`), for the
  contact's smaller loops.

Each is the largest difference over the branch, relative to the path's largest ``|Fx|`` (the
map's amplitude-relative measure). Where the first is large and the second small, the FEM's
loops are Masing loops of a virgin curve other than the first loading: after the first
reversal the contact follows another curve.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.calibrate.judgement import (BETA_BANDS, band_labels, coupling_of,
                                                     unloading_starts)

#: the path kind the check runs on: tangential cycles at a held approach
CYCLE = "cycle"
#: amplitudes (``load``, a share of the slip onset) below this are checked
SLIP_ONSET = 1.0
#: the two measures' columns
FIRST, LARGEST = "first loading doubled", "largest loop doubled"


def masing_branch(turning: tuple[float, float], virgin_delta, virgin_force, delta) -> np.ndarray:
    """Masing's rule: the unloading branch from ``turning`` ``(delta*, T*)`` at ``delta``,
    ``T* - 2 G((delta* - delta)/2)``, G the virgin curve through the points
    ``(virgin_delta, virgin_force)`` (increasing delta, from (0, 0); linear in between)."""
    start, peak = turning
    half = 0.5 * (start - np.asarray(delta, float))
    return peak - 2.0 * np.interp(half, virgin_delta, virgin_force)


def first_loading(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """``(delta_t, Fx)`` of the first tangential loading, from the unloaded (0, 0)."""
    first = table[table.stage == "tangential"]
    return (np.concatenate([[0.0], first.delta_t.to_numpy()]),
            np.concatenate([[0.0], first.Fx.to_numpy()]))


def unloading_branches(table: pd.DataFrame) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each unloading branch ``(delta_t, Fx)``, from its turning point (the step before it)."""
    stage = table.stage.to_numpy()
    delta, force = table.delta_t.to_numpy(), table.Fx.to_numpy()
    branches = []
    for start in unloading_starts(table):
        end = start
        while end < len(stage) and stage[end] == "unloading":
            end += 1
        branches.append((delta[start - 1:end], force[start - 1:end]))
    return branches


def branch_virgin(branch: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The virgin curve an unloading branch is Masing's doubling of: ``G(u) = (T* - T(delta* -
    2u))/2`` at ``u = (delta* - delta)/2``, increasing u."""
    delta, force = branch
    return 0.5 * (delta[0] - delta), 0.5 * (force[0] - force)


def _defect(branch: tuple[np.ndarray, np.ndarray], virgin: tuple[np.ndarray, np.ndarray],
            scale: float) -> float:
    delta, force = branch
    predicted = masing_branch((delta[0], force[0]), *virgin, delta)
    return float(np.max(np.abs(force - predicted)) / scale)


def masing_defects(paths: list) -> pd.DataFrame:
    """Per training path ``(run, FEM table)`` of kind :data:`CYCLE` below :data:`SLIP_ONSET`:
    the contact (its map row, ``|beta|``) and the two measures of the module docstring
    (:data:`FIRST`; :data:`LARGEST`, NaN on a contact's largest loop)."""
    cycles = [(run, table) for run, table in paths
              if run.case.path == CYCLE and run.case.load < SLIP_ONSET
              and len(unloading_branches(table)) >= 2]
    largest = {}
    for run, table in cycles:
        contact = contact_key(run)
        if contact not in largest or run.case.load > largest[contact][0]:
            largest[contact] = (run.case.load, branch_virgin(unloading_branches(table)[-1]))
    rows = []
    for run, table in cycles:
        scale = float(np.max(np.abs(table.Fx.to_numpy())))
        branches = unloading_branches(table)
        load, virgin = largest[contact_key(run)]
        rows.append({**run.case.row(), FIRST: _defect(branches[0], first_loading(table), scale),
                     LARGEST: (_defect(branches[-1], virgin, scale) if run.case.load < load
                               else np.nan)})
    return coupling_of(pd.DataFrame(rows)) if rows else pd.DataFrame()


def contact_key(run) -> tuple:
    """A contact's key: its map row without the path and its size."""
    return tuple(value for key, value in run.case.row().items() if key not in ("path", "load"))


def masing_by_band(defects: pd.DataFrame) -> pd.DataFrame:
    """Per band of ``|beta|`` (:data:`~hertz2d.calibration.calibrate.judgement.BETA_BANDS`): the
    paths, and the median and largest of each measure."""
    if defects.empty:
        return pd.DataFrame()
    bands = pd.cut(defects.beta, BETA_BANDS, labels=band_labels(), include_lowest=True)
    rows = []
    for band, of_band in defects.groupby(bands, observed=True):
        row = {"|beta|": band, "cycle paths": len(of_band)}
        for column in (FIRST, LARGEST):
            found = of_band[column].dropna()
            row[f"{column}: paths"] = len(found)
            row[f"{column}: median"] = float(found.median()) if len(found) else np.nan
            row[f"{column}: largest"] = float(found.max()) if len(found) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)
