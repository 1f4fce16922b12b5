"""Where each law holds: its force error against the thresholds, per case, study and axis value;
and how far the map's numbers move on a finer mesh or in smaller steps.

The *force error* of a law on a case is the larger of its largest relative errors in the normal
force and in the tangential force over the path (:mod:`hertz2d.calibration.validation.map.errors`): a
DEM contact needs both, so one number judges them together (the table has each on its own).
A law *holds* on a case at a threshold when its force error is below it (:data:`THRESHOLDS`,
5 % and 10 %). For each load path, study and axis, a law holds at an axis value when it
holds on every case of the study with that value on that path: that list of values is the
region (a conservative summary; the heatmaps show every case). Regions are given per load path
because every law's verdict depends on the path more than on any other axis.

Convergence (:func:`convergence`): each check variant (a finer mesh, smaller steps) against the
default run of the same cases: the largest change of every quantity's error and of the force
error, and the cases whose verdict at 5 % or 10 % changes.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.validation.map.errors import MEASURES
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT, PATH_KINDS, MapSpec, Study

#: the force-error thresholds of the summary (fractions)
THRESHOLDS = (0.05, 0.10)
FORCES = ("normal force", "tangential force")
#: the columns that identify a law's result on a case
KEYS = ["case", "variant", "law"]


def percent(threshold: float) -> str:
    return f"{100 * threshold:g} %"


def force_errors(errors: pd.DataFrame) -> pd.DataFrame:
    """One row per case x variant x law: the axes, ``normal``, ``tangential`` and their larger,
    ``force_error`` (largest amplitude-relative errors over the path), and with the floor metric
    (:data:`hertz2d.calibration.validation.map.errors.FLOOR`) the larger of the two forces' largest,
    ``floor_force_error`` (NaN for a table written before the floor metric)."""
    forces = errors[errors.quantity.isin(FORCES)]
    names = {"normal force": "normal", "tangential force": "tangential"}
    wide = forces.pivot_table(index=KEYS, columns="quantity", values="max_rel_error",
                              aggfunc="max").rename(columns=names)
    wide["force_error"] = wide[["normal", "tangential"]].max(axis=1)
    if "max_floor_error" in forces:
        wide["floor_force_error"] = forces.pivot_table(
            index=KEYS, columns="quantity", values="max_floor_error",
            aggfunc="max").max(axis=1).reindex(wide.index)
    else:
        wide["floor_force_error"] = np.nan
    first = forces.drop_duplicates(KEYS).set_index(KEYS).drop(
        columns=[c for c in ("quantity", *MEASURES) if c in forces])
    return first.join(wide).reset_index()


def compact(values: list, within: list) -> str:
    """The values of ``within`` as runs of consecutive entries of ``values``: ``0.01-0.1, 0.2``,
    ``all`` or ``none``."""
    if not within:
        return "none"
    if len(within) == len(values):
        return "all"
    runs, current = [], []
    for value in values:
        if value in within:
            current.append(value)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return ", ".join(f"{r[0]:g}" if len(r) == 1 else f"{r[0]:g}-{r[-1]:g}" for r in runs
                     ) if all(isinstance(v, float) for v in values) else ", ".join(map(str, within))


def _in_study(frame: pd.DataFrame, study: str) -> pd.Series:
    return frame.studies.str.split(";").apply(lambda names: study in names)


def _study_regions(holds: pd.Series, rows: pd.DataFrame, spec: MapSpec) -> dict:
    """Per study reached by ``rows``: its cases, those within, and per axis the values where
    every case within the study holds."""
    studies = {}
    for name, study in spec.studies.items():
        mine = rows[_in_study(rows, name)]
        if mine.empty:
            continue
        ok = holds[mine.index]
        studies[name] = {"cases": int(len(mine)), "within": int(ok.sum()),
                         "values": {axis: [v for v in study.axes[axis]
                                           if ok[matches(mine, axis, v)].all()]
                                    for axis in study.varied or list(study.axes)}}
    return studies


def regions(force: pd.DataFrame, spec: MapSpec) -> list[dict]:
    """Per law (in the table's order): the cases it ran, and per threshold the cases within and,
    per load path and study, the axis values where it holds."""
    force = force[force.variant == DEFAULT_VARIANT]
    summary = []
    for law, mine in force.groupby("law", sort=False):
        entry = {"law": law, "law_name": mine.law_name.iloc[0], "cases": int(len(mine)),
                 "paths": [k for k in PATH_KINDS if (mine.path == k).any()],
                 "median_force_error": float(mine.force_error.median()),
                 "largest_force_error": float(mine.force_error.max()), "within": {}}
        for threshold in THRESHOLDS:
            holds = mine.force_error < threshold
            entry["within"][percent(threshold)] = {
                "cases": int(holds.sum()), "fraction": float(holds.mean()),
                "by_path": {kind: {"cases": int((mine.path == kind).sum()),
                                   "within": int(holds[mine.path == kind].sum()),
                                   "studies": _study_regions(holds, mine[mine.path == kind],
                                                             spec)}
                            for kind in entry["paths"]}}
        summary.append(entry)
    return summary


def matches(rows: pd.DataFrame, axis: str, value) -> np.ndarray:
    """The rows whose ``axis`` is ``value`` (``nu`` sets both bodies: body 1's column shows it)."""
    column = rows["nu1" if axis == "nu" else axis]
    if isinstance(value, str):
        return (column == value).to_numpy()
    return np.isclose(column.to_numpy(float), value)


def region_table(summary: list[dict], studies: dict[str, Study],
                 threshold: float) -> pd.DataFrame:
    """Per law and load path: the cases within ``threshold`` and, per study, where the law holds
    (a one-axis study: its values, :func:`compact`; a slice: how many of its cases)."""
    rows = []
    for entry in summary:
        for kind, found in entry["within"][percent(threshold)]["by_path"].items():
            row = {"law": entry["law"], "path": kind,
                   "cases within": f"{found['within']} of {found['cases']}"}
            for name, study in studies.items():
                mine = found["studies"].get(name)
                if mine is None:
                    row[name] = "-"
                elif len(study.varied) == 1:
                    axis = study.varied[0]
                    row[name] = compact(study.axes[axis], mine["values"][axis])
                else:
                    row[name] = f"{mine['within']} of {mine['cases']}"
            rows.append(row)
    return pd.DataFrame(rows)


def convergence(errors: pd.DataFrame) -> pd.DataFrame:
    """Per check variant and law: the cases compared, the largest change of the force error and
    of each quantity's largest error against the default run, and the verdicts that change."""
    default = errors[errors.variant == DEFAULT_VARIANT].set_index(["case", "law", "quantity"])
    force = force_errors(errors)
    default_force = force[force.variant == DEFAULT_VARIANT].set_index(["case", "law"])
    rows = []
    for variant in [v for v in errors.variant.unique() if v != DEFAULT_VARIANT]:
        check = errors[errors.variant == variant].set_index(["case", "law", "quantity"])
        change = (check.max_rel_error - default.max_rel_error.reindex(check.index)).abs()
        checked_force = force[force.variant == variant].set_index(["case", "law"])
        before = default_force.force_error.reindex(checked_force.index)
        for law, moved in change.groupby(level="law", sort=False):
            after = checked_force.force_error.xs(law, level="law")
            previous = before.xs(law, level="law")
            row = {"variant": variant, "law": law, "cases": int(len(after)),
                   "force error change": float((after - previous).abs().max())}
            for quantity, values in moved.groupby(level="quantity"):
                row[f"{quantity} change"] = float(values.max())
            for threshold in THRESHOLDS:
                row[f"verdicts changed at {percent(threshold)}"] = int(
                    ((after < threshold) != (previous < threshold)).sum())
            rows.append(row)
    return pd.DataFrame(rows)
