"""Lambert's W function on its lower branch: ``W_{-1}(z)``, the root ``w <= -1`` of ``w e^w = z``
for ``-1/e <= z < 0``.

The normal law of the paper's Table 1 inverts through it (:mod:`hertz2d.calibration.laws.hertz2d`):
``4 R* delta_n = x (C - log x)`` in ``x = a^2`` gives ``x = -4 R* delta_n / W_{-1}(z)``,
``z = -4 R* delta_n e^(-C)``. Two versions of one algorithm: :func:`lambert_w_minus1` for one
float (``math`` only, so that numba compiles it unchanged, as :mod:`hertz2d.calibration.laws.scalar`) and
:func:`lambert_w_minus1_array` for numpy arrays; the arithmetic both share is written once, in
the helpers below, which take floats or arrays alike.

The algorithm works in ``v = -1 - W >= 0``, where the equation is ``g(v) = v - log(1 + v) - s =
0`` with ``s = -1 - log(-z)``:

1. *The distance from the branch point.* ``q = 1 + e z`` (0 at z = -1/e) and s. Next to the branch
   point both cancel, and W is ill-conditioned in z (``dW/W = dz/z / (1 + W)``): q is computed
   with e split into two doubles and the product ``e z`` made exact (Dekker's two-product, plain
   arithmetic, no fused multiply-add needed), and ``s = -log(1 - q)`` with ``log1p``. So W is
   accurate for the double z it is given, up to z = -1/e itself. A z within rounding of -1/e on
   its far side (the double nearest -1/e is below it) gives W = -1.
2. *A start.* For ``z < -0.2`` the branch-point series ``v = r + r^2/3 + 11/72 r^3 + 43/540 r^4 +
   ...`` (9 terms, :data:`BRANCH_SERIES`) in ``r = sqrt(2 q)``; above, the asymptotic series
   ``W = L1 - L2 + L2/L1 + L2 (L2 - 2)/(2 L1^2) + ...`` (6 terms) in ``L1 = log(-z)``,
   ``L2 = log(-L1)`` (Corless, Gonnet, Hare, Jeffrey and Knuth, "On the Lambert W function",
   Adv. Comput. Math. 5, 1996, Eqs. 4.19 and 4.20).
3. *Fourth-order steps.* g's derivatives are rational in v (``g' = v/(1 + v)``, ``g'' = 1/(1 +
   v)^2``, ``g''' = -2/(1 + v)^3``), so a step of Householder's fourth-order method costs one
   logarithm (the residual) and one division: with the Newton step ``t = -g/g'`` and ``tau = t /
   (v (1 + v))`` it is ``h = t (1 - tau/2 + (3 + 2 v) tau^2 / 6)``, whose error is O(t^4). The
   starts are within 1e-4 of v for ``z < -0.3`` and ``z >= -0.01``, where one step leaves an error
   below 1e-16; between them the starts are within 2e-2 and two steps are taken
   (:data:`TWO_STEPS`). No loop and no convergence test: the same fixed work for every z.

The residual is ``v - log1p(v) - s`` next to the branch point (where v is small and ``log1p`` keeps
its digits) and ``(1 + v) - log(1 + v) + L1`` elsewhere (v >= 1, where the rounding of 1 + v
costs nothing and ``log`` is cheaper). tests/test_lambert_w.py checks the result against mpmath
at 60 digits (and scipy.special.lambertw) over the whole range, from the double nearest -1/e to
the smallest subnormal: a relative error below 4e-16.
"""
from __future__ import annotations

import math

import numpy as np

#: e as the sum of two doubles (E_HIGH is e rounded), and E_HIGH split into two halves of 26 bits
#: for Dekker's exact product
E_HIGH, E_LOW = 2.718281828459045, 1.4456468917292502e-16
E_HIGH_HEAD, E_HIGH_TAIL = 2.7182818055152893, 2.2943755784154973e-08
#: Veltkamp's splitting constant 2^27 + 1
SPLITTER = 134217729.0
#: the coefficients of ``v = -1 - W_{-1}`` in ``r = sqrt(2 (1 + e z))``, r, r^2, ... (all
#: positive on this branch: the series of W_0 with r -> -r)
BRANCH_SERIES = (1.0, 1.0 / 3.0, 11.0 / 72.0, 43.0 / 540.0, 769.0 / 17280.0, 221.0 / 8505.0,
                 680863.0 / 43545600.0, 1963.0 / 204120.0, 226287557.0 / 37623398400.0)
#: below this z the branch-point series starts, above it the asymptotic series
SERIES_SPLIT = -0.2
#: between these z the starts are coarse (1e-2) and two steps are taken, elsewhere one
TWO_STEPS = (-0.3, -0.01)
#: how far below 0 the computed ``1 + e z`` may be and still be rounding (z = -1/e as a double)
BRANCH_ROUNDING = 4.0 * 2.220446049250313e-16


def _distance_from_branch_point(z):
    """``q = 1 + e z``, exact but for the last rounding: ``E_HIGH z`` as the exact sum of two
    doubles (Dekker), plus 1 (exact near the branch point, where the product is near -1), plus
    ``E_LOW z``."""
    product = E_HIGH * z
    scaled = SPLITTER * z
    z_head = scaled - (scaled - z)
    z_tail = z - z_head
    error = (((E_HIGH_HEAD * z_head - product) + E_HIGH_HEAD * z_tail + E_HIGH_TAIL * z_head)
             + E_HIGH_TAIL * z_tail)
    return (1.0 + product) + (error + E_LOW * z)


def _branch_start(r):
    """v from the branch-point series (Horner's rule) in ``r = sqrt(2 q)``."""
    v = BRANCH_SERIES[8]
    v = v * r + BRANCH_SERIES[7]
    v = v * r + BRANCH_SERIES[6]
    v = v * r + BRANCH_SERIES[5]
    v = v * r + BRANCH_SERIES[4]
    v = v * r + BRANCH_SERIES[3]
    v = v * r + BRANCH_SERIES[2]
    v = v * r + BRANCH_SERIES[1]
    v = v * r + BRANCH_SERIES[0]
    return v * r


def _asymptotic_start(L1, L2):
    """v from the asymptotic series of W_{-1} in ``L1 = log(-z)``, ``L2 = log(-L1)``."""
    inverse = 1.0 / L1
    tail = L2 * inverse * (1.0 + inverse * (0.5 * (L2 - 2.0) + inverse * (
        (6.0 + L2 * (-9.0 + 2.0 * L2)) / 6.0 + inverse * (
            (-12.0 + L2 * (36.0 + L2 * (-22.0 + 3.0 * L2))) / 12.0))))
    return -1.0 - (L1 - L2 + tail)


def _step(v, residual):
    """One fourth-order (Householder) step on ``g(v) = v - log(1 + v) - s`` from v with
    ``g(v) = residual``: the new v."""
    u = 1.0 + v
    inverse = 1.0 / (u * v)
    t = -residual * u * u * inverse
    tau = t * inverse
    return v + t * (1.0 - 0.5 * tau + (3.0 + 2.0 * v) * tau * tau / 6.0)


def lambert_w_minus1(z: float) -> float:
    """Lambert's W on its lower branch (module docstring for the method and its accuracy).

    Parameters
    ----------
    z : float
        The argument, ``-1/e <= z < 0``.

    Returns
    -------
    float
        ``W_{-1}(z)``, at most -1; -inf at z = 0, NaN outside the branch's domain.
    """
    if not z < 0.0:
        return -math.inf if z == 0.0 else math.nan
    steps = 2 if TWO_STEPS[0] <= z < TWO_STEPS[1] else 1
    if z < SERIES_SPLIT:
        q = _distance_from_branch_point(z)
        if q <= 0.0:
            return -1.0 if q >= -BRANCH_ROUNDING else math.nan
        s = -math.log1p(-q)
        v = _branch_start(math.sqrt(2.0 * q))
        for _ in range(steps):
            v = _step(v, v - math.log1p(v) - s)
        return -1.0 - v
    L1 = math.log(-z)
    v = _asymptotic_start(L1, math.log(-L1))
    for _ in range(steps):
        u = 1.0 + v
        v = _step(v, u - math.log(u) + L1)
    return -1.0 - v


def lambert_w_minus1_array(z) -> np.ndarray:
    """:func:`lambert_w_minus1` of every entry of ``z`` (the same arithmetic, vectorised).

    Parameters
    ----------
    z : array_like
        Arguments, ``-1/e <= z < 0``.

    Returns
    -------
    numpy.ndarray
        ``W_{-1}`` of each entry, of ``z``'s shape; -inf at 0, NaN outside the domain.
    """
    shape = np.shape(z)
    z = np.asarray(z, float).ravel()
    w = np.where(z == 0.0, -np.inf, np.nan)
    twice = (z >= TWO_STEPS[0]) & (z < TWO_STEPS[1])
    near, far = z < SERIES_SPLIT, (z >= SERIES_SPLIT) & (z < 0.0)
    with np.errstate(all="ignore"):
        q = _distance_from_branch_point(z[near])
        inside = q > 0.0
        s = -np.log1p(-q[inside])
        v = _branch_start(np.sqrt(2.0 * q[inside]))
        v = _step(v, v - np.log1p(v) - s)
        again = twice[near][inside]
        v[again] = _step(v[again], v[again] - np.log1p(v[again]) - s[again])
        w[np.flatnonzero(near)[inside]] = -1.0 - v
        w[np.flatnonzero(near)[~inside]] = np.where(q[~inside] >= -BRANCH_ROUNDING, -1.0, np.nan)
        L1 = np.log(-z[far])
        v = _asymptotic_start(L1, np.log(-L1))
        u = 1.0 + v
        v = _step(v, u - np.log(u) + L1)
        again = twice[far]
        u = 1.0 + v[again]
        v[again] = _step(v[again], u - np.log(u) + L1[again])
        w[far] = -1.0 - v
    return w.reshape(shape)
