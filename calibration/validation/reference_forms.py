"""Closed forms the two-body FEM is verified against beyond the paper's equal discs.

Bodies are :class:`hertz2d.fem.twodisc.Disc` (radius R, E, nu) or :class:`hertz2d.fem.twodisc.RigidFlat` (a rigid
wall: infinite radius, zero compliance); forces per unit thickness.

- Normal loading, frictionless, each disc's flat a mirror plane (the ``symmetric`` support):
  Eq. 22, ``delta_n = sum_i (1 - nu_i^2)/E_i 2N/pi [log(4 R_i/a) - 1/2]``, with the common a of
  Eq. 4 for the composite E* (Eq. 5) and R* (Eq. 6). A rigid wall adds no term: a disc on a wall
  is Eq. 17 with ``1/E* = (1 - nu^2)/E`` and ``R* = R``.
- Dundurs' second constant in plane strain,
  ``beta = (1/2) [(1 - 2 nu1)/G1 - (1 - 2 nu2)/G2] / [(1 - nu1)/G1 + (1 - nu2)/G2]``,
  ``G = E / (2 (1 + nu))``, body 1 the upper one: it couples the normal and tangential problems
  (Dundurs 1969; Johnson, *Contact Mechanics*, 1985, Sec. 5.4). beta = 0 for one material,
  ``(1 - 2 nu)/(2 (1 - nu))`` (1/3 at nu = 0.25) for a disc on a rigid wall.
- Friction during normal loading when beta != 0: the two surfaces would slide inward by
  different amounts; friction resists, leaving a central stick zone ``|x| < c`` and slip zones at
  the edges, with a shear traction odd in x. For Hertz contact of two half-planes under increasing
  load the solution is self-similar, c/a constant (Spence's argument for spheres, J. Elasticity 5
  (1975) 297; Johnson 1985, Sec. 5.4). With Goodman's approximation (the shear's effect on the
  pressure neglected), writing the traction increment per unit growth of a, the stick zone
  ``|x| < c`` of the finite Hilbert-transform equation has a solution bounded at both ends only if
  ``K(sqrt(1 - k^2)) / K(k) = |beta| / mu``, ``k = c/a``, K the complete elliptic integral of the
  first kind (:func:`normal_loading_stick_ratio`; derived for this module and checked against
  the numerical half-planes of :mod:`hertz2d.calibration.validation.halfplane` in the tests).
- Masing's rule (elastic-frictional contact at constant N): from a reversal at ``(delta*, T*)``
  the branch is ``T(delta) = T* - 2 f((delta* - delta)/2)``, f the virgin loading curve, the
  reloading branch its mirror image; the energy dissipated per cycle of amplitude A is the loop's
  area (:func:`hertz2d.calibration.laws.energy.energy_per_cycle` from a table), ``8 int_0^A f - 4 A f(A)``
  for a Masing loop.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import brentq
from scipy.special import ellipk, ellipkm1

from hertz2d.fem.twodisc import Disc, RigidFlat

Body = Disc | RigidFlat


def composite(upper: Body, lower: Body) -> tuple[float, float]:
    """``(E*, R*)`` of Eqs. 5 and 6; a wall adds nothing to either sum."""
    return (1.0 / (upper.compliance + lower.compliance), 1.0 / (1.0 / upper.R + 1.0 / lower.R))


def half_width(N, upper: Body, lower: Body):
    """Eq. 4: ``a = sqrt(4 N R* / (pi E*))``."""
    modulus, radius = composite(upper, lower)
    return np.sqrt(4.0 * np.asarray(N, float) * radius / (np.pi * modulus))


def approach(N, upper: Body, lower: Body):
    """Eq. 22 (Eq. 17 per deformable body, a from Eq. 4): the approach of the two flats."""
    a = half_width(N, upper, lower)
    return sum(body.compliance * 2.0 * np.asarray(N, float) / np.pi * (np.log(4.0 * body.R / a)
                                                                        - 0.5)
               for body in (upper, lower) if isinstance(body, Disc))


def normal_force(delta_n: float, upper: Body, lower: Body) -> float:
    """Eq. 22 solved for N (the approach grows monotonically with N up to a ~ R)."""
    modulus, _ = composite(upper, lower)
    scale = np.pi * modulus * delta_n
    return brentq(lambda N: approach(N, upper, lower) - delta_n, 1e-6 * scale, 3.0 * scale,
                  xtol=1e-13 * scale)


def dundurs_beta(upper: Body, lower: Body) -> float:
    """Dundurs' beta in plane strain, body 1 the upper one (a rigid body has 1/G = 0)."""
    def terms(body):
        if isinstance(body, RigidFlat):
            return 0.0, 0.0
        inverse_G = 2.0 * (1.0 + body.nu) / body.E
        return (1.0 - 2.0 * body.nu) * inverse_G, (1.0 - body.nu) * inverse_G

    (m1, d1), (m2, d2) = terms(upper), terms(lower)
    return 0.5 * (m1 - m2) / (d1 + d2)


def normal_loading_stick_ratio(beta: float, mu: float) -> float:
    """c/a of the stick zone during increasing normal load (half-planes, Goodman's approximation).

    Solves ``K(sqrt(1 - k^2)) / K(k) = |beta| / mu`` for k = c/a (1 when beta = 0: no slip).
    """
    if beta == 0.0:
        return 1.0
    if mu == 0.0:
        return 0.0
    ratio = abs(beta) / mu
    # K(k')/K(k) = r and K(k)/K(k') = 1/r swap k and k' = sqrt(1 - k^2): solve for r <= 1
    y = _log_complement(min(ratio, 1.0 / ratio))
    return float(np.sqrt(-np.expm1(y)) if ratio <= 1.0 else np.exp(0.5 * y))


def _log_complement(ratio: float) -> float:
    """``log(1 - k^2)`` with ``K(sqrt(1 - k^2)) / K(k) = ratio <= 1`` (k >= 1/sqrt(2)).

    In ``y = log(1 - k^2)`` K(k) keeps its precision as k -> 1 (scipy's ``ellipkm1(1 - k^2)``),
    where ``1 - k ~ 8 exp(-pi / ratio)``; below ``y = -700`` (ratio < 0.0045) k is 1 to double
    precision.
    """
    def condition(y):  # scipy's elliptic integrals take the parameter m = k^2
        return ellipk(np.exp(y)) / ellipkm1(np.exp(y)) - ratio

    if condition(-700.0) >= 0.0:
        return -700.0
    return brentq(condition, -700.0, np.log(0.5), xtol=1e-13)


def masing_branch(virgin_delta, virgin_force, reversal: tuple[float, float], delta):
    """Masing's branch from a reversal ``(delta*, T*)``: ``T* - 2 f((delta* - delta)/2)``.

    ``virgin_delta, virgin_force`` tabulate the virgin curve f from (0, 0) (interpolated
    linearly); a reversal at negative ``delta*`` gives the mirrored reloading branch
    ``T* + 2 f((delta - delta*)/2)``.
    """
    d_star, t_star = reversal
    f = np.interp(np.abs(np.asarray(delta, float) - d_star) / 2.0,
                  np.r_[0.0, virgin_delta], np.r_[0.0, virgin_force])
    return t_star - np.sign(d_star) * 2.0 * f


def masing_loop_energy(virgin_delta, virgin_force, amplitude: float, points: int = 2001) -> float:
    """Energy per cycle of a Masing loop of amplitude A: ``8 int_0^A f - 4 A f(A)``."""
    d = np.linspace(0.0, amplitude, points)
    f = np.interp(d, np.r_[0.0, virgin_delta], np.r_[0.0, virgin_force])
    return float(8.0 * np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(d)) - 4.0 * amplitude * f[-1])
