"""Dissimilar pairs: the per-body form (Eq. 22 and its tangential analogue) against the E* form."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hertz2d.calibration.laws import (AccurateModel, ContactPair, SimplifiedModel, full_slip_displacement,
                              half_width, normal_approach, normal_force, tangential_stiffness)
from hertz2d.calibration.laws.closed_forms import (normal_displacement_eq17, penalty_factor_eq33,
                                           tangential_displacement_eq20)
from hertz2d.calibration.laws.hertz2d import max_normal_approach
from hertz2d.checks.loadpath import LoadPath

radii = st.floats(1e-3, 10.0)
moduli = st.floats(1e6, 1e12)
poissons = st.floats(0.0, 0.49)

#: the review's pair: a soft small disc on a stiff large one
R1, R2, E1, E2, NU1, NU2 = 0.3, 0.7, 10e9, 70e9, 0.2, 0.35
STATED = ContactPair(R1, R2, E1, E2, NU1, NU2, 0.3)


@st.composite
def dissimilar(draw):
    return ContactPair(draw(radii), draw(radii), draw(moduli), draw(moduli), draw(poissons),
                       draw(poissons), 0.3)


@st.composite
def equal_shares(draw):
    # (1 - nu1^2)/E1 = (1 - nu2^2)/E2: each body carries half the compliance, any radii and nu
    E1, nu1, nu2 = draw(moduli), draw(poissons), draw(poissons)
    return ContactPair(draw(radii), draw(radii), E1, E1 * (1 - nu2**2) / (1 - nu1**2), nu1, nu2,
                       0.3)


@given(equal_shares(), st.floats(1e-9, 0.1))
def test_per_body_form_is_the_composite_form_when_the_bodies_share_the_compliance(pair, fraction):
    composite = pair.with_form("composite")
    delta_n = fraction * float(max_normal_approach(pair))
    assert max_normal_approach(pair) == pytest.approx(max_normal_approach(composite), rel=1e-12)
    (N, a), (Nc, ac) = normal_force(pair, delta_n), normal_force(composite, delta_n)
    assert N == pytest.approx(Nc, rel=1e-12) and a == pytest.approx(ac, rel=1e-12)
    assert full_slip_displacement(pair, N, a) == pytest.approx(
        full_slip_displacement(composite, N, a), rel=1e-12)
    path = LoadPath.build("hold-normal", delta_n, delta_n, 6, normal_steps=2)
    for law in (SimplifiedModel, AccurateModel):
        if law is AccurateModel and a / min(pair.R1, pair.R2) > 0.3:
            continue
        ours, theirs = law(pair).run(path), law(composite).run(path)
        for column in ("N", "T", "a", "c", "kn", "kt"):
            np.testing.assert_allclose(ours[column], theirs[column], rtol=1e-12)


@given(dissimilar(), st.floats(1e-9, 0.5))
def test_per_body_form_is_the_sum_of_each_bodys_eq17_and_eq20(pair, fraction):
    N, a = normal_force(pair, fraction * float(max_normal_approach(pair)))
    assert half_width(pair, N) == pytest.approx(a, rel=1e-10)  # a of Eq. 4 with E*, R*
    eq22 = sum(normal_displacement_eq17(N, E, nu, R, a)
               for R, E, nu in ((pair.R1, pair.E1, pair.nu1), (pair.R2, pair.E2, pair.nu2)))
    assert normal_approach(pair, N) == pytest.approx(eq22, rel=1e-10)
    full_slip = sum(tangential_displacement_eq20(pair.mu * N, E, nu, R, a,
                                                 np.clip(penalty_factor_eq33(a / R, nu), 0, 1))
                    for R, E, nu in ((pair.R1, pair.E1, pair.nu1), (pair.R2, pair.E2, pair.nu2)))
    assert full_slip_displacement(pair, N, a) == pytest.approx(full_slip, rel=1e-10)
    assert tangential_stiffness(pair, a) == pytest.approx(pair.mu * N / full_slip, rel=1e-10)


@given(dissimilar(), st.floats(1e-3, 1e3))
def test_composite_form_is_eq23(pair, load):
    composite = pair.with_form("composite")
    N = load * float(composite.modulus) * float(composite.radius) * 1e-3
    a = half_width(composite, N)
    eq23 = N / (np.pi * composite.modulus) * (np.log(4 * pair.R1 / a) + np.log(4 * pair.R2 / a)
                                              - 1)
    assert normal_approach(composite, N) == pytest.approx(eq23, rel=1e-12)


@given(dissimilar(), st.floats(1e-6, 1.0), st.floats(1.0, 10.0))
def test_the_normal_law_rises_to_its_stated_largest_approach_and_no_further(pair, below, above):
    # x (C - log x) peaks at x = e^(C-1): the approach at a^2 = e^(C-1) is the stated limit, and
    # the approach at any other load (narrower or wider) is smaller
    limit = float(max_normal_approach(pair))
    peak = float(np.sqrt(4 * pair.radius * limit))  # a^2 = e^(C-1) = 4 R* limit
    force = lambda a: np.pi * pair.modulus * a * a / (4 * pair.radius)  # Eq. 4 for N
    assert normal_approach(pair, force(peak)) == pytest.approx(limit, rel=1e-12)
    for a in (below * peak, above * peak):
        assert normal_approach(pair, force(a)) <= limit * (1 + 1e-12)
    N, _ = normal_force(pair, (1 - 1e-9) * limit)  # Newton converges up to the limit
    assert normal_approach(pair, N) == pytest.approx((1 - 1e-9) * limit, rel=1e-12)


@given(dissimilar(), st.floats(1e-9, 0.5))
def test_the_forms_differ_by_the_difference_of_the_two_bodies_brackets(pair, fraction):
    # per-body - composite = N/(pi E*) (s1 - s2) log(R1/R2) for the approach (at the same N),
    # mu N/(pi E*) (s1 - s2) (b1 - b2) at full slip, b_i body i's Eq. 20 bracket
    composite = pair.with_form("composite")
    N, a = normal_force(pair, fraction * float(max_normal_approach(pair)))
    s1, s2 = pair.compliance_shares
    scale = N / (np.pi * pair.modulus)
    assert normal_approach(pair, N) - normal_approach(composite, N) == pytest.approx(
        scale * (s1 - s2) * np.log(pair.R1 / pair.R2), rel=1e-8, abs=1e-12 * scale)


def stated_differences(a_over_R1):
    """Per-body against composite for the stated pair at the loads of the given a/R1."""
    a = np.asarray(a_over_R1) * R1
    N = np.pi * STATED.modulus * a * a / (4 * STATED.radius)
    composite = STATED.with_form("composite")
    approach = normal_approach(STATED, N) / normal_approach(composite, N) - 1
    slip = full_slip_displacement(STATED, N, a) / full_slip_displacement(composite, N, a) - 1
    return approach, slip


def test_stated_dissimilar_pair_differs_by_the_bracket_difference():
    a_over_R1 = np.linspace(0.06, 0.14, 9)
    approach, slip = stated_differences(a_over_R1)
    s1, s2 = STATED.compliance_shares
    a = a_over_R1 * R1
    # the closed forms of the relative differences
    np.testing.assert_allclose(approach, (s1 - s2) * np.log(R1 / R2)
                               / (np.log(16 * R1 * R2 / a**2) - 1), rtol=1e-10)
    brackets = [np.log(2 * R / a) + 0.5 + np.clip(penalty_factor_eq33(a / R, nu), 0, 1)
                * (np.log(4 * R / a) + nu / (2 * (1 - nu))) for R, nu in ((R1, NU1), (R2, NU2))]
    np.testing.assert_allclose(slip, (s1 - s2) * (brackets[0] - brackets[1])
                               / (brackets[0] + brackets[1]), rtol=1e-10)
    # the review's numbers: 6-10 % in the approach, 7-9 % in the full-slip displacement (the
    # per-body form being the stiffer one for the soft small disc), over a/R1 = 0.06-0.14
    assert np.all((-approach >= 0.06) & (-approach <= 0.10))
    assert np.all((-slip >= 0.07) & (-slip <= 0.09))
    assert np.all(np.diff(-approach) > 0)  # wider contacts differ more


def test_dundurs_beta_vanishes_for_one_material_and_reaches_the_rigid_limit():
    one_material = ContactPair.discs(0.5, 10e9, 0.25, 0.3, R2=0.2)
    assert one_material.dundurs_beta == pytest.approx(0, abs=1e-15)
    nu = 0.25
    on_rigid = ContactPair(0.5, 0.5, 10e9, 10e9 * 1e9, nu, 0.3, 0.3)  # a (nearly) rigid body 2
    assert on_rigid.dundurs_beta == pytest.approx((1 - 2 * nu) / (2 * (1 - nu)), rel=1e-6)
    assert abs(STATED.dundurs_beta) == pytest.approx(0.3, abs=0.01)  # the review's "about 0.3"
