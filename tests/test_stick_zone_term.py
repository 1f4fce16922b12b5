"""Eq. 26's stick-zone term in its three forms, against the small-amplitude closed forms.

At small amplitude the Masing loop of a virgin curve ``delta/delta_su = (1 - eps) t + (eps/2) t^2
+ ...`` (t = T/(mu N)) dissipates ``W = (2/3) eps mu N A^3 / ((1 - eps)^3 delta_su^2)``, with
``eps = d B / d log(1/c) / (2 B(a))`` at c = a: ``sum_i omega_i (1 + w_i)`` over 2 B(a) for
Eq. 26 with a constant w, and ``sum_i omega_i`` over 2 B(a) with the penalty term held at a.
These are derived by hand (expansion of ``B(a) - (c/a)^2 B(c)`` about c = a), not read off the
code under test.
"""
import numpy as np
import pytest

from hertz2d.calibration.laws import (EQ33, ConstantPenalty, ContactPair, full_slip_displacement,
                              normal_force)
from hertz2d.calibration.laws.closed_forms import half_space_bracket, penalty_bracket
from hertz2d.calibration.validation import stick_zone_term as stz
from hertz2d.calibration.validation.reference_forms import masing_loop_energy

PAIR = ContactPair.discs(0.5, 10e9, 0.25, 0.3)
N, A_HALF = (float(x) for x in normal_force(PAIR, 0.025))


def small_amplitude_energy(eps, slip, amplitude):
    return 2 / 3 * eps * PAIR.mu * N * amplitude**3 / ((1 - eps) ** 3 * slip**2)


def bracket(w):
    """B(a) of two equal discs: 2 [log(2R/a) + 1/2 + w (log(4R/a) + nu/(2(1-nu)))]."""
    return 2 * (np.log(1 / A_HALF) + 0.5 + w * (np.log(2 / A_HALF) + 0.25 / 1.5))


@pytest.mark.parametrize("variant, eps_of_w", [
    (stz.VARIANTS[0], lambda w: 2 * (1 + w) / (2 * bracket(w))),
    (stz.VARIANTS[2], lambda w: 2 / (2 * bracket(w)))])
def test_small_amplitude_energy_follows_the_closed_form(variant, eps_of_w):
    """A constant w: the loop's energy at A = 1 % of full slip within 2 % of the expansion."""
    w = 0.528
    delta, T = stz.virgin_curve(PAIR, N, ConstantPenalty(w), variant, points=200001)
    slip = float(full_slip_displacement(PAIR, N, A_HALF, ConstantPenalty(w)))
    assert delta[-1] == pytest.approx(slip, rel=1e-12)  # full slip at Eq. 27 in every form
    amplitude = 0.01 * slip
    expected = small_amplitude_energy(eps_of_w(w), slip, amplitude)
    assert masing_loop_energy(delta, T, amplitude, points=20001) == pytest.approx(expected,
                                                                                  rel=0.02)


def test_holding_the_penalty_term_at_a_removes_w_from_the_curvature():
    """The ratio of the two forms' small-amplitude energies is (1 + w) ((1 - eps0)/(1 - eps1))^3
    at equal full slip: about 1.5 (w = 0.528) times, the factor the FEM settles."""
    w = 0.528
    penalty = ConstantPenalty(w)
    slip = float(full_slip_displacement(PAIR, N, A_HALF, penalty))
    energies = [masing_loop_energy(*stz.virgin_curve(PAIR, N, penalty, v, points=200001),
                                   0.01 * slip, points=20001) for v in stz.VARIANTS[::2]]
    eps = 2 * (1 + w) / (2 * bracket(w)), 2 / (2 * bracket(w))
    expected = (1 + w) * ((1 - eps[1]) / (1 - eps[0])) ** 3
    assert energies[0] / energies[1] == pytest.approx(expected, rel=0.03)


def test_a_tabulated_penalty_reproduces_the_one_it_tabulates():
    grid = np.linspace(0.005, 0.2, 400)
    table = stz.TabulatedPenalty(tuple(grid), tuple(EQ33(grid, 0.25)))
    exact = stz.virgin_curve(PAIR, N, EQ33, stz.VARIANTS[0], points=401)
    tabulated = stz.virgin_curve(PAIR, N, table, stz.VARIANTS[1], points=401)
    assert np.allclose(tabulated[0], exact[0], rtol=1e-4)


def test_secant_drop_of_a_virgin_curve_is_its_curvature():
    """Between the first step and full slip the secant falls by eps (the slope at the origin is
    mu N/((1 - eps) delta_su), the secant at full slip mu N/delta_su), less what the finite first
    step already loses, (eps/2) t1 to first order."""
    w = 0.528
    penalty = ConstantPenalty(w)
    delta, T = stz.virgin_curve(PAIR, N, penalty, stz.VARIANTS[2], points=200001)
    steps = np.linspace(0, 2 * delta[-1], 2001)[1:]
    eps = 2 / (2 * bracket(w))
    t1 = (1 - eps) ** -1 * steps[0] / delta[-1]
    assert stz.secant_drop(delta, T, steps) == pytest.approx(eps - eps / 2 * t1, abs=2e-3)


def test_the_bracket_is_eq27s():
    assert stz._bracket_at(PAIR, A_HALF, EQ33) * PAIR.mu * N / (np.pi * PAIR.modulus) == \
        pytest.approx(float(full_slip_displacement(PAIR, N, A_HALF, EQ33)), rel=1e-12)
    assert 2 * (half_space_bracket(0.5, A_HALF) + 0.5 * penalty_bracket(0.5, A_HALF, 0.25)) == \
        pytest.approx(bracket(0.5))
