"""The penalty factor w(a/R, nu) a 2D Hertzian law uses: Eq. 33, a refit, or a constant.

Each is a callable ``w(a_over_R, nu)``. The paper bounds w between 0 and 1 (Section 2.3), and
every law clips the value to that range (:func:`bounded`): Eq. 33, a quadratic fitted on
0.01 <= a/R <= 0.15, turns negative for a/R above 0.34 (nu = 0) to 0.45 (nu = 0.49), where Eq. 31
would otherwise give a negative tangential stiffness.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.penalty import EQ33_COEFFICIENTS, penalty_factor_eq33
from meshes.checks import InputError


@dataclass(frozen=True)
class PolynomialPenalty:
    """Eq. 33's form ``c0 + c1 x + c2 nu + c3 x^2 + c4 x nu + c5 nu^2`` with x = a/R."""

    coefficients: tuple[float, ...] = EQ33_COEFFICIENTS
    label: str = "Eq. 33"

    def __call__(self, a_over_R, nu):
        return penalty_factor_eq33(a_over_R, nu, self.coefficients)

    @classmethod
    def from_fit(cls, path: str | Path = "results/penalty/fit.json") -> "PolynomialPenalty":
        """The refit written by ``hertz2d fit`` (its default support's coefficients)."""
        path = Path(path)
        if not path.exists():
            raise InputError(f"fit={str(path)!r} does not exist; run `hertz2d fit` first")
        summary = json.loads(path.read_text())
        return cls(tuple(summary["coefficients"]),
                   f"refit ({summary.get('default_support', 'FEM')} base)")


@dataclass(frozen=True)
class ConstantPenalty:
    """A constant w (the paper suggests 0.5 for convenience, Fig. 9)."""

    value: float = 0.5

    @property
    def label(self) -> str:
        return f"w = {self.value:g}"

    def __call__(self, a_over_R, nu):
        return np.full(np.broadcast(a_over_R, nu).shape, float(self.value))


EQ33 = PolynomialPenalty()


def bounded(penalty, a_over_R, nu) -> np.ndarray:
    """``penalty(a/R, nu)`` clipped to [0, 1], the range the paper gives w."""
    return np.clip(penalty(a_over_R, nu), 0.0, 1.0)
