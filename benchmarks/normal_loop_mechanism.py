"""Where the FEM's normal loop comes from, on contacts with Dundurs' beta != 0: the normal cycle
alone, and the normal force's dependence on the tangential state (run: ``python
benchmarks/normal_loop_mechanism.py [--levels 2 3]``).

The held-out cycles whose energy the calibrated law misses are those where the FEM dissipates in
its normal loop, the closed integral of Fz d(delta_n) (``energy_normal.csv``). On contacts at a
half-width of 0.05 R1, this separates the two parts of that loop on the training spec's
``coupled-cycle`` path (the approach swinging by ``normal_swing`` each way in phase with the
tangential motion, ``cycles`` cycles; the last one measured), and measures the normal force at
full slip:

- **the normal cycle alone**: the same path with the tangential amplitude at
  :data:`NEARLY_NORMAL` of the onset of full slip. Between bodies with beta != 0 the contact's
  edges slip under the normal load (Spence's problem), inwards while it grows and outwards while
  it shrinks, and the shear they carry acts on the normal problem through beta: the normal force
  on loading is above the one on unloading. Its loop, ``W_n(normal)``, is given over
  ``mu N_max (max delta_n - min delta_n)`` (dimensionless), and over the coupled cycle's normal
  loop ``W_n`` (``W_n(normal) / W_n``: the share of that loop the normal cycle alone accounts
  for; the rest comes of the tangential state).
- **the tangential state's share**: the coupled cycle at amplitude :data:`COUPLED` of the onset.
  ``W_n`` and ``W_t`` are its normal and tangential loops (J/m); ``N shift`` is the normal force
  of the coupled cycle less that of the nearly normal one at the same step of the last cycle
  (the same delta_n), over the cycle's largest normal force: the smallest and the largest over
  the cycle. It is the normal force's dependence on the tangential state.
- **the normal force at full slip**: on the ``hold-normal`` path (the approach held, the
  tangential displacement to 1.5 times the onset of full slip), ``N at full slip`` is the normal
  force at the path's end over the one before the tangential motion began, less 1: the state
  the held-out walls' largest normal-force errors are in.

The calibrated law (shipped coefficients) runs the same paths: its normal loop is elastic apart
from the coupling term of its structural compliance, so its ``W_n(normal)`` is zero to the
quadrature and its ``N shift`` is that term (between discs, with the tilt of the line of
centres, in which the forces are given). Each contact runs at every ``--levels`` mesh level
(the FEM from the case store, or computed), so that the FEM's figures show their convergence.

Printed, and written to ``benchmarks/results/normal_loop_mechanism.json``.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import record  # noqa: E402
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS,  # noqa: E402
                                                 CalibratedCoefficients, coupling_beta)
from hertz2d.calibration.laws.energy import last_cycle, loop_works  # noqa: E402
from hertz2d.calibration.validation.map.errors import LawChoice, run_laws  # noqa: E402
from hertz2d.calibration.validation.map.runs import run_group  # noqa: E402
from hertz2d.calibration.validation.map.spec import (DEFAULT_VARIANT, MapCase,  # noqa: E402
                                                     MapRun, read)

#: (label, the case's axes) of the contacts: equal discs (beta = 0, the control), a disc on a ten
#: times stiffer one, and a disc on a rigid wall at nu = 0.25 and at nu = 0
CONTACTS = {
    "equal discs": dict(counterpart="disc", R2_over_R1=1.0, E2_over_E1=1.0, nu2=0.25, nu1=0.25),
    "E2/E1 = 10": dict(counterpart="disc", R2_over_R1=1.0, E2_over_E1=10.0, nu2=0.25, nu1=0.25),
    "wall, nu 0.25": dict(counterpart="wall", R2_over_R1=None, E2_over_E1=None, nu2=None,
                          nu1=0.25),
    "wall, nu 0": dict(counterpart="wall", R2_over_R1=None, E2_over_E1=None, nu2=None, nu1=0.0),
}
#: the friction coefficients every contact runs at
FRICTION = (0.1, 0.3, 1.0)
#: the tangential amplitudes (over the onset of full slip) of the coupled cycle and of the
#: nearly normal one
COUPLED, NEARLY_NORMAL = 0.5, 0.02
#: the hold-normal path's tangential displacement over the onset of full slip
HOLD = 1.5
#: the largest size of each path kind the bodies are meshed for (the training spec's for the walls
#: of ``wall_friction``): every path of a contact runs on one mesh, whose refined window holds the
#: contact as it slides and as it swings back
REACH = (("coupled-cycle", COUPLED), ("cycle", 1.0), ("hold-normal", HOLD))
#: the contact half-width over R1
A_OVER_R = 0.05


def case(axes: dict, mu: float, load: float) -> MapCase:
    """The contact of ``axes`` at friction ``mu`` on a coupled cycle of amplitude ``load``."""
    return MapCase(**{**dict(R1=0.5, E1=10e9, support="symmetric", a_over_R=A_OVER_R),
                      **axes, "mu": mu, "path": "coupled-cycle", "load": load})


def fem_table(run: MapRun) -> pd.DataFrame:
    """The FEM's table on ``run`` (from the case store, or computed); a failed path stops."""
    row = run_group((run.fem_path(),))[0]
    if row["failure"] is not None:
        raise SystemExit(f"{run.case.row()}, level {run.level}: {row['failure']}")
    return pd.DataFrame(row["table"])


def tables(run: MapRun, law: LawChoice) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The FEM's table and the law's on ``run``."""
    return fem_table(run), run_laws([law], run)[0]


def full_slip_change(table: pd.DataFrame) -> float:
    """The normal force at a ``hold-normal`` path's end over the one at its normal loading's
    end, less 1."""
    return float(table.Fz.iloc[-1] / table.Fz[table.stage == "normal"].iloc[-1] - 1.0)


def measure(levels: list[int]) -> pd.DataFrame:
    settings = read(shipped="default.toml").settings
    law = LawChoice("calibrated",
                    coefficients=CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))
    rows = []
    for label, axes in CONTACTS.items():
        for mu in FRICTION:
            coupled = case(axes, mu, COUPLED)
            beta = abs(float(np.ravel(coupling_beta(coupled.pair()))[0]))
            for level in levels:
                fem, lawn = tables(MapRun(replace(coupled, load=NEARLY_NORMAL), DEFAULT_VARIANT,
                                          level, settings, REACH), law)
                femc, lawc = tables(MapRun(coupled, DEFAULT_VARIANT, level, settings, REACH), law)
                # the last cycles, step by step at the same approach
                normal, normal_law, swung, swung_law = (
                    last_cycle(table) for table in (fem, lawn, femc, lawc))
                if not np.allclose(normal.delta_n.to_numpy(), swung.delta_n.to_numpy()):
                    raise SystemExit(f"{label}: the two paths' approaches differ")
                n_max = float(swung.Fz.max())
                fem_shift = (swung.Fz.to_numpy() - normal.Fz.to_numpy()) / n_max
                law_shift = (swung_law.Fz.to_numpy() - normal_law.Fz.to_numpy()) / n_max
                scale = mu * float(normal.Fz.max()) * float(np.ptp(normal.delta_n))
                hold = MapRun(replace(coupled, path="hold-normal", load=HOLD), DEFAULT_VARIANT,
                              level, settings, REACH)
                fem_hold, law_hold = tables(hold, law)
                w_t, w_n = loop_works(femc)
                law_t, law_n = loop_works(lawc)
                rows.append({
                    "contact": label, "|beta|": round(beta, 3), "mu": mu, "level": level,
                    "W_n(normal) FEM": loop_works(fem)[1] / scale,
                    "W_n(normal) law": loop_works(lawn)[1] / scale,
                    "W_n(normal) / W_n FEM": loop_works(fem)[1] / w_n,
                    "W_n FEM (J/m)": w_n, "W_t FEM (J/m)": w_t,
                    "W_n share FEM": w_n / (w_n + w_t),
                    "W_n law (J/m)": law_n, "W_t law (J/m)": law_t,
                    "N shift FEM min": float(fem_shift.min()),
                    "N shift FEM max": float(fem_shift.max()),
                    "N shift law min": float(law_shift.min()),
                    "N shift law max": float(law_shift.max()),
                    "N at full slip FEM": full_slip_change(fem_hold),
                    "N at full slip law": full_slip_change(law_hold)})
                print(f"  {label}, mu {mu:g}, level {level}: W_n(normal) "
                      f"{rows[-1]['W_n(normal) FEM']:.3g}, N shift "
                      f"{rows[-1]['N shift FEM min']:+.3f} to {rows[-1]['N shift FEM max']:+.3f}",
                      flush=True)
    return pd.DataFrame(rows)


def main() -> None:
    record.at_mesh_levels("normal_loop_mechanism", __doc__.splitlines()[0], measure,
                          coupled_amplitude=COUPLED,
                          nearly_normal_amplitude=NEARLY_NORMAL, a_over_R=A_OVER_R)


if __name__ == "__main__":
    main()
