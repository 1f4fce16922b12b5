"""The calibrated law's coefficients by least squares on the training paths.

The residuals are :func:`calibration.calibrate.objective.residuals`: the map's relative errors of
the horizontal force on every judged step of every path (each path weighed as one) and each
cycle's relative error in energy per cycle. They are minimised over the coefficient groups asked
for (:meth:`CalibratedCoefficients.groups`), the others held, by scipy's trust-region reflective
least squares with a two-point Jacobian, from a fixed start (:data:`START`: Eq. 33's w, the
half-plane's stick-zone term, no Dundurs coupling), so a refit from an empty cache gives the same
numbers. The normal law has nothing to fit (Eqs. 4 and 22 hold within 2 % on the training paths).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from calibration.calibrate.objective import residuals
from calibration.calibrate.training import Batch
from calibration.laws.calibrated import CalibratedCoefficients

#: where every fit starts: Eq. 33's penalty factor, kappa = 1, no coupling (b0 = 1)
START = CalibratedCoefficients()
#: every group of coefficients (the full fit)
ALL_GROUPS = tuple(CalibratedCoefficients.groups())
#: the groups a small training set can determine (the quick run): w and the stick-zone weight
BASE_GROUPS = ("penalty", "stick")
#: function evaluations the least-squares solver may take
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


def fit(batches: list[Batch], groups: tuple[str, ...] = ALL_GROUPS,
        start: CalibratedCoefficients = START, label: str = "calibrated") -> FitResult:
    """Least squares over the coefficients of ``groups`` (the rest as in ``start``)."""
    clock = time.perf_counter()
    full = start.vector()
    free = _indices(groups)

    def coefficients(values) -> CalibratedCoefficients:
        vector = full.copy()
        vector[free] = values
        return CalibratedCoefficients.from_vector(vector, label)

    def vector_residuals(values) -> np.ndarray:
        return residuals(batches, coefficients(values))

    first = vector_residuals(full[free])
    solution = least_squares(vector_residuals, full[free], method="trf", x_scale="jac",
                             max_nfev=MAX_EVALUATIONS)
    return FitResult(coefficients(solution.x), tuple(groups),
                     float(np.sqrt(np.mean(first**2))),
                     float(np.sqrt(np.mean(solution.fun**2))), int(solution.fun.size),
                     int(solution.nfev), time.perf_counter() - clock, str(solution.message))
