"""What sets the calibrated law's order in the time step: the first steps of a growing contact and
how its memory of twelve traction pieces is kept (run:
``python benchmarks/calibrated_memory_order.py``).

The DEM's oblique impacts with the calibrated law (``benchmarks/dem_verification.py``, table 6;
``benchmarks/calibrated_impact_memory.py``) converge at second order in dt with the memory as
shipped between discs of one material, and at first order where the contact sticks without its
folds; on a wall (beta != 0) the front's extra slip of Spence's locked-in shear is placed inside
the step where N falls and where T crosses zero, without which the sticking impacts were first
order with every memory (the DEM guide). This
script shows what the memory and the first steps do on one contact, without the DEM's integrator:
the paper's disc on a rigid wall (R 0.035 m, E 10 GPa, nu 0.25, mu 0.3, the shipped coefficients)
along a prescribed path like an impact's, the approach ``delta_n(s) = delta_max sin(pi s)`` and the
tangential displacement ``delta_t(s) = A s`` for s from 0 to 1 (sticking while the contact grows,
sliding as it unloads; A puts T at about 0.6 mu N at the peak), in ``n`` equal steps. Its output is
the tangential impulse ``J = int T ds`` (the trapezoid over the steps, itself second order) and the
force at the peak, ``T(1/2)``, as n doubles from 25 to 3200. A second path reverses while the
contact grows and again while it shrinks, as a sticking impact's tangential motion does (the
rebound's spin): ``delta_t(s) = A' sin(2 pi s)``, A' half of A; its outputs are T at the peak and
at s = 3/4, ``T(1/2)`` and ``T(3/4)``.

Four runs of one law: with room for :data:`UNMERGED` pieces and no folds, so that no step folds
or merges (the memory the others approximate); the law's memory as shipped
(:data:`hertz2d.calibration.laws.calibrated_kernel.PIECES` pieces, those of one cell of a fixed
grid in b^2 folded into one, reduced beyond that size); the same without its folds (a growing
contact lays a piece a step, so beyond the memory's size each step's new annulus is reduced
away); all in the n equal steps; and the shipped memory in graded steps (:func:`graded`):
every step in which the approach changes by more than ``X = pi/n`` of itself (omega dt of an
impact whose contact lasts the n steps) split into substeps that change it by at most that,
geometrically, the first from ``X^2`` of its end. Each step lays one annulus of uniform density,
and where the contact grows by a large fraction of itself in a step (its first steps) the density
its rim lays changes across the annulus, as ``1/B(a)`` with ``log(4R/a)`` in B: those steps'
errors sum to a first-order term, which the graded steps take out. The graded runs change only
where the path is sampled (the outputs are at the same n + 1 points).
The law's kernel is plain Python, and its memory is a pair of module constants the script sets.
The table gives the change of each output (relative to its finest value) from each n to the
next, how far its value at the finest n is from the unfolded memory's there (over that
memory's largest |T| on the path; J over it too, J being a mean of T over s: what the memory
moves the force itself by), and the observed order, the least-squares slope of log |change| on
log(1/n) from n = 400 on (the coarser steps are not yet in the asymptotic range: the first
merges and the largest annuli dominate them). The table is also written to
``benchmarks/results/calibrated_memory_order.json``.
"""
from __future__ import annotations

import contextlib
import math
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
#: the graded steps' bound X = GRADING/n on the approach's change a step, relative to itself:
#: omega dt of an impact whose contact lasts the n steps (omega t_c = pi)
GRADING = math.pi
#: room for so many pieces that no step of the path merges (and no folds): the memory's
#: converged value
UNMERGED = 4096


#: the kernel's module constants that follow its number of pieces
LAYOUT = ("PIECES", "HISTORY", "AREA", "WIDTHS", "RATIOS", "DENSITIES", "UNTOUCHED", "LARGEST",
          "SLID", "HELD")


def layout(pieces: int) -> tuple[int, ...]:
    """The values of :data:`LAYOUT` for a memory of ``pieces`` pieces (the kernel's history:
    count, displacement, area, then widths, edge ratios and densities per piece, then the
    untouched area's outer edge, the largest area, the untouched area's inner edge and the
    structural compliance held)."""
    return (pieces, 7 + 3 * pieces, 2, 3, 3 + pieces, 3 + 2 * pieces, 3 + 3 * pieces,
            4 + 3 * pieces, 5 + 3 * pieces, 6 + 3 * pieces)


@contextlib.contextmanager
def memory(pieces: int, folds: bool):
    """The kernel's memory set to ``pieces`` pieces (its history layout follows), its cells
    folded or not."""
    kept = {name: getattr(kernel, name) for name in LAYOUT + ("FOLD",)}
    if tuple(kept.values())[:-1] != layout(kernel.PIECES):
        raise SystemExit("benchmarks/calibrated_memory_order.py: the kernel's history layout "
                         f"{kept} is not the one this script sets; update layout()")
    try:
        for name, value in zip(LAYOUT + ("FOLD",), layout(pieces) + (folds,)):
            setattr(kernel, name, value)
        yield
    finally:
        for name, value in kept.items():
            setattr(kernel, name, value)


def graded(n: int) -> np.ndarray:
    """The path's points for n steps with every step in which the approach changes by more than
    ``X = pi/n`` of itself (:data:`GRADING`) split into substeps that change it by at most that,
    geometrically in the approach; the first from ``X^2`` of its end (the contact's area below
    that carries that share of the traction), the last down to ``X^2`` of its start. The n + 1
    points of the uniform path are among them."""
    s = np.linspace(0.0, 1.0, n + 1)
    growth = GRADING / n
    points = [s[:1]]
    for k in range(1, n + 1):
        low, high = approach(s[k - 1]), approach(s[k])
        rising = high > low
        start = max(low, growth**2 * high) if rising else low
        end = high if rising else max(high, growth**2 * low)
        parts = max(1, math.ceil(abs(math.log(end / start)) / math.log1p(growth)))
        levels = start * (end / start) ** (np.arange(1, parts + 1) / parts)
        inner = np.concatenate([[start] if start > low else [], levels,
                                [high] if end > high else []])[:-1]
        branch = (np.arcsin(np.minimum(inner / PEAK, 1.0)) / np.pi if rising
                  else 1.0 - np.arcsin(np.minimum(inner / PEAK, 1.0)) / np.pi)
        points += [branch, s[k:k + 1]]
    return np.concatenate(points)


def approach(s):
    """The path's approach ``PEAK sin(pi s)`` (m)."""
    return PEAK * np.sin(np.pi * s)


def forces(pair, coefficients, displacement, n: int, grade: bool = False) -> np.ndarray:
    """T at the ``n + 1`` points of the path whose tangential displacement is the function
    ``displacement`` of s (the approach :func:`approach`), from the unloaded state, in the n
    steps or, with ``grade``, in the steps of :func:`graded`."""
    s = graded(n) if grade else np.linspace(0.0, 1.0, n + 1)
    on_grid = np.isin(s, np.linspace(0.0, 1.0, n + 1))
    path, moved = approach(s), displacement(s)
    state = CalibratedState.unloaded()
    found = np.zeros(len(s))
    for k in range(1, len(s)):
        state = calibrated_update(pair, max(path[k], 0.0), moved[k] - moved[k - 1], state,
                                  coefficients)
        found[k] = state.T[0]
    return found[on_grid]


def impulse(pair, coefficients, amplitude: float, n: int, grade: bool
            ) -> tuple[float, float, float]:
    """``(J, T(1/2), largest |T|)`` of the growing path in ``n`` steps (module docstring)."""
    found = forces(pair, coefficients, lambda s: amplitude * s, n, grade)
    return (float(np.sum(0.5 * (found[1:] + found[:-1])) / n), float(found[n // 2]),
            float(np.abs(found).max()))


def reversals(pair, coefficients, amplitude: float, n: int, grade: bool
              ) -> tuple[float, float, float]:
    """``(T(1/2), T(3/4), largest |T|)`` of the reversing path in ``n`` steps (at the nearest
    earlier step where n is not a multiple of 4: n = 25 and 50, before the order's fit)."""
    found = forces(pair, coefficients, lambda s: 0.5 * amplitude * np.sin(2.0 * np.pi * s), n,
                   grade)
    return float(found[n // 2]), float(found[3 * n // 4]), float(np.abs(found).max())


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
    print(f"{'memory':>28} {'quantity':>18} " + " ".join(f"{n:>8}" for n in STEPS[1:])
          + f" {'order':>6} {'off ' + str(UNMERGED):>9}")
    runs = ((UNMERGED, False, False), (kernel.PIECES, True, False),
            (kernel.PIECES, False, False), (kernel.PIECES, True, True))
    for path, outputs in PATHS.items():
        unmerged = None
        for pieces, folds, grade in runs:
            with memory(pieces, folds):
                found = np.array([path(pair, coefficients, amplitude, n, grade) for n in STEPS])
            unmerged = found[-1] if unmerged is None else unmerged
            scale = unmerged[-1]  # the unmerged memory's largest |T| on the path
            for column, name in enumerate(outputs):
                values = found[:, column]
                changes = np.diff(values) / abs(values[-1])
                apart = (values[-1] - unmerged[column]) / scale
                label = (f"{pieces} pieces" + ("" if folds else ", no folds")
                         + (", graded steps" if grade else ""))
                print(f"{label:>28} {name:>18} " + " ".join(f"{c:>8.1e}" for c in changes)
                      + f" {order(changes):>6.2f} {apart:>+9.1e}")
                rows.append({"memory": label, "quantity": name,
                             **{f"n = {n}": float(c) for n, c in zip(STEPS[1:], changes)},
                             f"order from n = {FIT_FROM}": round(order(changes), 2),
                             f"off {UNMERGED} pieces at n = {STEPS[-1]}, over its largest |T|":
                             float(apart)})
    record.write("calibrated_memory_order", rows, started, steps=STEPS, fit_from=FIT_FROM,
                 peak_approach=PEAK, amplitude=amplitude)


if __name__ == "__main__":
    main()
