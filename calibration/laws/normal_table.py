"""The normal law's inverse from a table: ``u = -W_{-1}(-z)`` without a logarithm.

Eqs. 4 + 22/23 solved for the half-width need ``u = C - log(a^2)``, the root u > 1 of
``u e^(-u) = z`` with ``z = 4 R* delta_n e^(-C)`` (:func:`hertz2d.calibration.laws.hertz2d.normal_force`):
``u = -W_{-1}(-z)``. :mod:`hertz2d.calibration.laws.lambert_w` computes it with two logarithms and a
division; a DEM step can instead read it off a table, since z of a real contact lies in a few
binades:

- z in ``[2^-60, 2^-3)`` (:data:`EXPONENTS`; approaches from about 1e-18 R* to 0.37 R*, far
  beyond any DEM overlap) is split by its exponent and the top 4 bits of its mantissa
  (:data:`PARTS`) into 912 intervals; on each, u is a polynomial of degree :data:`DEGREE` in
  ``t = (the mantissa's lower 48 bits) 2^-47 - 1`` in [-1, 1) (exact: no rounding before the
  polynomial), evaluated by Horner's rule: 8 multiply-adds, no division, no logarithm;
- any other z (and a NaN) goes to :func:`hertz2d.calibration.laws.lambert_w.lambert_w_minus1`.

The coefficients (``tables/normal_inverse.json``) are the Chebyshev interpolants of u at 50
digits in powers of t, made by :mod:`hertz2d.calibration.laws.normal_table_build`, which also proves each
interval's relative error bound (interpolation, the coefficients' rounding to doubles and
Horner's rounding, with or without fused multiply-adds) and records it: at most
:data:`BOUND` over the whole table (:func:`proven_bound` reads the largest), against 4e-16 of
W_{-1}. tests/test_normal_table.py checks the table against mpmath over every interval.

Two versions of one arithmetic, which give the same doubles: :func:`normal_root` for one float
(``math`` only, so that numba compiles it unchanged: the exponent and mantissa by
``math.frexp``) and :func:`normal_root_array` for numpy arrays (the same fields read from the
bits). The C99 header (``c99/normal_law.h.in``) embeds the same table and arithmetic.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from hertz2d.calibration.laws.lambert_w import lambert_w_minus1, lambert_w_minus1_array

#: polynomial degree per interval
DEGREE = 8
#: intervals per binade (the mantissa's top 4 bits)
PARTS = 16
#: the table covers ``2^EXPONENTS[0] <= z < 2^EXPONENTS[1]``
EXPONENTS = (-60, -3)
#: the data file
TABLE_FILE = Path(__file__).with_name("tables") / "normal_inverse.json"
#: the table's z range
Z_LOW, Z_HIGH = 2.0 ** EXPONENTS[0], 2.0 ** EXPONENTS[1]
#: the relative error bound the table is built to (each interval's proven bound is at most this)
BOUND = 3e-16
#: 2^-47, the scale of the mantissa's lower 48 bits to t
T_SCALE = 2.0 ** -47


def interval(index: int) -> tuple[float, float]:
    """The z interval ``[low, high)`` of table row ``index`` (both ends exact doubles)."""
    exponent, part = EXPONENTS[0] + index // PARTS, index % PARTS
    return (math.ldexp(1.0 + part / PARTS, exponent),
            math.ldexp(1.0 + (part + 1) / PARTS, exponent))


def _read() -> tuple[np.ndarray, np.ndarray]:
    data = json.loads(TABLE_FILE.read_text())
    if (data["degree"], data["parts"], tuple(data["exponents"])) != (DEGREE, PARTS, EXPONENTS):
        raise ValueError(f"{TABLE_FILE} was built for another layout; rebuild it with "
                         f"python -m hertz2d.calibration.laws.normal_table_build")
    return np.array(data["coefficients"], float), np.array(data["bound"], float)


#: the coefficients (one row of DEGREE + 1 per interval, lowest power first) and each row's
#: proven relative error bound
TABLE, ROW_BOUNDS = _read()


def proven_bound() -> float:
    """The largest of the intervals' proven relative error bounds."""
    return float(ROW_BOUNDS.max())


def normal_root(z: float) -> float:
    """``u = -W_{-1}(-z)`` (module docstring): the table for ``2^-60 <= z < 2^-3``, W_{-1}
    elsewhere (NaN for z > 1/e or NaN, as W_{-1} gives).

    Parameters
    ----------
    z : float
        ``4 R* delta_n e^(-C)``, in (0, 1/e].

    Returns
    -------
    float
        u >= 1.
    """
    if not (z >= Z_LOW and z < Z_HIGH):
        return -lambert_w_minus1(-z)
    mantissa, exponent = math.frexp(z)  # z = mantissa 2^exponent, 1/2 <= mantissa < 1
    scaled = (2.0 * mantissa - 1.0) * PARTS  # the fraction's top 4 bits before the point
    part = int(scaled)
    return horner(TABLE[(exponent - 1 - EXPONENTS[0]) * PARTS + part],
                  2.0 * (scaled - part) - 1.0)


def table_root(bits: int) -> float:
    """:func:`normal_root` of a z inside the table from its IEEE 754 bits (an integer; what a
    loop over many z reads through an integer view of their array): the fields
    :func:`normal_root_array` reads, so the same doubles. The row is clamped to the table, so a
    z outside it gives a finite number, not u: the caller finds u of those with
    :func:`normal_root`."""
    row = ((bits >> 52) - 1023 - EXPONENTS[0]) * PARTS + ((bits >> 48) & (PARTS - 1))
    row = min(max(row, 0), TABLE.shape[0] - 1)
    return horner(TABLE[row], (bits & ((1 << 48) - 1)) * T_SCALE - 1.0)


def horner(c, t: float) -> float:
    """The table row ``c``'s polynomial at ``t`` by Horner's rule (8 multiply-adds)."""
    p = c[8]
    p = p * t + c[7]
    p = p * t + c[6]
    p = p * t + c[5]
    p = p * t + c[4]
    p = p * t + c[3]
    p = p * t + c[2]
    p = p * t + c[1]
    return p * t + c[0]


def normal_root_array(z) -> np.ndarray:
    """:func:`normal_root` of every entry of ``z`` (the same arithmetic on the bits of z).

    Parameters
    ----------
    z : array_like
        ``4 R* delta_n e^(-C)`` per contact.

    Returns
    -------
    numpy.ndarray
        u of each entry, of ``z``'s shape.
    """
    shape = np.shape(z)
    z = np.asarray(z, float).ravel()
    u = np.empty_like(z)
    inside = (z >= Z_LOW) & (z < Z_HIGH)
    bits = z[inside].view(np.uint64)
    exponent = (bits >> np.uint64(52)).astype(np.int64) - 1023
    part = ((bits >> np.uint64(48)) & np.uint64(PARTS - 1)).astype(np.int64)
    t = (bits & np.uint64((1 << 48) - 1)).astype(float) * T_SCALE - 1.0
    c = TABLE[(exponent - EXPONENTS[0]) * PARTS + part]
    p = c[:, 8]
    for k in range(7, -1, -1):
        p = p * t + c[:, k]
    u[inside] = p
    with np.errstate(invalid="ignore"):
        u[~inside] = -lambert_w_minus1_array(-z[~inside])
    return u.reshape(shape)
