"""The two-disc FEM against closed forms, per support and mesh level (before any law is judged).

From each pair of case 1 and case 2 runs:

- end of the normal stage: N against Eq. 23 at the same approach, a against Eq. 4 with the FEM's
  N, the pressure against Eq. 1 (RMS error over the inner 90 % of the contact, over p0);
- partial slip at delta_t = 0.01 m (Fig. 11): c against Eq. 7 with the FEM's N and T, the shear
  traction against Eq. 2 (RMS over the inner 90 %, over mu p0);
- the onset of full slip (delta_t where c reaches 0, extrapolated linearly in c^2 from the last
  two partial-slip steps) against Eq. 27 with the half-round FEM's w of the same support and with
  Eq. 33's w;
- the secant tangential stiffness's drop over partial slip (Fig. 13), the peak and final forces
  of both cases (for mesh convergence) and the largest violation of Signorini's conditions left
  in any converged step (``gap_residual``, in element lengths).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.laws import (EQ33, ConstantPenalty, ContactPair, full_slip_displacement,
                              half_width, normal_force, pressure, shear_traction,
                              stick_half_width)
from hertz2d.calibration.laws.closed_forms import penalty_factor_from_displacement
from hertz2d.calibration.validation.fem_runs import FemRun, ValidationSettings
from hertz2d.fem.halfround import HalfRoundBody

#: the tangential displacement of the paper's Fig. 11 (partial slip)
PARTIAL_SLIP_DELTA_T = 0.01


def _rms_over_inner(profile: pd.DataFrame, column: str, reference, a: float, scale: float):
    inner = np.abs(profile.x.to_numpy()) <= 0.9 * a
    error = profile[column].to_numpy()[inner] - reference(profile.x.to_numpy()[inner])
    return float(np.sqrt(np.mean(error**2)) / scale)


def onset_of_full_slip(table: pd.DataFrame) -> float:
    """delta_t where the stick zone vanishes: c^2 is near-linear in delta_t close to full slip."""
    tangential = table[table.stage == "tangential"]
    partial = tangential[tangential.c > 0]
    if len(partial) < 2 or not (tangential.c == 0).any():
        return float("nan")
    last = partial.iloc[-2:]
    return float(np.polyval(np.polyfit(last.c**2, last.delta_t, 1), 0.0))


def verify(case1: FemRun, case2: FemRun, settings: ValidationSettings) -> dict:
    """One row of verification numbers for a support and mesh level."""
    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    table, profiles = case1.table, case1.profiles
    loaded = table[table.stage == "normal"].iloc[-1]
    a4 = float(half_width(pair, loaded.N))
    p0 = 2 * loaded.N / (np.pi * a4)
    profile = profiles[profiles.step == loaded.step]
    row = {"support": case1.support, "level": case1.level,
           "N / Eq. 23": loaded.N / float(normal_force(pair, loaded.delta_n)[0]),
           "a / Eq. 4": loaded.a / a4,
           "p RMS error / p0": _rms_over_inner(profile, "p", lambda x: pressure(x, loaded.N, a4),
                                               a4, p0)}
    slip = table.iloc[int(np.argmin(np.abs(table.delta_t - PARTIAL_SLIP_DELTA_T)))]
    a_s = float(half_width(pair, slip.N))
    c7 = float(stick_half_width(slip.N, slip["T"], a_s, settings.mu))
    profile = profiles[profiles.step == slip.step]
    row.update({"delta_t for c": slip.delta_t, "c (m)": slip.c, "c / Eq. 7": slip.c / c7,
                "q RMS error / (mu p0)": _rms_over_inner(
                    profile, "q", lambda x: shear_traction(x, slip.N, a_s, c7, settings.mu), a_s,
                    settings.mu * 2 * slip.N / (np.pi * a_s))})
    onset = onset_of_full_slip(table)
    first_full = table[(table.stage == "tangential") & (table.c == 0)].iloc[0]
    a_on = float(half_width(pair, first_full.N))
    w_fem = float(penalty_factor_from_displacement(
        HalfRoundBody(settings.R, a_on).compliance(settings.E, settings.nu,
                                                   case1.support).tangential,
        1.0, settings.E, settings.nu, settings.R, a_on))
    for label, penalty in (("half-round FEM w", ConstantPenalty(w_fem)), ("Eq. 33 w", EQ33)):
        row[f"onset / Eq. 27 ({label})"] = onset / float(
            full_slip_displacement(pair, first_full.N, a_on, penalty))
    row.update({"onset of full slip (m)": onset, "half-round FEM w at onset": w_fem})
    partial = table[(table.stage == "tangential") & (table.c > 0)]
    secant = partial.Fx / partial.delta_t
    row["secant kt drop over partial slip"] = 1 - secant.iloc[-1] / secant.iloc[0]
    row.update({"case 1 peak Fx": table.Fx.max(), "case 1 final Fx": table.Fx.iloc[-1],
                "case 1 final Fz": table.Fz.iloc[-1], "case 2 final Fx": case2.table.Fx.iloc[-1],
                "case 2 final Fz": case2.table.Fz.iloc[-1],
                "case 2 steps in full slip": int((case2.table.c == 0).sum()),
                "case 2 steps": len(case2.table),
                "gap residual (element lengths)": max(table.gap_residual.max(),
                                                      case2.table.gap_residual.max())})
    return row


FORCES = ("case 1 peak Fx", "case 1 final Fx", "case 1 final Fz", "case 2 final Fx",
          "case 2 final Fz")


def verification_table(runs: list[FemRun], settings: ValidationSettings) -> pd.DataFrame:
    """:func:`verify` for every support and level, with the forces' change from the coarser mesh."""
    by = {(r.case, r.support, r.level): r for r in runs}
    rows = [verify(by["case 1", support, level], by["case 2", support, level], settings)
            for support in sorted({r.support for r in runs})
            for level in sorted(settings.levels)]
    table = pd.DataFrame(rows)
    for force in FORCES:
        coarse = table.groupby("support")[force].transform("first")
        table[f"{force}: change from level {min(settings.levels)}"] = table[force] / coarse - 1
    return table
