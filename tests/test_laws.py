"""The contact-law library: properties over wide parameter ranges, the paper's worked numbers."""
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from hertz2d.calibration.laws import (AccurateModel, AppendixC, ConstantPenalty, ContactPair,
                              HertzMindlin, LinearSpring, MindlinDeresiewicz, SimplifiedModel,
                              accurate_tangential_displacement, accurate_tangential_force,
                              full_slip_displacement, half_width, normal_approach, normal_force,
                              pressure, shear_traction, simplified_update, stick_half_width,
                              tangential_stiffness)
from hertz2d.calibration.laws.hertz2d import ACCURATE_MAX_A_OVER_R, max_normal_approach
from hertz2d.checks.loadpath import LoadPath
from hertz2d.checks import InputError

radii = st.floats(1e-3, 10.0)
moduli = st.floats(1e6, 1e12)
poissons = st.floats(0.0, 0.49)
#: frictionless or a physical coefficient; a subnormal mu makes mu*N subnormal and its
#: relative precision meaningless, which is floating point, not the law
frictions = st.one_of(st.just(0.0), st.floats(1e-4, 2.0))


@st.composite
def pairs(draw):
    return ContactPair(draw(radii), draw(radii), draw(moduli), draw(moduli), draw(poissons),
                       draw(poissons), draw(frictions))


#: approach as a fraction of the law's largest approach 4 (R1 + R2)/e^2
fractions = st.floats(1e-13, 0.9)

PAPER = ContactPair.discs(R=0.5, E=10e9, nu=0.25, mu=0.3)  # Section 4.2


@given(pairs(), fractions, fractions)
def test_normal_force_increases_with_the_approach(pair, f1, f2):
    assume(abs(f1 - f2) > 1e-9 * max(f1, f2))
    limit = max_normal_approach(pair)
    N1, _ = normal_force(pair, min(f1, f2) * limit)
    N2, _ = normal_force(pair, max(f1, f2) * limit)
    assert 0 < N1 < N2


@given(pairs(), fractions)
def test_eq4_and_eq23_hold_together_at_the_solution(pair, fraction):
    delta_n = fraction * max_normal_approach(pair)
    N, a = normal_force(pair, delta_n)
    assert normal_approach(pair, N) == pytest.approx(delta_n, rel=1e-10)
    assert half_width(pair, N) == pytest.approx(a, rel=1e-10)


@given(pairs(), fractions)
def test_swapping_the_bodies_changes_nothing(pair, fraction):
    delta_n = fraction * max_normal_approach(pair)
    path = LoadPath.build("hold-normal", delta_n, 0.5 * delta_n, 7, normal_steps=3)
    forward = SimplifiedModel(pair).run(path)
    backward = SimplifiedModel(pair.swapped()).run(path)
    for column in ("N", "T", "a", "kn", "kt"):
        np.testing.assert_allclose(backward[column], forward[column], rtol=1e-12)


@given(pairs(), fractions)
def test_tangential_stiffness_is_positive(pair, fraction):
    _, a = normal_force(pair, fraction * max_normal_approach(pair))
    assert tangential_stiffness(pair, a) > 0


@given(pairs(), st.lists(st.tuples(st.floats(-0.3, 1.0), st.floats(-1.0, 1.0)),
                         min_size=1, max_size=40))
def test_coulomb_bound_holds_along_any_history(pair, moves):
    # approach and tangential displacement wander, unload, reverse and lose contact
    limit = 0.5 * max_normal_approach(pair)
    delta_n = np.clip(np.cumsum([m[0] for m in moves]) * 0.05 * limit, -limit, limit)
    delta_t = np.cumsum([m[1] for m in moves]) * 0.05 * limit
    path = LoadPath("proportional", delta_n, delta_t, np.full(len(moves), "proportional"))
    table = SimplifiedModel(pair).run(path)
    assert np.all(np.abs(table["T"]) <= pair.mu * table["N"] * (1 + 1e-12) + 1e-300)
    assert np.all(table.loc[table["N"] == 0, "T"] == 0)


@given(pairs(), st.floats(1e-9, 0.1))
def test_accurate_model_is_monotone_and_reaches_eq27(pair, fraction):
    assume(pair.mu > 1e-6)
    N, a = (float(v) for v in normal_force(pair, fraction * max_normal_approach(pair)))
    assume(a / min(pair.R1, pair.R2) <= ACCURATE_MAX_A_OVER_R)
    T = np.linspace(0.0, 1.0, 41) * pair.mu * N
    delta_t = accurate_tangential_displacement(pair, N, T)
    assert delta_t[0] == pytest.approx(0.0, abs=1e-12 * delta_t[-1])
    assert np.all(np.diff(delta_t) > 0)
    assert delta_t[-1] == pytest.approx(full_slip_displacement(pair, N, a), rel=1e-12)
    c = stick_half_width(N, T, a, pair.mu)
    assert c[0] == pytest.approx(a, rel=1e-15) and c[-1] == 0.0
    back, _ = accurate_tangential_force(pair, N, delta_t)
    np.testing.assert_allclose(back, T, rtol=1e-9, atol=1e-12 * pair.mu * N)


@given(st.floats(1e-3, 10.0), moduli, poissons, frictions, st.floats(1e-6, 0.1))
def test_wall_contact_is_the_mirrored_pair_with_doubled_displacements(R, E, nu, mu, fraction):
    pair = ContactPair.discs(R, E, nu, mu)
    delta_n = fraction * float(max_normal_approach(pair))
    wall_path = LoadPath.build("hold-normal", delta_n / 2, delta_n / 4, 6, normal_steps=3)
    pair_path = LoadPath.build("hold-normal", delta_n, delta_n / 2, 6, normal_steps=3)
    # Appendix C on a wall has no rotating contact normal: it is the accurate model's rows
    for law, mirror_law in ((SimplifiedModel, SimplifiedModel), (AccurateModel, AccurateModel),
                            (AppendixC, AccurateModel)):
        wall = law(ContactPair.disc_on_wall(R, E, nu, mu)).run(wall_path)
        mirrored = mirror_law(pair).run(pair_path)
        for column in ("N", "T", "Fx", "Fz", "a"):
            np.testing.assert_allclose(wall[column], mirrored[column], rtol=1e-10)


@given(pairs(), st.floats(1e-3, 1e3), st.floats(1e-6, 0.05))
def test_scaling_the_moduli_scales_forces_and_nothing_else(pair, factor, fraction):
    scaled = ContactPair(pair.R1, pair.R2, factor * pair.E1, factor * pair.E2, pair.nu1,
                         pair.nu2, pair.mu)
    delta_n = fraction * float(max_normal_approach(pair))
    _, a = normal_force(pair, delta_n)
    assume(a / min(pair.R1, pair.R2) <= ACCURATE_MAX_A_OVER_R)
    path = LoadPath.build("hold-normal", delta_n, delta_n, 8, normal_steps=3)
    for law in (SimplifiedModel, AccurateModel, AppendixC):
        base, stiffer = law(pair).run(path), law(scaled).run(path)
        for column in ("N", "T", "Fx", "Fz", "kn", "kt"):
            np.testing.assert_allclose(stiffer[column], factor * base[column], rtol=1e-9)
        for column in ("a", "c"):
            np.testing.assert_allclose(stiffer[column], base[column], rtol=1e-9)
        assert list(stiffer.slip) == list(base.slip)


def test_papers_second_example_has_a_contact_half_width_of_about_13_percent_of_R():
    # Section 4.2: delta_n = 0.025 m "will give rise to a contact half-width of about 13 % of R"
    _, a = normal_force(PAPER, 0.025)
    assert a / 0.5 == pytest.approx(0.13, abs=0.005)


def test_accurate_secant_stiffness_falls_about_12_percent_over_partial_slip():
    # Section 4.2.2 / Fig. 13: "decreases by about 12 %" (the FEM's; the model gives its own)
    table = AccurateModel(PAPER).run(LoadPath.build("hold-normal", 0.025, 0.025, 500))
    partial = table[table.slip == "partial"]
    drop = 1 - partial.kt.iloc[-1] / partial.kt.iloc[0]
    assert 0.08 < drop < 0.16


def test_simplified_stiffness_is_the_accurate_secant_at_the_onset_of_full_slip():
    # Eq. 31 against mu N / Eq. 27, the latter from the tests' own transcription
    import test_twodisc_reference as ref
    w = 0.41
    N, a = normal_force(PAPER, 0.025)
    onset = ref.full_slip_displacement(N, 0.5, 0.5, 10e9, 0.25, PAPER.mu, w, w)
    assert tangential_stiffness(PAPER, a, ConstantPenalty(w)) == pytest.approx(
        PAPER.mu * N / onset, rel=1e-12)


def transition_path():
    N, a = normal_force(PAPER, 0.025)
    onset = float(full_slip_displacement(PAPER, N, a))
    delta_t = np.concatenate([[0.0], onset * np.array([0.5, 1 - 1e-7, 1 + 1e-7]),
                              np.linspace(1.01 * onset, 0.05, 200)])
    return LoadPath("hold-normal", np.full(len(delta_t), 0.025), delta_t,
                    np.array(["normal"] + ["tangential"] * (len(delta_t) - 1))), float(N)


@pytest.mark.parametrize("partial_slip", [AccurateModel, SimplifiedModel])
def test_appendix_c_is_continuous_at_slide_and_peaks_near_mu_N(partial_slip):
    path, N0 = transition_path()
    table = AppendixC(PAPER, partial_slip=partial_slip).run(path)
    before, after = table.iloc[2], table.iloc[3]
    assert before.slip in ("partial", "stick") and after.slip == "slide"
    assert after.Fx == pytest.approx(before.Fx, rel=1e-5)
    assert after.Fz == pytest.approx(before.Fz, rel=1e-5)
    assert table.Fx.max() <= PAPER.mu * N0 * (1 + 1e-9)
    assert table.Fx.max() >= 0.99 * PAPER.mu * N0
    slide = table[table.slip == "slide"]
    assert np.all(np.diff(slide.Fx) < 0)  # the normal rotates: F = mu N cos a - N sin a falls


@pytest.mark.parametrize("partial_slip", [AccurateModel, SimplifiedModel])
def test_appendix_c_on_a_wall_slides_at_mu_N_with_a_fixed_normal(partial_slip):
    # a disc sliding along a flat keeps its approach: N = N0, Fx = T = mu N0, Fz = N0
    wall = ContactPair.disc_on_wall(0.5, 10e9, 0.25, 0.3)
    path = LoadPath.build("hold-normal", 0.0125, 0.0125 * 8, 200)  # slides ~0.09 m
    table = AppendixC(wall, partial_slip=partial_slip).run(path)
    slide = table[table.slip == "full"]
    N0 = table.N[table.stage == "normal"].iloc[-1]
    assert len(slide) > 150 and (slide.delta_t > 0.08).any()
    np.testing.assert_allclose(slide.Fx / (wall.mu * slide.N), 1.0, rtol=1e-12)
    np.testing.assert_allclose(slide.N, N0, rtol=1e-12)
    np.testing.assert_allclose(slide.Fz, N0, rtol=1e-12)


def test_appendix_c_slide_of_two_discs_satisfies_c4_and_c5():
    # the contact normal's rotation recovered from the driving forces, (C.2)-(C.3):
    # tan(alpha) = (mu Fz - Fx) / (mu Fx + Fz); then (C.4) with Eq. 27 and (C.5) with the normal law
    path, _ = transition_path()
    table = AppendixC(PAPER).run(path)
    slide = table[table.slip == "slide"]
    mu, y0 = PAPER.mu, 1.0 - 0.025
    alpha = np.arctan2(mu * slide.Fz - slide.Fx, mu * slide.Fx + slide.Fz)
    assert alpha.iloc[-1] > 0.01  # the normal has rotated by more than half a degree
    np.testing.assert_allclose(normal_approach(PAPER, slide.N),
                               1.0 - (slide.delta_t * np.sin(alpha) + y0 * np.cos(alpha)),
                               rtol=1e-9)
    np.testing.assert_allclose(full_slip_displacement(PAPER, slide.N, slide.a),
                               slide.delta_t * np.cos(alpha) - y0 * np.sin(alpha), rtol=1e-9)


def test_simplified_update_is_vectorised_over_contacts():
    rng = np.random.default_rng(1)
    n = 50
    pair = ContactPair(rng.uniform(0.1, 1, n), rng.uniform(0.1, 1, n), rng.uniform(1e9, 1e11, n),
                       rng.uniform(1e9, 1e11, n), rng.uniform(0, 0.45, n),
                       rng.uniform(0, 0.45, n), rng.uniform(0, 1, n))
    delta_n = rng.uniform(-0.001, 0.02, n)
    step, previous = rng.uniform(-1e-3, 1e-3, n), rng.uniform(-1e6, 1e6, n)
    batch = simplified_update(pair, delta_n, step, previous)
    for i in range(n):
        one = ContactPair(pair.R1[i], pair.R2[i], pair.E1[i], pair.E2[i], pair.nu1[i],
                          pair.nu2[i], pair.mu[i])
        single = simplified_update(one, delta_n[i], step[i], previous[i])
        assert single.T == pytest.approx(batch.T[i], rel=1e-13, abs=1e-9)
        assert single.N == pytest.approx(batch.N[i], rel=1e-13)


def test_stick_is_elastic_loading_and_unloading_retrace():
    # below the Coulomb bound Eq. 32 is a spring: going back returns T to zero
    forward = np.linspace(0, 0.005, 6)
    delta_t = np.concatenate([[0.0], forward[1:], forward[::-1][1:]])
    path = LoadPath("hold-normal", np.full(len(delta_t), 0.025), delta_t,
                    np.array(["normal"] + ["tangential"] * (len(delta_t) - 1)))
    table = SimplifiedModel(PAPER).run(path)
    assert (table.slip == "stick").all() and table["T"].iloc[-1] == pytest.approx(0, abs=1e-6)


def test_constant_penalty_changes_only_the_tangential_stiffness():
    path = LoadPath.build("hold-normal", 0.025, 0.005, 5)
    eq33 = SimplifiedModel(PAPER).run(path)
    half = SimplifiedModel(PAPER, ConstantPenalty(0.5)).run(path)
    np.testing.assert_array_equal(half.N, eq33.N)
    assert not np.allclose(half.kt, eq33.kt)


def test_linear_spring_calibration_recovers_its_stiffnesses():
    spring = LinearSpring(2.7e9, 1.5e9, mu=10.0)
    table = spring.run(LoadPath.build("proportional", 0.025, 0.025, 20))
    fitted = LinearSpring.calibrate(table.delta_n, table.Fz, table.delta_t, table.Fx, mu=10.0)
    assert (fitted.kn, fitted.kt) == (pytest.approx(2.7e9, rel=1e-12),
                                      pytest.approx(1.5e9, rel=1e-12))


def test_hertz_mindlin_stiffnesses_are_the_derivatives_of_its_forces():
    path = LoadPath.build("proportional", 0.002, 1e-9, 200)
    table = HertzMindlin(PAPER).run(path)
    dN = np.gradient(table.N, table.delta_n)
    np.testing.assert_allclose(dN[20:-5], table.kn[20:-5], rtol=1e-3)  # O((h/delta)^2) error
    # Mindlin's initial tangential stiffness 8 G* a is Mindlin-Deresiewicz's initial slope
    md = MindlinDeresiewicz(PAPER).run(LoadPath.build("hold-normal", 0.002, 1e-9, 1))
    assert md.kt.iloc[-1] == pytest.approx(table.kt.iloc[-1], rel=1e-6)


def test_mindlin_deresiewicz_reaches_mu_N_at_the_ultimate_slip():
    law = MindlinDeresiewicz(PAPER)
    ultimate = float(law.ultimate_slip(0.002))
    path = LoadPath("hold-normal", np.full(3, 0.002), np.array([0.0, ultimate, 2 * ultimate]),
                    np.array(["normal", "tangential", "tangential"]))
    table = law.run(path)
    assert table["T"].iloc[1] == pytest.approx(PAPER.mu * table.N.iloc[1], rel=1e-12)
    assert table.c.iloc[1] == 0 and list(table.slip) == ["stick", "full", "full"]


@pytest.mark.parametrize("kwargs, name", [
    (dict(R1=-1.0), "R1=-1.0"), (dict(E2=0.0), "E2=0.0"), (dict(nu1=0.5), "nu1=0.5"),
    (dict(nu2=-0.01), "nu2=-0.01"), (dict(mu=-0.2), "mu=-0.2"), (dict(R2=np.nan), "R2=nan"),
])
def test_bad_parameters_raise_a_value_error_naming_them(kwargs, name):
    values = dict(R1=0.5, R2=0.5, E1=1e10, E2=1e10, nu1=0.25, nu2=0.25, mu=0.3) | kwargs
    with pytest.raises(ValueError, match=name):
        ContactPair(**values)


def test_accurate_model_refuses_contacts_wider_than_its_monotone_range():
    N, _ = normal_force(PAPER, 0.2)  # a/R about 0.5
    with pytest.raises(InputError, match="a/R=0.5"):
        accurate_tangential_force(PAPER, N, 0.01)


def test_an_approach_beyond_the_normal_law_is_refused():
    with pytest.raises(InputError, match="delta_n=0.6"):
        normal_force(PAPER, 0.6)


def test_laws_derived_at_constant_normal_force_refuse_proportional_paths():
    path = LoadPath.build("proportional", 0.025, 0.025, 5)
    for law in (AccurateModel(PAPER), AppendixC(PAPER), MindlinDeresiewicz(PAPER)):
        with pytest.raises(InputError, match="hold-normal"):
            law.run(path)


def test_library_agrees_with_the_independent_transcription_of_the_tests():
    # tests/test_twodisc_reference.py transcribes Eqs. 1, 2, 4, 7, 23, 27 separately
    import test_twodisc_reference as ref
    R1, R2, E, nu, mu = 0.4, 0.7, 7e9, 0.3, 0.4
    pair = ContactPair.discs(R1, E, nu, mu, R2=R2)
    N, a = normal_force(pair, 0.01)
    assert N == pytest.approx(ref.normal_force(0.01, R1, R2, E, nu), rel=1e-9)
    assert a == pytest.approx(ref.half_width(N, R1, R2, E, nu), rel=1e-12)
    T = 0.6 * mu * N
    c = stick_half_width(N, T, a, mu)
    assert c == pytest.approx(ref.stick_half_width(a, T, mu, N), rel=1e-12)
    x = np.linspace(-1.1, 1.1, 23) * a
    np.testing.assert_allclose(pressure(x, N, a), ref.pressure(x, N, a), rtol=1e-12)
    np.testing.assert_allclose(shear_traction(x, N, a, c, mu), ref.traction(x, mu, N, a, c),
                               rtol=1e-12, atol=1e-9 * mu * N / a)
    w = 0.37
    assert full_slip_displacement(pair, N, a, ConstantPenalty(w)) == pytest.approx(
        ref.full_slip_displacement(N, R1, R2, E, nu, mu, w, w), rel=1e-12)
