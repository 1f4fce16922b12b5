"""The calibrated law's coefficients by least squares on the training paths.

The residuals are :func:`hertz2d.calibration.calibrate.objective.residuals`: per path, a smooth
stand-in for its largest error in the horizontal force under each of the map's two metrics (the
amplitude-relative and the floor error; the targets count paths by their largest), and each
cycle's relative error in energy per cycle, under a soft-L1 loss of scale :data:`LOSS_SCALE` (an
error of a few per cent counts as in least squares, a larger one linearly: the targets count paths
under a threshold, and a few contacts the law cannot represent should not pull every other one).
The fit has three stages, from a fixed start (:data:`START`: Eq. 33's w, no Dundurs coupling), so
a refit from an empty cache gives the same numbers:

1. the penalty factor on the paths of bodies of one material and of a wall whose Dundurs
   coupling vanishes (beta = 0): there the law has nothing else to fit (its stick-zone weight
   kappa follows from w, :func:`hertz2d.calibration.laws.calibrated.kappa_ceiling`);
2. every group of coefficients asked for, on every path, from the first stage's result, the
   groups of :data:`BOUNDED` kept in their admissible ranges;
3. the same from the second stage's result with the law's memory folding its pieces as shipped
   (:func:`hertz2d.calibration.laws.calibrated_kernel.fold_cells`). The first two stages run the
   law without the folds: a fold is a discrete decision (which cell a piece lies in, whether the
   energy allows it), so with them the residuals are only piecewise smooth in the coefficients,
   and the two-point Jacobian from a start far from the optimum stops early (at about half as
   much again as the rms the folds allow). Near the optimum the folds move the residuals
   little, and the last stage takes them in.

scipy's trust-region reflective least squares with a two-point Jacobian does all three. The normal
law has nothing to fit (Eqs. 4 and 22 hold within 2 % on bodies of one material).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from hertz2d.calibration.calibrate.objective import residuals
from hertz2d.calibration.calibrate.training import Batch, batches
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients, coupling_beta
from hertz2d.calibration.laws.calibrated_kernel import FOLD

#: where every fit starts: Eq. 33's penalty factor, kappa = 1, no coupling
START = CalibratedCoefficients()
#: every group of coefficients (the full fit)
ALL_GROUPS = tuple(CalibratedCoefficients.groups())
#: the groups of the first stage, and all a small training set can determine (the quick run)
BASE_GROUPS = ("penalty",)
#: the soft-L1 loss's scale (a relative error)
LOSS_SCALE = 0.03
#: the groups the fit keeps inside their admissible ranges (a width must stay positive, the
#: stick-zone weight's Dundurs rate and the extra slips non-negative); the others are free
BOUNDED = ("coupling_width", "stick", "first_slip")
#: function evaluations each stage may take
MAX_EVALUATIONS = 400


@dataclass(frozen=True)
class FitResult:
    """A fitted set of coefficients and how the fit went."""

    coefficients: CalibratedCoefficients
    groups: tuple[str, ...]
    #: RMS of the residual vector at the start and at the end
    start_rms: float
    rms: float
    residuals: int
    evaluations: int
    seconds: float
    message: str

    def summary(self) -> dict:
        return {"groups": list(self.groups), "start_rms": self.start_rms, "rms": self.rms,
                "residuals": self.residuals, "evaluations": self.evaluations,
                "seconds": round(self.seconds, 1), "message": self.message}


def _indices(groups: tuple[str, ...]) -> np.ndarray:
    """Positions in :meth:`CalibratedCoefficients.vector` of the coefficients of ``groups``."""
    found, start = [], 0
    for name, length in CalibratedCoefficients.groups().items():
        if name in groups:
            found += range(start, start + length)
        start += length
    return np.array(found, dtype=int)


def _bounds(groups: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    low, high = [], []
    for name, ranges in CalibratedCoefficients.admissible().items():
        if name in groups:
            bounded = name in BOUNDED
            low += [r[0] if bounded else -np.inf for r in ranges]
            high += [r[1] if bounded else np.inf for r in ranges]
    return np.array(low), np.array(high)


def _least_squares(batches_: list[Batch], groups: tuple[str, ...],
                   start: CalibratedCoefficients, label: str, folds: bool):
    full = start.vector()
    free = _indices(groups)
    low, high = _bounds(groups)

    def coefficients(values) -> CalibratedCoefficients:
        vector = full.copy()
        vector[free] = values
        return CalibratedCoefficients.from_vector(vector, label)

    solution = least_squares(lambda values: residuals(batches_, coefficients(values), folds),
                             np.clip(full[free], low, high), bounds=(low, high), method="trf",
                             x_scale="jac", loss="soft_l1", f_scale=LOSS_SCALE, ftol=1e-10,
                             xtol=1e-10, max_nfev=MAX_EVALUATIONS)
    return coefficients(solution.x), solution


def fit(paths: list, groups: tuple[str, ...] = ALL_GROUPS, label: str = "calibrated",
        start: CalibratedCoefficients = START) -> FitResult:
    """The staged fit (see the module docstring) on the training ``paths``, ``[(run, FEM
    table)]``, of the coefficients of ``groups``, the others as in ``start``."""
    clock = time.perf_counter()
    everything = batches(paths)
    uncoupled = [(run, table) for run, table in paths
                 if float(np.max(coupling_beta(run.case.pair()))) == 0.0]
    base, first = _least_squares(batches(uncoupled) if uncoupled else everything,
                                 tuple(g for g in BASE_GROUPS if g in groups), start, label,
                                 folds=False)
    evaluations = first.nfev
    result = base
    if set(groups) - set(BASE_GROUPS):
        result, second = _least_squares(everything, groups, base, label, folds=False)
        evaluations += second.nfev
    result, solution = _least_squares(everything, groups, result, label, folds=FOLD)
    evaluations += solution.nfev
    start_rms = float(np.sqrt(np.mean(residuals(everything, start) ** 2)))
    final = residuals(everything, result)
    return FitResult(result, tuple(groups), start_rms, float(np.sqrt(np.mean(final ** 2))),
                     int(final.size), int(evaluations), time.perf_counter() - clock,
                     str(solution.message))
