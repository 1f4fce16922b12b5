"""An oblique impact of a disc on a wall solved as an ODE, event by event: the reference that the
DEM's time stepping converges to.

The DEM (:func:`hertz2d.dem.impact.impact`, ``wall=True``) integrates the contact with velocity Verlet and
Eq. 32's incremental tangential spring; its rebound angle carries an error from the time step.
Here the same contact is an ordinary differential equation, integrated by scipy's ``solve_ivp``
(DOP853) at a tolerance near rounding, with the switches of the law located as events, so the
reference has no time-step error of its own. The contact law's functions are the law library's
(:mod:`hertz2d.calibration.laws.scalar`): what is tested is the time integration, not the law.

The model is the engine's exactly (:mod:`hertz2d.dem.forces`; the wall below the disc, its normal +y):
the disc's approach ``delta = R - y`` and the pair's ``2 delta`` (the mirror rule, Section 3.2),
the lever arm ``R - delta``, the contact point's slip velocity ``v_t = -vx - omega (R - delta)``
(the wall relative to the disc, along t = +x) and the pair's ``2 v_t``. Then

    m vx' = T,   m vy' = N(2 delta),   I omega' = (R - delta) T,

and T, the pair's tangential force, follows the spring while it sticks, ``T' = kt(a) 2 v_t``
(Eq. 32 in continuous time), and the Coulomb cap while it slips, ``T = s mu N`` (s = +-1). The
events: sticking ends when ``|T|`` reaches ``mu N``; slipping ends when the spring's rate would take
T back inside the cap, ``s kt 2 v_t < mu N'`` (N' = dN/d(delta) 2 delta'); the contact ends when
delta returns to 0. At first touch (delta = 0, where kt and N' vanish together) the contact slips
if the ratio of the two rates, taken at an approach of 1e-9 R, exceeds 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from hertz2d.calibration.laws import scalar
from hertz2d.dem.impact import DENSITY, RADIUS, impact
from hertz2d.dem.laws import (FRICTION, HERTZ_MINDLIN, KN, KT, LINEAR, MODULUS, PENALTY, POISSON, Law)
from hertz2d.checks import InputError

#: solve_ivp's relative tolerance; the absolute ones follow from each variable's scale
TOLERANCE = 1e-12
#: the approach (over R) at which the first touch's regime is decided
FIRST_TOUCH = 1e-9
#: the time steps of one level of a convergence study, as multiples of the level's dt: twelve
#: spread over an octave, so that where the contact's end falls between two steps varies
#: (:func:`rebound_error_rms`)
PHASES = 2.0 ** (np.arange(12) / 12)


@dataclass(frozen=True)
class ReferenceImpact:
    """The contact's end: rebound angle (degrees from the normal, as
    :class:`hertz2d.dem.impact.ImpactResult`), normal restitution, spin (rad/s) and contact time (s);
    the regimes it went through (``"stick"``, ``"slip"``, in order)."""

    rebound_angle: float
    restitution: float
    spin: float
    contact_time: float
    regimes: tuple[str, ...]


class _PairLaw:
    """The pair's N, dN/d(delta) and kt at the pair's approach, from the law library."""

    def __init__(self, law: Law, radius: float):
        if law.code == HERTZ_MINDLIN:
            raise InputError("the reference impact covers the paper's law and the linear spring")
        self.law, self.radius = law, radius
        p = law.parameters
        self.mu = float(p[FRICTION])

    def __call__(self, delta: float) -> tuple[float, float, float]:
        """``(N, dN/d(delta), kt)`` of the pair at its approach ``delta`` (0s when open)."""
        p, R = self.law.parameters, self.radius
        if delta <= 0.0:
            return 0.0, 0.0, 0.0
        if self.law.code == LINEAR:
            return float(p[KN]) * delta, float(p[KN]), float(p[KT])
        modulus, nu = float(p[MODULUS]), float(p[POISSON])
        N, a = scalar.hertz2d_normal(delta, R, R, modulus)
        w = tuple(float(c) for c in p[PENALTY:PENALTY + 6])
        return (N, scalar.hertz2d_normal_tangent(a, R, R, modulus),
                scalar.hertz2d_tangential_stiffness(a, R, R, nu, nu, modulus, w))


def reference_impact(law: Law, *, speed: float, angle: float, radius: float = RADIUS,
                     density: float = DENSITY) -> ReferenceImpact:
    """The oblique impact of :func:`hertz2d.dem.impact.impact` (wall, no spin, no damping) solved as an
    ODE with events (module docstring)."""
    if not 0.0 < angle < 90.0:
        raise InputError(f"angle={angle!r} must be in (0, 90) degrees")
    pair = _PairLaw(law, radius)
    mass = density * math.pi * radius**2
    inertia = 0.5 * mass * radius**2
    theta = math.radians(angle)
    # state: x, y (centre), vx, vy, omega, T; first touch at y = R
    state = np.array([0.0, radius, speed * math.sin(theta), -speed * math.cos(theta), 0.0, 0.0])
    scale = np.array([radius, radius, speed, speed, speed / radius,
                      pair(2.0 * radius * 0.01)[0]])

    def kinematics(y):
        delta = radius - y[1]
        N, N_slope, kt = pair(2.0 * delta)
        slip_velocity = -y[2] - y[4] * (radius - delta)
        return delta, N, 2.0 * N_slope * -y[3], kt, 2.0 * slip_velocity

    def rates(delta, N, T, y, tangential_rate):
        return np.array([y[2], y[3], T / mass, N / mass, (radius - delta) * T / inertia,
                         tangential_rate])

    def sticking(_, y):
        delta, N, _, kt, rate = kinematics(y)
        return rates(delta, N, y[5], y, kt * rate)

    def slipping(sign):
        def rhs(_, y):  # T is the cap itself; its column follows it for the events
            delta, N, N_rate, _, _ = kinematics(y)
            return rates(delta, N, sign * pair.mu * N, y, sign * pair.mu * N_rate)
        return rhs

    def leaves(_, y):
        return y[1] - radius
    leaves.terminal, leaves.direction = True, 1.0

    def reaches_cap(_, y):
        return abs(y[5]) - pair.mu * kinematics(y)[1]
    reaches_cap.terminal, reaches_cap.direction = True, 1.0

    def sticks_again(sign):
        def event(_, y):
            _, _, N_rate, kt, rate = kinematics(y)
            return sign * kt * rate - pair.mu * N_rate
        event.terminal, event.direction = True, -1.0
        return event

    # first touch: slip if the spring's rate would exceed the cap's at once
    y0 = state.copy()
    y0[1] = radius * (1.0 - 0.5 * FIRST_TOUCH)
    _, _, N_rate, kt, rate = kinematics(y0)
    sign = math.copysign(1.0, rate)
    slip = pair.mu > 0.0 and kt * abs(rate) > pair.mu * N_rate
    t, regimes = 0.0, []
    end = 100.0 * radius / speed  # far beyond any contact time here
    while True:
        regimes.append("slip" if slip else "stick")
        if slip:
            solution = solve_ivp(slipping(sign), (t, end), state, method="DOP853",
                                 rtol=TOLERANCE, atol=TOLERANCE * scale,
                                 events=(leaves, sticks_again(sign)))
        else:
            solution = solve_ivp(sticking, (t, end), state, method="DOP853", rtol=TOLERANCE,
                                 atol=TOLERANCE * scale, events=(leaves, reaches_cap))
        if solution.status != 1:
            raise ArithmeticError(f"the reference impact did not end: {solution.message}")
        t, state = solution.t[-1], solution.y[:, -1].copy()
        if solution.t_events[0].size:  # the contact ended
            break
        if slip:
            slip = False
            state[5] = sign * pair.mu * kinematics(state)[1]
        else:
            slip, sign = True, math.copysign(1.0, state[5])
            state[5] = sign * pair.mu * kinematics(state)[1]
        if len(regimes) > 50:
            raise ArithmeticError("the reference impact switched regime more than 50 times")
    vx, vy, omega = state[2], state[3], state[4]  # open: T no longer acts
    return ReferenceImpact(rebound_angle=math.degrees(math.atan2(vx, vy)),
                           restitution=vy / (speed * math.cos(theta)), spin=omega,
                           contact_time=t, regimes=tuple(regimes))


def rebound_errors(law: Law, *, angle: float, steps, reference: ReferenceImpact) -> np.ndarray:
    """The DEM's rebound angle less ``reference``'s (degrees; the impact at 1 m/s and
    ``angle``), at each time step of ``steps``."""
    return np.array([impact(law, speed=1.0, angle=angle, dt=dt).rebound_angle
                     - reference.rebound_angle for dt in steps])


def rebound_error_rms(errors: np.ndarray) -> float:
    """The root mean square of the rebound errors of one level of a convergence study, taken at
    the steps ``dt * PHASES`` (:func:`rebound_errors`).

    A contact ends between two steps, and the step containing its end integrates a force whose
    slope jumps there: an error of order dt^2 whose constant depends on where in the step the
    end falls, and so changes sign from one dt to the next. A sequence of single steps (dt,
    dt/2, ...) samples that constant at random, and the slope of the log of its size on log dt
    can then read 1 or 3 for a second-order scheme (or hide a first-order term). The mean square
    over steps spread within an octave averages the position of the end out of each level,
    leaving the error's order in dt.
    """
    return float(np.sqrt(np.mean(np.square(errors))))
