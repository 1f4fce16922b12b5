"""The contact laws as the engine runs them: a law code, a parameter vector and one compiled kernel.

Every law comes from the law library's scalar kernels (:mod:`hertz2d.calibration.laws.scalar`, compiled
by :mod:`hertz2d.dem.jit`); this module only chooses among them per contact:

- ``simplified``: the paper's Table 1 (Eqs. 4 + 23 solved exactly with Lambert's W, kt of Eq. 31
  with a penalty factor of Eq. 33's form, the capped Eq. 32);
- ``linear``: the linear spring (kn, kt constant, Coulomb cap);
- ``hertz-mindlin``: Hertz's sphere force with Mindlin's incremental kt = 8 G* a, as 2D codes
  apply it to discs;
- ``calibrated``: the calibrated law (:mod:`hertz2d.calibration.laws.calibrated`): Table 1's normal law
  (the same exact solve, :func:`hertz2d.calibration.laws.scalar.hertz2d_contact_normal`), (C1)'s
  constants at the step's half-width (:func:`hertz2d.calibration.laws.calibrated_kernel.curves`), the
  tangential step with memory of (C2) (:func:`hertz2d.calibration.laws.calibrated_kernel.tangential_step`)
  on the contact's own columns of history and the normal force's coupling term
  (:func:`calibrated_step`);
- a law registered with a compiled kernel of its own (:func:`law_kernel`,
  :meth:`Law.registered`): one branch (code :data:`KERNEL`, :func:`kernel_step`) runs every such
  kernel through one C signature, so adding a law needs no edit here.

Which laws exist, their codes and history widths are the registry's
(:mod:`hertz2d.calibration.laws.registry`).

Eq. 32's step takes the mean of the step's two stiffnesses (the trapezoidal rule,
:func:`hertz2d.calibration.laws.scalar.step_stiffness`; for the linear spring the same kt), a new
contact the mean of kt over its first step, and the paper's law Simpson's rule while its approach
changes fast against the contact's normal frequency (:func:`law_step`: second order in the step
from first touch on).

What the engine keeps per contact (:mod:`hertz2d.dem.contacts`): the :data:`HISTORY` columns every law
has (N, T, kt, a: passed by value as a tuple to :func:`law_step`, which returns the new ones),
then :attr:`Law.history_width` - :data:`HISTORY` of the law's own: none for the first three, the
calibrated law's normal force and B of its last step (:data:`BASE_NORMAL`, :data:`CURVE_B`), its
normal coupling force (:data:`COUPLING`) and its kernel's memory (:data:`CALIBRATED_HISTORY`
columns in all), which only :func:`calibrated_step` writes, in place, so that the tuple the other
laws pass stays four wide (their speed is unchanged); and per candidate pair, computed when the
lists are built, the law's constants (:func:`pair_constants`: what does not change while the
pair is listed). A row is zeroed, own columns included, when its contact opens, and carried
whole across list rebuilds.

The parameter vector: :data:`PARAMETERS` values for every law (:func:`parameters_tuple`), then
for the calibrated law the :data:`~hertz2d.calibration.laws.calibrated_kernel.CURVE_DATA` numbers of a
disc pair (:data:`PAIR_CURVES`) and of a disc on a wall (:data:`WALL_CURVES`,
:func:`hertz2d.calibration.laws.calibrated.curve_data` of ``ContactPair.disc_on_wall``: the wall's own
Dundurs beta and wall flag), read by :func:`calibrated_step` from the array.

One material for every disc (E, nu); a wall is the disc's mirror image (Section 3.2), so every
contact is a *pair* for the law: the engine passes the pair's approach and tangential increment
(twice the disc-to-wall ones for a wall) and applies the pair's force to the disc. For the linear
spring this makes a wall contact twice as stiff as a disc-disc contact (kn is the stiffness of two
discs in series, each disc-wall contact is one disc against a rigid mirror plane); codes that give
walls the disc-disc kn (LAMMPS's ``wall/gran``, PFC) match it with 2 kn, 2 kt on the walls.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from hertz2d.calibration.laws import ConstantPenalty, ContactPair, PolynomialPenalty
from hertz2d.calibration.laws import calibrated_kernel, normal_table, registry, scalar
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients, curve_data, sliding_ratio
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.dem.damping import dashpot
from hertz2d.dem.jit import CACHE, address, compile_functions, njit, numba
from hertz2d.checks import InputError, non_negative, poisson, positive

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
_hertz2d_contact_normal = kernels.hertz2d_contact_normal
_hertz2d_entry_stiffness = kernels.hertz2d_entry_stiffness
#: the kernels :func:`simplified_steps` inlines into its loops
inlined = compile_functions(scalar, inline=True)
_normal_of_root = inlined.hertz2d_normal_of_root
_contact_stiffness = inlined.hertz2d_contact_stiffness
_step_stiffness_inlined = inlined.step_stiffness
_capped_update_inlined = inlined.capped_update
_table_root = compile_functions(normal_table, inline=True).table_root
calibrated_kernels = compile_functions(calibrated_kernel)
_curves = calibrated_kernels.curves
_tangential_step = calibrated_kernels.tangential_step
_stored_energy = calibrated_kernels.stored_energy
_normal_coupling = calibrated_kernels.normal_coupling
_held_curve = calibrated_kernels.held_curve

#: law codes: the registry's (:mod:`hertz2d.calibration.laws.registry`) of the laws with a branch here
SIMPLIFIED, LINEAR, HERTZ_MINDLIN, CALIBRATED = (registry.entry(name).dem_code for name in (
    "simplified", "linear", "hertz-mindlin", "calibrated"))
#: the code of a registered law with a compiled kernel of its own (:func:`kernel_step`)
KERNEL = -1
#: the parameter vector: E*, G*, nu, mu, kn, kt, then the six penalty coefficients
MODULUS, SHEAR_MODULUS, POISSON, FRICTION, KN, KT, PENALTY = 0, 1, 2, 3, 4, 5, 6
#: the length of the parameter vector every law shares
PARAMETERS = PENALTY + 6
#: the calibrated law's (C1) numbers of a disc pair and of a disc on a wall, after PARAMETERS
CURVE_DATA = calibrated_kernel.CURVE_DATA
#: where the calibrated law's (C1) numbers of a disc pair, and of a disc on a wall, start
PAIR_CURVES, WALL_CURVES = PARAMETERS, PARAMETERS + CURVE_DATA
#: the history columns every law keeps (:mod:`hertz2d.dem.contacts`): N, T, kt (of the last step), a,
#: passed to :func:`law_step` as a tuple (:func:`history_row`) and stored from the one it returns
#: (:func:`store_row`); a law with a longer memory keeps its own columns after them
NORMAL, TANGENTIAL, STIFFNESS, HALF_WIDTH = 0, 1, 2, 3
#: the history columns every law keeps (N, T, kt, a)
HISTORY = registry.SHARED_HISTORY
#: the history of an open contact
OPEN = (0.0,) * HISTORY
#: the calibrated law's own columns: the normal force of Eqs. 4 + 23 and (C1)'s B of its last step
#: (what the energy its traction stores is a function of, with the memory:
#: :func:`traction_energy`), the normal force's coupling term (:func:`calibrated_step`), then its
#: kernel's memory (the doubles of :data:`hertz2d.calibration.laws.calibrated_kernel.HISTORY`)
BASE_NORMAL, CURVE_B, COUPLING, MEMORY = HISTORY, HISTORY + 1, HISTORY + 2, HISTORY + 3
#: the calibrated law's history width: the shared columns, its N and B, its coupling term, its
#: kernel's memory
CALIBRATED_HISTORY = MEMORY + calibrated_kernel.HISTORY
#: a pair's constants (:func:`pair_constants`): its reduced mass, then the law's: the linear
#: spring's dashpot coefficients; the paper's law's (and the calibrated law's) log(4 R1),
#: log(4 R2) and e^(-C)
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


#: a registered law's kernel: ``kernel(p, state, delta_n, d_delta_t, R1, R2)``, ``p`` the
#: address of the law's parameter vector (:attr:`Law.parameters`: its own values from
#: :data:`PARAMETERS` on), ``state`` of :data:`KERNEL_STATE` doubles: in, the contact's N, T, kt,
#: a of the last step (0 for a new contact); out, the new ones, then the tangent normal stiffness
#: dN/d(delta_n), the step's tangential stiffness, 1.0 if the Coulomb cap acted (else 0.0) and
#: the normal potential U(delta_n); N <= 0 opens the contact, N NaN fails the law. One C
#: signature for every kernel, so the engine compiles (and caches) once for all of them.
KERNEL_SIGNATURE = numba.types.void(numba.types.voidptr, numba.types.voidptr,
                                    *(numba.types.float64,) * 4)
#: the kernel's outputs after the new N, T, kt, a
K_NORMAL, K_STEP, K_SLIPPING, K_POTENTIAL = HISTORY, HISTORY + 1, HISTORY + 2, HISTORY + 3
#: the doubles a kernel reads and writes
KERNEL_STATE = K_POTENTIAL + 1


def law_kernel(function):
    """Compile ``function`` as a registered law's DEM kernel (:data:`KERNEL_SIGNATURE`), for
    :class:`hertz2d.calibration.laws.registry.LawEntry`'s ``dem_kernel``.

    Parameters
    ----------
    function : collections.abc.Callable
        ``function(p, state, delta_n, d_delta_t, R1, R2)``; it reads ``numba.carray(p, n,
        dtype=numpy.float64)`` and writes ``numba.carray(state, KERNEL_STATE, ...)``.

    Returns
    -------
    numba.core.ccallback.CFunc
        The compiled kernel (cached on disk beside ``function``'s module).
    """
    return numba.cfunc(KERNEL_SIGNATURE, cache=CACHE)(function)


@law_kernel
def no_kernel(p, state, delta_n, d_delta_t, R1, R2):
    """What a law with a branch in the engine passes as its kernel: never called."""


@dataclass(frozen=True)
class Law:
    """A contact law for the engine: ``code`` (:data:`SIMPLIFIED`, ..., :data:`KERNEL`), its
    ``parameters`` and its registry ``name``."""

    code: int
    parameters: np.ndarray
    label: str
    name: str
    #: the calibrated law's coefficients, with the ranges they were fitted on (None otherwise)
    coefficients: CalibratedCoefficients | None = field(default=None, compare=False)

    def __post_init__(self):
        """The parameters kept as a read-only copy: the engine's compiled code is typed for it."""
        parameters = np.array(self.parameters, dtype=float)
        parameters.setflags(write=False)
        object.__setattr__(self, "parameters", parameters)

    def __reduce__(self):
        """Pickled through the constructor, so that a copy in a worker process has the read-only
        parameters too: numba types a read-only array apart from a writable one, and a worker's
        writable copy compiled the whole engine a second time (about a minute), its cache of no
        use to the parent process."""
        return Law, (self.code, self.parameters, self.label, self.name, self.coefficients)

    @property
    def kernel(self):
        """A registered law's compiled kernel (:func:`law_kernel`), ``no_kernel`` for the
        others: read from the registry, so that a law pickles to worker processes by name."""
        return registry.entry(self.name).dem_kernel or no_kernel

    @property
    def friction(self) -> float:
        return float(self.parameters[FRICTION])

    def sliding_friction(self, a: float, radius: float, wall: bool, growing: bool) -> float:
        """``T/N`` of a sliding contact of half-width ``a`` between two discs of ``radius`` (a
        disc of ``radius`` on a wall: its mirror pair): mu, but for the calibrated law while its
        contact grows beyond the largest area it has covered (``growing``), whose normal force
        then carries a coupling term that its friction does not
        (:func:`hertz2d.calibration.laws.calibrated.sliding_ratio`)."""
        if self.code != CALIBRATED:
            return self.friction
        nu, mu = float(self.parameters[POISSON]), self.friction
        pair = (ContactPair.disc_on_wall(radius, 1.0, nu, mu) if wall
                else ContactPair.discs(radius, 1.0, nu, mu))
        return float(sliding_ratio(pair, a, self.coefficients, growing))

    @property
    def history_width(self) -> int:
        """Columns of per-contact history, the registry's: :data:`HISTORY`,
        :data:`CALIBRATED_HISTORY` for the calibrated law."""
        return registry.entry(self.name).history

    @classmethod
    def _build(cls, name, label, E=1.0, nu=0.0, mu=0.0, kn=0.0, kt=0.0,
               penalty=(0.0,) * 6, extra=()) -> "Law":
        parameters = np.zeros(PARAMETERS + len(extra))
        parameters[PARAMETERS:] = extra
        parameters[MODULUS] = scalar.pair_modulus(E, nu, E, nu)
        parameters[SHEAR_MODULUS] = scalar.pair_shear_modulus(E, nu, E, nu)
        parameters[POISSON], parameters[FRICTION] = nu, mu
        parameters[KN], parameters[KT] = kn, kt
        parameters[PENALTY:PARAMETERS] = penalty
        entry = registry.entry(name)
        return cls(KERNEL if entry.dem_kernel is not None else entry.dem_code, parameters, label,
                   name)

    @classmethod
    def simplified(cls, E: float, nu: float, mu: float, penalty=EQ33) -> "Law":
        """The paper's simplified model (Table 1) with ``penalty`` (Eq. 33, a refit, a constant)."""
        positive("E", E), poisson("nu", nu), non_negative("mu", mu)
        label = f"simplified, {penalty.label}"
        return cls._build("simplified", label, E, nu, mu, penalty=penalty_coefficients(penalty))

    @classmethod
    def linear(cls, kn: float, kt: float, mu: float) -> "Law":
        """The linear spring: normal and tangential stiffness of a disc pair, N/m per m."""
        positive("kn", kn), positive("kt", kt), non_negative("mu", mu)
        return cls._build("linear", f"linear spring (kn {kn:.3g}, kt {kt:.3g})", mu=mu, kn=kn,
                          kt=kt)

    @classmethod
    def hertz_mindlin(cls, E: float, nu: float, mu: float) -> "Law":
        """Hertz-Mindlin of spheres applied to discs (forces read as N/m)."""
        positive("E", E), poisson("nu", nu), non_negative("mu", mu)
        return cls._build("hertz-mindlin", "3D Hertz-Mindlin on discs", E, nu, mu)

    @classmethod
    def calibrated(cls, E: float, nu: float, mu: float,
                   coefficients: CalibratedCoefficients) -> "Law":
        """The calibrated law with ``coefficients`` (``hertz2d calibrate``'s), one material:
        disc pairs with beta = 0, discs on walls with the wall's beta and flag, as
        :class:`hertz2d.calibration.laws.calibrated.CalibratedModel` treats ``ContactPair.discs`` and
        ``ContactPair.disc_on_wall`` (curve_data does not depend on the radii)."""
        positive("E", E), poisson("nu", nu), non_negative("mu", mu)
        extra = np.concatenate([np.ravel(curve_data(pair, coefficients)) for pair in (
            ContactPair.discs(1.0, E, nu, mu), ContactPair.disc_on_wall(1.0, E, nu, mu))])
        if not np.all(np.isfinite(extra)):
            raise InputError(f"the calibrated law's coefficients ({coefficients.label}) give "
                             f"non-finite curve constants for E={E!r}, nu={nu!r}, mu={mu!r}")
        label = coefficients.label
        law = cls._build("calibrated", label if label.startswith("calibrated") else
                         f"calibrated ({label})", E, nu, mu,
                         penalty=coefficients.penalty, extra=extra)
        return replace(law, coefficients=coefficients)

    @classmethod
    def registered(cls, name: str, E: float, nu: float, mu: float,
                   own: tuple[float, ...] = ()) -> "Law":
        """A law the registry gives a kernel of its own (:func:`law_kernel`), for one material.

        Parameters
        ----------
        name : str
            The law's registry name (:mod:`hertz2d.calibration.laws.registry`).
        E, nu, mu : float
            Young's modulus (Pa), Poisson's ratio and the friction coefficient.
        own : tuple of float
            The law's own parameters, after :data:`PARAMETERS` in the vector its kernel reads.

        Returns
        -------
        Law
            The engine's law.
        """
        positive("E", E), poisson("nu", nu), non_negative("mu", mu)
        if "dem" not in registry.entry(name).engines:
            raise InputError(f"law={name!r} does not declare the DEM among its engines")
        if registry.entry(name).dem_kernel is None:
            raise InputError(f"law={name!r} has a branch in the engine: build it with its own "
                             "constructor (Law.simplified, ...)")
        return cls._build(name, name, E, nu, mu, extra=tuple(float(v) for v in own))


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
    elif code == SIMPLIFIED or code == CALIBRATED:
        out[LOG_4R1], out[LOG_4R2] = math.log(4.0 * R1), math.log(4.0 * R2)
        out[EXP_MINUS_C] = math.exp(-_hertz2d_normal_constant(R1, R2, 1.0, 1.0))


@njit
def linear_step(kn, kt, mu, state, delta_n, d_delta_t):
    """The linear spring's step (:func:`law_step`'s, from its three parameters: the engine calls
    it directly, without passing the whole parameter tuple)."""
    N = _linear_normal(delta_n, kn)
    if N <= 0.0:
        return OPEN, 0.0, False, 0.0
    T, slipping = _capped_update(state[TANGENTIAL], kt, d_delta_t, N, mu)  # constant kt
    return (N, T, kt, 0.0), kn, slipping, kt


@njit(inline=True)
def trapezoid_suffices(delta_n, delta_middle, k_normal, mass_over_step_squared):
    """Whether the paper's law integrates the step's increment by the trapezoid: its approach
    changed in the step by at most ``omega dt`` of the step's middle one, ``omega = sqrt(k_n /
    m*)`` the contact's normal frequency (k_n the tangent normal stiffness dN/d(delta_n), m* the
    pair's reduced mass, the mirror pair's for a wall; ``mass_over_step_squared`` is m*/dt^2):
    ``(2 (delta_n - delta_middle))^2 m*/dt^2 <= k_n delta_middle^2``. Else Simpson's rule
    (:func:`law_step` says why the bound scales with dt)."""
    change = 2.0 * (delta_n - delta_middle)
    return change * change * mass_over_step_squared <= k_normal * delta_middle * delta_middle


#: the array form of the paper's law's step (:func:`simplified_steps`), one row of its ``steps``
#: array per quantity and a column per contact: the inputs (the pair's approach, the step's
#: tangential increment and the approach at the step's middle, as :func:`law_step` takes them;
#: the radii; the pair constants log(4 R1), log(4 R2), e^(-C); the history's N, T, kt) ...
(APPROACH, INCREMENT, MIDDLE, RADIUS_1, RADIUS_2, LOG_1, LOG_2, EXP_C, FORCE_0, TANGENTIAL_0,
 STIFFNESS_0) = range(11)
#: ... the pair's reduced mass over the squared step (:func:`trapezoid_suffices`; the last row)
MASS_OVER_STEP_SQUARED = 24
#: ... its intermediate rows (R*, z = 4 R* delta_n e^(-C) and the root u of Eqs. 4 + 22/23 at
#: the step's end and middle) and its outputs (:func:`law_step`'s: the new N, T, kt, a, the
#: tangent normal stiffness, the step's stiffness and 1.0 where the Coulomb cap acted)
(REDUCED_RADIUS, ARGUMENT, ROOT, MIDDLE_ARGUMENT, MIDDLE_ROOT, NEW_NORMAL, NEW_TANGENTIAL,
 NEW_STIFFNESS, NEW_HALF_WIDTH, NEW_K_NORMAL, NEW_K_STEP, NEW_SLIPPING) = range(11, 23)
#: ... and log a, which the calibrated law's array normal (:func:`calibrated_normals`) leaves
NEW_LOG_HALF_WIDTH = 23
STEP_ROWS = 25


@njit(inline=True, vectorised=True)
def simplified_steps(law, steps, count, rare):
    """:func:`law_step` of the paper's law for the first ``count`` contacts of ``steps`` at
    once: z of Eqs. 4 + 22/23's root ``u = -W_{-1}(-z)``, u from the table's polynomial
    (:func:`hertz2d.calibration.laws.normal_table.table_root`: the same doubles as :func:`law_step`'s
    root), then N, a, the tangent normal stiffness
    (:func:`hertz2d.calibration.laws.scalar.hertz2d_normal_of_root`), Eq. 31's kt and the
    trapezoid's step stiffness, in loops without a branch that would keep them from vectorising;
    then, only for the contacts whose approach changed by more than omega dt of itself
    (:func:`trapezoid_suffices`), u and kt at the step's middle and Simpson's rule
    (:func:`simpson_stiffnesses`); last Eq. 32's capped update. A contact for which that is not
    :func:`law_step`'s arithmetic is marked 1 in ``rare`` (0 the others; its outputs are then
    meaningless) for the caller to step with :func:`law_step`: a new contact (N 0 in its
    history: the entry stiffness) and one whose z at the end or (for Simpson's rule) the middle
    is outside the table (W_{-1}; beyond the largest approach the law fails; a middle approach
    at or below 0). Before it takes the marks, ``rare`` holds the list of Simpson's contacts.

    The middle's root was once found for every contact in the loop of the others, a branch
    choosing the rule, and that loop did not vectorise (``benchmarks/dem.py`` times the
    engine). Inlined into its caller (:func:`hertz2d.dem.forces.simplified_pass`): called, the
    paper's law's step on the bed of ``benchmarks/dem.py`` took 1.4 us longer (221 contacts;
    the reference counts of a call's arrays, :func:`hertz2d.dem.forces.contact_forces`)."""
    nu, modulus, mu = law[POISSON], law[MODULUS], law[FRICTION]
    penalty = (law[PENALTY], law[PENALTY + 1], law[PENALTY + 2], law[PENALTY + 3],
               law[PENALTY + 4], law[PENALTY + 5])
    for m in range(count):
        normal_argument(steps, m)
    table_roots(steps, count, ARGUMENT, ROOT)
    for m in range(count):
        R1, R2, log_1, log_2 = (steps[RADIUS_1, m], steps[RADIUS_2, m], steps[LOG_1, m],
                                steps[LOG_2, m])
        N, a, log_a, k_normal = _normal_of_root(steps[ROOT, m], steps[APPROACH, m],
                                                steps[REDUCED_RADIUS, m], log_1, log_2, modulus,
                                                1.0, 1.0)
        kt = _contact_stiffness(a, log_a, R1, R2, log_1, log_2, nu, nu, modulus, penalty, 1.0,
                                1.0)
        steps[NEW_NORMAL, m], steps[NEW_STIFFNESS, m] = N, kt
        steps[NEW_HALF_WIDTH, m], steps[NEW_K_NORMAL, m] = a, k_normal
        steps[NEW_K_STEP, m] = _step_stiffness_inlined(steps[STIFFNESS_0, m], kt)
    simpson_stiffnesses(steps, count, rare, nu, modulus, penalty)
    for m in range(count):
        common = (in_table(steps[ARGUMENT, m]) and steps[FORCE_0, m] != 0.0
                  and steps[STIFFNESS_0, m] > 0.0
                  and (trapezoid_suffices(steps[APPROACH, m], steps[MIDDLE, m],
                                          steps[NEW_K_NORMAL, m],
                                          steps[MASS_OVER_STEP_SQUARED, m])
                       or in_table(steps[MIDDLE_ARGUMENT, m])))
        rare[m] = 0 if common else 1
        T, slipping = _capped_update_inlined(steps[TANGENTIAL_0, m], steps[NEW_K_STEP, m],
                                             steps[INCREMENT, m], steps[NEW_NORMAL, m], mu)
        steps[NEW_TANGENTIAL, m] = T
        steps[NEW_SLIPPING, m] = 1.0 if slipping else 0.0


@njit(inline=True)
def simpson_stiffnesses(steps, count, chosen, nu, modulus, penalty):
    """:func:`simplified_steps`' step stiffness by Simpson's rule, ``(kt_previous + 4 kt_middle
    + kt)/6``, into :data:`NEW_K_STEP` for the contacts whose approach changed by more than
    omega dt of itself (:func:`trapezoid_suffices`); kt_middle from the table's u at the
    step's middle (z into :data:`MIDDLE_ARGUMENT`). The others keep the trapezoid's. Those
    contacts' columns are listed first (in ``chosen``, an int array of ``count``), and the
    loops run over the list: a branch in a loop over every contact would have LLVM compute
    Simpson's rule for all of them."""
    chosen_count = 0
    for m in range(count):
        chosen[chosen_count] = m
        chosen_count += 0 if trapezoid_suffices(steps[APPROACH, m], steps[MIDDLE, m],
                                                steps[NEW_K_NORMAL, m],
                                                steps[MASS_OVER_STEP_SQUARED, m]) else 1
    for j in range(chosen_count):
        m = chosen[j]
        steps[MIDDLE_ARGUMENT, m] = 4.0 * steps[REDUCED_RADIUS, m] * steps[MIDDLE, m] * steps[
            EXP_C, m]
    bits = steps[MIDDLE_ARGUMENT].view(np.int64)
    for j in range(chosen_count):
        m = chosen[j]
        steps[MIDDLE_ROOT, m] = _table_root(bits[m])
    for j in range(chosen_count):
        m = chosen[j]
        R1, R2, log_1, log_2 = (steps[RADIUS_1, m], steps[RADIUS_2, m], steps[LOG_1, m],
                                steps[LOG_2, m])
        _, a_middle, log_a_middle, _ = _normal_of_root(steps[MIDDLE_ROOT, m], steps[MIDDLE, m],
                                                       steps[REDUCED_RADIUS, m], log_1, log_2,
                                                       modulus, 1.0, 1.0)
        kt_middle = _contact_stiffness(a_middle, log_a_middle, R1, R2, log_1, log_2, nu, nu,
                                       modulus, penalty, 1.0, 1.0)
        steps[NEW_K_STEP, m] = (steps[STIFFNESS_0, m] + 4.0 * kt_middle
                                + steps[NEW_STIFFNESS, m]) / 6.0


@njit(inline=True)
def normal_argument(steps, m):
    """R* and ``z = 4 R* delta_n e^(-C)`` of column m of the array step's rows (:data:`APPROACH`,
    the radii, :data:`EXP_C`) into :data:`REDUCED_RADIUS` and :data:`ARGUMENT`; returns R*."""
    R1, R2 = steps[RADIUS_1, m], steps[RADIUS_2, m]
    radius = R1 * R2 / (R1 + R2)
    steps[REDUCED_RADIUS, m] = radius
    steps[ARGUMENT, m] = 4.0 * radius * steps[APPROACH, m] * steps[EXP_C, m]
    return radius


@njit(inline=True)
def table_roots(steps, count, argument, root):
    """Row ``root`` = the table's u of row ``argument`` (z) for the first ``count`` columns
    (:func:`hertz2d.calibration.laws.normal_table.table_root`, read through the bits of z; a
    finite number but not u where the table does not hold z: :func:`in_table`)."""
    bits = steps[argument].view(np.int64)
    for m in range(count):
        steps[root, m] = _table_root(bits[m])


@njit(vectorised=True, counted=False)
def calibrated_normals(law, steps, count, rare):
    """The calibrated law's normal force (Table 1's, :func:`calibrated_normal`) for the first
    ``count`` contacts of ``steps`` at once, as :func:`simplified_steps` finds it: z, u from the
    table, then N, a, log a and dN/d(delta_n)
    (:func:`hertz2d.calibration.laws.scalar.hertz2d_normal_of_root`) into :data:`NEW_NORMAL`,
    :data:`NEW_HALF_WIDTH`, :data:`NEW_LOG_HALF_WIDTH` and :data:`NEW_K_NORMAL`: the doubles
    of :func:`calibrated_normal` where the table holds z, the others marked 1 in ``rare`` (0
    the others) for the caller to solve with it (W_{-1})."""
    for m in range(count):
        normal_argument(steps, m)
    table_roots(steps, count, ARGUMENT, ROOT)
    for m in range(count):
        N, a, log_a, k_normal = _normal_of_root(steps[ROOT, m], steps[APPROACH, m],
                                                steps[REDUCED_RADIUS, m], steps[LOG_1, m],
                                                steps[LOG_2, m], law[MODULUS], 1.0, 1.0)
        steps[NEW_NORMAL, m], steps[NEW_HALF_WIDTH, m] = N, a
        steps[NEW_LOG_HALF_WIDTH, m], steps[NEW_K_NORMAL, m] = log_a, k_normal
        rare[m] = 0 if in_table(steps[ARGUMENT, m]) else 1


@njit(inline=True)
def in_table(z):
    """Whether the normal law's table holds ``z`` (:mod:`hertz2d.calibration.laws.normal_table`)."""
    return z >= normal_table.Z_LOW and z < normal_table.Z_HIGH


@njit
def law_step(code, law, pair, state, delta_n, d_delta_t, R1, R2, delta_middle, dt):
    """One step of one contact of the law ``code`` with parameters ``law``
    (:func:`parameters_tuple`), pair constants ``pair`` (a tuple of :data:`PAIR_CONSTANTS`) and
    the contact's history ``state`` (a tuple of :data:`HISTORY`: N, T, kt, a of the previous
    step) over a step ``dt``, for every law but the calibrated one, whose memory is in the
    history array (:func:`calibrated_step`).

    Eq. 32's increment is integrated with the step's stiffness: the trapezoid of the previous
    and the new kt, or for a new contact (``state`` :data:`OPEN`: kt 0) the mean of kt over
    its first step, in which the approach rises from 0 (the caller passes the increment of the
    part of the step in contact, :func:`hertz2d.dem.forces.entry_fraction`): for the paper's law
    :func:`hertz2d.calibration.laws.scalar.hertz2d_entry_stiffness`, for Mindlin's ``kt = 8 G* a`` with
    ``a`` growing as the square root of the approach 2/3 of the new kt. Both are second order
    in the step; kt of the step's end alone is first order (the rebound angle of an impact that
    sticks from first touch then converges as dt only). Near first touch, where Eq. 31's kt
    varies as ``1/log(approach)``, its second derivative grows as ``approach^-2``: the
    trapezoid's error, ``kt'' dt^3/12`` a step, then sums to a first-order term over a
    contact's first steps, so where the approach changes fast the paper's law takes Simpson's
    rule, ``(kt0 + 4 kt(delta_middle) + kt)/6``, with the approach at the step's middle
    (``delta_middle``, from the caller), and the trapezoid elsewhere. Fast means a change of
    more than ``omega dt`` of the approach in the step (:func:`trapezoid_suffices`; omega the
    contact's normal frequency, from the pair's reduced mass in ``pair`` and ``dt``): the
    trapezoid's steps then have ``r = |change|/delta <= omega dt``, and their error, ``r^2
    delta^2 |d2kt/d(delta)2| / (12 kt)`` of kt's increment a step (``r^2 beta/(12 B)`` for Eq.
    31's ``kt = pi E*/B``, ``beta = -dB/d(log delta)`` of order 1), sums to at most of order
    ``(omega dt)^2 beta/(12 B)`` of the impulse: second order in dt. (A bound that does not
    scale with dt, such as a change of 1 %, leaves a first-order residue ``~ 0.01 dt``; and it
    takes Simpson's rule on most contacts of a bed vibrating at a coarse step, a sizeable
    fraction of 1/omega, where the trapezoid's error is far below the integrator's own:
    ``benchmarks/dem_same_geometry.py`` times the paper's law on such a bed.)

    Returns ``(state, k_normal, slipping, k_step)``: the contact's new history (:data:`HISTORY`
    values: the normal and tangential force, the tangential stiffness, the half-width, 0 for the
    linear spring; :data:`OPEN` when open), the tangent normal stiffness dN/d(delta_n), whether
    the Coulomb cap acted and the step's stiffness. N is NaN where the law fails (beyond the
    largest approach of Eq. 23). A pure function of its arguments: the compiled loops call it
    with values only (arrays passed to a compiled call are reference-counted).
    """
    T_previous, kt_previous = state[TANGENTIAL], state[STIFFNESS]
    if code == SIMPLIFIED:
        nu = law[POISSON]
        penalty = (law[PENALTY], law[PENALTY + 1], law[PENALTY + 2], law[PENALTY + 3],
                   law[PENALTY + 4], law[PENALTY + 5])
        if kt_previous > 0.0:
            N, T, a, k_normal, kt, slipping = _hertz2d_contact(
                delta_n, d_delta_t, T_previous, kt_previous, R1, R2, pair[LOG_4R1],
                pair[LOG_4R2], pair[EXP_MINUS_C], nu, nu, law[MODULUS], law[FRICTION], penalty,
                1.0, 1.0)
            if trapezoid_suffices(delta_n, delta_middle, k_normal,
                                  pair[REDUCED_MASS] / (dt * dt)):
                return (N, T, kt, a), k_normal, slipping, _step_stiffness(kt_previous, kt)
            _, _, _, _, kt_middle, _ = _hertz2d_contact(
                delta_middle, 0.0, 0.0, 0.0, R1, R2, pair[LOG_4R1], pair[LOG_4R2],
                pair[EXP_MINUS_C], nu, nu, law[MODULUS], law[FRICTION], penalty, 1.0, 1.0)
            k_step = (kt_previous + 4.0 * kt_middle + kt) / 6.0
            T, slipping = _capped_update(T_previous, k_step, d_delta_t, N, law[FRICTION])
            return (N, T, kt, a), k_normal, slipping, k_step
        N, _, a, k_normal, kt, _ = _hertz2d_contact(
            delta_n, 0.0, 0.0, 0.0, R1, R2, pair[LOG_4R1], pair[LOG_4R2], pair[EXP_MINUS_C], nu,
            nu, law[MODULUS], law[FRICTION], penalty, 1.0, 1.0)
        if not N > 0.0:
            return (N, 0.0, 0.0, 0.0), 0.0, False, 0.0
        k_step = _hertz2d_entry_stiffness(delta_n, R1, R2, pair[LOG_4R1], pair[LOG_4R2],
                                          pair[EXP_MINUS_C], nu, nu, law[MODULUS], penalty,
                                          1.0, 1.0)
        T, slipping = _capped_update(T_previous, k_step, d_delta_t, N, law[FRICTION])
        return (N, T, kt, a), k_normal, slipping, k_step
    if code == LINEAR:
        return linear_step(law[KN], law[KT], law[FRICTION], state, delta_n, d_delta_t)
    N, a = _hertz_normal(delta_n, R1 * R2 / (R1 + R2), law[MODULUS])
    if N <= 0.0:
        return OPEN, 0.0, False, 0.0
    kt = _mindlin_tangential_stiffness(a, law[SHEAR_MODULUS])
    k_step = _step_stiffness(kt_previous, kt) if kt_previous > 0.0 else 2.0 / 3.0 * kt
    T, slipping = _capped_update(T_previous, k_step, d_delta_t, N, law[FRICTION])
    return (N, T, kt, a), _hertz_normal_tangent(a, law[MODULUS]), slipping, k_step


@njit
def kernel_step(kernel, vector, state, delta_n, d_delta_t, R1, R2):
    """:func:`law_step`'s returns for a registered law: its ``kernel`` (:data:`KERNEL_SIGNATURE`)
    on the parameter vector at the address ``vector`` (``hertz2d.dem.jit.address``) and the contact's
    ``state`` (the :data:`HISTORY` tuple)."""
    out = np.empty(KERNEL_STATE)
    out[NORMAL], out[TANGENTIAL], out[STIFFNESS], out[HALF_WIDTH] = state
    kernel(vector, address(out.ctypes.data), delta_n, d_delta_t, R1, R2)
    if out[NORMAL] <= 0.0:
        return OPEN, 0.0, False, 0.0
    return ((out[NORMAL], out[TANGENTIAL], out[STIFFNESS], out[HALF_WIDTH]), out[K_NORMAL],
            out[K_SLIPPING] != 0.0, out[K_STEP])


@njit
def kernel_potential(kernel, p, delta_n, R1, R2):
    """A registered law's normal potential U(delta_n) (:data:`K_POTENTIAL`) and its normal force:
    its kernel on a new contact without a tangential increment."""
    out = np.zeros(KERNEL_STATE)
    kernel(address(p.ctypes.data), address(out.ctypes.data), delta_n, 0.0, R1, R2)
    return out[K_POTENTIAL], out[NORMAL]


@njit(inline=True)
def curve_row(p, start):
    """The calibrated law's :data:`CURVE_DATA` numbers from ``p[start]`` on, as a tuple."""
    return (p[start], p[start + 1], p[start + 2], p[start + 3], p[start + 4], p[start + 5],
            p[start + 6], p[start + 7], p[start + 8], p[start + 9], p[start + 10],
            p[start + 11], p[start + 12])


@njit
def calibrated_normal(law, pair, delta_n, R1, R2):
    """The calibrated law's normal force before its coupling term: Table 1's, ``(N, a, log a,
    dN/d(delta_n))`` of Eqs. 4 + 23 (one W_{-1}, from the table where it holds the argument;
    omega = 1), N NaN beyond the largest approach."""
    return _hertz2d_contact_normal(delta_n, R1, R2, pair[LOG_4R1], pair[LOG_4R2],
                                   pair[EXP_MINUS_C], law[MODULUS], 1.0, 1.0)


@njit
def calibrated_step(law, p, pair, own, delta_n, d_delta_t, R1, R2, curves):
    """One step of one contact of the calibrated law: :func:`law_step`'s returns, from the
    parameters ``law`` (:func:`parameters_tuple`) and ``p`` (the vector, whose (C1) numbers
    start at ``curves``: :data:`PAIR_CURVES` or :data:`WALL_CURVES`), the pair constants and
    ``own``, the contact's own columns of history (``history[row, BASE_NORMAL:]``), updated in
    place: :func:`calibrated_normal`, then :func:`calibrated_tangential`."""
    return calibrated_tangential(law, p, pair, own, calibrated_normal(law, pair, delta_n, R1, R2),
                                 d_delta_t, R1, R2, curves)


@njit(inline=True)
def calibrated_tangential(law, p, pair, own, normal, d_delta_t, R1, R2, curves):
    """:func:`calibrated_step` from its normal force ``normal`` (:func:`calibrated_normal`'s
    four values, or :func:`calibrated_normals`' for many contacts at once).

    (C1)'s B at the new half-width (:func:`hertz2d.calibration.laws.calibrated_kernel.curves`), then
    (C2)'s tangential step with memory
    (:func:`hertz2d.calibration.laws.calibrated_kernel.tangential_step`): T, the tangent stiffness kt =
    dT/d(delta) (``pi E*/(B - kappa - kappa log y)`` at the slip front y, 0 in full slip) and
    whether the contact slides; the normal force is Eqs. 4 + 23's plus the coupling term of the
    tangential state (:func:`hertz2d.calibration.laws.calibrated_kernel.normal_coupling`, kept in
    ``own[2]``), both with the structural compliance held
    (:func:`hertz2d.calibration.laws.calibrated_kernel.held_curve`). ``own[0]`` and ``own[1]``
    keep Eqs. 4 + 23's N and that B, from which
    :func:`traction_energy` gives the energy the traction stores when it is read (the step does
    not need it: :func:`hertz2d.dem.forces.calibrated_contact`).
    """
    N, a, log_a, k_normal = normal
    if not N > 0.0:
        own[:] = 0.0
        return (N, 0.0, 0.0, 0.0), 0.0, False
    data = curve_row(p, curves)
    B, slope = _curves(a, log_a, R1, R2, pair[LOG_4R1], pair[LOG_4R2], data)
    kappa = data[calibrated_kernel.KAPPA]
    T, kt, _, full = _tangential_step(own[MEMORY - BASE_NORMAL:], N, a, d_delta_t,
                                      law[FRICTION], law[MODULUS], B, kappa, slope,
                                      data[calibrated_kernel.FIRST_SLIP],
                                      data[calibrated_kernel.ANNULUS_SLIP],
                                      calibrated_kernel.FOLD)
    B, slope = _held_curve(own[MEMORY - BASE_NORMAL:], a * a, B, kappa, slope)
    own[0], own[1] = N, B
    own[2] = _normal_coupling(T, N, slope, k_normal, law[MODULUS])
    return (N + own[2], T, kt, a), k_normal, full


@njit
def traction_energy(p, curves, contact):
    """The energy the calibrated law's tangential traction stores in a contact (J/m of the pair)
    from its history row ``contact``:
    :func:`hertz2d.calibration.laws.calibrated_kernel.stored_energy` of its memory at the N, a
    and B of its last step (:data:`BASE_NORMAL`, :data:`HALF_WIDTH`,
    :data:`CURVE_B`; kappa from the (C1) numbers at ``p[curves]``), the doubles it had after
    that step; 0 for an open contact (a zeroed row)."""
    return _stored_energy(contact[MEMORY:], contact[BASE_NORMAL], contact[HALF_WIDTH],
                          p[FRICTION], p[MODULUS], contact[CURVE_B],
                          p[curves + calibrated_kernel.KAPPA])


@njit(inline=True)
def stored_tangential(code, p, curves, history, row):
    """The energy a contact's tangential state stores: ``T^2/(2 kt)`` of an incremental law's
    spring, the calibrated law's :func:`traction_energy` (its (C1) numbers at ``p[curves]``)."""
    if code == CALIBRATED:
        return traction_energy(p, curves, history[row])
    if history[row, STIFFNESS] > 0.0:
        return 0.5 * history[row, TANGENTIAL] ** 2 / history[row, STIFFNESS]
    return 0.0


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
def loaded_state(code, kernel, p, delta_n, R1, R2):
    """``(N, a, k_normal, kt)`` of the pair's law at the approach ``delta_n``: its step for a new
    contact without a tangential increment."""
    law = parameters_tuple(p)
    constants = np.zeros((1, PAIR_CONSTANTS))
    pair_constants(code, law, 0.0, 0.0, R1, R2, constants[0])
    pair = constants_row(constants, 0)
    if code == CALIBRATED:
        own = np.zeros(CALIBRATED_HISTORY - BASE_NORMAL)
        state, k_normal, _ = calibrated_step(law, p, pair, own, delta_n, 0.0, R1, R2, PAIR_CURVES)
    elif code == KERNEL:
        state, k_normal, _, _ = kernel_step(kernel, address(p.ctypes.data), OPEN, delta_n, 0.0,
                                            R1, R2)
    else:
        state, k_normal, _, _ = law_step(code, law, pair, OPEN, delta_n, 0.0, R1, R2, delta_n,
                                         1.0)  # a new contact's step: dt is not read
    return state[NORMAL], state[HALF_WIDTH], k_normal, state[STIFFNESS]


@njit
def pair_energy(code, kernel, p, delta_n, a, R1, R2):
    """The pair's normal potential ``U(delta_n) = int N d(delta_n)`` (J/m)."""
    if delta_n <= 0.0:
        return 0.0
    if code == KERNEL:
        return kernel_potential(kernel, p, delta_n, R1, R2)[0]
    if code == SIMPLIFIED or code == CALIBRATED:
        return _hertz2d_normal_energy(a, R1, R2, p[MODULUS])
    if code == LINEAR:
        return _linear_normal_energy(delta_n, p[KN])
    return _hertz_normal_energy(delta_n, R1 * R2 / (R1 + R2), p[MODULUS])


@njit
def normal_potential(code, kernel, p, delta_n, R1, R2):
    """:func:`pair_energy` at the approach ``delta_n`` alone, from the pair's normal law (NaN
    beyond the largest approach of Eq. 23): a small compile, which an input check can afford
    before the engine's laws are compiled."""
    a = 0.0
    if code == SIMPLIFIED or code == CALIBRATED:
        N, a, _, _ = _hertz2d_contact_normal(delta_n, R1, R2, math.log(4.0 * R1),
                                             math.log(4.0 * R2),
                                             math.exp(-_hertz2d_normal_constant(R1, R2, 1.0, 1.0)),
                                             p[MODULUS], 1.0, 1.0)
        if math.isnan(N):
            return math.nan
    return pair_energy(code, kernel, p, delta_n, a, R1, R2)


@njit
def pair_secant_stiffness(code, kernel, p, delta_n, a, R1, R2):
    """``N / delta_n``: Eq. 29 for the paper's law and the calibrated law (the same normal law),
    kn for the linear spring, a registered kernel's N over delta_n (0 when open)."""
    if delta_n <= 0.0:
        return 0.0
    if code == KERNEL:
        return kernel_potential(kernel, p, delta_n, R1, R2)[1] / delta_n
    if code == SIMPLIFIED or code == CALIBRATED:
        return _hertz2d_normal_stiffness(a, R1, R2, p[MODULUS])
    if code == LINEAR:
        return p[KN]
    return 4.0 / 3.0 * p[MODULUS] * a
