"""How a law does against the calibrated law's targets, from a map's error table.

Per law, on the default runs of a map (:mod:`hertz2d.calibration.validation.map.errors`): the share of
paths whose force error (the larger of N's and Fx's largest relative error,
:func:`hertz2d.calibration.validation.map.regions.force_errors`) is under 5 % and under 10 %, and the
largest, by both of the map's metrics: the *amplitude-relative* error (the map's: on unloading
and reloading branches relative to the path's largest ``|F|``; columns ``force < 5 %`` ...) and the
*floor* error (every step relative to ``max(|FEM|, 0.2 max |FEM|)``; columns ``floor: force <
5 %`` ...); the share of paths with partial-slip steps whose tangential stiffness stays within
10 % on all of them; the share of cycle paths whose energy per cycle is within 10 %; and the
medians. The targets (:func:`met`): amplitude-relative under 5 % on 95 % of paths and under 10 %
on all, floor under 5 % on 85 % and under 10 % on 97 %.
"""
from __future__ import annotations

import pandas as pd

from hertz2d.calibration.validation.map.errors import ENERGY
from hertz2d.calibration.validation.map.regions import force_errors
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT

#: the targets: force error under 5 % on this share of paths and under 10 % on all; stiffness
#: within 10 % on partial-slip steps; energy per cycle within 10 % on this share of cycle paths
FORCE_SHARE, STIFFNESS_LIMIT, ENERGY_SHARE = 0.95, 0.10, 0.90
#: a cycle's energy is "within" when its relative error is under this
ENERGY_LIMIT = 0.10
#: the floor metric's targets: under 5 % on this share of paths, under 10 % on that one
FLOOR_SHARE_5, FLOOR_SHARE_10 = 0.85, 0.97


def law_targets(errors: pd.DataFrame, variant: str = DEFAULT_VARIANT) -> pd.DataFrame:
    """One row per law: the measures of the module docstring (fractions)."""
    errors = errors[errors.variant == variant]
    force = force_errors(errors)
    rows = []
    for law, mine in force.groupby("law", sort=False):
        of_law = errors[errors.law == law]
        stiffness = of_law[of_law.quantity == "tangential stiffness"].max_rel_error
        energy = of_law[of_law.quantity == ENERGY].max_rel_error.abs()
        rows.append({"law": law, "paths": len(mine),
                     "force < 5 %": float((mine.force_error < 0.05).mean()),
                     "force < 10 %": float((mine.force_error < 0.10).mean()),
                     "largest force error": float(mine.force_error.max()),
                     "median force error": float(mine.force_error.median()),
                     "floor: force < 5 %": float((mine.floor_force_error < 0.05).mean()),
                     "floor: force < 10 %": float((mine.floor_force_error < 0.10).mean()),
                     "floor: largest force error": float(mine.floor_force_error.max()),
                     "stiffness paths": len(stiffness),
                     "stiffness within 10 %": float((stiffness < STIFFNESS_LIMIT).mean())
                     if len(stiffness) else float("nan"),
                     "cycle paths": len(energy),
                     "energy within 10 %": float((energy < ENERGY_LIMIT).mean())
                     if len(energy) else float("nan"),
                     "median energy error": float(energy.median()) if len(energy)
                     else float("nan")})
    return pd.DataFrame(rows)


def met(row: pd.Series) -> dict[str, bool]:
    """Which targets a law's row meets (the floor metric's when the row has it: a table written
    before the metric has not)."""
    floor = ({"floor metric: force under 5 % on 85 % of paths":
              row["floor: force < 5 %"] >= FLOOR_SHARE_5,
              "floor metric: force under 10 % on 97 % of paths":
              row["floor: force < 10 %"] >= FLOOR_SHARE_10}
             if "floor: force < 5 %" in row and pd.notna(row["floor: largest force error"])
             else {})
    met = {"force under 5 % on 95 % of paths": row["force < 5 %"] >= FORCE_SHARE,
           "force under 10 % on every path": row["force < 10 %"] >= 1.0, **floor,
           "stiffness within 10 % on partial-slip steps": row["stiffness within 10 %"] >= 1.0,
           "energy within 10 % on 90 % of cycles": row["energy within 10 %"] >= ENERGY_SHARE}
    return {target: bool(value) for target, value in met.items()}  # not numpy's bools
