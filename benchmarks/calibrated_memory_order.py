"""What sets the calibrated law's order in the time step: its memory of eight traction pieces
(run: ``python benchmarks/calibrated_memory_order.py``).

The DEM's oblique impacts with the calibrated law converge at first order in dt where the contact
sticks from first touch (``benchmarks/dem_verification.py``, table 6), where Table 1's converge
at second order. This script finds the cause on one contact, without the DEM's integrator: the
paper's disc on a rigid wall (R 0.035 m, E 10 GPa, nu 0.25, mu 0.3, the shipped coefficients)
along a prescribed path like an impact's, the approach ``delta_n(s) = delta_max sin(pi s)`` and
the tangential displacement ``delta_t(s) = A s`` for s from 0 to 1 (sticking while the contact
grows, sliding as it unloads; A puts T at about 0.6 mu N at the peak), in ``n`` equal steps. Its
output is the tangential impulse ``J = int T ds`` (the trapezoid over the steps, itself second
order) and the force at the peak, ``T(1/2)``, as n doubles from 25 to 3200. A second path
reverses while the contact grows and again while it shrinks, as a sticking impact's tangential
motion does (the rebound's spin): ``delta_t(s) = A' sin(2 pi s)``, A' half of A; its outputs are
T at the peak and at s = 3/4, ``T(1/2)`` and ``T(3/4)``.

Twice: with the law's memory as shipped (:data:`hertz2d.calibration.laws.calibrated_kernel.PIECES`
pieces, beyond which each step's new annulus is merged), and with room for 4096 pieces, so that
no step merges. The law's kernel is plain Python, and its memory size is a module constant the
script sets for the second run. The table gives the change of each output (relative to its
finest value) from each n to the next, and the observed order, the least-squares slope
of log |change| on log(1/n) from n = 400 on (the coarser steps are not yet in the asymptotic
range: the first merges and the largest annuli dominate them). The table is also written to
``benchmarks/results/calibrated_memory_order.json``.
"""
from __future__ import annotations

import contextlib
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from hertz2d.calibration.laws import calibrated_kernel as kernel  # noqa: E402
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS,  # noqa: E402
                                                 CalibratedCoefficients, CalibratedState,
                                                 calibrated_update)
from hertz2d.calibration.laws.pair import ContactPair  # noqa: E402

from benchmarks import record  # noqa: E402

RADIUS, E, NU, MU = 0.035, 10e9, 0.25, 0.3
#: the peak approach (m): about a 1 m/s impact's of this disc
PEAK = 2e-5
STEPS = [25 * 2**k for k in range(8)]
#: the first n of the order's fit
FIT_FROM = 400


#: the kernel's module constants that follow its number of pieces
LAYOUT = ("PIECES", "HISTORY", "AREA", "WIDTHS", "RATIOS", "DENSITIES")


def layout(pieces: int) -> tuple[int, ...]:
    """The values of :data:`LAYOUT` for a memory of ``pieces`` pieces (the kernel's history:
    count, displacement, area, then widths, edge ratios and densities per piece)."""
    return pieces, 3 + 3 * pieces, 2, 3, 3 + pieces, 3 + 2 * pieces


@contextlib.contextmanager
def memory(pieces: int):
    """The kernel's memory set to ``pieces`` pieces (its history layout follows)."""
    kept = {name: getattr(kernel, name) for name in LAYOUT}
    if tuple(kept.values()) != layout(kernel.PIECES):
        raise SystemExit("benchmarks/calibrated_memory_order.py: the kernel's history layout "
                         f"{kept} is not the one this script sets; update layout()")
    try:
        for name, value in zip(LAYOUT, layout(pieces)):
            setattr(kernel, name, value)
        yield
    finally:
        for name, value in kept.items():
            setattr(kernel, name, value)


def forces(pair, coefficients, displacement, n: int) -> np.ndarray:
    """T at each of the ``n + 1`` points of the path whose tangential displacement is
    ``displacement`` (the same points; the approach ``PEAK sin(pi s)``), from the unloaded
    state."""
    approach = PEAK * np.sin(np.pi * np.linspace(0.0, 1.0, n + 1))
    state = CalibratedState.unloaded()
    found = np.zeros(n + 1)
    for k in range(1, n + 1):
        state = calibrated_update(pair, max(approach[k], 0.0),
                                  displacement[k] - displacement[k - 1], state, coefficients)
        found[k] = state.T[0]
    return found


def impulse(pair, coefficients, amplitude: float, n: int) -> tuple[float, float]:
    """``(J, T(1/2))`` of the growing path in ``n`` steps (module docstring)."""
    found = forces(pair, coefficients, amplitude * np.linspace(0.0, 1.0, n + 1), n)
    return float(np.sum(0.5 * (found[1:] + found[:-1])) / n), float(found[n // 2])


def reversals(pair, coefficients, amplitude: float, n: int) -> tuple[float, float]:
    """``(T(1/2), T(3/4))`` of the reversing path in ``n`` steps (at the nearest earlier step
    where n is not a multiple of 4: n = 25 and 50, before the order's fit)."""
    s = np.linspace(0.0, 1.0, n + 1)
    found = forces(pair, coefficients, 0.5 * amplitude * np.sin(2.0 * np.pi * s), n)
    return float(found[n // 2]), float(found[3 * n // 4])


def order(changes) -> float:
    """The slope of log |change| on log(1/n) over the changes to n >= :data:`FIT_FROM`."""
    n = np.array(STEPS[1:])
    fitted = n >= FIT_FROM
    return float(np.polyfit(np.log(1.0 / n[fitted]), np.log(np.abs(changes[fitted])), 1)[0])


#: the paths and the names of their outputs
PATHS = {impulse: ("J", "T(1/2)"), reversals: ("reversing: T(1/2)", "reversing: T(3/4)")}


def main() -> None:
    started = record.load_average()
    rows = []
    pair = ContactPair.disc_on_wall(RADIUS, E, NU, MU)
    coefficients = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    peak = calibrated_update(pair, PEAK, 0.0, CalibratedState.unloaded(), coefficients)
    amplitude = 0.6 * MU * peak.N[0] / peak.kt[0]  # the first touch's stiffness: pi E*/(B - kappa)
    print(f"The paper's disc on a wall, delta_max {PEAK:g} m, A {amplitude:.3e} m; n = steps "
          "over the path; change from each n to the next over the finest value")
    print(f"{'memory':>14} {'quantity':>18} " + " ".join(f"{n:>8}" for n in STEPS[1:])
          + f" {'order':>6}")
    for (path, outputs), pieces in itertools.product(PATHS.items(), (kernel.PIECES, 4096)):
        with memory(pieces):
            found = np.array([path(pair, coefficients, amplitude, n) for n in STEPS])
        for column, name in enumerate(outputs):
            values = found[:, column]
            changes = np.diff(values) / abs(values[-1])
            label = f"{pieces} pieces"
            print(f"{label:>14} {name:>18} " + " ".join(f"{c:>8.1e}" for c in changes)
                  + f" {order(changes):>6.2f}")
            rows.append({"memory": label, "quantity": name,
                         **{f"n = {n}": float(c) for n, c in zip(STEPS[1:], changes)},
                         f"order from n = {FIT_FROM}": round(order(changes), 2)})
    record.write("calibrated_memory_order", rows, started, steps=STEPS, fit_from=FIT_FROM,
                 peak_approach=PEAK, amplitude=amplitude)


if __name__ == "__main__":
    main()
