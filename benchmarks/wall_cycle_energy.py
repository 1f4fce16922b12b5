"""How a tangential cycle's energy grows with its amplitude on a rigid wall and on a stiffer disc,
against equal discs (run: ``python benchmarks/wall_cycle_energy.py [--levels 2 3]``).

The held-out walls' energy misses are small cycles the calibrated law dissipates too much on;
its largest wall cycles it dissipates too little on. This measures the pattern on the
training spec's ``cycle`` path (the approach held, two cycles of amplitude ``load`` times the
onset of full slip, the last one measured) at a half-width of 0.05 R1, on the contacts of
``normal_loop_mechanism.py`` (equal discs, a disc on a ten times stiffer one, a disc on a rigid
wall at nu = 0.25 and at nu = 0) at three friction coefficients and at the amplitudes
:data:`LOADS`, each at every ``--levels`` mesh level (the FEM from the case store, or computed),
so the FEM's figures show their convergence (on the meshes of ``normal_loop_mechanism.py``, whose
refined window holds the largest cycle as it slides):

- ``E FEM``, ``E law``: the energy per cycle (J/m) and ``law / FEM`` their ratio;
- ``E / E(0.5)``: the energy per cycle over that of the cycle at half the onset of full slip, the
  FEM's and the law's: how fast the dissipation grows with the amplitude, whatever the contact's
  stiffness (a power law ``E ~ amplitude^p`` gives ``2^-p`` at 0.25; Mindlin's small cycles have
  p = 3).

Printed, and written to ``benchmarks/results/wall_cycle_energy.json``.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import record  # noqa: E402
from benchmarks.normal_loop_mechanism import CONTACTS, FRICTION, REACH, fem_table  # noqa: E402
from hertz2d.calibration.laws import energy_per_cycle  # noqa: E402
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS,  # noqa: E402
                                                 CalibratedCoefficients, coupling_beta)
from hertz2d.calibration.validation.map.errors import LawChoice, run_laws  # noqa: E402
from hertz2d.calibration.validation.map.spec import (DEFAULT_VARIANT, MapCase,  # noqa: E402
                                                     MapRun, read)

#: the cycles' amplitudes over the onset of full slip (the training spec's)
LOADS = (0.25, 0.5, 1.0)
#: the amplitude the energies are compared with
REFERENCE = 0.5
#: the contact half-width over R1
A_OVER_R = 0.05


def measure(levels: list[int]) -> pd.DataFrame:
    settings = read(shipped="default.toml").settings
    law = LawChoice("calibrated",
                    coefficients=CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))
    rows = []
    for label, axes in CONTACTS.items():
        for mu in FRICTION:
            for level in levels:
                tables = {}
                for load in LOADS:
                    case = MapCase(**{**dict(R1=0.5, E1=10e9, support="symmetric",
                                             a_over_R=A_OVER_R), **axes, "mu": mu,
                                      "path": "cycle", "load": load})
                    run = MapRun(case, DEFAULT_VARIANT, level, settings, REACH)
                    tables[load] = (fem_table(run), run_laws([law], run)[0])
                beta = abs(float(np.ravel(coupling_beta(case.pair()))[0]))
                half = [energy_per_cycle(t) for t in tables[REFERENCE]]
                for load, (fem, law_table) in tables.items():
                    e_fem, e_law = energy_per_cycle(fem), energy_per_cycle(law_table)
                    rows.append({
                        "contact": label, "|beta|": round(beta, 3), "mu": mu, "load": load,
                        "level": level, "E FEM (J/m)": e_fem, "E law (J/m)": e_law,
                        "law / FEM": e_law / e_fem, "E / E(0.5) FEM": e_fem / half[0],
                        "E / E(0.5) law": e_law / half[1]})
                    print(f"  {label}, mu {mu:g}, load {load:g}, level {level}: law / FEM "
                          f"{rows[-1]['law / FEM']:.3f}", flush=True)
    return pd.DataFrame(rows)


def main() -> None:
    record.at_mesh_levels("wall_cycle_energy", __doc__.splitlines()[0], measure,
                          loads=list(LOADS), a_over_R=A_OVER_R)


if __name__ == "__main__":
    main()
