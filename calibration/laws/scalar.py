"""The DEM laws one contact at a time: plain functions of floats, ``math`` only.

These are the laws a time-stepping DEM code calls once per contact and step, written so that a
compiler for numerical Python (numba's ``njit``, which the ``dem`` package applies when numba is
installed) can compile them unchanged, and so that they run as ordinary Python without it. They
compute the same quantities as the vectorised laws of :mod:`calibration.laws.hertz2d`,
:mod:`calibration.laws.sphere`, :mod:`calibration.laws.linear` and
:mod:`calibration.laws.incremental` (the tests cross-check them to 1e-12 on random inputs):

- the paper's simplified model (Section 3.3, Table 1): the normal force of Eqs. 4 + 23 by Newton's
  method warm-started from the previous step's half-width (:func:`hertz2d_normal`), kn of Eq. 29,
  kt of Eq. 31 with a penalty factor of Eq. 33's polynomial form (six coefficients, a constant w is
  ``(w, 0, 0, 0, 0, 0)``), the Coulomb-capped update of Eq. 32 (:func:`capped_update`);
- the linear spring (Cundall and Strack): ``N = kn delta_n``, constant kt;
- Hertz-Mindlin of spheres as 2D codes apply it to discs: ``N = 4/3 E* sqrt(R*) delta_n^(3/2)``,
  ``kt = 8 G* a``.

Two bodies of different materials: the 2D laws weigh body i's bracket with omega_i
(:attr:`calibration.laws.ContactPair.bracket_weights`; :func:`pair_weights` gives the per-body
form's ``2 s_i``, the composite form of Eqs. 23/31 is omega = (1, 1), and bodies of one material,
walls included, have omega = (1, 1) in both). Since omega1 + omega2 = 2 either way, the normal
law only changes through ``L = omega1 log(4 R1) + omega2 log(4 R2)`` (``log(16 R1 R2)`` for
omega = 1). Every function that needs them takes ``omega1, omega2`` last, default 1.

Every function takes the quantities of the *pair*: two discs, or a disc and its mirror image when
the counterpart is a rigid wall (Section 3.2; the caller doubles the disc-to-wall displacements,
as :meth:`calibration.laws.ContactPair.pair_displacement` does). For each normal law there is also
its tangent stiffness ``dN/d(delta_n)`` (for dashpots, servo gains and time-step estimates) and its
potential ``U(delta_n) = int N d(delta_n)`` (for energy balances and impact integrals).
Forces per unit thickness (N/m), displacements in m, energies in J/m.
"""
from __future__ import annotations

import math

#: Newton iterations of the normal law before it reports failure (warm-started it needs 1-3)
NEWTON_ITERATIONS = 60
#: Newton's stopping rule on y = log(a^2): the last step below this times max(1, |y|)
NEWTON_TOLERANCE = 1e-14


def pair_modulus(E1: float, nu1: float, E2: float, nu2: float) -> float:
    """E* of Eq. 5: ``1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2``."""
    return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2)


def pair_shear_modulus(E1: float, nu1: float, E2: float, nu2: float) -> float:
    """G* of Mindlin's sphere contact: ``1/G* = (2 - nu1)/G1 + (2 - nu2)/G2``, G = E/(2(1 + nu))."""
    return 1.0 / ((2.0 - nu1) * 2.0 * (1.0 + nu1) / E1 + (2.0 - nu2) * 2.0 * (1.0 + nu2) / E2)


def pair_weights(E1: float, nu1: float, E2: float, nu2: float) -> tuple[float, float]:
    """The per-body form's bracket weights ``omega_i = 2 s_i``, ``s_i = ((1 - nu_i^2)/E_i) E*``
    (Eq. 22 and its tangential analogue: each body its own half-round body)."""
    c1, c2 = (1.0 - nu1 * nu1) / E1, (1.0 - nu2 * nu2) / E2
    return 2.0 * c1 / (c1 + c2), 2.0 * c2 / (c1 + c2)


def hertz2d_log_sum(R1: float, R2: float, omega1: float = 1.0, omega2: float = 1.0) -> float:
    """``L = omega1 log(4 R1) + omega2 log(4 R2)``; the normal law's ``C = L - 1``."""
    return omega1 * math.log(4.0 * R1) + omega2 * math.log(4.0 * R2)


def hertz2d_max_approach(R1: float, R2: float, omega1: float = 1.0,
                         omega2: float = 1.0) -> float:
    """The largest approach for which Eqs. 4 + 23 (or 22) have a solution: ``e^(C-1)/(4 R*)``,
    ``4 (R1 + R2)/e^2`` for omega = (1, 1)."""
    return math.exp(hertz2d_log_sum(R1, R2, omega1, omega2) - 2.0) * (R1 + R2) / (4.0 * R1 * R2)


def hertz2d_log_width(delta_n: float, R1: float, R2: float, y_start: float,
                      omega1: float = 1.0, omega2: float = 1.0) -> float:
    """``y = log(a^2)`` of Eqs. 4 + 23 at the approach ``delta_n > 0`` (NaN if there is none).

    Newton's method on ``h(y) = y + log(C - y) - log(4 R* delta_n)``, ``C = L - 1``
    (from any start left of ``C - 1`` it converges monotonically, see
    :mod:`calibration.laws.hertz2d`), from ``y_start`` (capped at ``C - 2``). It stops when
    Newton's own estimate of the error left after the last step ``s``,
    ``h''/(2 h') s^2 = s^2 / (2 room (room - 1))`` with ``room = C - y``, is below
    :data:`NEWTON_TOLERANCE` ``max(1, |y|)``; warm-started from the previous step of a DEM
    contact that takes two iterations. NaN beyond the largest approach of Eq. 23.
    """
    if delta_n >= hertz2d_max_approach(R1, R2, omega1, omega2):
        return math.nan
    C = hertz2d_log_sum(R1, R2, omega1, omega2) - 1.0
    log_D = math.log(4.0 * R1 * R2 / (R1 + R2) * delta_n)
    y = min(y_start, C - 2.0)
    for _ in range(NEWTON_ITERATIONS):
        room = C - y
        step = (y + math.log(room) - log_D) / (1.0 - 1.0 / room)
        y -= step
        room = C - y
        if step * step <= 2.0 * room * (room - 1.0) * NEWTON_TOLERANCE * max(1.0, abs(y)):
            return y
    return math.nan


def hertz2d_warm_start(delta_n: float, R1: float, R2: float, a_previous: float) -> float:
    """Newton's start for :func:`hertz2d_log_width`: the previous step's ``log(a^2)``, or for a new
    contact (``a_previous`` 0) ``log(4 R* delta_n)``."""
    if a_previous > 0.0:
        return 2.0 * math.log(a_previous)
    return math.log(4.0 * R1 * R2 / (R1 + R2) * delta_n)


def hertz2d_force(a: float, R1: float, R2: float, modulus: float) -> float:
    """Eq. 4 solved for N: ``N = pi E* a^2 / (4 R*)``."""
    return math.pi * modulus * a * a * (R1 + R2) / (4.0 * R1 * R2)


def hertz2d_normal(delta_n: float, R1: float, R2: float, modulus: float, a_start: float,
                   omega1: float = 1.0, omega2: float = 1.0) -> tuple[float, float]:
    """``(N, a)`` of Eqs. 4 + 23 at the approach ``delta_n``, Newton warm-started from the
    previous step's half-width ``a_start`` (0 for none); (0, 0) when open, NaNs beyond the
    largest approach."""
    if delta_n <= 0.0:
        return 0.0, 0.0
    y = hertz2d_log_width(delta_n, R1, R2, hertz2d_warm_start(delta_n, R1, R2, a_start),
                          omega1, omega2)
    a = math.exp(0.5 * y)
    return hertz2d_force(a, R1, R2, modulus), a


def hertz2d_normal_stiffness(a: float, R1: float, R2: float, modulus: float,
                             omega1: float = 1.0, omega2: float = 1.0) -> float:
    """Eq. 29, the secant ``kn = N/delta_n = pi E* / sum_i omega_i [log(4R_i/a) - 1/2]``
    ``= pi E* / (L - 2 log a - 1)`` (0 if open)."""
    if a <= 0.0:
        return 0.0
    return math.pi * modulus / (hertz2d_log_sum(R1, R2, omega1, omega2) - 2.0 * math.log(a) - 1.0)


def hertz2d_normal_tangent(a: float, R1: float, R2: float, modulus: float,
                           omega1: float = 1.0, omega2: float = 1.0) -> float:
    """``dN/d(delta_n) = pi E* / (L - 2 log a - 2)`` (Eqs. 4 + 23 differentiated in ``x = a^2``:
    ``dN/dx = pi E*/(4R*)``, ``d(delta_n)/dx = (C - 1 - log x)/(4R*)``); 0 if open."""
    if a <= 0.0:
        return 0.0
    return math.pi * modulus / (hertz2d_log_sum(R1, R2, omega1, omega2) - 2.0 * math.log(a) - 2.0)


def hertz2d_normal_energy(a: float, R1: float, R2: float, modulus: float,
                          omega1: float = 1.0, omega2: float = 1.0) -> float:
    """``U = int_0^delta_n N d(delta_n) = pi E* x^2 (C - 1/2 - log x) / (32 R*^2)``, ``x = a^2``,
    ``C = L - 1`` (the same change of variable as :func:`hertz2d_normal_tangent`)."""
    if a <= 0.0:
        return 0.0
    radius = R1 * R2 / (R1 + R2)
    x = a * a
    C = hertz2d_log_sum(R1, R2, omega1, omega2) - 1.0
    return math.pi * modulus * x * x * (C - 0.5 - math.log(x)) / (32.0 * radius * radius)


def hertz2d_body_bracket(a: float, log_a: float, R: float, nu: float, w) -> float:
    """One body's share of Eq. 31's bracket, ``log(2R/a) + 1/2 + w (log(4R/a) + nu/(2(1 - nu)))``
    (``log_a`` is log(a), passed in so that a caller who has it saves a logarithm).

    ``w`` holds the six coefficients of Eq. 33's form ``w0 + w1 x + w2 nu + w3 x^2 + w4 x nu +
    w5 nu^2`` in ``x = a/R`` (Eq. 33 itself is ``(0.22, 2.89, 0.18, -10.31, 1.75, 0.36)``), its
    value clipped to [0, 1] as :func:`calibration.laws.penalty_factor.bounded` does.
    """
    x = a / R
    penalty = w[0] + w[1] * x + w[2] * nu + w[3] * x * x + w[4] * x * nu + w[5] * nu * nu
    penalty = min(max(penalty, 0.0), 1.0)
    log_R = math.log(R)
    return (log_R - log_a + math.log(2.0) + 0.5
            + penalty * (log_R - log_a + math.log(4.0) + nu / (2.0 * (1.0 - nu))))


def hertz2d_tangential_stiffness(a: float, R1: float, R2: float, nu1: float, nu2: float,
                                 modulus: float, w, omega1: float = 1.0,
                                 omega2: float = 1.0) -> float:
    """Eq. 31: ``kt = pi E* / B(a)``, B the omega-weighted sum of both bodies'
    :func:`hertz2d_body_bracket` (0 if open)."""
    if a <= 0.0:
        return 0.0
    log_a = math.log(a)
    return math.pi * modulus / (omega1 * hertz2d_body_bracket(a, log_a, R1, nu1, w)
                                + omega2 * hertz2d_body_bracket(a, log_a, R2, nu2, w))


def hertz2d_update(delta_n: float, d_delta_t: float, T_previous: float, a_previous: float,
                   R1: float, R2: float, nu1: float, nu2: float, modulus: float, mu: float, w,
                   omega1: float = 1.0, omega2: float = 1.0):
    """Table 1 for one contact and step, the DEM hot path (the scalar counterpart of
    :func:`calibration.laws.simplified_update`).

    Returns ``(N, T, a, k_normal, kt, slipping)``: Eqs. 4 + 23 by Newton warm-started from
    ``a_previous``, kt of Eq. 31, the capped Eq. 32, the tangent normal stiffness
    (:func:`hertz2d_normal_tangent`) and whether the cap acted; zeros when open, N NaN beyond
    the largest approach. The logarithms the three share are taken once: log(a) is Newton's y/2.
    """
    if delta_n <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, False
    y = hertz2d_log_width(delta_n, R1, R2, hertz2d_warm_start(delta_n, R1, R2, a_previous),
                          omega1, omega2)
    if math.isnan(y):
        return math.nan, 0.0, 0.0, 0.0, 0.0, False
    a = math.exp(0.5 * y)
    N = hertz2d_force(a, R1, R2, modulus)
    log_a = 0.5 * y
    kt = math.pi * modulus / (omega1 * hertz2d_body_bracket(a, log_a, R1, nu1, w)
                              + omega2 * hertz2d_body_bracket(a, log_a, R2, nu2, w))
    k_normal = math.pi * modulus / (hertz2d_log_sum(R1, R2, omega1, omega2) - 2.0 - y)
    T, slipping = capped_update(T_previous, kt, d_delta_t, N, mu)
    return N, T, a, k_normal, kt, slipping


def capped_update(T_previous: float, kt: float, d_delta_t: float, N: float,
                  mu: float) -> tuple[float, bool]:
    """Eq. 32 capped both ways: ``T = clip(T0 + kt d(delta_t), -mu N, mu N)``, 0 while open;
    and whether the cap acted (as :func:`calibration.laws.incremental.capped_update`)."""
    if N <= 0.0:
        return 0.0, False
    trial = T_previous + kt * d_delta_t
    bound = mu * N
    if trial >= bound:
        return bound, True
    if trial <= -bound:
        return -bound, True
    return trial, False


def linear_normal(delta_n: float, kn: float) -> float:
    """The linear spring: ``N = kn delta_n`` (0 when open)."""
    return kn * delta_n if delta_n > 0.0 else 0.0


def linear_normal_energy(delta_n: float, kn: float) -> float:
    """``U = kn delta_n^2 / 2`` (0 when open)."""
    return 0.5 * kn * delta_n * delta_n if delta_n > 0.0 else 0.0


def hertz_normal(delta_n: float, radius: float, modulus: float) -> tuple[float, float]:
    """Hertz's sphere contact: ``(N, a) = (4/3 E* sqrt(R*) delta_n^(3/2), sqrt(R* delta_n))``."""
    if delta_n <= 0.0:
        return 0.0, 0.0
    a = math.sqrt(radius * delta_n)
    return 4.0 / 3.0 * modulus * a * delta_n, a


def hertz_normal_tangent(a: float, modulus: float) -> float:
    """``dN/d(delta_n) = 2 E* a``."""
    return 2.0 * modulus * a


def hertz_normal_energy(delta_n: float, radius: float, modulus: float) -> float:
    """``U = 8/15 E* sqrt(R*) delta_n^(5/2)`` (0 when open)."""
    if delta_n <= 0.0:
        return 0.0
    return 8.0 / 15.0 * modulus * math.sqrt(radius) * delta_n * delta_n * math.sqrt(delta_n)


def mindlin_tangential_stiffness(a: float, shear_modulus: float) -> float:
    """Mindlin's incremental stiffness as DEM codes use it: ``kt = 8 G* a``."""
    return 8.0 * shear_modulus * a
