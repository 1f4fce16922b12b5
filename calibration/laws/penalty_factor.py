"""The penalty factor w(a/R, nu) a 2D Hertzian law uses: Eq. 33, a refit, or a constant.

A refit is read from ``hertz2d fit``'s ``fit.json`` for one support
(:meth:`hertz2d.calibration.penalty.outputs.PenaltyFit.penalty`): a half-round base of Section 2.3
(``clamped``, ``symmetric``) or the full disc held by K contacts (``confined-<K>``, and
``confined``: the one a DEM packing should use, pooled over K = 3 and 4); its coefficients are
checked by :func:`admissible_coefficients`.

Each is a callable ``w(a_over_R, nu)``. The paper bounds w between 0 and 1 (Section 2.3), and
every law clips the value to that range (:func:`bounded`): Eq. 33, a quadratic fitted on
0.01 <= a/R <= 0.15, turns negative for a/R above 0.34 (nu = 0) to 0.45 (nu = 0.49), where Eq. 31
would otherwise give a negative tangential stiffness.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hertz2d.calibration.laws.closed_forms import EQ33_COEFFICIENTS, penalty_factor_eq33
from hertz2d.checks import InputError

#: the range the paper gives w (Section 2.3): 0 for a half space, 1 at most
W_RANGE = (0.0, 1.0)
#: the contacts a penalty factor is fitted on (Eq. 33: Section 4.1, Fig. 8; hertz2d's refits)
FITTED_RANGE = {"a_over_R": (0.01, 0.15), "nu": (0.0, 0.49)}
#: how far a fitted w may stray from :data:`W_RANGE` on :data:`FITTED_RANGE` before the clip: a
#: least-squares fit of values inside [0, 1] strays a little at the corners of its range (the
#: refits: w in 0.1-0.8), never by a whole range
W_ADMISSIBLE = (-1.0, 2.0)
#: points per axis at which :func:`admissible_coefficients` evaluates w on the fitted range
_CHECK_POINTS = 11


def admissible_coefficients(values, name: str) -> tuple[float, ...]:
    """The six coefficients of Eq. 33's form in ``values``, checked (:class:`InputError`
    naming ``name`` and the value): six finite numbers whose w stays inside
    :data:`W_ADMISSIBLE` on :data:`FITTED_RANGE`. Evaluated in Python floats, which give inf
    rather than a warning for coefficients near the largest double, so no overflow reaches the
    user; such coefficients are refused, never clipped into a w of 0 or 1 in silence."""
    terms = len(EQ33_COEFFICIENTS)
    if not isinstance(values, (list, tuple)) or len(values) != terms or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in values):
        raise InputError(f"{name}={values!r} are not {terms} finite numbers (Eq. 33's form)")
    coefficients = tuple(float(v) for v in values)
    (x_low, x_high), (nu_low, nu_high) = FITTED_RANGE["a_over_R"], FITTED_RANGE["nu"]
    steps = _CHECK_POINTS - 1
    for i in range(_CHECK_POINTS):
        x = x_low + (x_high - x_low) * i / steps
        for j in range(_CHECK_POINTS):
            nu = nu_low + (nu_high - nu_low) * j / steps
            w = sum(c * t for c, t in zip(coefficients, (1.0, x, nu, x * x, x * nu, nu * nu)))
            if not W_ADMISSIBLE[0] <= w <= W_ADMISSIBLE[1]:
                raise InputError(
                    f"{name}={list(values)!r} give w={w:.3g} at a/R={x:g}, nu={nu:g}: outside "
                    f"[{W_ADMISSIBLE[0]:g}, {W_ADMISSIBLE[1]:g}] on the range a penalty factor "
                    f"is fitted on, where w is in [{W_RANGE[0]:g}, {W_RANGE[1]:g}] (Section "
                    "2.3); no fit gives these")
    return coefficients


@dataclass(frozen=True)
class PolynomialPenalty:
    """Eq. 33's form ``c0 + c1 x + c2 nu + c3 x^2 + c4 x nu + c5 nu^2`` with x = a/R."""

    coefficients: tuple[float, ...] = EQ33_COEFFICIENTS
    label: str = "Eq. 33"

    def __call__(self, a_over_R, nu):
        return penalty_factor_eq33(a_over_R, nu, self.coefficients)


@dataclass(frozen=True)
class ConstantPenalty:
    """A constant w (the paper suggests 0.5 for convenience, Fig. 9)."""

    value: float = 0.5

    def __post_init__(self):
        if not (isinstance(self.value, (int, float)) and W_RANGE[0] <= self.value <= W_RANGE[1]):
            raise InputError(f"penalty={self.value!r} must be a number in [{W_RANGE[0]:g}, "
                             f"{W_RANGE[1]:g}] (the range of w, Section 2.3)")

    @property
    def label(self) -> str:
        return f"w = {self.value:g}"

    def __call__(self, a_over_R, nu):
        return np.full(np.broadcast(a_over_R, nu).shape, float(self.value))


#: Eq. 33's penalty factor with the paper's coefficients
EQ33 = PolynomialPenalty()


def bounded(penalty, a_over_R, nu) -> np.ndarray:
    """``penalty(a/R, nu)`` clipped to [0, 1], the range the paper gives w."""
    return np.clip(penalty(a_over_R, nu), *W_RANGE)
