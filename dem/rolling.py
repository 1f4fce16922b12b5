"""A disc rolling down an inclined rigid wall: the verification run of tangential contact history.

A disc at rest on a wall inclined at ``angle`` degrees, under gravity, starting at the overlap
that carries its weight (the law's normal force solved for ``m g cos(angle)``). Closed forms for a
solid disc (``I = m R^2/2``): without slip it rolls with ``a = (2/3) g sin(angle)``, which needs
the tangential force ``m g sin(angle)/3`` that Coulomb's law allows while ``tan(angle) <= 3 mu``;
beyond, it slides with ``a = g (sin(angle) - mu cos(angle))`` and spins up at
``2 mu g cos(angle) / R`` (mu the law's sliding ratio, :meth:`hertz2d.dem.laws.Law.sliding_friction`).
:func:`roll` measures both by least-squares fits of the position along
the slope and of the spin over the run (the contact's tangential spring rings at a few kHz around
the steady state; the fits average it out).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from hertz2d.dem.damping import Damping
from hertz2d.dem.impact import DENSITY, RADIUS
from hertz2d.dem.laws import Law, loaded_state
from hertz2d.dem.simulation import Simulation
from hertz2d.dem.state import Discs
from hertz2d.dem.walls import Walls
from hertz2d.checks import InputError, positive

GRAVITY = 9.81


@dataclass(frozen=True)
class RollingResult:
    #: acceleration along the slope, m/s^2
    acceleration: float
    #: angular acceleration, rad/s^2 (clockwise positive, the sense of rolling down the slope)
    angular_acceleration: float
    #: the closed forms for the same angle and friction
    expected_acceleration: float
    expected_angular_acceleration: float
    #: True when the closed form says the disc slides
    sliding: bool


def expected(angle: float, mu: float, radius: float) -> tuple[float, float, bool]:
    """``(a, angular acceleration, sliding)`` of a solid disc on an incline (module docstring)."""
    theta = math.radians(angle)
    if math.tan(theta) <= 3.0 * mu:
        a = 2.0 / 3.0 * GRAVITY * math.sin(theta)
        return a, a / radius, False
    return (GRAVITY * (math.sin(theta) - mu * math.cos(theta)),
            2.0 * mu * GRAVITY * math.cos(theta) / radius, True)


def resting_overlap(law: Law, weight: float, radius: float) -> float:
    """The disc-to-wall overlap whose normal force carries ``weight`` (mirror rule: the pair's
    force at twice the overlap)."""
    def excess(overlap):
        return loaded_state(law.code, law.kernel, law.parameters, 2.0 * overlap, radius,
                            radius)[0] - weight
    high = 1e-12 * radius
    while excess(high) < 0.0:
        high *= 2.0
    return optimize.brentq(excess, 0.0, high, xtol=1e-18, rtol=1e-15)


def roll(law: Law, *, angle: float, duration: float = 0.05, radius: float = RADIUS,
         density: float = DENSITY, dt: float = 1e-5, samples: int = 200) -> RollingResult:
    """Roll one disc down the incline for ``duration`` seconds (module docstring)."""
    positive("duration", duration)
    if not 0.0 < angle < 90.0:
        raise InputError(f"angle={angle!r} must be in (0, 90) degrees")
    theta = math.radians(angle)
    normal = np.array([math.sin(theta), math.cos(theta)])  # into the domain, above the slope
    downhill = np.array([math.cos(theta), -math.sin(theta)])
    mass = density * math.pi * radius**2
    overlap = resting_overlap(law, mass * GRAVITY * math.cos(theta), radius)
    discs = Discs.from_arrays([(radius - overlap) * normal], [radius], density)
    run = Simulation(discs, law, dt=dt, walls=Walls.build([(0.0, 0.0)], [normal]),
                     gravity=(0.0, -GRAVITY), damping=Damping(), skin=radius)
    steps = max(1, int(round(duration / dt / samples)))
    times, along, spin = [], [], []
    for _ in range(samples):
        run.advance(steps)
        times.append(run.time)
        along.append(discs.position[0, :2] @ downhill)
        spin.append(-discs.velocity[0, 2])  # clockwise: rolling down the slope
    times = np.asarray(times)
    acceleration = 2.0 * np.polyfit(times, along, 2)[0]
    angular_acceleration = np.polyfit(times, spin, 1)[0]
    touching = loaded_state(law.code, law.kernel, law.parameters, 2.0 * overlap, radius,
                            radius)[1]
    # the disc settles onto the incline from a larger overlap: its contact lies inside the
    # largest area it has covered, where the calibrated law's friction ratio is mu
    a, alpha, sliding = expected(angle, law.sliding_friction(touching, radius, True, False),
                                 radius)
    return RollingResult(float(acceleration), float(angular_acceleration), a, alpha, sliding)
