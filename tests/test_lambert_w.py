"""W_{-1} (hertz2d.calibration.laws.lambert_w) against references computed independently at high precision.

Two references: a Newton iteration on ``v - log(1 + v) = -1 - log(-z)`` (v = -1 - W) in Python's
``decimal`` at 50 digits, always available, and mpmath's ``lambertw`` at 60 digits where mpmath
is installed; plus scipy's ``lambertw`` where it is itself accurate. Over the whole range, from the
double nearest -1/e (where W is ill-conditioned: the algorithm must not lose the distance from the
branch point) to the smallest subnormal, the relative error must stay below 5e-16.
"""
import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from scipy.special import lambertw

from hertz2d.calibration.laws.lambert_w import lambert_w_minus1, lambert_w_minus1_array

#: the relative error the module's docstring states (measured: 4.4e-16)
BOUND = 5e-16
#: the double nearest -1/e (below it by 1.2e-17)
BRANCH = -0.36787944117144233


def grid() -> np.ndarray:
    """z over the whole range: dense in the distance from the branch point (1e-17 .. 1/e) and in
    ``s = -1 - log(-z)`` (1e-16 .. 740, down to subnormal z), plus the region boundaries."""
    near = -1.0 / math.e + np.logspace(-17, math.log10(1.0 / math.e), 700)
    far = -np.exp(-1.0 - np.logspace(-16, math.log10(740.0), 700))
    edges = [BRANCH, -0.3, -0.2, -0.01, np.nextafter(-0.3, 0), np.nextafter(-0.01, -1), -1e-300,
             -5e-324]
    z = np.unique(np.concatenate([near, far, edges]))
    return z[(z >= BRANCH) & (z < 0.0)]


def decimal_reference(z: float) -> float:
    """W_{-1}(z) of the double z by Newton's method at 50 digits (from v = 1; for v near 0 the
    square root of 2 s, the branch point's leading term, to stay on the branch)."""
    with localcontext() as context:
        context.prec = 50
        s = -1 - (-Decimal(z)).ln()  # Decimal(z) is the double exactly
        if s < 0:
            return -1.0  # z is -1/e to rounding (below it)
        v = (2 * s).sqrt() if s < 1 else Decimal(1)
        for _ in range(200):
            step = (v - (1 + v).ln() - s) * (1 + v) / v
            v -= step
            if abs(step) <= Decimal(10) ** -45 * (1 + v):
                break
        return float(-1 - v)


@pytest.fixture(scope="module")
def cases():
    z = grid()
    return z, np.array([decimal_reference(x) for x in z])


def relative_errors(values, reference):
    return np.abs(np.asarray(values) / reference - 1.0)


def test_scalar_and_array_versions_are_accurate_to_rounding_over_the_whole_range(cases):
    z, reference = cases
    scalar = np.array([lambert_w_minus1(x) for x in z])
    assert relative_errors(scalar, reference).max() < BOUND
    assert relative_errors(lambert_w_minus1_array(z), reference).max() < BOUND
    assert lambert_w_minus1_array(z).shape == z.shape


def test_against_mpmath_at_60_digits(cases):
    mpmath = pytest.importorskip("mpmath")
    z, _ = cases
    with mpmath.workdps(60):
        reference = np.array([float(mpmath.lambertw(mpmath.mpf(x), -1).real)
                              if 1 + mpmath.e * mpmath.mpf(x) >= 0 else -1.0 for x in z])
    assert relative_errors([lambert_w_minus1(x) for x in z], reference).max() < BOUND
    assert relative_errors(lambert_w_minus1_array(z), reference).max() < BOUND


def test_against_scipy_where_scipy_is_accurate(cases):
    """scipy's lambertw (Halley's method from its own series) loses digits within 1e-6 of the
    branch point (1e-4 there) and fails on subnormal z; elsewhere it agrees to 1e-11."""
    z, reference = cases
    theirs = lambertw(z, -1).real
    usable = (1.0 + math.e * z > 1e-6) & (z < -1e-300)
    assert relative_errors(theirs[usable], reference[usable]).max() < 1e-11
    assert relative_errors(lambert_w_minus1_array(z[usable]), theirs[usable]).max() < 1e-11


def test_it_solves_w_exp_w_equals_z():
    """The defining equation where it is well conditioned (1 + W away from 0)."""
    z = -np.logspace(-300, math.log10(0.3), 200)
    w = lambert_w_minus1_array(z)
    assert np.all(w <= -1.0)
    np.testing.assert_allclose(w * np.exp(w), z, rtol=1e-15 * np.max(np.abs(w)))


def test_ends_of_the_domain_and_outside_it():
    assert lambert_w_minus1(BRANCH) == -1.0  # -1/e to rounding
    assert lambert_w_minus1(0.0) == -math.inf
    for outside in (0.1, -0.37, -1.0, math.nan, -math.inf):
        assert math.isnan(lambert_w_minus1(outside))
    values = lambert_w_minus1_array([BRANCH, 0.0, 0.1, -0.37, math.nan])
    assert values[0] == -1.0 and values[1] == -math.inf and np.all(np.isnan(values[2:]))
