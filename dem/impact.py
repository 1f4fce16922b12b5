"""Single-impact verification runs and their closed forms (particle-level DEM benchmark tests).

One disc of radius R and density rho (mass ``m = rho pi R^2`` per unit thickness, ``I = m R^2/2``)
moves at ``speed`` towards a rigid wall or an equal disc at rest, at ``angle`` degrees from the
contact normal, without spin or gravity. Geometry: the counterpart is below, the contact normal at
impact is -y, the disc moves in +x and -y; its spin is counter-clockwise positive, so friction on
a disc moving in +x spins it clockwise (negative). The run starts at first touch (t = 0), or a
``gap`` before it (the contact then begins inside a step, as a DEM's contacts do), and ends when
the overlap closes again (the crossing interpolated linearly between steps).

Measured (:func:`impact`): contact time; normal restitution ``-v_n'/v_n`` and the rebound angle
``atan(v_t'/v_n')`` (degrees, positive when the tangential motion keeps its sense) of the
relative velocity of the two centres along and across the normal at impact; the disc's spin
after contact; and the energy error ``|work - (kinetic + elastic + dissipated)| / (initial
kinetic energy)`` of the engine's ledger (:mod:`hertz2d.dem.energy`), which for an undamped frictionless
impact is the relative error of energy conservation.

Closed forms to check them against:

- :func:`elastic_contact_time`: any elastic normal law, ``2 int_0^dmax d(delta) / sqrt(v^2 -
  2 U(delta)/m*)`` with the law's own potential U (:mod:`hertz2d.calibration.laws.scalar`);
- :func:`spring_dashpot`: the linear spring with a damping ratio zeta, contact time ``pi /
  (omega sqrt(1 - zeta^2))`` and restitution ``exp(-zeta pi / sqrt(1 - zeta^2))``,
  ``omega = sqrt(kn/m*)``;
- :func:`spring_local_damping`: the linear spring with local damping alpha (:mod:`hertz2d.dem.damping`),
  restitution ``sqrt((1 - alpha)/(1 + alpha))``;
- :func:`sliding_impact`: an oblique impact that slides throughout, where Coulomb's law fixes the
  tangential impulse at mu times the normal one, whatever the contact's compliance.

Both counterparts reduce to one pair for the law (Section 3.2): a disc on a wall at speed v is
the disc and its mirror image closing at 2 v, an equal disc at rest closes at v; the reduced mass
is m/2 in both.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

from scipy import integrate, optimize

from hertz2d.dem.damping import Damping
from hertz2d.dem.laws import Law, loaded_state, normal_potential
from hertz2d.dem.simulation import Simulation
from hertz2d.dem.state import Discs
from hertz2d.dem.walls import Walls
from hertz2d.checks import InputError, count, non_negative, positive

#: the paper's disc (Section 4.3): radius 0.035 m (diameters 0.06-0.08 m), rho 2700 kg/m^3
RADIUS, DENSITY = 0.035, 2700.0
#: the longest impact run, in steps (about 10 s of compute)
MAX_STEPS = 10**6
#: dt must stay below this fraction of the stability limit 2 sqrt(m*/k) of the stiffest state
STABILITY_FRACTION = 0.5


@dataclass(frozen=True)
class ImpactResult:
    """What :func:`impact` measures (module docstring), and the steps it took."""

    contact_time: float
    restitution: float
    rebound_angle: float
    spin: float
    energy_error: float
    steps: int


def _pair(law: Law, radius: float):
    """The law's pair arguments for two discs of ``radius`` (the wall's pair too)."""
    return law.code, law.kernel, law.parameters, radius, radius


def pair_potential(law: Law, delta: float, radius: float) -> float:
    """U of the pair of two discs of ``radius`` at approach ``delta`` (J/m)."""
    return float(normal_potential(*_pair(law, radius)[:3], delta, radius, radius))


def largest_approach(law: Law, reduced_mass: float, speed: float, radius: float) -> float:
    """The pair's approach where the kinetic energy ``m* v^2/2`` is all stored (undamped)."""
    energy = 0.5 * reduced_mass * speed**2
    high = radius * 1e-6
    while True:
        stored = pair_potential(law, high, radius)
        if not (math.isfinite(stored) and high < 2.0 * radius):
            raise InputError(f"the pair closing at {speed:.6g} m/s drives the contact beyond its "
                             "law's range")
        if stored >= energy:
            break
        high *= 2.0
    return optimize.brentq(lambda d: pair_potential(law, d, radius) - energy, 0.0, high,
                           xtol=1e-16 * high, rtol=1e-15)


def elastic_contact_time(law: Law, reduced_mass: float, speed: float, radius: float) -> float:
    """``2 int_0^dmax d(delta) / sqrt(v^2 - 2 U(delta)/m*)`` for the pair closing at ``speed``.

    With ``delta = dmax (1 - s^2)`` the integrand is smooth at the turning point (where
    ``U(dmax) - U(delta) ~ N(dmax) dmax s^2``); scipy's adaptive quadrature does the rest.
    """
    d_max = largest_approach(law, reduced_mass, speed, radius)
    top = pair_potential(law, d_max, radius)

    def integrand(s):
        if s == 0.0:
            code, kernel, p, R1, R2 = _pair(law, radius)
            force = loaded_state(code, kernel, p, d_max, R1, R2)[0]
            return 2.0 * d_max / math.sqrt(2.0 * force * d_max / reduced_mass)
        drop = top - pair_potential(law, d_max * (1.0 - s * s), radius)
        return 2.0 * d_max * s / math.sqrt(2.0 * drop / reduced_mass)

    value, _ = integrate.quad(integrand, 0.0, 1.0, epsabs=0.0, epsrel=1e-12, limit=200)
    return 2.0 * value


def spring_dashpot(kn: float, reduced_mass: float, ratio: float) -> tuple[float, float]:
    """``(contact time, restitution)`` of the linear spring-dashpot (damping ratio < 1)."""
    omega = math.sqrt(kn / reduced_mass)
    root = math.sqrt(1.0 - ratio**2)
    return math.pi / (omega * root), math.exp(-ratio * math.pi / root)


def spring_local_damping(kn: float, reduced_mass: float, alpha: float) -> tuple[float, float]:
    """``(contact time, restitution)`` of a linear spring on a wall with local damping alpha:
    a quarter period at stiffness k (1 + alpha), then one at k (1 - alpha)."""
    omega = math.sqrt(kn / reduced_mass)
    time_ = 0.5 * math.pi / omega * (1.0 / math.sqrt(1.0 + alpha) + 1.0 / math.sqrt(1.0 - alpha))
    return time_, math.sqrt((1.0 - alpha) / (1.0 + alpha))


def sliding_threshold(mu: float, restitution: float) -> float:
    """The incident ``tan(angle)`` above which a disc (I = m R^2/2) slides throughout the impact
    on a wall or an equal disc: ``3 mu (1 + e)`` (the tangential impulse that would stop the slip,
    a third of the incident tangential momentum of the reduced mass, exceeds mu times the normal
    impulse)."""
    return 3.0 * mu * (1.0 + restitution)


def sliding_impact(speed: float, angle: float, mu: float, restitution: float, radius: float,
                   wall: bool) -> tuple[float, float]:
    """``(rebound angle in degrees, spin)`` of a disc that slides throughout (Coulomb impulse:
    tangential impulse ``mu P_n``, ``P_n = m* (1 + e) v_n``). Per unit mass: the relative
    tangential velocity drops by ``mu (1 + e) v_n`` for both counterparts (the mass ratio cancels),
    the spin is ``-2 mu (1 + e) v_n / R`` on a wall and half that on an equal disc."""
    v_n, v_t = speed * math.cos(math.radians(angle)), speed * math.sin(math.radians(angle))
    change = mu * (1.0 + restitution) * v_n
    spin = -2.0 * change / radius * (1.0 if wall else 0.5)
    return math.degrees(math.atan2(v_t - change, restitution * v_n)), spin


def stability_limit(law: Law, speed: float, radius: float, density: float, wall: bool) -> float:
    """``2 sqrt(m*/k)`` at the stiffest point of an undamped impact (the largest approach), for
    the normal and the tangential (with rotation: effective mass m/3 per disc) motion."""
    mass = density * math.pi * radius**2
    pair_speed = 2.0 * speed if wall else speed
    d_max = largest_approach(law, 0.5 * mass, pair_speed, radius)
    code, kernel, p, R1, R2 = _pair(law, radius)
    _, _, k_normal, kt = loaded_state(code, kernel, p, d_max, R1, R2)
    # a wall contact's stiffness on the disc is 2 k (mirror rule), on the reduced mass m/2 of two
    # equal discs the pair's k: the same frequency sqrt(2 k / m) either way
    stiffest = max(k_normal, 3.0 * kt)
    return 2.0 * math.sqrt(0.5 * mass / stiffest)


def check_impact(law: Law, speed, angle, radius, density, dt, wall: bool,
                 damping: Damping) -> int:
    """Bad input as one InputError, before any run; returns the step budget of the run (four
    times the undamped contact time, stretched as damping stretches a linear contact)."""
    positive("speed", speed), positive("R", radius), positive("rho", density)
    positive("dt", dt), non_negative("angle", angle)
    if angle >= 90.0:
        raise InputError(f"angle={angle!r} must be below 90 degrees (from the normal)")
    try:
        limit = stability_limit(law, speed, radius, density, wall)
    except InputError as error:  # named by the speed the user gave (a wall's pair closes at 2x)
        raise InputError(f"speed={speed!r}: {error}") from None
    except (ZeroDivisionError, OverflowError):  # a stiffness of 0 or beyond the doubles
        raise InputError(f"speed={speed!r}, R={radius!r}, rho={density!r}: this law's stiffness "
                         "at the impact's largest approach is outside the range of doubles (0 or "
                         "overflowing); the values are far outside a contact's") from None
    if dt > STABILITY_FRACTION * limit:
        raise InputError(f"dt={dt!r} is beyond {STABILITY_FRACTION} x the stability limit "
                         f"2 sqrt(m*/k) = {limit:.3g} s of this impact")
    mass = density * math.pi * radius**2
    pair_speed = (2.0 if wall else 1.0) * speed * math.cos(math.radians(angle))
    estimate = elastic_contact_time(law, 0.5 * mass, pair_speed, radius)
    stretch = max(1.0 / math.sqrt(1.0 - damping.ratio**2),
                  spring_local_damping(1.0, 1.0, damping.local)[0] / math.pi)
    steps = int(math.ceil(4.0 * stretch * estimate / dt)) + 10
    count("steps", steps, maximum=MAX_STEPS,
          why=f"the contact lasts about {estimate:.3g} s; take a larger dt")
    return steps


def impact(law: Law, *, speed: float, angle: float = 0.0, wall: bool = True,
           radius: float = RADIUS, density: float = DENSITY, dt: float = 1e-5,
           damping: Damping = Damping(), gap: float = 0.0) -> ImpactResult:
    """One impact (module docstring for the geometry and what is measured).

    Parameters
    ----------
    law : Law
        The contact law (:class:`hertz2d.dem.laws.Law`).
    speed : float
        The disc's speed at first touch (m/s).
    angle : float, optional
        The velocity's angle from the contact normal (degrees).
    wall : bool, optional
        Against a rigid wall (else an equal disc at rest).
    radius, density : float, optional
        The disc's (m, kg/m^3); the paper's disc by default.
    dt : float, optional
        The time step (s); the biaxial test's by default, coarse for one impact.
    damping : Damping, optional
        A contact damping ratio and a local damping coefficient (none by default).
    gap : float, optional
        How far the disc starts from touching (m; 0 by default); the contact time is counted
        from first touch.

    Returns
    -------
    ImpactResult
        Contact time (s), normal restitution, rebound angle (degrees), spin (rad/s), the energy
        ledger's relative residual and the steps run.

    Raises
    ------
    checks.InputError
        Bad input, or a time step too large for the contact's stiffness, before running.
    """
    budget = check_impact(law, speed, angle, radius, density, dt, wall, damping)
    non_negative("gap", gap)
    theta = math.radians(angle)
    touch = gap / (speed * math.cos(theta))  # the time of first touch
    budget += int(math.ceil(touch / dt))
    velocity = [[speed * math.sin(theta), -speed * math.cos(theta), 0.0]]
    if wall:
        discs = Discs.from_arrays([[0.0, radius + gap]], [radius], density, velocity)
        walls = Walls.build([(0.0, 0.0)], [(0.0, 1.0)])
    else:
        discs = Discs.from_arrays([[0.0, radius + gap], [0.0, -radius]], [radius, radius],
                                  density, velocity + [[0.0, 0.0, 0.0]])
        walls = Walls.none()
    run = Simulation(discs, law, dt=dt, walls=walls, gravity=(0.0, 0.0), damping=damping,
                     skin=0.5 * radius)
    initial = discs.kinetic_energy()

    def overlap():
        if wall:
            return radius - discs.position[0, 1]
        gap = discs.position[0, :2] - discs.position[1, :2]
        return 2.0 * radius - math.hypot(*gap)

    previous, touched = 0.0, False
    for step in range(1, budget + 1):
        run.advance(1)
        current = overlap()
        touched = touched or current > 0.0
        if touched and current <= 0.0:
            break
        previous = current
    else:  # a damping ratio near 1 makes the discrete contact overdamped: it never lets go
        raise InputError(f"damping ratio={damping.ratio!r}, local damping={damping.local!r}: the "
                         f"disc did not leave the contact within {budget} steps (four times "
                         "the contact time expected); take less damping or a smaller dt")
    contact_time = dt * (step - 1 + previous / (previous - current)) - touch
    relative = discs.velocity[0, :2] - (0.0 if wall else discs.velocity[1, :2])
    normal_in = speed * math.cos(theta)
    balance = run.balance()
    return ImpactResult(
        contact_time=contact_time, restitution=relative[1] / normal_in,
        rebound_angle=math.degrees(math.atan2(relative[0], relative[1])),
        spin=float(discs.velocity[0, 2]), energy_error=abs(balance["residual"]) / initial,
        steps=step)


def impact_summary(law: Law, **kwargs) -> dict:
    """:func:`impact` as the JSON summary of ``hertz2d dem impact``."""
    start = time.perf_counter()
    result = impact(law, **kwargs)
    return {"law": law.label, **asdict(result), "seconds": round(time.perf_counter() - start, 3)}
