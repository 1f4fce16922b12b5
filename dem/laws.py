"""The contact laws as the engine runs them: a law code, a parameter vector and one compiled kernel.

Every law comes from the law library's scalar kernels (:mod:`calibration.laws.scalar`, compiled
by :mod:`dem.jit`); this module only chooses among them per contact:

- ``simplified``: the paper's Table 1 (Eqs. 4 + 23 solved exactly with Lambert's W, kt of Eq. 31
  with a penalty factor of Eq. 33's form, the capped Eq. 32);
- ``linear``: the linear spring (kn, kt constant, Coulomb cap);
- ``hertz-mindlin``: Hertz's sphere force with Mindlin's incremental kt = 8 G* a, as 2D codes
  apply it to discs.

Eq. 32's step takes the mean of the step's two stiffnesses (the trapezoidal rule,
:func:`calibration.laws.scalar.step_stiffness`; for the linear spring the same kt).

What the engine keeps per contact (:mod:`dem.contacts`): the :data:`HISTORY` columns every law
has, then :attr:`Law.history_width` - :data:`HISTORY` of the law's own (none for these three; a
law with a longer memory reads and returns its columns in :func:`law_step`, and the force loops
do not change); and per candidate pair, computed when the lists are built, the law's constants
(:func:`pair_constants`: what does not change while the pair is listed).

One material for every disc (E, nu); a wall is the disc's mirror image (Section 3.2), so every
contact is a *pair* for the law: the engine passes the pair's approach and tangential increment
(twice the disc-to-wall ones for a wall) and applies the pair's force to the disc. For the linear
spring this makes a wall contact twice as stiff as a disc-disc contact (kn is the stiffness of two
discs in series, each disc-wall contact is one disc against a rigid mirror plane); codes that give
walls the disc-disc kn (LAMMPS's ``wall/gran``, PFC) match it with 2 kn, 2 kt on the walls.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.laws import ConstantPenalty, PolynomialPenalty
from calibration.laws import scalar
from calibration.laws.penalty_factor import EQ33
from dem.damping import dashpot
from dem.jit import compile_functions, njit
from checks import InputError, non_negative, poisson, positive

kernels = compile_functions(scalar)
_hertz2d_contact = kernels.hertz2d_contact
_hertz2d_normal_constant = kernels.hertz2d_normal_constant
_step_stiffness = kernels.step_stiffness
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
#: the history columns every law keeps (:mod:`dem.contacts`): N, T, kt (of the last step), a; a
#: law with a longer memory appends its own columns, raises HISTORY to its width and extends
#: :func:`history_row`, :func:`store_row` (one line per column): the force loops pass the whole
#: row to the law and store what it returns, so they do not change
NORMAL, TANGENTIAL, STIFFNESS, HALF_WIDTH = 0, 1, 2, 3
HISTORY = 4
#: the history of an open contact
OPEN = (0.0,) * HISTORY
#: a pair's constants (:func:`pair_constants`): its reduced mass, then the law's: the linear
#: spring's dashpot coefficients; the paper's law's log(4 R1), log(4 R2) and e^(-C)
PAIR_CONSTANTS = 4
REDUCED_MASS = 0
NORMAL_DASHPOT, TANGENTIAL_DASHPOT = 1, 2
LOG_4R1, LOG_4R2, EXP_MINUS_C = 1, 2, 3


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

    @property
    def history_width(self) -> int:
        """Columns of per-contact history: :data:`HISTORY`, the widest law's."""
        return HISTORY

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


@njit(inline=True)
def parameters_tuple(p):
    """The parameter vector as a tuple: what the compiled loops pass to the kernels (by value:
    a kernel called with arrays would count their references twice per call)."""
    return (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11])


@njit
def pair_constants(code, law, ratio, reduced_mass, R1, R2, out):
    """Fill ``out`` (:data:`PAIR_CONSTANTS`) with what the law (its :func:`parameters_tuple`)
    needs of a pair of radii R1, R2 and reduced mass m* that does not change while the pair is a
    candidate: m*, and for the linear spring its dashpot coefficients ``2 zeta sqrt(m* k)`` (for
    the other laws they follow k, computed per step), for the paper's law ``log(4 R_i)`` and
    ``e^(-C)`` of its normal law (one material: omega = 1)."""
    out[:] = 0.0
    out[REDUCED_MASS] = reduced_mass
    if code == LINEAR:
        out[NORMAL_DASHPOT] = dashpot(ratio, reduced_mass, law[KN])
        out[TANGENTIAL_DASHPOT] = dashpot(ratio, reduced_mass, law[KT])
    elif code == SIMPLIFIED:
        out[LOG_4R1], out[LOG_4R2] = math.log(4.0 * R1), math.log(4.0 * R2)
        out[EXP_MINUS_C] = math.exp(-_hertz2d_normal_constant(R1, R2, 1.0, 1.0))


@njit
def linear_step(kn, kt, mu, state, delta_n, d_delta_t):
    """The linear spring's step (:func:`law_step`'s, from its three parameters: the engine calls
    it directly, without passing the whole parameter tuple)."""
    N = _linear_normal(delta_n, kn)
    if N <= 0.0:
        return OPEN, 0.0, False
    T, slipping = _capped_update(state[TANGENTIAL], kt, d_delta_t, N, mu)  # constant kt
    return (N, T, kt, 0.0), kn, slipping


@njit
def law_step(code, law, pair, state, delta_n, d_delta_t, R1, R2):
    """One step of one contact of the law ``code`` with parameters ``law``
    (:func:`parameters_tuple`), pair constants ``pair`` (a tuple of :data:`PAIR_CONSTANTS`) and
    the contact's history ``state`` (a tuple of :data:`HISTORY`: N, T, kt, a of the previous
    step; a law with a longer memory widens it and returns its new columns too).

    Returns ``(state, k_normal, slipping)``: the contact's new history (:data:`HISTORY` values:
    the normal and tangential force, the tangential stiffness, the half-width, 0 for the linear
    spring; :data:`OPEN` when open), the tangent normal stiffness dN/d(delta_n) and whether the
    Coulomb cap acted. N is NaN where the law fails (beyond the largest approach of Eq. 23). A
    pure function of its arguments: the compiled loops call it with values only (arrays passed to
    a compiled call are reference-counted).
    """
    T_previous, kt_previous = state[TANGENTIAL], state[STIFFNESS]
    if code == SIMPLIFIED:
        nu = law[POISSON]
        penalty = (law[PENALTY], law[PENALTY + 1], law[PENALTY + 2], law[PENALTY + 3],
                   law[PENALTY + 4], law[PENALTY + 5])
        N, T, a, k_normal, kt, slipping = _hertz2d_contact(
            delta_n, d_delta_t, T_previous, kt_previous, R1, R2, pair[LOG_4R1], pair[LOG_4R2],
            pair[EXP_MINUS_C], nu, nu, law[MODULUS], law[FRICTION], penalty, 1.0, 1.0)
        return (N, T, kt, a), k_normal, slipping
    if code == LINEAR:
        return linear_step(law[KN], law[KT], law[FRICTION], state, delta_n, d_delta_t)
    N, a = _hertz_normal(delta_n, R1 * R2 / (R1 + R2), law[MODULUS])
    if N <= 0.0:
        return OPEN, 0.0, False
    kt = _mindlin_tangential_stiffness(a, law[SHEAR_MODULUS])
    T, slipping = _capped_update(T_previous, _step_stiffness(kt_previous, kt), d_delta_t, N,
                                 law[FRICTION])
    return (N, T, kt, a), _hertz_normal_tangent(a, law[MODULUS]), slipping


@njit(inline=True)
def history_row(history, row):
    """``history[row]`` as a tuple of :data:`HISTORY` values."""
    return (history[row, 0], history[row, 1], history[row, 2], history[row, 3])


@njit(inline=True)
def store_row(history, row, state):
    """``history[row] = state`` (a tuple of :data:`HISTORY` values)."""
    history[row, 0], history[row, 1] = state[0], state[1]
    history[row, 2], history[row, 3] = state[2], state[3]


@njit(inline=True)
def constants_row(constants, row):
    """``constants[row]`` as a tuple of :data:`PAIR_CONSTANTS` values."""
    return (constants[row, 0], constants[row, 1], constants[row, 2], constants[row, 3])


@njit
def loaded_state(code, p, delta_n, R1, R2):
    """``(N, a, k_normal, kt)`` of the pair's law at the approach ``delta_n``: its step for a new
    contact without a tangential increment."""
    law = parameters_tuple(p)
    constants = np.zeros((1, PAIR_CONSTANTS))
    pair_constants(code, law, 0.0, 0.0, R1, R2, constants[0])
    state, k_normal, _ = law_step(code, law, constants_row(constants, 0), OPEN, delta_n, 0.0, R1,
                                  R2)
    return state[NORMAL], state[HALF_WIDTH], k_normal, state[STIFFNESS]


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
