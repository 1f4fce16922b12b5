"""The paper's simplified law (Table 1) as a DEM code calls it, and a law with memory on a cycle.

:func:`hertz2d.calibration.laws.simplified_update` advances a whole batch of contacts in one vectorised
call: the approach, this step's tangential increment and each contact's history (T and a of the
previous step) in; N, T, a, kn, kt and whether it slips out. Here three contacts of the paper's
discs (R = 0.5 m, E 10 GPa, nu 0.25, mu 0.3) at one approach are sheared step by step: the
tangential force grows with the tangential stiffness until it reaches Coulomb's bound mu N.

Then the accurate model with memory (Masing's rule) runs a tangential cycle at constant N and
:func:`hertz2d.calibration.laws.energy_per_cycle` measures the loop's area, the energy a cycle dissipates
(Table 1's spring is elastic below full slip and dissipates nothing).

Run it: ``python docs/examples/contact_law.py``.
"""
import numpy as np

from hertz2d.calibration.laws import (ContactPair, energy_per_cycle, full_slip_displacement, make_law,
                              normal_force, simplified_update)
from hertz2d.checks.loadpath import LoadPath

PAIR = ContactPair.discs(R=0.5, E=10e9, nu=0.25, mu=0.3)


def shear(steps: int = 40) -> list[dict]:
    """Three contacts at delta_n = 0.025 m, sheared by 0.2, 0.4 and 0.8 mm per step."""
    delta_n = np.full(3, 0.025)
    increment = np.array([2e-4, 4e-4, 8e-4])
    T, a = np.zeros(3), np.zeros(3)          # the history a DEM code keeps per contact
    rows = []
    for step in range(1, steps + 1):
        state = simplified_update(PAIR, delta_n, increment, T, a_previous=a)
        T, a = state.T, state.a
        if step % 10 == 0:
            rows.append({"step": step, "T/(mu N)": T / (PAIR.mu * state.N),
                         "slipping": state.slipping})
    return rows


def cycle_energy() -> tuple[float, float]:
    """``(energy per cycle of accurate-memory, of simplified)`` in J/m on a cycle of 0.6 times the
    full-slip displacement (Eq. 27) at delta_n = 0.025 m."""
    N0, a0 = normal_force(PAIR, 0.025)
    onset = float(full_slip_displacement(PAIR, N0, a0))
    cycle = LoadPath.build("cycle", 0.025, 0.6 * onset, 50)
    return tuple(energy_per_cycle(make_law(name, PAIR).run(cycle))
                 for name in ("accurate-memory", "simplified"))


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    for row in shear():
        print(f"step {row['step']:>2}: T/(mu N) = {row['T/(mu N)']}, "
              f"slipping = {row['slipping']}")
    memory, table1 = cycle_energy()
    print(f"energy per cycle: accurate-memory {memory:.4g} J/m, simplified (Table 1) "
          f"{table1:.2g} J/m (zero to rounding)")
