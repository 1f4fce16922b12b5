"""The penalty factor w(a/R, nu) a 2D Hertzian law uses: Eq. 33, a refit, or a constant.

A refit is read from ``hertz2d fit``'s ``fit.json`` for one support: a half-round base of
Section 2.3 (``clamped``, ``symmetric``) or the full disc held by K contacts (``confined-<K>``,
and ``confined``: the one a DEM packing should use, pooled over K = 3 and 4).

Each is a callable ``w(a_over_R, nu)``. The paper bounds w between 0 and 1 (Section 2.3), and
every law clips the value to that range (:func:`bounded`): Eq. 33, a quadratic fitted on
0.01 <= a/R <= 0.15, turns negative for a/R above 0.34 (nu = 0) to 0.45 (nu = 0.49), where Eq. 31
would otherwise give a negative tangential stiffness.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.laws.closed_forms import EQ33_COEFFICIENTS, penalty_factor_eq33
from checks import InputError

#: the range the paper gives w (Section 2.3): 0 for a half space, 1 at most
W_RANGE = (0.0, 1.0)


@dataclass(frozen=True)
class PolynomialPenalty:
    """Eq. 33's form ``c0 + c1 x + c2 nu + c3 x^2 + c4 x nu + c5 nu^2`` with x = a/R."""

    coefficients: tuple[float, ...] = EQ33_COEFFICIENTS
    label: str = "Eq. 33"

    def __call__(self, a_over_R, nu):
        return penalty_factor_eq33(a_over_R, nu, self.coefficients)

    @classmethod
    def from_fit(cls, path: str | Path, support: str | None = None) -> "PolynomialPenalty":
        """The refit written by ``hertz2d fit``.

        Parameters
        ----------
        path : str or pathlib.Path
            A ``fit.json`` (``<results>/penalty/fit.json``).
        support : str, optional
            Whose coefficients: a half-round base, ``clamped`` or ``symmetric``; a disc held by K
            contacts, ``confined-<K>``; or ``confined``, the disc in a packing. By default the
            fit's default support.

        Returns
        -------
        PolynomialPenalty
            The six coefficients of Eq. 33's form, labelled with their support.
        """
        path = Path(path)
        if not path.exists():
            raise InputError(f"fit={str(path)!r} does not exist; run `hertz2d fit` first")
        problem = f"fit={str(path)!r} is not a fit.json of `hertz2d fit`"
        try:
            summary = json.loads(path.read_text())
            fits = {**summary.get("by_support", {}), **summary.get("confined", {}).get("fits", {})}
        except (OSError, ValueError, AttributeError) as error:
            raise InputError(f"{problem} ({type(error).__name__}: {error})") from None
        if support is None:
            support, entry = str(summary.get("default_support", "FEM")), summary
        elif support in fits:
            entry = fits[support]
        else:
            raise InputError(f"support={support!r} is not in fit={str(path)!r} (it has "
                             f"{', '.join(sorted(fits)) or 'none'}); run `hertz2d sweep` and "
                             "`hertz2d fit` with a spec that computes it")
        try:
            coefficients = tuple(float(c) for c in entry["coefficients"])
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(f"{problem} ({type(error).__name__}: {error})") from None
        if len(coefficients) != len(EQ33_COEFFICIENTS) or not all(map(math.isfinite,
                                                                       coefficients)):
            raise InputError(f"fit={str(path)!r} does not hold {len(EQ33_COEFFICIENTS)} finite "
                             "coefficients")
        label = (f"refit ({support} base)" if support in ("clamped", "symmetric", "FEM")
                 else f"refit ({support} disc)")
        return cls(coefficients, label)


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


#: the paper's Eq. 33 with its own coefficients
EQ33 = PolynomialPenalty()


def bounded(penalty, a_over_R, nu) -> np.ndarray:
    """``penalty(a/R, nu)`` clipped to [0, 1], the range the paper gives w."""
    return np.clip(penalty(a_over_R, nu), *W_RANGE)
