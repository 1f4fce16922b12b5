"""Particle-level verification of the DEM engine (in the style of the published DEM benchmark
tests, Chung & Ooi 2011, adapted to discs): elastic, damped and oblique impacts, rolling."""
import math

import numpy as np

import pytest

pytest.importorskip("numba")

from hertz2d.calibration.laws import ConstantPenalty  # noqa: E402
from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients  # noqa: E402
from hertz2d.dem import Damping, Law  # noqa: E402
from hertz2d.dem.impact import (DENSITY, RADIUS, elastic_contact_time, impact,  # noqa: E402
                        largest_approach, sliding_impact, sliding_threshold, spring_dashpot,
                        spring_local_damping)
from hertz2d.dem.laws import loaded_state  # noqa: E402
from hertz2d.dem.rolling import roll  # noqa: E402

MASS = DENSITY * math.pi * RADIUS**2
LAWS = {"simplified": Law.simplified(10e9, 0.25, 0.3),
        "simplified-w0.5": Law.simplified(10e9, 0.25, 0.3, ConstantPenalty(0.5)),
        "linear": Law.linear(2.7e9, 1.5e9, 0.3),
        "hertz-mindlin": Law.hertz_mindlin(10e9, 0.25, 0.3),
        "calibrated": Law.calibrated(10e9, 0.25, 0.3,
                                     CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))}
KN, KT = 2.7e9, 1.5e9


def expected_contact_time(law, speed, wall):
    """The law's own integral for the pair: a wall at v is the mirrored pair closing at 2 v."""
    return elastic_contact_time(law, 0.5 * MASS, (2.0 if wall else 1.0) * speed, RADIUS)


def lever_range(law, speed=1.0, wall=True):
    """``1 - delta_max/R``: the smallest lever arm of the impact over R (the closed forms use R)."""
    pair_speed = (2.0 if wall else 1.0) * speed
    overlap = largest_approach(law, 0.5 * MASS, pair_speed, RADIUS) / (2.0 if wall else 1.0)
    return 1.0 - overlap / RADIUS


def lowest_sliding_ratio(law, wall: bool) -> float:
    """The least T/N of a sliding contact over the half-widths a 1 m/s impact passes as its
    contact grows (mu for every law but the calibrated one,
    :meth:`hertz2d.dem.laws.Law.sliding_friction`)."""
    largest = largest_approach(law, 0.5 * MASS, 2.0, RADIUS)
    a = loaded_state(law.code, law.kernel, law.parameters, largest, RADIUS, RADIUS)[1] or RADIUS
    return min(law.sliding_friction(width, RADIUS, wall, True)
               for width in np.geomspace(1e-6 * a, a, 200))


def test_linear_contact_time_integral_is_the_half_period():
    omega = math.sqrt(KN / (0.5 * MASS))
    assert expected_contact_time(LAWS["linear"], 1.0, False) == pytest.approx(math.pi / omega,
                                                                               rel=1e-10)


@pytest.mark.parametrize("wall", [True, False], ids=["wall", "disc"])
@pytest.mark.parametrize("name", LAWS)
def test_elastic_normal_impact(name, wall):
    """Contact time within 1e-4 of the law's integral, restitution 1 and energy conserved to 1e-4
    at dt = 1e-6 (the slow test takes dt to 1e-7 and energy to 1e-6)."""
    law = LAWS[name]
    result = impact(law, speed=1.0, wall=wall, dt=1e-6)
    assert result.contact_time == pytest.approx(expected_contact_time(law, 1.0, wall), rel=1e-4)
    assert result.restitution == pytest.approx(1.0, abs=1e-4)
    assert result.energy_error < 1e-4
    assert result.spin == 0.0 and result.rebound_angle == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("name", LAWS)
def test_elastic_impact_converges_with_the_time_step(name):
    """Contact time error falls as dt^2; energy is conserved to 1e-6 at dt = 1e-7."""
    law = LAWS[name]
    exact = expected_contact_time(law, 1.0, True)
    errors = {dt: impact(law, speed=1.0, wall=True, dt=dt) for dt in (1e-5, 1e-6, 1e-7)}
    time_errors = [abs(r.contact_time / exact - 1) for r in errors.values()]
    assert time_errors[1] < 0.03 * time_errors[0] and time_errors[2] < 0.03 * time_errors[1]
    assert errors[1e-7].energy_error < 1e-6


@pytest.mark.parametrize("damping", [Damping(), Damping(ratio=0.3)], ids=["elastic", "damped"])
def test_a_disc_on_a_wall_is_a_disc_on_its_mirror_image(damping):
    """Section 3.2 as the engine applies it: a disc hitting a wall at v is the same pair as two
    equal discs closing at 2 v (the approach doubled, the reduced mass halved, the dashpot of the
    same damping ratio), so a normal impact gives the same contact time and restitution to
    rounding."""
    for name in ("simplified", "hertz-mindlin"):
        on_wall = impact(LAWS[name], speed=0.5, wall=True, dt=1e-6, damping=damping)
        on_disc = impact(LAWS[name], speed=1.0, wall=False, dt=1e-6, damping=damping)
        assert on_disc.contact_time == pytest.approx(on_wall.contact_time, rel=1e-9)
        assert on_disc.restitution == pytest.approx(on_wall.restitution, rel=1e-9)


@pytest.mark.parametrize("ratio", [0.1, 0.3, 0.7])
def test_damped_linear_impact_matches_the_spring_dashpot_closed_form(ratio):
    """Restitution exp(-zeta pi / sqrt(1 - zeta^2)) and contact time pi / (omega sqrt(1 -
    zeta^2)); the dashpot sees the half-step velocity, a first-order error in dt (at dt = 1e-7:
    0.01 % at zeta = 0.3, 0.3 % at zeta = 0.7, whose restitution is only 0.046)."""
    expected_time, expected_e = spring_dashpot(KN, 0.5 * MASS, ratio)
    result = impact(LAWS["linear"], speed=1.0, wall=False, dt=1e-7, damping=Damping(ratio=ratio))
    assert result.restitution == pytest.approx(expected_e, rel=5e-3)
    assert result.contact_time == pytest.approx(expected_time, rel=1e-3)
    assert result.energy_error < 1e-4  # the dashpot's dissipation is in the ledger


@pytest.mark.slow
def test_damped_restitution_converges_at_first_order():
    expected = spring_dashpot(KN, 0.5 * MASS, 0.3)[1]
    errors = [abs(impact(LAWS["linear"], speed=1.0, dt=dt, damping=Damping(ratio=0.3)).restitution
                  / expected - 1) for dt in (1e-6, 1e-7)]
    assert errors[1] < 0.2 * errors[0]


@pytest.mark.parametrize("name", LAWS)
def test_local_damping_impact_matches_its_closed_form(name):
    """PFC-style local damping on a normal wall impact multiplies the force by 1 + alpha while
    the disc approaches and 1 - alpha while it leaves, so for any elastic law the rebound keeps
    (1 - alpha)/(1 + alpha) of the energy: e = sqrt((1 - alpha)/(1 + alpha)); for the linear
    spring the contact time is a quarter period at each stiffness."""
    for alpha in (0.3, 0.7):
        expected_time, expected_e = spring_local_damping(2 * KN, MASS, alpha)
        result = impact(LAWS[name], speed=1.0, wall=True, dt=1e-7,
                        damping=Damping(local=alpha))
        assert result.restitution == pytest.approx(expected_e, rel=2e-3)
        if name == "linear":
            assert result.contact_time == pytest.approx(expected_time, rel=2e-3)


@pytest.mark.parametrize("angle", [65.0, 75.0, 85.0])
@pytest.mark.parametrize("wall", [True, False], ids=["wall", "disc"])
@pytest.mark.parametrize("name", ["simplified", "linear", "hertz-mindlin", "calibrated"])
def test_oblique_impact_sliding_regime_matches_the_coulomb_impulse(name, wall, angle):
    """Beyond tan(angle) = 3 mu (1 + e) the contact slides throughout: rebound angle and spin are
    fixed by the impulse ratio mu. On a wall that is exact for the angle (1e-3 degrees) and the
    spin lies between the closed form with the lever arm R and with R - delta_max. Two discs
    slide past each other, so their line of centres turns during the contact, by at most
    ``v_t t_c / 2R`` (0.1 degree for the stiff laws, 1.3 for Hertz's long contact), which bounds
    how far the closed form, which takes the normal fixed, can be off."""
    law = LAWS[name]
    assert math.tan(math.radians(angle)) > sliding_threshold(0.3, 1.0)
    result = impact(law, speed=1.0, angle=angle, wall=wall, dt=1e-6)
    rebound, spin = sliding_impact(1.0, angle, 0.3, result.restitution, RADIUS, wall)
    if wall:
        # the calibrated law slides at T/N = its sliding ratio (mu for the others), which
        # depends on the contact's width: rebound and spin lie between the closed forms at mu
        # and at the lowest ratio over the widths the impact passes
        lowest = lowest_sliding_ratio(law, wall)
        rebound_low, spin_low = sliding_impact(1.0, angle, lowest, result.restitution, RADIUS,
                                               wall)
        low, high = sorted((rebound, rebound_low))
        assert low - 1e-3 <= result.rebound_angle <= high + 1e-3
        assert lever_range(law) * spin_low / spin - 1e-4 <= result.spin / spin <= 1.0 + 1e-4
    else:
        turn = math.sin(math.radians(angle)) * result.contact_time / (2.0 * RADIUS)
        assert result.rebound_angle == pytest.approx(rebound, abs=math.degrees(turn))
        assert result.spin == pytest.approx(spin, rel=turn)


@pytest.mark.parametrize("angle", [5.0, 20.0, 40.0])
@pytest.mark.parametrize("name", ["simplified", "linear", "hertz-mindlin", "calibrated"])
def test_oblique_impact_sticking_regime_conserves_energy(name, angle):
    """Below the sliding regime the tangential spring sticks and recoils (no closed form for a
    law whose kt varies with the contact width): the normal restitution stays 1, the contact does
    not slide throughout, and the energy the disc loses is what the ledger dissipated (slip, kt
    changes) to 1e-4.

    The calibrated law's normal force carries the coupling term ``C = g T^2/N_H`` of its
    tangential state (g >= 0; ``mu/(1 + mu^2 g)`` is its sliding ratio), the only normal force
    that is not conservative, so the normal motion's energy changes by the work of C around the
    impact: with ``|T| <= mu N_H``, ``|e^2 - 1| <= 2 mu^2 g_max`` (the approach's energy is the
    normal one), ``|e - 1| <= mu^2 g_max``; 0 for the other laws."""
    law = LAWS[name]
    result = impact(law, speed=1.0, angle=angle, wall=True, dt=1e-6)
    coupling = law.friction / lowest_sliding_ratio(law, True) - 1.0  # mu^2 g_max
    assert result.restitution == pytest.approx(1.0, abs=1e-4 + coupling)
    assert result.energy_error < 1e-4
    slide_angle, _ = sliding_impact(1.0, angle, 0.3, 1.0, RADIUS, True)
    assert result.rebound_angle > slide_angle


@pytest.mark.parametrize("angle", [5.0, 20.0, 40.0])
@pytest.mark.parametrize("name", ["simplified", "linear"])
def test_oblique_impact_sticking_regime_conserves_impulse(name, angle):
    """The spin is the tangential impulse times the mean lever arm over I, the lever arm R - delta
    being within delta_max/R = 0.13 % of R for these stiff laws. The tangential force reverses
    as the spring recoils, so the force-weighted mean lever is not confined to [R - delta_max, R]:
    the tolerance is twice that width. Hertz's soft contact (delta_max/R = 1.4 %) is left out."""
    law = LAWS[name]
    result = impact(law, speed=1.0, angle=angle, wall=True, dt=1e-6)
    v_n, v_t = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    v_t_after = result.restitution * v_n * math.tan(math.radians(result.rebound_angle))
    impulse = MASS * (v_t - v_t_after)
    lever = -result.spin * 0.5 * MASS * RADIUS**2 / (impulse * RADIUS)
    assert lever == pytest.approx(1.0, abs=2.0 * (1.0 - lever_range(law)))


def test_linear_sticking_limit_is_the_tangential_oscillator():
    """As the incident angle goes to 0 a linear contact sticks through the whole impact: the
    contact point's tangential velocity oscillates at sqrt(3 kt/m') against sqrt(kn/m') for the
    normal motion (m' the disc's mass, kt and kn doubled by the mirror alike), so it leaves with
    ``cos(pi sqrt(3 kt / kn))`` times its incident value (within 1 %: the lever arm R - delta
    and the slip in the last instant, where N goes to 0)."""
    angle = 0.02
    result = impact(LAWS["linear"], speed=1.0, angle=angle, wall=True, dt=1e-7)
    v_n, v_t = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    v_t_after = result.restitution * v_n * math.tan(math.radians(result.rebound_angle))
    slip_after = v_t_after + result.spin * RADIUS
    assert slip_after / v_t == pytest.approx(math.cos(math.pi * math.sqrt(3 * KT / KN)),
                                             rel=1e-2)


@pytest.mark.parametrize("name", ["simplified", "linear", "hertz-mindlin", "calibrated"])
def test_disc_rolls_down_an_incline_at_two_thirds_g_sin_theta(name):
    """tan(20 deg) < 3 mu: rolling without slip; tan(50 deg) > 3 mu: sliding (Hertz's larger
    overlap makes its lever arm, hence its numbers, 1e-3 off)."""
    tolerance = 2e-3 if name == "hertz-mindlin" else 1e-4
    for angle, sliding in ((20.0, False), (50.0, True)):
        result = roll(LAWS[name], angle=angle)
        assert result.sliding == sliding
        assert result.acceleration == pytest.approx(result.expected_acceleration, rel=tolerance)
        assert result.angular_acceleration == pytest.approx(result.expected_angular_acceleration,
                                                            rel=tolerance)
