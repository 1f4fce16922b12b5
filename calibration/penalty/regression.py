"""Refit Eq. 33 to FEM penalty factors and measure what a constant w costs (Fig. 9).

The refit is ordinary least squares on Eq. 33's six regressors
(1, a/R, nu, (a/R)^2, (a/R) nu, nu^2). The paper's coefficients are evaluated on the same grid
so both fits are judged by the same cases.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.closed_forms import (EQ33_COEFFICIENTS, eq33_features, half_space_bracket,
                                 penalty_bracket)
from hertz2d.checks import InputError

#: the constant penalty factor the paper suggests for convenience (Section 4.1, Fig. 9)
CONSTANT_W = 0.5


@dataclass(frozen=True)
class PenaltyFit:
    """A least-squares fit of Eq. 33's form and the paper's Eq. 33 judged on the same cases."""

    support: str
    coefficients: tuple[float, ...]
    r2: float
    rmse: float
    max_abs_residual: float
    cases: int
    paper_r2: float
    paper_rmse: float

    def __str__(self) -> str:
        terms = ", ".join(f"{c:+.4f}" for c in self.coefficients)
        return (f"Eq. 33 refit ({self.support}, {self.cases} cases): [{terms}] "
                f"R^2 = {self.r2:.4f}, RMSE = {self.rmse:.4f}; paper's Eq. 33 on the same cases: "
                f"R^2 = {self.paper_r2:.4f}, RMSE = {self.paper_rmse:.4f}")

    def summary(self) -> dict:
        """JSON-ready summary."""
        return {"support": self.support, "coefficients": list(self.coefficients), "r2": self.r2,
                "rmse": self.rmse, "max_abs_residual": self.max_abs_residual,
                "cases": self.cases, "paper": list(EQ33_COEFFICIENTS),
                "paper_r2": self.paper_r2, "rmse_vs_paper": self.paper_rmse}


def _r2(observed: np.ndarray, predicted: np.ndarray) -> float:
    total = np.sum((observed - observed.mean()) ** 2)
    return float(1.0 - np.sum((observed - predicted) ** 2) / total)


def fit_eq33(grid: pd.DataFrame, support: str) -> PenaltyFit:
    """Refit Eq. 33 to the successful grid cases of one support."""
    cases = grid[(grid.study == "grid") & (grid.support == support) & (grid.status == "ok")]
    if len(cases) < 6:
        raise InputError(f"support={support!r} has {len(cases)} finished grid cases; "
                         "Eq. 33 has 6 coefficients")
    features = eq33_features(cases.a_over_R.to_numpy(), cases.nu.to_numpy())
    observed = cases.w_fem.to_numpy()
    coefficients, *_ = np.linalg.lstsq(features, observed, rcond=None)
    predicted = features @ coefficients
    paper = features @ np.asarray(EQ33_COEFFICIENTS)
    residuals = observed - predicted
    return PenaltyFit(
        support=support, coefficients=tuple(float(c) for c in coefficients),
        r2=_r2(observed, predicted), rmse=float(np.sqrt(np.mean(residuals**2))),
        max_abs_residual=float(np.abs(residuals).max()), cases=len(cases),
        paper_r2=_r2(observed, paper), paper_rmse=float(np.sqrt(np.mean((observed - paper) ** 2))))


def constant_w_errors(grid: pd.DataFrame, w: float = CONSTANT_W) -> pd.DataFrame:
    """Relative errors of Eq. 20 when a constant ``w`` replaces the FEM penalty factor (Fig. 9).

    ``displacement_error``: the tangential displacement at a given force is off by
    ``B(w)/B(w_fem) - 1``; ``force_error``: the force at a given displacement is off by
    ``B(w_fem)/B(w) - 1``, where ``B(w) = log(2R/a) + 1/2 + w (log(4R/a) + nu/(2(1-nu)))`` is
    Eq. 20's bracket (the prefactor cancels).
    """
    cases = grid[(grid.study == "grid") & (grid.status == "ok")].copy()
    half_space = half_space_bracket(cases.R, cases.a)
    bracket = penalty_bracket(cases.R, cases.a, cases.nu)
    exact = half_space + cases.w_fem * bracket
    constant = half_space + w * bracket
    cases["displacement_error"] = constant / exact - 1.0
    cases["force_error"] = exact / constant - 1.0
    return cases[["support", "a_over_R", "nu", "w_fem", "displacement_error", "force_error"]]
