"""The paper's 2D Hertzian frictional contact law: closed forms, the accurate and simplified models.

Both bodies' displacements are weighed by the pair's bracket weights ``omega_i``
(:attr:`ContactPair.bracket_weights`: ``2 s_i`` in the default per-body form, 1 in the composite
form of the printed Eqs. 23-31; ``omega_1 + omega_2 = 2`` in both):

- normal (Eqs. 22/23, 29): ``delta_n = N/(pi E*) sum_i omega_i [log(4 R_i/a) - 1/2]`` with a from
  Eq. 4, which is Eq. 22 (per-body) or Eq. 23 (composite);
- tangential (Eqs. 25-27, 31): ``B(x) = sum_i omega_i [log(2 R_i/x) + 1/2 + w_i (log(4 R_i/x) +
  nu_i/(2(1 - nu_i)))]`` with ``w_i = w(x/R_i, nu_i)``, the bracket of Eq. 20 per body.

Normal law. With ``a^2 = 4 N R*/(pi E*)`` (Eq. 4) the normal law becomes
``4 R* delta_n = x (C - log x)`` in ``x = a^2``, ``C = sum_i omega_i log(4 R_i) - 1`` (composite:
``log(16 R1 R2) - 1``). Its right side rises to a maximum at ``x = e^(C-1)`` and falls after it, so
the law is defined for ``delta_n < e^(C-1)/(4 R*)`` (:func:`max_normal_approach`; composite:
``4 (R1 + R2)/e^2``, about 0.54 (R1 + R2); per-body: the same with ``16 R1 R2`` replaced by the
weighted geometric mean ``(4 R1)^(2 s1) (4 R2)^(2 s2)``; beyond, the contact would be wider than
the discs). :func:`normal_force` solves it exactly: with ``u = C - log x`` it reads
``u e^(-u) = 4 R* delta_n e^(-C)``, whose root left of the maximum (u > 1) is
``u = -W_{-1}(-4 R* delta_n e^(-C))``, Lambert's W on its lower branch, read off a table of
polynomials for the approaches of real contacts (:mod:`hertz2d.calibration.laws.normal_table`, within a
proven 2.2e-16) and from :mod:`hertz2d.calibration.laws.lambert_w` elsewhere (4e-16); then
``x = 4 R* delta_n / u`` and ``N = pi E* delta_n / u`` (Eq. 29's kn is ``pi E* / u``).

Tangential law:

- accurate model (Section 3.1) at constant N: ``delta_t = mu N/(pi E*) [B(a) - (c/a)^2 B(c)]``
  (Eqs. 24-26) with ``c = a sqrt(1 - T/(mu N))`` (Eq. 7), full slip at ``delta_t = mu N B(a)/(pi E*)``
  (Eq. 27); :func:`accurate_tangential_force` inverts it by bisection in c/a (it is monotone while
  a/R_i <= 0.3 for both bodies, :data:`ACCURATE_MAX_A_OVER_R`, in either form since the weights
  are positive, and refuses wider contacts);
- simplified model (Section 3.3, Table 1): ``kt = pi E*/B(a)`` (Eq. 31), ``T = T0 + kt d(delta_t)``
  capped at ``|T| <= mu N`` (Eq. 32, :mod:`hertz2d.calibration.laws.incremental`), the step's kt the mean
  of its two ends' (the increment integrated by the trapezoidal rule: second order in the step).

For a dissimilar pair the forms differ by ``(s1 - s2)(b1 - b2)`` in the bracket (b_i body i's own
bracket): for R = 0.3/0.7 m, E = 10/70 GPa, nu = 0.2/0.35 the per-body approach at a given N is
6.2-9.9 % and the full-slip displacement 6.8-8.7 % smaller than the composite one over a/R1 =
0.02-0.14 (tests/test_laws_dissimilar.py).

Forces per unit thickness (N/m), displacements in m. Composite E*, R* as in Eqs. 5-6.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.base import ContactLaw, law_table
from hertz2d.calibration.laws.incremental import capped_history, capped_update, step_stiffness
from hertz2d.calibration.laws.normal_table import normal_root_array
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33, bounded
from hertz2d.calibration.laws.closed_forms import half_space_bracket, penalty_bracket
from hertz2d.checks.loadpath import LoadPath
from hertz2d.checks import InputError

#: bisection steps of the accurate model's inverse (c/a to 2^-60)
BISECTIONS = 60
#: widest contact (a / smaller radius) the accurate model accepts: with Eq. 33's w, Eqs. 24-26 stop
#: being monotone in T near a/R = 0.35 (Eq. 33 itself is fitted on a/R <= 0.15)
ACCURATE_MAX_A_OVER_R = 0.3


def half_width(pair: ContactPair, N) -> np.ndarray:
    """Eq. 4: ``a = sqrt(4 N R* / (pi E*))``."""
    return np.sqrt(4.0 * np.asarray(N, float) * pair.radius / (np.pi * pair.modulus))


def normal_approach(pair: ContactPair, N) -> np.ndarray:
    """Eq. 22 (per-body) or 23 (composite):
    ``delta_n = N/(pi E*) sum_i omega_i [log(4R_i/a) - 1/2]``, a from Eq. 4 (0 at N = 0)."""
    N = np.asarray(N, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        approach = N / normal_stiffness(pair, half_width(pair, N))  # Eq. 29 is its secant
    return np.where(N > 0, approach, 0.0)


def _normal_constant(pair: ContactPair) -> np.ndarray:
    """``C = sum_i omega_i log(4 R_i) - 1`` of ``4 R* delta_n = x (C - log x)``, x = a^2."""
    omega1, omega2 = pair.bracket_weights
    return omega1 * np.log(4.0 * pair.R1) + omega2 * np.log(4.0 * pair.R2) - 1.0


def max_normal_approach(pair: ContactPair) -> np.ndarray:
    """The largest approach for which the normal law has a solution: ``e^(C-1)/(4 R*)``
    (composite form: ``4 (R1 + R2)/e^2``)."""
    return np.exp(_normal_constant(pair) - 1.0) / (4.0 * pair.radius)


def normal_force(pair: ContactPair, delta_n) -> tuple[np.ndarray, np.ndarray]:
    """The normal force and half-width from the approach: Eq. 4 with Eq. 22 (or 23) solved
    together, exactly (module docstring).

    Parameters
    ----------
    pair : ContactPair
        The bodies.
    delta_n : float or array_like
        The approach of the pair (m, compression positive).

    Returns
    -------
    N : numpy.ndarray
        The normal force (N/m); 0 where ``delta_n <= 0``.
    a : numpy.ndarray
        The contact half-width (m); 0 where ``delta_n <= 0``.
    """
    delta_n = np.asarray(delta_n, float)
    limit = max_normal_approach(pair)
    too_far = delta_n >= limit
    if np.any(too_far):
        index = np.flatnonzero(np.broadcast_to(too_far, np.broadcast(delta_n, limit).shape))[0]
        value = np.broadcast_to(delta_n, too_far.shape).ravel()[index]
        bound = np.broadcast_to(limit, too_far.shape).ravel()[index]
        raise InputError(f"delta_n={float(value)!r} is beyond the largest approach of the normal "
                         f"law ({pair.form} form), {bound:.6g}")
    touching = delta_n > 0
    D = 4.0 * pair.radius * np.where(touching, delta_n, 0.0)
    # open contacts take a stand-in argument in the domain and are zeroed below
    u = normal_root_array(np.where(touching, D * np.exp(-_normal_constant(pair)), 0.1))
    a = np.where(touching, np.sqrt(D / u), 0.0)
    N = np.where(touching, np.pi * pair.modulus * delta_n / u, 0.0)
    return N, a


def normal_stiffness(pair: ContactPair, a) -> np.ndarray:
    """Eq. 29 (with the pair's weights): ``kn = pi E* / sum_i omega_i [log(4R_i/a) - 1/2]``
    (secant, N = kn delta_n; 0 if open)."""
    a = np.asarray(a, float)
    omega1, omega2 = pair.bracket_weights
    with np.errstate(divide="ignore"):
        stiffness = np.pi * pair.modulus / (omega1 * (np.log(4.0 * pair.R1 / a) - 0.5)
                                            + omega2 * (np.log(4.0 * pair.R2 / a) - 0.5))
    return np.where(a > 0, stiffness, 0.0)


def tangential_bracket(pair: ContactPair, x, penalty=EQ33) -> np.ndarray:
    """``B(x)`` of Eqs. 25, 26, 31: the bodies' Eq. 20 brackets at half-width x, weighed by
    omega_i."""
    x = np.asarray(x, float)
    total = 0.0
    for omega, R, nu in zip(pair.bracket_weights, (pair.R1, pair.R2), (pair.nu1, pair.nu2)):
        w = bounded(penalty, x / R, nu)
        total = total + omega * (half_space_bracket(R, x) + w * penalty_bracket(R, x, nu))
    return total


def tangential_stiffness(pair: ContactPair, a, penalty=EQ33) -> np.ndarray:
    """Eq. 31: ``kt = pi E* / B(a)`` (0 where the contact is open)."""
    a = np.asarray(a, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        stiffness = np.pi * pair.modulus / tangential_bracket(pair, a, penalty)
    return np.where(a > 0, stiffness, 0.0)


def full_slip_displacement(pair: ContactPair, N, a, penalty=EQ33) -> np.ndarray:
    """Eq. 27: ``delta_t(a) = mu N / (pi E*) B(a)``, the tangential displacement at full slip.

    Parameters
    ----------
    pair : ContactPair
        The bodies.
    N, a : float or array_like
        The normal force (N/m) and the contact half-width (m), as :func:`normal_force` gives.
    penalty : PolynomialPenalty or ConstantPenalty, optional
        The penalty factor w (Eq. 33 by default).

    Returns
    -------
    numpy.ndarray
        The pair's tangential displacement at the onset of full slip (m).
    """
    return pair.mu * np.asarray(N, float) / (np.pi * pair.modulus) * tangential_bracket(
        pair, a, penalty)


def pressure(x, N, a) -> np.ndarray:
    """Eq. 1: ``p = 2N/(pi a) sqrt(1 - x^2/a^2)`` (0 outside the contact)."""
    return 2.0 * N / (np.pi * a) * np.sqrt(np.clip(1.0 - (np.asarray(x) / a) ** 2, 0.0, None))


def shear_traction(x, N, a, c, mu) -> np.ndarray:
    """Eq. 2 (Cattaneo-Mindlin): ``mu p(x)`` less ``(c/a) mu p_c(x)`` in the stick zone
    ``|x| < c``."""
    stick = mu * pressure(x, N * (c / a) ** 2, c) if c > 0 else 0.0  # (c/a) mu p_c, Eq. 1 on c
    return mu * pressure(x, N, a) - stick


def stick_half_width(N, T, a, mu) -> np.ndarray:
    """Eq. 7: ``c = a sqrt(1 - T/(mu N))``."""
    return np.asarray(a, float) * np.sqrt(np.clip(1.0 - np.asarray(T) / (mu * np.asarray(N)),
                                                  0.0, 1.0))


def _check_accurate_domain(pair: ContactPair, a) -> None:
    widest = np.max(np.asarray(a) / np.minimum(pair.R1, pair.R2), initial=0.0)
    if widest > ACCURATE_MAX_A_OVER_R:
        raise InputError(f"a/R={widest:.3g} is beyond the accurate model's range "
                         f"(a/R <= {ACCURATE_MAX_A_OVER_R}, where Eqs. 24-26 are monotone in T)")


def _stick_zone_term(pair: ContactPair, N, a, ratio, penalty) -> np.ndarray:
    """What the stick zone ``c = ratio a`` takes off Eq. 27 (Eqs. 24-26):
    ``delta_t = delta_su - mu N/(pi E*) ratio^2 B(ratio a)``."""
    ratio = np.asarray(ratio, float)
    c = ratio * a
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = np.where(c > 0, ratio**2 * tangential_bracket(pair, np.where(c > 0, c, 1.0),
                                                              penalty), 0.0)
    return pair.mu * N / (np.pi * pair.modulus) * inner


def accurate_tangential_displacement(pair: ContactPair, N, T, penalty=EQ33) -> np.ndarray:
    """Eqs. 24-27: the tangential displacement at a tangential force, at constant normal force.

    Parameters
    ----------
    pair : ContactPair
        The bodies.
    N : float or array_like
        The normal force (N/m).
    T : float or array_like
        The tangential force (N/m), ``0 <= T <= mu N``, from a first loading.
    penalty : PolynomialPenalty or ConstantPenalty, optional
        The penalty factor w (Eq. 33 by default).

    Returns
    -------
    numpy.ndarray
        The pair's tangential displacement (m).
    """
    N, T = np.asarray(N, float), np.asarray(T, float)
    if np.any(T < 0) or np.any(T > pair.mu * N * (1 + 1e-12)):
        raise InputError("T must lie in [0, mu N] for the accurate model (monotonic loading)")
    a = half_width(pair, N)
    _check_accurate_domain(pair, a)
    ratio = stick_half_width(N, T, a, pair.mu) / a  # Eq. 7
    return full_slip_displacement(pair, N, a, penalty) - _stick_zone_term(pair, N, a, ratio,
                                                                          penalty)


def accurate_tangential_force(pair: ContactPair, N, delta_t, penalty=EQ33):
    """Inverse of Eqs. 24-27 at constant N: the tangential force at a tangential displacement.

    ``delta_t(c/a)`` falls monotonically from the full-slip value at c = 0 to 0 at c = a, so the
    root is found by bisection in c/a; beyond Eq. 27, T = mu N and c = 0. T follows from c by
    Eq. 3, ``T = mu N (1 - (c/a)^2)``.

    Parameters
    ----------
    pair : ContactPair
        The bodies.
    N : float or array_like
        The normal force, held constant (N/m).
    delta_t : float or array_like
        The tangential displacement of the pair (m), >= 0, from a first loading.
    penalty : PolynomialPenalty or ConstantPenalty, optional
        The penalty factor w (Eq. 33 by default).

    Returns
    -------
    T : numpy.ndarray
        The tangential force (N/m).
    c : numpy.ndarray
        The stick zone's half-width (m), 0 in full slip.
    """
    N, delta_t = np.broadcast_arrays(np.asarray(N, float), np.asarray(delta_t, float))
    a = half_width(pair, N)
    _check_accurate_domain(pair, a)
    full_slip = full_slip_displacement(pair, N, a, penalty)
    low, high = np.zeros_like(N), np.ones_like(N)  # c/a
    for _ in range(BISECTIONS):
        middle = 0.5 * (low + high)
        beyond = full_slip - _stick_zone_term(pair, N, a, middle, penalty) > delta_t
        low, high = np.where(beyond, middle, low), np.where(beyond, high, middle)
    ratio = np.where(delta_t <= 0, 1.0, 0.5 * (low + high))
    return pair.mu * N * (1.0 - ratio**2), ratio * a


@dataclass(frozen=True)
class SimplifiedState:
    """One update of the simplified model for a batch of contacts."""

    N: np.ndarray
    T: np.ndarray
    a: np.ndarray
    kn: np.ndarray
    kt: np.ndarray
    #: True where the Coulomb cap acted
    slipping: np.ndarray


def simplified_update(pair: ContactPair, delta_n, d_delta_t, T_previous, penalty=EQ33,
                      a_previous=0.0) -> SimplifiedState:
    """Table 1 for a batch of contacts: the DEM hot path, vectorised over contacts.

    Eq. 32 takes the step's increment with kt integrated by the trapezoidal rule,
    ``(kt(a_previous) + kt(a))/2`` (:func:`~hertz2d.calibration.laws.incremental.step_stiffness`): second
    order in the step, where kt of the step's end alone would be first order.

    Parameters
    ----------
    pair : ContactPair
        The bodies (scalars, or one entry per contact); a wall is
        :meth:`ContactPair.disc_on_wall <hertz2d.calibration.laws.pair.ContactPair.disc_on_wall>`.
    delta_n : float or array_like
        The current approach (m), of the disc relative to the other body (doubled internally for
        a wall); <= 0 is an open contact.
    d_delta_t : float or array_like
        This step's tangential displacement increment (m), likewise.
    T_previous : float or array_like
        The tangential force of the previous step (N/m): the contact's history.
    penalty : PolynomialPenalty or ConstantPenalty, optional
        The penalty factor w (Eq. 33 by default).
    a_previous : float or array_like, optional
        The half-width of the previous step (m); 0 for a new contact, which takes its own kt.

    Returns
    -------
    SimplifiedState
        N, T (N/m), a (m), kn and kt (N/m per m) and ``slipping`` (where the Coulomb cap acted),
        one entry per contact. Keep ``T`` and ``a`` for the next step.
    """
    N, a = normal_force(pair, pair.pair_displacement(delta_n))
    kn, kt = normal_stiffness(pair, a), tangential_stiffness(pair, a, penalty)
    kt_step = step_stiffness(tangential_stiffness(pair, a_previous, penalty), kt)
    T, slipping = capped_update(T_previous, kt_step, pair.pair_displacement(d_delta_t), N,
                                pair.mu)
    return SimplifiedState(N, T, a, kn, kt, slipping)


class SimplifiedModel(ContactLaw):
    """The paper's simplified model for DEM (Table 1) with a chosen penalty factor."""

    name = "simplified"
    #: kt follows N (Eq. 31 through a): a loop that loads T where N is high and unloads it where
    #: N is low returns more work than it took (the incremental laws' known energy creation)
    admissible = False

    def __init__(self, pair: ContactPair, penalty=EQ33):
        self.pair, self.penalty = pair, penalty

    @property
    def label(self) -> str:
        return f"simplified, {self.penalty.label}"

    def _run(self, path: LoadPath) -> pd.DataFrame:
        pair = self.pair
        N, a = normal_force(pair, pair.pair_displacement(path.delta_n))
        kt = tangential_stiffness(pair, a, self.penalty)
        T, slipping = capped_history(pair.pair_displacement(path.delta_t), N, kt, pair.mu)
        slip = np.where(N <= 0, "open", np.where(slipping, "full", "stick"))
        return law_table(path, N=N, T=T, a=a, kn=normal_stiffness(pair, a), kt=kt, slip=slip)


class AccurateModel(ContactLaw):
    """The paper's accurate model (Eqs. 22-27): partial slip at constant N, full slip at Eq. 27.

    It is derived for a tangential force rising monotonically at constant normal force, so it runs
    ``hold-normal`` paths only: the normal stage by Eq. 23, the tangential stage by the inverse of
    Eqs. 24-26, and T = mu N (c = 0) once delta_t passes Eq. 27. ``kt`` is the secant T/delta_t
    (the paper's Fig. 13). The finite slide after full slip is Appendix C's. It takes no closed
    path (a reversal or a varying N is outside its derivation): its extension to any path, with
    Masing's rule and memory, is :class:`~hertz2d.calibration.laws.memory.AccurateMemoryModel`, which the
    admissibility tests judge in its place.
    """

    name = "accurate"
    paths = ("hold-normal",)

    def __init__(self, pair: ContactPair, penalty=EQ33):
        self.pair, self.penalty = pair, penalty

    @property
    def label(self) -> str:
        return f"accurate, {self.penalty.label}"

    def _run(self, path: LoadPath) -> pd.DataFrame:
        pair = self.pair
        N, a = normal_force(pair, pair.pair_displacement(path.delta_n))
        delta_t = pair.pair_displacement(path.delta_t)
        T, c = accurate_tangential_force(pair, N, delta_t, self.penalty)
        with np.errstate(divide="ignore", invalid="ignore"):
            secant = np.where(delta_t > 0, T / delta_t,
                              tangential_stiffness(pair, a, self.penalty))
        full = T >= pair.mu * N * (1 - 1e-12)
        slip = np.where(N <= 0, "open", np.where(delta_t <= 0, "stick",
                                                 np.where(full, "full", "partial")))
        return law_table(path, N=N, T=T, a=a, c=c, kn=normal_stiffness(pair, a), kt=secant,
                         slip=slip)
