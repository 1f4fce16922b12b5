"""Builds the table of :mod:`hertz2d.calibration.laws.normal_table` (``tables/normal_inverse.json``) and
proves its error bound, interval by interval. Needs mpmath (a test dependency); run as
``python -m hertz2d.calibration.laws.normal_table_build`` to rewrite the file (deterministic: the same
mpmath gives the same bytes, which tests/test_normal_table.py checks).

The function: ``u(z) = -W_{-1}(-z)``, the root u > 1 of ``u e^(-u) = z`` (Eqs. 4 + 22/23 in
``u = C - log(a^2)``, :func:`hertz2d.calibration.laws.hertz2d.normal_force`). On each interval
``[z_lo, z_hi]`` of :mod:`hertz2d.calibration.laws.normal_table` (a binade of z cut into
:data:`~hertz2d.calibration.laws.normal_table.PARTS` equal parts, z linear in the argument t in [-1, 1])
the polynomial is u's interpolant at the DEGREE + 1 Chebyshev points of the first kind, computed
at :data:`DIGITS` digits and written in powers of t, its coefficients rounded to doubles. Its
error bound is the sum of three proven terms:

1. *Interpolation.* ``|u - p| <= max|d^(n+1)u/dt^(n+1)| / (2^n (n+1)!)`` (n = DEGREE; the
   Chebyshev points' node polynomial is ``2^-n T_(n+1)``). u's derivatives are rational in u and
   z: differentiating ``u' = -u / (z (u - 1))`` gives ``u^(k) = P_k(u) / (z^k (u - 1)^(2k - 1))``
   with ``P_1 = -u``, ``P_(k+1) = -u (u - 1) P_k' - k (u - 1)^2 P_k + (2k - 1) u P_k`` (integer
   coefficients, :func:`derivative_numerator`); u falls with z, so on the interval u lies in
   ``[u(z_hi), u(z_lo)]`` and ``|u^(n+1)| <= max|P_(n+1)| / (z_lo^(n+1) (u(z_hi) - 1)^(2n+1))``,
   ``max|P|`` enclosed by interval arithmetic (mpmath.iv) over :data:`PIECES` pieces of the u
   range, and ``d/dt = (h/2) d/dz`` (h = z_hi - z_lo).
2. *Coefficients.* The rounding of the coefficients to doubles: ``sum_i |c_i - fl(c_i)|``
   (``|t^i| <= 1``), plus :data:`REFERENCE_SLACK` relative for the 50-digit node values.
3. *Evaluation.* Horner's rule in doubles, ``r_n = c_n``, ``r_k = fl(fl(r_(k+1) t) + c_k)``:
   with ``A_k = sum_(i >= k) |c_i|`` (a bound of ``|r_k|``) and the unit roundoff ``eps =
   2^-53``, the error of ``r_k`` is at most ``E_k = (E_(k+1) (1 + eps) + eps A_(k+1)) (1 + eps) +
   eps A_k`` (a fused multiply-add rounds once and stays within it), ``E_n = 0``.

The file records each interval's bound divided by the least u on it (a relative bound), and the
build refuses a table whose largest relative bound exceeds :data:`TARGET`.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from hertz2d.calibration.laws.normal_table import (DEGREE, EXPONENTS, PARTS, TABLE_FILE, interval)

#: working precision of the reference values and the interpolant (decimal digits)
DIGITS = 50
#: pieces of each interval's u range over which max|P_(n+1)| is enclosed
PIECES = 16
#: relative error allowed for the 50-digit reference values and interpolant (far above 1e-45)
REFERENCE_SLACK = 1e-40
#: the largest relative error bound the build accepts
TARGET = 3e-16
#: the unit roundoff of a double
EPS = 2.0 ** -53


def derivative_numerator(k: int) -> list[int]:
    """Integer coefficients (lowest power first) of ``P_k`` in ``u^(k)(z) = P_k(u) / (z^k
    (u - 1)^(2k - 1))`` (module docstring)."""
    P = [0, -1]
    for j in range(1, k):
        derivative = [i * c for i, c in enumerate(P)][1:] + [0]
        new = [0] * (len(P) + 2)
        for i, c in enumerate(derivative):  # - u (u - 1) P'
            new[i + 2] -= c
            new[i + 1] += c
        for i, c in enumerate(P):  # - j (u - 1)^2 P + (2j - 1) u P
            new[i + 2] -= j * c
            new[i + 1] += 2 * j * c
            new[i] -= j * c
            new[i + 1] += (2 * j - 1) * c
        while new and new[-1] == 0:
            new.pop()
        P = new
    return P


def _u(mp, z):
    """u = -W_{-1}(-z) at the mpmath number z."""
    return -mp.lambertw(-z, -1).real


def _numerator_bound(iv, P, u_low, u_high) -> float:
    """An upper bound of ``|P(u)|`` over ``[u_low, u_high]`` (interval Horner per piece)."""
    worst = 0.0
    width = (u_high - u_low) / PIECES
    for piece in range(PIECES):
        u = iv.mpf([u_low + piece * width, u_low + (piece + 1) * width])
        value = iv.mpf(P[-1])
        for c in reversed(P[:-1]):
            value = value * u + c
        worst = max(worst, float(max(abs(value.a), abs(value.b))) * (1 + 1e-15))
    return worst


def _horner_bound(coefficients) -> float:
    """Term 3 of the module docstring: Horner's rounding error bound over |t| <= 1."""
    A = [sum(abs(c) for c in coefficients[k:]) for k in range(len(coefficients))]
    E = 0.0
    for k in range(len(coefficients) - 2, -1, -1):
        E = (E * (1 + EPS) + EPS * A[k + 1]) * (1 + EPS) + EPS * A[k]
    return E * (1 + 1e-12)


def build_interval(mp, iv, index: int) -> dict:
    """The coefficients and the proven relative bound of interval ``index``."""
    z_low, z_high = (mp.mpf(x) for x in interval(index))  # exact dyadic ends
    n = DEGREE
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / (n + 1)) for j in range(n + 1)]
    values = [_u(mp, z_low + (t + 1) / 2 * (z_high - z_low)) for t in nodes]
    # the interpolant's Chebyshev coefficients, then its powers of t
    chebyshev = [2 * mp.fsum(v * mp.cos(k * mp.pi * (j + mp.mpf(1) / 2) / (n + 1))
                             for j, v in enumerate(values)) / (n + 1) for k in range(n + 1)]
    chebyshev[0] /= 2
    basis = [[mp.mpf(1)] + [mp.mpf(0)] * n, [mp.mpf(0), mp.mpf(1)] + [mp.mpf(0)] * (n - 1)]
    while len(basis) <= n:  # T_(k+1) = 2 t T_k - T_(k-1), in powers of t
        basis.append([2 * (basis[-1][i - 1] if i else 0) - basis[-2][i] for i in range(n + 1)])
    powers = [mp.fsum(c * T[i] for c, T in zip(chebyshev, basis)) for i in range(n + 1)]
    rounded = [float(c) for c in powers]
    u_low, u_high = _u(mp, z_high), _u(mp, z_low)
    P = derivative_numerator(n + 1)
    derivative = (_numerator_bound(iv, P, u_low, u_high)
                  / (float(z_low) ** (n + 1) * float(u_low - 1) ** (2 * n + 1)))
    half = float((z_high - z_low) / 2)
    interpolation = derivative * half ** (n + 1) / (2 ** n * math.factorial(n + 1))
    coefficients = float(mp.fsum(abs(mp.mpf(r) - c) for r, c in zip(rounded, powers)))
    total = (interpolation + coefficients + REFERENCE_SLACK * float(u_high)
             + _horner_bound(rounded))
    return {"coefficients": rounded, "bound": total / float(u_low) * (1 + 1e-12)}


def build() -> dict:
    """The whole table (the JSON object :mod:`hertz2d.calibration.laws.normal_table` reads)."""
    import mpmath
    count = (EXPONENTS[1] - EXPONENTS[0]) * PARTS
    with mpmath.workdps(DIGITS):
        mpmath.iv.dps = DIGITS
        rows = [build_interval(mpmath.mp, mpmath.iv, index) for index in range(count)]
    worst = max(row["bound"] for row in rows)
    if worst > TARGET:
        raise ValueError(f"the table's largest relative error bound {worst:.3g} exceeds "
                         f"{TARGET:g}")
    return {"function": "u(z) = -W_{-1}(-z)", "degree": DEGREE, "parts": PARTS,
            "exponents": list(EXPONENTS), "digits": DIGITS,
            "bound": [row["bound"] for row in rows],
            "coefficients": [row["coefficients"] for row in rows]}


def text(table: dict) -> str:
    """The file's text (one interval a line)."""
    lines = [json.dumps({key: value for key, value in table.items()
                         if key not in ("bound", "coefficients")})[:-1] + ","]
    lines.append(' "bound": [' + ", ".join(repr(b) for b in table["bound"]) + "],")
    lines.append(' "coefficients": [')
    lines.append(",\n".join("  [" + ", ".join(repr(c) for c in row) + "]"
                            for row in table["coefficients"]))
    lines.append(" ]}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    Path(TABLE_FILE).write_text(text(build()))
