"""The law library's scalar DEM kernels against its vectorised laws, and compiled against plain.

The scalar kernels (:mod:`hertz2d.calibration.laws.scalar`) are what the DEM engine runs per contact; the
vectorised laws are the ones validated against the FEM. They must agree to 1e-12 on random
inputs. The plain-Python tests need no numba; the compiled ones skip without it.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate

from hertz2d.calibration.laws import (ConstantPenalty, ContactPair, PolynomialPenalty, normal_force,
                              normal_stiffness, simplified_update, tangential_stiffness)
from hertz2d.calibration.laws import scalar
from hertz2d.calibration.laws.hertz2d import max_normal_approach
from hertz2d.calibration.laws.incremental import capped_update
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.calibration.laws.sphere import hertz_normal

radii = st.floats(1e-3, 10.0)
moduli = st.floats(1e6, 1e12)
poissons = st.floats(0.0, 0.49)
frictions = st.one_of(st.just(0.0), st.floats(1e-4, 2.0))
#: approach as a fraction of Eq. 23's largest approach
fractions = st.floats(1e-12, 0.9)
#: Eq. 33, a constant w and a polynomial with other coefficients (a refit's form)
#: the array step's time step: omega dt about 0.01 for its contacts (m* = 1 kg/m, k_n ~ 1.6e9)
DT = 2.5e-7
PENALTIES = (EQ33, ConstantPenalty(0.5), ConstantPenalty(0.0),
             PolynomialPenalty((0.3, 1.9, 0.25, -6.0, 1.1, 0.2), "refit-like"))
penalties = st.sampled_from(PENALTIES)


def coefficients(penalty):
    if isinstance(penalty, ConstantPenalty):
        return (penalty.value, 0.0, 0.0, 0.0, 0.0, 0.0)
    return penalty.coefficients


@st.composite
def pairs(draw):
    R1, R2, E1, E2 = draw(radii), draw(radii), draw(moduli), draw(moduli)
    return ContactPair(R1, R2, E1, E2, draw(poissons), draw(poissons), draw(frictions))


def close(a, b, rel=1e-12):
    return a == pytest.approx(b, rel=rel, abs=0.0)


def weights(pair: ContactPair) -> tuple[float, float]:
    """The scalar laws' bracket weights of a pair, checked against the pair's own."""
    omega = scalar.pair_weights(float(pair.E1), float(pair.nu1), float(pair.E2), float(pair.nu2))
    assert all(close(o, float(b)) for o, b in zip(omega, pair.bracket_weights))
    return omega


@given(pairs(), fractions)
def test_normal_force_matches_the_vectorised_law(pair, fraction):
    delta = fraction * float(max_normal_approach(pair))
    N, a = (float(v) for v in normal_force(pair, delta))
    modulus = float(pair.modulus)
    assert close(scalar.pair_modulus(float(pair.E1), float(pair.nu1), float(pair.E2),
                                     float(pair.nu2)), modulus)
    N_s, a_s = scalar.hertz2d_normal(delta, float(pair.R1), float(pair.R2), modulus,
                                     *weights(pair))
    assert close(N_s, N) and close(a_s, a)


@given(pairs(), fractions, penalties)
def test_stiffnesses_match_the_vectorised_law(pair, fraction, penalty):
    delta = fraction * float(max_normal_approach(pair))
    _, a = normal_force(pair, delta)
    a = float(a)
    args = (a, float(pair.R1), float(pair.R2))
    assert close(scalar.hertz2d_normal_stiffness(*args, float(pair.modulus), *weights(pair)),
                 float(normal_stiffness(pair, a)))
    kt = scalar.hertz2d_tangential_stiffness(*args, float(pair.nu1), float(pair.nu2),
                                             float(pair.modulus), coefficients(penalty),
                                             *weights(pair))
    assert close(kt, float(tangential_stiffness(pair, a, penalty)))


@given(pairs(), fractions, penalties, st.floats(-1.0, 1.0), st.floats(-1.5, 1.5),
       st.sampled_from([0.0, 0.9, 1.0, 1.05]))
def test_table1_update_matches_simplified_update(pair, fraction, penalty, step, previous,
                                                 earlier):
    """With the history of a previous step at ``earlier`` times the approach (0: a new contact):
    its tangential force and half-width for the vectorised law, its kt for the scalar one."""
    delta = fraction * float(max_normal_approach(pair))
    state = simplified_update(pair, delta, 0.0, 0.0, penalty)
    a_previous = float(normal_force(pair, earlier * delta)[1])
    kt_previous = float(tangential_stiffness(pair, a_previous, penalty))
    # a tangential increment and a previous force on the scale of the contact's own
    d_delta_t = step * pair.mu * float(state.N) / float(state.kt) if state.kt > 0 else step
    T_previous = previous * float(pair.mu) * float(state.N)
    state = simplified_update(pair, delta, d_delta_t, T_previous, penalty, a_previous)
    N, T, a, k_normal, kt, slipping = scalar.hertz2d_update(
        delta, float(d_delta_t), float(T_previous), kt_previous, float(pair.R1), float(pair.R2),
        float(pair.nu1), float(pair.nu2), float(pair.modulus), float(pair.mu),
        coefficients(penalty), *weights(pair))
    assert close(N, float(state.N)) and close(a, float(state.a)) and close(kt, float(state.kt))
    assert T == pytest.approx(float(state.T), rel=1e-12, abs=1e-12 * float(state.N))
    # a trial force within rounding of the cap may be called sliding by one and not the other;
    # both then give the capped force, checked above
    cap = float(pair.mu) * float(state.N)
    assert slipping == bool(state.slipping) or abs(abs(T) - cap) <= 1e-12 * cap
    assert close(k_normal, scalar.hertz2d_normal_tangent(a, float(pair.R1), float(pair.R2),
                                                         float(pair.modulus), *weights(pair)),
                 rel=1e-11)


def test_a_step_takes_the_mean_of_the_stiffnesses_at_its_ends():
    """Eq. 32 integrated by the trapezoidal rule: ``T = T0 + (kt0 + kt1)/2 d(delta_t)`` while it
    sticks; a new contact (kt0 = 0) takes kt1; a constant kt is kept to the bit."""
    pair = ContactPair.discs(0.035, 10e9, 0.25, 0.3)
    _, a0 = normal_force(pair, 1e-5)
    _, a1 = normal_force(pair, 1.2e-5)
    kt0, kt1 = (float(tangential_stiffness(pair, a)) for a in (a0, a1))
    state = simplified_update(pair, 1.2e-5, 1e-9, 5.0, EQ33, a0)
    assert float(state.T) == pytest.approx(5.0 + 0.5 * (kt0 + kt1) * 1e-9, rel=1e-15)
    assert float(simplified_update(pair, 1.2e-5, 1e-9, 0.0).T) == pytest.approx(kt1 * 1e-9,
                                                                                rel=1e-15)
    assert scalar.step_stiffness(1.5e9, 1.5e9) == 1.5e9 and scalar.step_stiffness(0.0, 7.0) == 7.0


@given(st.floats(-1e6, 1e6), st.floats(1e3, 1e10), st.floats(-1e-3, 1e-3),
       st.one_of(st.just(0.0), st.floats(0.0, 1e6)), frictions)
def test_capped_update_matches_the_vectorised_one(T_previous, kt, d_delta_t, N, mu):
    """For every normal force a law gives (N >= 0; 0 is an open contact)."""
    expected, slipping = capped_update(T_previous, kt, d_delta_t, N, mu)
    T, slipping_s = scalar.capped_update(T_previous, kt, d_delta_t, N, mu)
    assert T == float(expected) and slipping_s == bool(slipping)


@given(pairs(), st.floats(1e-9, 1e-1))
def test_hertz_mindlin_matches_the_sphere_law(pair, overlap):
    delta = overlap * float(pair.radius)
    N, a = (float(v) for v in hertz_normal(pair, delta))
    N_s, a_s = scalar.hertz_normal(delta, float(pair.radius), float(pair.modulus))
    assert close(N_s, N) and close(a_s, a)
    G = scalar.pair_shear_modulus(float(pair.E1), float(pair.nu1), float(pair.E2),
                                  float(pair.nu2))
    assert close(G, float(pair.shear_modulus))
    assert close(scalar.mindlin_tangential_stiffness(a_s, G), 8.0 * float(pair.shear_modulus) * a)


@pytest.mark.parametrize("fraction", [1e-6, 1e-3, 0.1, 0.5, 0.85])
def test_hertz2d_tangent_and_potential_are_the_derivative_and_integral_of_N(fraction):
    R1, R2, modulus = 0.035, 0.03, 5.3e9
    limit = scalar.hertz2d_max_approach(R1, R2)
    delta = fraction * limit

    def force(d):
        return scalar.hertz2d_normal(d, R1, R2, modulus)[0]

    N, a = scalar.hertz2d_normal(delta, R1, R2, modulus)
    h = 1e-5 * delta
    slope = (force(delta + h) - force(delta - h)) / (2 * h)
    assert scalar.hertz2d_normal_tangent(a, R1, R2, modulus) == pytest.approx(slope, rel=1e-7)
    energy, _ = integrate.quad(force, 0.0, delta, epsabs=0.0, epsrel=1e-12, limit=200)
    assert scalar.hertz2d_normal_energy(a, R1, R2, modulus) == pytest.approx(energy, rel=1e-9)


def test_hertz_and_linear_potentials_are_the_integrals_of_their_forces():
    delta, radius, modulus, kn = 1e-4, 0.0175, 5.3e9, 2.7e9
    hertz, _ = integrate.quad(lambda d: scalar.hertz_normal(d, radius, modulus)[0], 0, delta,
                              epsabs=0.0, epsrel=1e-12)
    assert scalar.hertz_normal_energy(delta, radius, modulus) == pytest.approx(hertz, rel=1e-10)
    assert scalar.linear_normal_energy(delta, kn) == pytest.approx(
        integrate.quad(lambda d: scalar.linear_normal(d, kn), 0, delta)[0], rel=1e-12)
    a = scalar.hertz_normal(delta, radius, modulus)[1]
    h = 1e-6 * delta
    slope = (scalar.hertz_normal(delta + h, radius, modulus)[0]
             - scalar.hertz_normal(delta - h, radius, modulus)[0]) / (2 * h)
    assert scalar.hertz_normal_tangent(a, modulus) == pytest.approx(slope, rel=1e-8)


@pytest.mark.parametrize("omega", [(1.0, 1.0), (0.3, 1.7)])
def test_the_root_solves_the_normal_law_to_rounding_over_its_whole_range(omega):
    """Eq. 23 (22) as printed, ``delta_n = N / kn`` with kn of Eq. 29 from the logarithms of a,
    gives the approach back, from 1e-15 of the largest approach to 1 - 1e-9 of it (where the
    root is nearly double and an ulp of the approach moves a by 1e-12)."""
    R1, R2, modulus = 0.035, 0.03, 5.3e9
    limit = scalar.hertz2d_max_approach(R1, R2, *omega)
    for fraction in np.concatenate([np.logspace(-15, -0.5, 60), 1 - np.logspace(-9, -0.5, 30)]):
        delta = fraction * limit
        N, a = scalar.hertz2d_normal(delta, R1, R2, modulus, *omega)
        back = N / scalar.hertz2d_normal_stiffness(a, R1, R2, modulus, *omega)
        assert back == pytest.approx(delta, rel=1e-14 if fraction < 0.5 else 1e-12)


def test_beyond_the_largest_approach_the_kernels_return_nan():
    R1, R2 = 0.035, 0.035
    beyond = 1.01 * scalar.hertz2d_max_approach(R1, R2)
    assert all(math.isnan(v) for v in scalar.hertz2d_normal(beyond, R1, R2, 5e9))
    assert math.isnan(scalar.hertz2d_update(beyond, 0.0, 0.0, 0.0, R1, R2, 0.25, 0.25, 5e9, 0.3,
                                            EQ33.coefficients)[0])


def test_compiled_kernels_agree_with_plain_python():
    pytest.importorskip("numba")
    from hertz2d.dem.laws import kernels

    rng = np.random.default_rng(7)
    for _ in range(200):
        R1, R2 = rng.uniform(0.01, 1.0, 2)
        delta = rng.uniform(1e-9, 0.9) * scalar.hertz2d_max_approach(R1, R2)
        args = (delta, rng.normal() * 1e-6, rng.normal() * 1e3, rng.choice([0.0, 1e9]), R1, R2,
                0.25, 0.3, 5e9, 0.3, EQ33.coefficients)
        plain = scalar.hertz2d_update(*args)
        compiled = kernels.hertz2d_update(*args)
        assert compiled[5] == plain[5]
        np.testing.assert_allclose(compiled[:5], plain[:5], rtol=1e-14, atol=0.0)


def test_laguerre_rule_is_numpy_s():
    nodes, weights = np.polynomial.laguerre.laggauss(4)
    assert np.allclose(scalar.LAGUERRE_NODES, nodes, rtol=1e-14, atol=0)
    assert np.allclose(scalar.LAGUERRE_WEIGHTS, weights, rtol=1e-14, atol=0)


@pytest.mark.parametrize("fraction", [1e-12, 1e-9, 1e-6, 1e-4])
@pytest.mark.parametrize("R1, R2, nu", [(0.035, 0.035, 0.25), (0.01, 0.05, 0.4)])
def test_entry_stiffness_is_the_mean_of_kt_over_the_first_step(fraction, R1, R2, nu):
    """hertz2d_entry_stiffness against adaptive quadrature of Eq. 31's kt over the approach from
    0 to delta_n (the first step of a contact, the approach linear in time)."""
    modulus, w = scalar.pair_modulus(10e9, nu, 10e9, nu), tuple(EQ33.coefficients)
    delta_n = fraction * scalar.hertz2d_max_approach(R1, R2)
    C = scalar.hertz2d_normal_constant(R1, R2)

    def kt(s):
        _, a = scalar.hertz2d_normal(s * delta_n, R1, R2, modulus)
        return scalar.hertz2d_tangential_stiffness(a, R1, R2, nu, nu, modulus, w)

    exact = integrate.quad(kt, 0.0, 1.0, epsabs=0.0, epsrel=1e-12, limit=200)[0]
    entry = scalar.hertz2d_entry_stiffness(delta_n, R1, R2, math.log(4 * R1), math.log(4 * R2),
                                           math.exp(-C), nu, nu, modulus, w, 1.0, 1.0)
    assert entry == pytest.approx(exact, rel=1e-5)
    assert kt(1.0) > 1.03 * exact  # the end's kt, which the first step took before


def test_array_step_is_law_step_where_it_does_not_leave_the_contact():
    """hertz2d.dem.laws.simplified_steps (the engine's loops over many contacts) gives law_step's doubles
    for every contact it does not mark rare, on contacts that stick, slide, change their approach
    by more or less than omega dt of itself, are new, open at the step's middle or lie outside the
    normal law's table; and it marks exactly the new ones and those outside the table."""
    pytest.importorskip("numba")
    from hertz2d.dem import laws
    from hertz2d.dem.laws import Law, constants_row, law_step, pair_constants, parameters_tuple

    law = parameters_tuple(Law.simplified(10e9, 0.25, 0.3).parameters)
    rng = np.random.default_rng(11)
    count = 600
    R1, R2 = rng.uniform(0.03, 0.04, count), rng.uniform(0.03, 0.04, count)
    R2[::5] = R1[::5]  # walls: the disc's mirror
    largest = np.array([scalar.hertz2d_max_approach(a, b) for a, b in zip(R1, R2)])
    delta = largest * 10.0 ** rng.uniform(-9, -2, count)
    delta[:10] = largest[:10] * 0.5  # outside the table (z >= 1/8)
    middle = delta * (1.0 + rng.choice([1e-4, 3e-3, 2e-2, -0.6, -1.5], count))
    previous = [(rng.choice([0.0, 1e4]), rng.normal() * 1e2, 0.0, 0.0) for _ in range(count)]
    steps = np.zeros((laws.STEP_ROWS, count))
    constants = np.zeros((count, laws.PAIR_CONSTANTS))
    for m in range(count):
        pair_constants(laws.SIMPLIFIED, law, 0.0, 1.0, R1[m], R2[m], constants[m])
        N0, T0, _, _ = previous[m]
        kt0 = law_step(laws.SIMPLIFIED, law, constants_row(constants, m), laws.OPEN, delta[m],
                       0.0, R1[m], R2[m], delta[m], DT)[0][2] if N0 else 0.0
        previous[m] = (N0, T0, kt0, 0.0)
    steps[laws.APPROACH], steps[laws.INCREMENT] = delta, rng.normal(size=count) * delta
    steps[laws.MIDDLE], steps[laws.RADIUS_1], steps[laws.RADIUS_2] = middle, R1, R2
    steps[laws.LOG_1], steps[laws.LOG_2] = constants[:, laws.LOG_4R1], constants[:, laws.LOG_4R2]
    steps[laws.EXP_C] = constants[:, laws.EXP_MINUS_C]
    steps[laws.FORCE_0], steps[laws.TANGENTIAL_0], steps[laws.STIFFNESS_0] = np.transpose(
        previous)[:3]
    steps[laws.MASS_OVER_STEP_SQUARED] = constants[:, laws.REDUCED_MASS] / DT**2
    rare = np.empty(count, dtype=np.int64)
    laws.simplified_steps(law, steps, count, rare)
    outside = np.arange(count) < 10
    # Simpson's rule where the approach changed by more than omega dt = sqrt(k_n/m*) dt of itself
    change = 2.0 * (delta - middle)
    simpson = change**2 * steps[laws.MASS_OVER_STEP_SQUARED] > steps[laws.NEW_K_NORMAL] * middle**2
    expected = (steps[laws.FORCE_0] == 0.0) | outside | (simpson & (middle <= 0.0))
    assert np.array_equal(rare == 1, expected)
    assert 100 < np.count_nonzero(simpson & ~expected)  # both rules are exercised
    assert 100 < np.count_nonzero(~simpson & ~expected)
    for m in np.flatnonzero(~expected):
        state, k_normal, slipping, k_step = law_step(
            laws.SIMPLIFIED, law, constants_row(constants, m), previous[m], delta[m],
            steps[laws.INCREMENT, m], R1[m], R2[m], middle[m], DT)
        assert (state, k_normal, slipping, k_step) == (
            tuple(steps[[laws.NEW_NORMAL, laws.NEW_TANGENTIAL, laws.NEW_STIFFNESS,
                         laws.NEW_HALF_WIDTH], m]), steps[laws.NEW_K_NORMAL, m],
            steps[laws.NEW_SLIPPING, m] == 1.0, steps[laws.NEW_K_STEP, m])
