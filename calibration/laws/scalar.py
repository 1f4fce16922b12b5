"""The DEM laws one contact at a time: plain functions of floats, ``math`` only.

These are the laws a time-stepping DEM code calls once per contact and step, written so that a
compiler for numerical Python (numba's ``njit``, which the ``dem`` package applies when numba is
installed) can compile them unchanged, and so that they run as ordinary Python without it. They
compute the same quantities as the vectorised laws of :mod:`hertz2d.calibration.laws.hertz2d`,
:mod:`hertz2d.calibration.laws.sphere`, :mod:`hertz2d.calibration.laws.linear` and
:mod:`hertz2d.calibration.laws.incremental` (the tests cross-check them to 1e-12 on random inputs):

- the paper's simplified model (Section 3.3, Table 1): the normal force of Eqs. 4 + 23 solved
  exactly by Lambert's W function (:func:`hertz2d_root`, :mod:`hertz2d.calibration.laws.lambert_w`), kn of
  Eq. 29, kt of Eq. 31 with a penalty factor of Eq. 33's polynomial form (six coefficients, a
  constant w is ``(w, 0, 0, 0, 0, 0)``), the Coulomb-capped update of Eq. 32 with the step's
  increment integrated by the trapezoidal rule (:func:`step_stiffness`, :func:`capped_update`);
- the linear spring (Cundall and Strack): ``N = kn delta_n``, constant kt;
- Hertz-Mindlin of spheres as 2D codes apply it to discs: ``N = 4/3 E* sqrt(R*) delta_n^(3/2)``,
  ``kt = 8 G* a``.

Two bodies of different materials: the 2D laws weigh body i's bracket with omega_i
(:attr:`hertz2d.calibration.laws.ContactPair.bracket_weights`; :func:`pair_weights` gives the per-body
form's ``2 s_i``, the composite form of Eqs. 23/31 is omega = (1, 1), and bodies of one material,
walls included, have omega = (1, 1) in both). Since omega1 + omega2 = 2 either way, the normal
law only changes through ``C = omega1 log(4 R1) + omega2 log(4 R2) - 1`` (``log(16 R1 R2) - 1`` for
omega = 1). Every function that needs them takes ``omega1, omega2`` last, default 1.

Every function takes the quantities of the *pair*: two discs, or a disc and its mirror image when
the counterpart is a rigid wall (Section 3.2; the caller doubles the disc-to-wall displacements,
as :meth:`hertz2d.calibration.laws.ContactPair.pair_displacement` does). For each normal law there is also
its tangent stiffness ``dN/d(delta_n)`` (for dashpots, servo gains and time-step estimates) and its
potential ``U(delta_n) = int N d(delta_n)`` (for energy balances and impact integrals).
Forces per unit thickness (N/m), displacements in m, energies in J/m.
"""
from __future__ import annotations

import math

from hertz2d.calibration.laws.normal_table import normal_root

#: log(2), of Eq. 31's half-space term log(2R/a) = log(4R/a) - log(2)
LOG_2 = 0.6931471805599453


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


def hertz2d_normal_constant(R1: float, R2: float, omega1: float = 1.0,
                            omega2: float = 1.0) -> float:
    """``C = omega1 log(4 R1) + omega2 log(4 R2) - 1`` of the normal law ``4 R* delta_n =
    x (C - log x)``, x = a^2 (Eqs. 4 + 22/23; ``log(16 R1 R2) - 1`` for omega = 1)."""
    return omega1 * math.log(4.0 * R1) + omega2 * math.log(4.0 * R2) - 1.0


def hertz2d_max_approach(R1: float, R2: float, omega1: float = 1.0,
                         omega2: float = 1.0) -> float:
    """The largest approach for which Eqs. 4 + 23 (or 22) have a solution: ``e^(C-1)/(4 R*)``,
    ``4 (R1 + R2)/e^2`` for omega = (1, 1)."""
    return (math.exp(hertz2d_normal_constant(R1, R2, omega1, omega2) - 1.0) * (R1 + R2)
            / (4.0 * R1 * R2))


def hertz2d_root(delta_n: float, radius: float, exp_minus_C: float) -> float:
    """``u = C - log(a^2)`` at the approach ``delta_n > 0``: Eqs. 4 + 22/23 solved exactly.

    ``4 R* delta_n = x (C - log x)`` with ``x = e^(C - u)`` is ``u e^(-u) = 4 R* delta_n e^(-C)``,
    so ``u = -W_{-1}(-4 R* delta_n e^(-C))`` (the lower branch, u > 1: the admissible root left of
    the maximum at u = 1), from the table of :func:`hertz2d.calibration.laws.normal_table.normal_root`
    (W_{-1} outside it). ``radius`` is R*, ``exp_minus_C`` e^(-C) of
    :func:`hertz2d_normal_constant` (a caller with many contacts computes it once per pair). Then
    ``a^2 = 4 R* delta_n / u``, Eq. 29's ``kn = pi E* / u`` and ``N = kn delta_n``. NaN at and
    beyond the largest approach (:func:`hertz2d_max_approach`, where the argument reaches -1/e and
    u = 1: the tangent stiffness ``pi E*/(u - 1)`` is infinite there).
    """
    u = normal_root(4.0 * radius * delta_n * exp_minus_C)
    return u if u > 1.0 else math.nan


def hertz2d_normal(delta_n: float, R1: float, R2: float, modulus: float, omega1: float = 1.0,
                   omega2: float = 1.0) -> tuple[float, float]:
    """``(N, a)`` of Eqs. 4 + 23 at the approach ``delta_n`` (:func:`hertz2d_root`); (0, 0) when
    open, NaNs beyond the largest approach."""
    if delta_n <= 0.0:
        return 0.0, 0.0
    radius = R1 * R2 / (R1 + R2)
    u = hertz2d_root(delta_n, radius,
                     math.exp(-hertz2d_normal_constant(R1, R2, omega1, omega2)))
    return math.pi * modulus * delta_n / u, math.sqrt(4.0 * radius * delta_n / u)


def hertz2d_normal_stiffness(a: float, R1: float, R2: float, modulus: float,
                             omega1: float = 1.0, omega2: float = 1.0) -> float:
    """Eq. 29, the secant ``kn = N/delta_n = pi E* / sum_i omega_i [log(4R_i/a) - 1/2]``
    ``= pi E* / (C - 2 log a)`` (0 if open)."""
    if a <= 0.0:
        return 0.0
    return math.pi * modulus / (hertz2d_normal_constant(R1, R2, omega1, omega2)
                                - 2.0 * math.log(a))


def hertz2d_normal_tangent(a: float, R1: float, R2: float, modulus: float,
                           omega1: float = 1.0, omega2: float = 1.0) -> float:
    """``dN/d(delta_n) = pi E* / (C - 2 log a - 1)`` (Eqs. 4 + 23 differentiated in ``x = a^2``:
    ``dN/dx = pi E*/(4R*)``, ``d(delta_n)/dx = (C - 1 - log x)/(4R*)``); 0 if open."""
    if a <= 0.0:
        return 0.0
    return math.pi * modulus / (hertz2d_normal_constant(R1, R2, omega1, omega2)
                                - 2.0 * math.log(a) - 1.0)


def hertz2d_normal_energy(a: float, R1: float, R2: float, modulus: float,
                          omega1: float = 1.0, omega2: float = 1.0) -> float:
    """``U = int_0^delta_n N d(delta_n) = pi E* x^2 (C - 1/2 - log x) / (32 R*^2)``, ``x = a^2``
    (the same change of variable as :func:`hertz2d_normal_tangent`)."""
    if a <= 0.0:
        return 0.0
    radius = R1 * R2 / (R1 + R2)
    x = a * a
    C = hertz2d_normal_constant(R1, R2, omega1, omega2)
    return math.pi * modulus * x * x * (C - 0.5 - math.log(x)) / (32.0 * radius * radius)


def hertz2d_body_bracket(log_4R_over_a: float, a_over_R: float, nu: float, w) -> float:
    """One body's share of Eq. 31's bracket, ``log(2R/a) + 1/2 + w (log(4R/a) + nu/(2(1 -
    nu)))``, from ``log(4R/a)`` (a caller who has log(a) and log(4R) saves the logarithms).

    ``w`` holds the six coefficients of Eq. 33's form ``w0 + w1 x + w2 nu + w3 x^2 + w4 x nu +
    w5 nu^2`` in ``x = a/R`` (Eq. 33 itself is ``(0.22, 2.89, 0.18, -10.31, 1.75, 0.36)``), its
    value clipped to [0, 1] as :func:`hertz2d.calibration.laws.penalty_factor.bounded` does.
    """
    x = a_over_R
    penalty = w[0] + w[1] * x + w[2] * nu + w[3] * x * x + w[4] * x * nu + w[5] * nu * nu
    penalty = min(max(penalty, 0.0), 1.0)
    return (log_4R_over_a - LOG_2 + 0.5
            + penalty * (log_4R_over_a + nu / (2.0 * (1.0 - nu))))


def hertz2d_tangential_stiffness(a: float, R1: float, R2: float, nu1: float, nu2: float,
                                 modulus: float, w, omega1: float = 1.0,
                                 omega2: float = 1.0) -> float:
    """Eq. 31: ``kt = pi E* / B(a)``, B the omega-weighted sum of both bodies'
    :func:`hertz2d_body_bracket` (0 if open)."""
    if a <= 0.0:
        return 0.0
    log_a = math.log(a)
    return math.pi * modulus / (
        omega1 * hertz2d_body_bracket(math.log(4.0 * R1) - log_a, a / R1, nu1, w)
        + omega2 * hertz2d_body_bracket(math.log(4.0 * R2) - log_a, a / R2, nu2, w))


def hertz2d_contact(delta_n: float, d_delta_t: float, T_previous: float, kt_previous: float,
                    R1: float, R2: float, log_4R1: float, log_4R2: float, exp_minus_C: float,
                    nu1: float, nu2: float, modulus: float, mu: float, w, omega1: float,
                    omega2: float):
    """:func:`hertz2d_update` with the pair's logarithms given: ``log(4 R_i)`` and ``e^(-C)``
    (:func:`hertz2d_normal_constant`), which a DEM code computes once per disc or pair. The
    DEM hot path: one W_{-1} (:func:`hertz2d_root`), a square root and no other logarithm
    (``log a = (C - u)/2``).
    """
    N, a, log_a, k_normal = hertz2d_contact_normal(delta_n, R1, R2, log_4R1, log_4R2,
                                                   exp_minus_C, modulus, omega1, omega2)
    if not N > 0.0:  # open (0) or beyond the largest approach (NaN)
        return N, 0.0, 0.0, 0.0, 0.0, False
    kt = hertz2d_contact_stiffness(a, log_a, R1, R2, log_4R1, log_4R2, nu1, nu2, modulus, w,
                                   omega1, omega2)
    T, slipping = capped_update(T_previous, step_stiffness(kt_previous, kt), d_delta_t, N, mu)
    return N, T, a, k_normal, kt, slipping


#: Gauss-Laguerre nodes and weights (4 points) for ``int_0^inf e^(-x) f(x) dx``
#: (tests/test_dem_laws.py checks them against numpy's ``laggauss``); the approach fractions
#: ``s = e^(-x)`` at the nodes
LAGUERRE_NODES = (0.3225476896193924, 1.7457611011583465, 4.536620296921128, 9.395070912301133)
LAGUERRE_WEIGHTS = (0.6031541043416337, 0.35741869243779956, 0.038887908515005405,
                    0.0005392947055613296)
ENTRY_FRACTIONS = tuple(math.exp(-x) for x in LAGUERRE_NODES)


def hertz2d_entry_stiffness(delta_n: float, R1: float, R2: float, log_4R1: float,
                            log_4R2: float, exp_minus_C: float, nu1: float, nu2: float,
                            modulus: float, w, omega1: float, omega2: float) -> float:
    """Eq. 31's kt averaged over a new contact's first step, in which the approach rises from 0
    to ``delta_n`` linearly in time: ``int_0^1 kt(s delta_n) ds``, the stiffness that integrates
    that step's increment to second order (kt of the step's end alone overestimates it by
    ``gamma/B`` of order 10 %, at every dt: a first-order error). With ``s = e^(-x)`` the
    integrand is nearly ``pi E* / (B + gamma x)`` (``a^2`` grows like s, B falls like log a),
    smooth in x, so Gauss-Laguerre's 4 points (:data:`LAGUERRE_NODES`) give it to about 1e-7
    relative."""
    total = 0.0
    for k in range(4):
        _, a, log_a, _ = hertz2d_contact_normal(ENTRY_FRACTIONS[k] * delta_n, R1, R2, log_4R1,
                                                log_4R2, exp_minus_C, modulus, omega1, omega2)
        total += LAGUERRE_WEIGHTS[k] * math.pi * modulus / (
            omega1 * hertz2d_body_bracket(log_4R1 - log_a, a / R1, nu1, w)
            + omega2 * hertz2d_body_bracket(log_4R2 - log_a, a / R2, nu2, w))
    return total


def hertz2d_contact_normal(delta_n: float, R1: float, R2: float, log_4R1: float, log_4R2: float,
                           exp_minus_C: float, modulus: float, omega1: float, omega2: float):
    """The normal part of :func:`hertz2d_contact` (the DEM laws built on Eqs. 4 + 22/23 share
    it): ``(N, a, log a, k_normal)`` at the approach ``delta_n`` from one W_{-1}
    (:func:`hertz2d_root`) and a square root, ``log a = (C - u)/2`` and the tangent stiffness
    ``pi E*/(u - 1)`` (:func:`hertz2d_normal_tangent`); zeros when open, N NaN beyond the
    largest approach."""
    if delta_n <= 0.0:
        return 0.0, 0.0, 0.0, 0.0
    radius = R1 * R2 / (R1 + R2)
    u = hertz2d_root(delta_n, radius, exp_minus_C)
    if math.isnan(u):
        return math.nan, 0.0, 0.0, 0.0
    return hertz2d_normal_of_root(u, delta_n, radius, log_4R1, log_4R2, modulus, omega1, omega2)


def hertz2d_normal_of_root(u: float, delta_n: float, radius: float, log_4R1: float,
                           log_4R2: float, modulus: float, omega1: float, omega2: float):
    """:func:`hertz2d_contact_normal` from the root ``u = C - log(a^2) > 1`` of Eqs. 4 + 22/23
    at the approach ``delta_n > 0`` (:func:`hertz2d_root`), R* = ``radius``: Eq. 29's ``N =
    pi E* delta_n / u``, ``a = sqrt(4 R* delta_n / u)``, ``log a = (C - u)/2`` and the tangent
    stiffness ``pi E*/(u - 1)``. A DEM loop that finds u for many contacts at once calls it with
    each."""
    scale = math.pi * modulus
    return (scale * delta_n / u, math.sqrt(4.0 * radius * delta_n / u),
            0.5 * (omega1 * log_4R1 + omega2 * log_4R2 - 1.0 - u), scale / (u - 1.0))


def hertz2d_contact_stiffness(a: float, log_a: float, R1: float, R2: float, log_4R1: float,
                              log_4R2: float, nu1: float, nu2: float, modulus: float, w,
                              omega1: float, omega2: float) -> float:
    """Eq. 31's ``kt = pi E* / B(a)`` (:func:`hertz2d_tangential_stiffness`) from the
    half-width, its logarithm and the pair's ``log(4 R_i)``: no logarithm."""
    return math.pi * modulus / (omega1 * hertz2d_body_bracket(log_4R1 - log_a, a / R1, nu1, w)
                                + omega2 * hertz2d_body_bracket(log_4R2 - log_a, a / R2, nu2, w))


def hertz2d_update(delta_n: float, d_delta_t: float, T_previous: float, kt_previous: float,
                   R1: float, R2: float, nu1: float, nu2: float, modulus: float, mu: float, w,
                   omega1: float = 1.0, omega2: float = 1.0):
    """Table 1 for one contact and step (the scalar counterpart of
    :func:`hertz2d.calibration.laws.simplified_update`).

    Returns ``(N, T, a, k_normal, kt, slipping)``: Eqs. 4 + 23 solved exactly
    (:func:`hertz2d_root`), kt of Eq. 31, Eq. 32 with the step's increment integrated by the
    trapezoidal rule (:func:`step_stiffness` of ``kt_previous``, the previous step's kt, 0 for a
    new contact) and capped, the tangent normal stiffness (:func:`hertz2d_normal_tangent`) and
    whether the cap acted; zeros when open, N NaN beyond the largest approach.
    """
    C = hertz2d_normal_constant(R1, R2, omega1, omega2)
    return hertz2d_contact(delta_n, d_delta_t, T_previous, kt_previous, R1, R2,
                           math.log(4.0 * R1), math.log(4.0 * R2), math.exp(-C), nu1, nu2,
                           modulus, mu, w, omega1, omega2)


def step_stiffness(kt_previous: float, kt: float) -> float:
    """The stiffness of one step of Eq. 32, ``(kt_previous + kt)/2``: the increment integrated by
    the trapezoidal rule, second order in the step where kt varies (kt at the step's end alone
    is first order). A new contact (``kt_previous`` 0) takes its own kt; a constant kt is kept
    exactly (as :func:`hertz2d.calibration.laws.incremental.step_stiffness`)."""
    return 0.5 * (kt_previous + kt) if kt_previous > 0.0 else kt


def capped_update(T_previous: float, kt: float, d_delta_t: float, N: float,
                  mu: float) -> tuple[float, bool]:
    """Eq. 32 capped both ways: ``T = clip(T0 + kt d(delta_t), -mu N, mu N)``, 0 while open,
    with ``kt`` the step's stiffness; and whether the cap acted (as
    :func:`hertz2d.calibration.laws.incremental.capped_update`)."""
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
