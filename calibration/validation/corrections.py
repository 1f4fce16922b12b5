"""The numbers behind the report's corrected statements, from the validation stage's own runs.

- :func:`secant_drops`: how much the secant tangential stiffness ``Fx/delta_t`` (Fig. 13) falls
  over case 1's partial slip, FEM (both supports and mesh levels, horizontal Fx and contact-frame
  T) against the accurate model (Eq. 33's w, the half-round FEM's w at a, and the three forms
  of Eq. 26's stick-zone term of :mod:`hertz2d.calibration.validation.stick_zone_term`).
- :func:`stick_criterion`: Mindlin and Deresiewicz's condition for proportional loading (case 2)
  to stick, ``kt / kn < mu``, with the tangent normal stiffness ``dN/d(delta_n)`` (the one the
  condition needs: it compares the increments ``dT = kt d(delta_t)`` and ``mu dN = mu kn_tangent
  d(delta_n)``) and with the secant ``N/delta_n``, for Table 1's law (Eqs. 23, 29, 31) and for the
  FEM (case 1: kn from the last normal steps, kt from the first tangential step).
- :func:`unit_free`: kt/kn and the full-slip displacement over delta_n for the 3D Hertz-Mindlin
  and Mindlin-Deresiewicz laws, the 2D law and the FEM, which do not depend on the thickness a 2D
  code gives the spheres' forces.
- :func:`frame_ratio`: ``Fx / T`` of the FEM in partial and in full slip (the contact plane turns
  as the discs roll over each other).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.laws import (EQ33, ConstantPenalty, ContactPair, full_slip_displacement,
                              normal_force, tangential_stiffness)
from hertz2d.calibration.laws.sphere import MindlinDeresiewicz
from hertz2d.calibration.validation import stick_zone_term as stz
from hertz2d.calibration.validation.fem_runs import FemRun, ValidationSettings


def _partial(table: pd.DataFrame) -> pd.DataFrame:
    return table[(table.stage == "tangential") & (table.c > 0)]


def fem_secant_drop(table: pd.DataFrame, force: str = "Fx") -> float:
    """Fig. 13's drop of ``force / delta_t`` from the first to the last partial-slip step."""
    partial = _partial(table)
    secant = partial[force] / partial.delta_t
    return float(1 - secant.iloc[-1] / secant.iloc[0])


def secant_drops(runs: list[FemRun], settings: ValidationSettings,
                 half_round: dict[str, stz.TabulatedPenalty]) -> pd.DataFrame:
    """One row per FEM run (case 1) and per model variant; ``half_round`` maps each support to
    the half-round FEM's w(c)
    (:func:`hertz2d.calibration.validation.stick_zone_term.half_round_penalty`)."""
    rows = [{"source": "FEM", "support": r.support, "level": r.level, "force": force,
             "secant drop": fem_secant_drop(r.table, force)}
            for r in runs if r.case == "case 1" for force in ("Fx", "T")]
    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    N = float(normal_force(pair, settings.delta_n)[0])
    steps = settings.path("case 1").delta_t
    models = [("accurate model, Eq. 33's w", "-", EQ33, stz.VARIANTS[0])]
    for support, table in half_round.items():
        at_a = ConstantPenalty(float(table.w[-1]))
        models += [("accurate model, half-round FEM w at a", support, at_a, stz.VARIANTS[0]),
                   ("Eq. 26 with the half-round FEM's w(c)", support, table, stz.VARIANTS[1]),
                   ("Eq. 26 with the penalty term at a", support, at_a, stz.VARIANTS[2])]
    for source, support, penalty, variant in models:
        delta, T = stz.virgin_curve(pair, N, penalty, variant)
        rows.append({"source": source, "support": support, "level": np.nan, "force": "T",
                     "secant drop": stz.secant_drop(delta, T, steps)})
    return pd.DataFrame(rows)


def _tangent_normal_stiffness(pair: ContactPair, delta_n: float, h: float = 1e-6) -> float:
    """dN/d(delta_n) of Eq. 23 by a central difference."""
    up, down = (float(normal_force(pair, delta_n * (1 + s * h))[0]) for s in (1, -1))
    return (up - down) / (2 * h * delta_n)


def _fem_stiffnesses(case1: pd.DataFrame) -> dict:
    normal = case1[case1.stage == "normal"]
    first = case1[case1.stage == "tangential"].iloc[0]
    return {"kn secant": float(normal.N.iloc[-1] / normal.delta_n.iloc[-1]),
            "kn tangent": float(np.diff(normal.N.iloc[-2:]).item()
                                / np.diff(normal.delta_n.iloc[-2:]).item()),
            "kt": float(first.Fx / first.delta_t)}


def stick_criterion(case1: pd.DataFrame, settings: ValidationSettings) -> dict:
    """kt/kn of Table 1's law (at case 2's end, delta_n = delta_t, and at its first step, where
    the contact is narrow) and of the FEM, with the tangent and the secant normal stiffness,
    against mu. Along case 2 a point entering the contact at the edge takes the increments
    ``dq/dp = dT/dN = kt / kn_tangent`` (both are the increments of a flat punch, which move the
    contact rigidly), so it sticks while that ratio is below mu."""
    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    N, a = (float(x) for x in normal_force(pair, settings.delta_n))
    kt = float(tangential_stiffness(pair, a))
    fem = _fem_stiffnesses(case1)
    along = [float(tangential_stiffness(pair, normal_force(pair, dn)[1]))
             / _tangent_normal_stiffness(pair, dn) for dn in settings.path("case 2").delta_n]
    return {"mu": settings.mu,
            "Table 1 kt / kn (tangent) along case 2": along,
            "Table 1 kt / kn (tangent) at case 2's first step": along[0],
            "Table 1 kt / kn (tangent dN/d(delta_n))": kt / _tangent_normal_stiffness(
                pair, settings.delta_n),
            "Table 1 kt / kn (secant N/delta_n)": kt * settings.delta_n / N,
            "FEM kt / kn (tangent)": fem["kt"] / fem["kn tangent"],
            "FEM kt / kn (secant)": fem["kt"] / fem["kn secant"]}


def unit_free(case1: pd.DataFrame, onset: float, settings: ValidationSettings) -> pd.DataFrame:
    """kt/kn (initial tangential over secant and tangent normal stiffness) and the full-slip
    displacement over delta_n, at case 1's approach."""
    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    dn = settings.delta_n
    N, a = (float(x) for x in normal_force(pair, dn))
    kt = float(tangential_stiffness(pair, a))
    ks = pair.shear_modulus / pair.modulus  # G*/E*, the spheres' laws depend on nothing else
    fem = _fem_stiffnesses(case1)
    rows = [("3D Hertz-Mindlin on discs (incremental 8 G* a, capped)", 6 * ks, 4 * ks,
             settings.mu / (6 * ks)),
            ("3D Mindlin-Deresiewicz on discs", 6 * ks, 4 * ks,
             float(MindlinDeresiewicz(pair).ultimate_slip(dn)) / dn),
            ("2D law (Eqs. 23, 27, 31; Eq. 33's w)", kt * dn / N,
             kt / _tangent_normal_stiffness(pair, dn),
             float(full_slip_displacement(pair, N, a)) / dn),
            ("FEM, case 1", fem["kt"] / fem["kn secant"], fem["kt"] / fem["kn tangent"],
             onset / dn)]
    return pd.DataFrame(rows, columns=["law", "kt / kn (secant kn)", "kt / kn (tangent kn)",
                                       "full-slip displacement / delta_n"])


def frame_ratio(case1: pd.DataFrame) -> dict:
    """``Fx / T`` of the FEM: its range over partial slip and its value at the end of case 1."""
    partial = _partial(case1)
    ratio = (partial.Fx / partial["T"]).to_numpy()
    return {"Fx / T in partial slip, min": float(ratio.min()),
            "Fx / T in partial slip, max": float(ratio.max()),
            "Fx / T at the end of case 1": float(case1.Fx.iloc[-1] / case1["T"].iloc[-1])}
