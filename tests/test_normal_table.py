"""The table inverse of the normal law (hertz2d.calibration.laws.normal_table) against mpmath.

Independent checks: the derivative formula the proof rests on against mpmath's numerical
derivatives; every interval's polynomial against ``-W_{-1}(-z)`` at 40 digits at its ends and at
points inside, within the bound the build proved for that interval (and that bound below the
module's BOUND); the scalar, bitwise and array versions giving the same doubles; z outside the
table going to W_{-1}; the build reproducing the committed file (a sample of rows by default, the
whole file in the slow suite).
"""
import json
import math

import numpy as np
import pytest

mpmath = pytest.importorskip("mpmath")

from hertz2d.calibration.laws import normal_table, normal_table_build  # noqa: E402
from hertz2d.calibration.laws.lambert_w import lambert_w_minus1, lambert_w_minus1_array  # noqa: E402
from hertz2d.calibration.laws.normal_table import (BOUND, EXPONENTS, PARTS, ROW_BOUNDS, TABLE,  # noqa: E402
                                           interval, normal_root, normal_root_array,
                                           table_root)

ROWS = TABLE.shape[0]


def reference(z: float) -> "mpmath.mpf":
    """u = -W_{-1}(-z) of the double z at 40 digits."""
    with mpmath.workdps(40):
        return -mpmath.lambertw(-mpmath.mpf(z), -1).real


@pytest.mark.parametrize("z", ["1e-15", "0.003", "0.11"])
def test_derivative_formula(z):
    """``u^(k) = P_k(u) / (z^k (u - 1)^(2k - 1))`` against mpmath's derivatives of u."""
    with mpmath.workdps(50):
        z = mpmath.mpf(z)
        u = -mpmath.lambertw(-z, -1).real
        for k in (1, 2, 4, 9):
            P = normal_table_build.derivative_numerator(k)
            formula = mpmath.fsum(c * u**i for i, c in enumerate(P)) / (z**k * (u - 1)**(2*k - 1))
            numeric = mpmath.diff(lambda x: -mpmath.lambertw(-x, -1).real, z, k)
            assert abs(formula / numeric - 1) < 1e-30


def test_layout_covers_the_range():
    assert ROWS == (EXPONENTS[1] - EXPONENTS[0]) * PARTS
    assert interval(0)[0] == normal_table.Z_LOW and interval(ROWS - 1)[1] == normal_table.Z_HIGH
    assert all(interval(k)[1] == interval(k + 1)[0] for k in range(ROWS - 1))
    assert ROW_BOUNDS.max() <= BOUND and normal_table.proven_bound() == ROW_BOUNDS.max()


def test_every_interval_within_its_proven_bound():
    """Each interval's ends and 6 points inside (random, reproducible) against 40 digits."""
    rng = np.random.default_rng(7)
    worst = 0.0
    for row in range(ROWS):
        low, high = interval(row)
        inside = low + (high - low) * rng.random(6)
        for z in [low, np.nextafter(high, 0.0), *inside]:
            u = reference(z)
            error = float(abs((mpmath.mpf(normal_root(float(z))) - u) / u))
            assert error <= ROW_BOUNDS[row], (row, z, error)
            worst = max(worst, error)
    assert worst > 0.25 * ROW_BOUNDS.max()  # the bound is not vacuous


def test_array_and_scalar_give_the_same_doubles():
    rng = np.random.default_rng(3)
    z = np.exp(rng.uniform(math.log(2.0**-64), math.log(0.3678), 4000))
    z = np.concatenate([z, [2.0**-60, 2.0**-3, np.nextafter(2.0**-3, 0), 1e-300, 0.36787944117144233]])
    array = normal_root_array(z)
    outside = (z < 2.0**-60) | (z >= 2.0**-3)
    assert np.array_equal(array[~outside], [normal_root(float(x)) for x in z[~outside]])
    assert np.array_equal(array[outside], -lambert_w_minus1_array(-z[outside]))
    assert [normal_root(float(x)) for x in z[outside]] == [-lambert_w_minus1(-x)
                                                             for x in z[outside]]
    assert math.isnan(normal_root(0.5)) and math.isnan(normal_root(math.nan))
    bits = z[~outside].view(np.int64)
    assert [table_root(int(b)) for b in bits] == [normal_root(float(x)) for x in z[~outside]]
    assert all(math.isfinite(table_root(int(b))) for b in z[outside].view(np.int64))


def test_log_uniform_against_reference():
    """2000 z log-uniform over the table: the measured error, and the W_{-1} it replaces."""
    rng = np.random.default_rng(11)
    z = np.exp(rng.uniform(math.log(2.0**-60), math.log(2.0**-3), 2000))
    u = normal_root_array(z)
    errors = [float(abs((mpmath.mpf(x) - reference(y)) / reference(y))) for x, y in zip(u, z)]
    assert max(errors) <= BOUND


def _rebuilt_rows(rows):
    with mpmath.workdps(normal_table_build.DIGITS):
        mpmath.iv.dps = normal_table_build.DIGITS
        return [normal_table_build.build_interval(mpmath.mp, mpmath.iv, row) for row in rows]


def test_build_reproduces_sampled_rows():
    rows = [0, 1, 250, 517, ROWS - 2, ROWS - 1]
    for row, built in zip(rows, _rebuilt_rows(rows)):
        assert built["coefficients"] == TABLE[row].tolist()
        assert built["bound"] == ROW_BOUNDS[row]


@pytest.mark.slow
def test_build_reproduces_the_file():
    text = normal_table_build.text(normal_table_build.build())
    assert text == normal_table.TABLE_FILE.read_text()
    assert json.loads(text)["coefficients"] == TABLE.tolist()
