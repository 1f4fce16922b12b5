"""Every contact law on the FEM's own load paths, and their errors against the FEM.

Laws (built by :func:`laws_to_validate`): the paper's accurate model and Appendix C (case 1
only: they assume a constant normal force), the simplified model with Eq. 33, with the refitted
w of ``<results>/penalty/fit.json`` and with w = 0.5, a linear spring calibrated by regression on the
FEM's case 2 (as the paper calibrated its 2.7e9 and 1.5e9 N/m), and the 3D Hertz-Mindlin and
Mindlin-Deresiewicz laws as DEM codes apply them to discs.

Errors (:func:`error_table`): per law, case, FEM support and quantity, the largest and the RMS
relative error over the steps of each regime, the regime being the FEM's: ``normal loading``
(case 1's normal stage), ``partial slip`` (a stick zone exists, c > 0) and ``full slip``
(c = 0, including the finite slide). Quantities: the contact normal force N (every regime), the
horizontal force Fx and the tangent tangential stiffness dFx/d(delta_t) between steps (partial and
full slip; in the normal stage Fx is zero). The secant stiffness Fx/delta_t of the paper's Fig. 13
has exactly Fx's relative error, so the tangent is the stiffness that adds information. Steps
where the FEM's value is below 1 % of its largest magnitude in that run are left out (a relative
error of a near-zero quantity says nothing). :func:`relative_errors` and :func:`error_measures`
are the metric; the validity map (:mod:`hertz2d.calibration.validation.map.errors`) judges its cases
with them too.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.laws import (EQ33, AccurateModel, AppendixC, ConstantPenalty, ContactLaw,
                              ContactPair, HertzMindlin, LinearSpring, MindlinDeresiewicz,
                              PolynomialPenalty, SimplifiedModel)
from hertz2d.calibration.validation.fem_runs import FemRun, ValidationSettings

#: quantity -> (column, the regimes it is judged in)
QUANTITIES = {"normal force": ("N", ("normal loading", "partial slip", "full slip")),
              "horizontal force": ("Fx", ("partial slip", "full slip")),
              "tangential stiffness": ("kt_tangent", ("partial slip", "full slip"))}
#: FEM values below this fraction of their largest magnitude are not judged
NEGLIGIBLE = 0.01


def with_stiffness(table: pd.DataFrame) -> pd.DataFrame:
    """Add the secant ``Fx / delta_t`` (Fig. 13) and the tangent ``dFx / d(delta_t)`` stiffness
    (between steps, wherever delta_t moves: loading and, on a cycle, unloading)."""
    table = table.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        table["kt_secant"] = np.where(table.delta_t > 0, table.Fx / table.delta_t, np.nan)
        step = np.diff(table.delta_t.to_numpy(), prepend=0.0)
        table["kt_tangent"] = np.where(step != 0, np.diff(table.Fx.to_numpy(), prepend=0.0) / step,
                                       np.nan)
    return table


def regimes(fem_table: pd.DataFrame) -> np.ndarray:
    """The FEM's regime per step: normal loading, partial slip (c > 0) or full slip (c = 0)."""
    return np.where(fem_table.stage == "normal", "normal loading",
                    np.where(fem_table.c > 0, "partial slip", "full slip"))


def linear_spring_from(fem_case2: pd.DataFrame, mu: float) -> LinearSpring:
    """kn and kt by regression through the origin on the FEM's case 2 (vertical and horizontal)."""
    return LinearSpring.calibrate(fem_case2.delta_n, fem_case2.Fz, fem_case2.delta_t,
                                  fem_case2.Fx, mu)


def laws_to_validate(settings: ValidationSettings, refit: PolynomialPenalty,
                     spring: LinearSpring) -> dict[str, ContactLaw]:
    """The laws by role: the paper's models, its simplified model's three w, the comparisons."""
    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    return {"accurate": AccurateModel(pair, EQ33), "appendix-c": AppendixC(pair, EQ33),
            "simplified": SimplifiedModel(pair, EQ33),
            "simplified-refit": SimplifiedModel(pair, refit),
            "simplified-constant": SimplifiedModel(pair, ConstantPenalty(0.5)),
            "linear": spring, "hertz-mindlin": HertzMindlin(pair),
            "mindlin-deresiewicz": MindlinDeresiewicz(pair)}


def law_curves(laws: list[ContactLaw], settings: ValidationSettings) -> pd.DataFrame:
    """Tidy per-step tables of every law on every case it is defined for."""
    frames = []
    for case in ("case 1", "case 2"):
        path = settings.path(case)
        for law in laws:
            if path.kind in law.paths:
                frames.append(with_stiffness(law.run(path)).assign(source=law.label, case=case))
    return pd.concat(frames, ignore_index=True)


def relative_errors(law: np.ndarray, fem: np.ndarray, scale: float,
                    floor: float | np.ndarray = 0.0) -> np.ndarray:
    """``(law - fem) / reference``, ``reference = max(|fem|, floor scale)``, at the steps where
    both are finite and the reference is above :data:`NEGLIGIBLE` of ``scale`` (the FEM's largest
    magnitude in the run).

    With ``floor = 0`` (the validation) each step's error is relative to the FEM's value there.
    ``floor = 1`` at a step makes its error relative to ``scale`` instead: the validity map uses
    it on a cycle's unloading and reloading branches, where the force passes through zero and
    a relative error against its own near-zero size would say nothing. ``floor`` is a number or
    one per step.
    """
    floor = np.broadcast_to(np.asarray(floor, float), np.shape(fem))
    reference = np.maximum(np.abs(fem), floor * scale)
    usable = np.isfinite(fem) & np.isfinite(law) & (reference > NEGLIGIBLE * scale)
    return (law[usable] - fem[usable]) / reference[usable]


def error_measures(errors: np.ndarray) -> dict:
    """``steps, max_rel_error, rms_rel_error`` of an array of relative errors (non-empty)."""
    return {"steps": errors.size, "max_rel_error": float(np.abs(errors).max()),
            "rms_rel_error": float(np.sqrt(np.mean(errors**2)))}


def error_table(runs: list[FemRun], curves: pd.DataFrame) -> pd.DataFrame:
    """Max and RMS relative error of each law's curves against each FEM run, per regime."""
    rows = []
    for run in runs:
        fem = with_stiffness(run.table)
        regime = regimes(fem)
        for source, law in curves[curves.case == run.case].groupby("source", sort=False):
            law = law.set_index("step").reindex(fem.step)  # rows line up by step
            for quantity, (column, judged_in) in QUANTITIES.items():
                values = fem[column].to_numpy()
                scale = float(np.nanmax(np.abs(values)))
                for name in judged_in:
                    mask = regime == name
                    errors = relative_errors(law[column].to_numpy()[mask], values[mask], scale)
                    if errors.size == 0:
                        continue
                    rows.append({"law": source, "case": run.case, "support": run.support,
                                 "level": run.level, "quantity": quantity, "regime": name,
                                 **error_measures(errors)})
    return pd.DataFrame(rows)
