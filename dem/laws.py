"""The contact laws as the engine runs them: a law code, a parameter vector and one compiled kernel.

Every law comes from the law library's scalar kernels (:mod:`calibration.laws.scalar`, compiled
by :mod:`dem.jit`); this module only chooses among them per contact:

- ``simplified``: the paper's Table 1 (Eqs. 4 + 23 by Newton warm-started from the previous
  step's half-width, kt of Eq. 31 with a penalty factor of Eq. 33's form, the capped Eq. 32);
- ``linear``: the linear spring (kn, kt constant, Coulomb cap);
- ``hertz-mindlin``: Hertz's sphere force with Mindlin's incremental kt = 8 G* a, as 2D codes
  apply it to discs.

One material for every disc (E, nu); a wall is the disc's mirror image (Section 3.2), so every
contact is a *pair* for the law: the engine passes the pair's approach and tangential increment
(twice the disc-to-wall ones for a wall) and applies the pair's force to the disc. For the linear
spring this makes a wall contact twice as stiff as a disc-disc contact (kn is the stiffness of two
discs in series, each disc-wall contact is one disc against a rigid mirror plane); codes that give
walls the disc-disc kn (LAMMPS's ``wall/gran``, PFC) match it with 2 kn, 2 kt on the walls.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.laws import ConstantPenalty, PolynomialPenalty
from calibration.laws import scalar
from calibration.laws.penalty_factor import EQ33
from dem.jit import compile_functions, njit
from checks import InputError, non_negative, poisson, positive

kernels = compile_functions(scalar)
_hertz2d_update = kernels.hertz2d_update
_hertz2d_normal_stiffness = kernels.hertz2d_normal_stiffness
_hertz2d_normal_energy = kernels.hertz2d_normal_energy
_capped_update = kernels.capped_update
_linear_normal = kernels.linear_normal
_linear_normal_energy = kernels.linear_normal_energy
_hertz_normal = kernels.hertz_normal
_hertz_normal_tangent = kernels.hertz_normal_tangent
_hertz_normal_energy = kernels.hertz_normal_energy
_mindlin_tangential_stiffness = kernels.mindlin_tangential_stiffness

#: law codes
SIMPLIFIED, LINEAR, HERTZ_MINDLIN = 0, 1, 2
#: the parameter vector: E*, G*, nu, mu, kn, kt, then the six penalty coefficients
MODULUS, SHEAR_MODULUS, POISSON, FRICTION, KN, KT, PENALTY = 0, 1, 2, 3, 4, 5, 6
PARAMETERS = PENALTY + 6
NAMES = ("simplified", "linear", "hertz-mindlin")


def penalty_coefficients(penalty) -> tuple[float, ...]:
    """The six coefficients of Eq. 33's form for a penalty factor of the law library."""
    if isinstance(penalty, PolynomialPenalty):
        return tuple(float(c) for c in penalty.coefficients)
    if isinstance(penalty, ConstantPenalty):
        return (float(penalty.value), 0.0, 0.0, 0.0, 0.0, 0.0)
    raise InputError(f"penalty={penalty!r} is neither Eq. 33's polynomial form nor a constant")


@dataclass(frozen=True)
class Law:
    """A contact law for the engine: ``code`` (:data:`SIMPLIFIED`, ...) and its ``parameters``."""

    code: int
    parameters: np.ndarray
    label: str

    @property
    def name(self) -> str:
        return NAMES[self.code]

    @property
    def friction(self) -> float:
        return float(self.parameters[FRICTION])

    @classmethod
    def _build(cls, code, label, E=1.0, nu=0.0, mu=0.0, kn=0.0, kt=0.0,
               penalty=(0.0,) * 6) -> "Law":
        parameters = np.zeros(PARAMETERS)
        parameters[MODULUS] = scalar.pair_modulus(E, nu, E, nu)
        parameters[SHEAR_MODULUS] = scalar.pair_shear_modulus(E, nu, E, nu)
        parameters[POISSON], parameters[FRICTION] = nu, mu
        parameters[KN], parameters[KT] = kn, kt
        parameters[PENALTY:] = penalty
        parameters.setflags(write=False)
        return cls(code, parameters, label)

    @classmethod
    def simplified(cls, E: float, nu: float, mu: float, penalty=EQ33) -> "Law":
        """The paper's simplified model (Table 1) with ``penalty`` (Eq. 33, a refit, a constant)."""
        positive("E", E), poisson("nu", nu), non_negative("mu", mu)
        label = f"simplified, {penalty.label}"
        return cls._build(SIMPLIFIED, label, E, nu, mu, penalty=penalty_coefficients(penalty))

    @classmethod
    def linear(cls, kn: float, kt: float, mu: float) -> "Law":
        """The linear spring: normal and tangential stiffness of a disc pair, N/m per m."""
        positive("kn", kn), positive("kt", kt), non_negative("mu", mu)
        return cls._build(LINEAR, f"linear spring (kn {kn:.3g}, kt {kt:.3g})", mu=mu, kn=kn,
                          kt=kt)

    @classmethod
    def hertz_mindlin(cls, E: float, nu: float, mu: float) -> "Law":
        """Hertz-Mindlin of spheres applied to discs (forces read as N/m)."""
        positive("E", E), poisson("nu", nu), non_negative("mu", mu)
        return cls._build(HERTZ_MINDLIN, "3D Hertz-Mindlin on discs", E, nu, mu)


@njit
def pair_update(code, p, delta_n, d_delta_t, T_previous, a_previous, R1, R2):
    """One step of one contact pair.

    Returns ``(N, T, a, k_normal, kt, slipping)``: the normal and tangential force, the
    contact half-width (0 for the linear spring), the tangent normal stiffness dN/d(delta_n),
    the tangential stiffness and whether the Coulomb cap acted. N is NaN where the law fails
    (beyond the largest approach of Eq. 23).
    """
    if code == SIMPLIFIED:
        nu = p[POISSON]
        penalty = (p[PENALTY], p[PENALTY + 1], p[PENALTY + 2], p[PENALTY + 3], p[PENALTY + 4],
                   p[PENALTY + 5])  # a tuple of values: a slice would be a reference-counted view
        return _hertz2d_update(delta_n, d_delta_t, T_previous, a_previous, R1, R2, nu, nu,
                               p[MODULUS], p[FRICTION], penalty)
    if code == LINEAR:
        N, a = _linear_normal(delta_n, p[KN]), 0.0
        if N <= 0.0:
            return 0.0, 0.0, 0.0, 0.0, 0.0, False
        kt, k_normal = p[KT], p[KN]
    else:
        N, a = _hertz_normal(delta_n, R1 * R2 / (R1 + R2), p[MODULUS])
        if N <= 0.0:
            return 0.0, 0.0, 0.0, 0.0, 0.0, False
        kt = _mindlin_tangential_stiffness(a, p[SHEAR_MODULUS])
        k_normal = _hertz_normal_tangent(a, p[MODULUS])
    T, slipping = _capped_update(T_previous, kt, d_delta_t, N, p[FRICTION])
    return N, T, a, k_normal, kt, slipping


@njit
def pair_energy(code, p, delta_n, a, R1, R2):
    """The pair's normal potential ``U(delta_n) = int N d(delta_n)`` (J/m)."""
    if delta_n <= 0.0:
        return 0.0
    if code == SIMPLIFIED:
        return _hertz2d_normal_energy(a, R1, R2, p[MODULUS])
    if code == LINEAR:
        return _linear_normal_energy(delta_n, p[KN])
    return _hertz_normal_energy(delta_n, R1 * R2 / (R1 + R2), p[MODULUS])


@njit
def pair_secant_stiffness(code, p, delta_n, a, R1, R2):
    """``N / delta_n``: Eq. 29 for the paper's law, kn for the linear spring (0 when open)."""
    if delta_n <= 0.0:
        return 0.0
    if code == SIMPLIFIED:
        return _hertz2d_normal_stiffness(a, R1, R2, p[MODULUS])
    if code == LINEAR:
        return p[KN]
    return 4.0 / 3.0 * p[MODULUS] * a
