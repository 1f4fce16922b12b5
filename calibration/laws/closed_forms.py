"""Closed forms of the half-round body and the penalty factor (Eqs. 13, 17, 20, 33 of the paper).

The laws build on them (Eq. 20's brackets make Eqs. 25, 26, 31; Eq. 33 is a penalty factor), and
the penalty-factor stage inverts Eq. 20 for w, so they live with the law library, which imports
no stage. All displacements are of the top of a half-round body relative to its centre, for a Hertzian
traction of resultant F (N/m) on a flat of half-width a; ``log`` is the natural logarithm.
"""
from __future__ import annotations

import numpy as np

#: Eq. 33's coefficients, in the order 1, a/R, nu, (a/R)^2, (a/R) nu, nu^2
EQ33_COEFFICIENTS = (0.22, 2.89, 0.18, -10.31, 1.75, 0.36)


def poisson_term(nu):
    """``nu / (2 (1 - nu))``, the constant of Eqs. 12, 16 and 20."""
    return np.asarray(nu) / (2.0 * (1.0 - np.asarray(nu)))


def normal_displacement_eq17(force, E, nu, R, a):
    """Eq. 17 (Johnson): ``(1-nu^2)/E * 2N/pi * [log(4R/a) - 1/2]``."""
    return (1.0 - nu**2) / E * 2.0 * force / np.pi * (np.log(4.0 * R / a) - 0.5)


def half_space_bracket(R, a):
    """``log(2R/a) + 1/2``: the half-space part of Eq. 20 (Eq. 13 with r0 = R)."""
    return np.log(2.0 * R / a) + 0.5


def penalty_bracket(R, a, nu):
    """``log(4R/a) + nu/(2(1-nu))``: what the penalty factor multiplies in Eq. 20."""
    return np.log(4.0 * R / a) + poisson_term(nu)


def tangential_displacement_eq20(force, E, nu, R, a, w):
    """Eq. 20: ``(1-nu^2)/E * 2T/pi * [log(2R/a) + 1/2 + w (log(4R/a) + nu/(2(1-nu)))]``."""
    scale = (1.0 - nu**2) / E * 2.0 * force / np.pi
    return scale * (half_space_bracket(R, a) + w * penalty_bracket(R, a, nu))


def penalty_factor_from_displacement(u_x, force, E, nu, R, a):
    """Eq. 20 solved for the penalty factor w of a half-round body.

    ``w = (pi E u_x / (2T(1-nu^2)) - log(2R/a) - 1/2) / (log(4R/a) + nu/(2(1-nu)))``.

    Parameters
    ----------
    u_x : float or array_like
        The top's tangential displacement relative to the base centre (m), the FEM's.
    force : float or array_like
        The Hertzian tangential force T on the flat (N/m).
    E, nu : float or array_like
        Young's modulus (Pa) and Poisson's ratio.
    R, a : float or array_like
        The body's radius and the flat's half-width (m).

    Returns
    -------
    float or numpy.ndarray
        The penalty factor w.
    """
    scaled = np.pi * E * u_x / (2.0 * force * (1.0 - nu**2))
    return (scaled - half_space_bracket(R, a)) / penalty_bracket(R, a, nu)


def eq33_features(a_over_R, nu):
    """The six regressors of Eq. 33 as columns: 1, a/R, nu, (a/R)^2, (a/R) nu, nu^2."""
    x, n = np.broadcast_arrays(np.asarray(a_over_R, float), np.asarray(nu, float))
    return np.stack([np.ones_like(x), x, n, x * x, x * n, n * n], axis=-1)


def penalty_factor_eq33(a_over_R, nu, coefficients=EQ33_COEFFICIENTS):
    """Eq. 33: ``w = 0.22 + 2.89 (a/R) + 0.18 nu - 10.31 (a/R)^2 + 1.75 (a/R) nu + 0.36 nu^2``."""
    return eq33_features(a_over_R, nu) @ np.asarray(coefficients, float)
