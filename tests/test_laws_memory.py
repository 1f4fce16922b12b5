"""Memory rules: Masing's rule and the memory rule at constant N, varying N, energy per cycle."""
import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from hertz2d.calibration.laws import (AccurateMemoryModel, AccurateModel, ContactPair, HertzMindlin,
                              HystereticState, LinearSpring, MindlinDeresiewicz,
                              SimplifiedHystereticModel, SimplifiedModel,
                              accurate_tangential_displacement, accurate_tangential_force,
                              energy_per_cycle, full_slip_displacement, hysteretic_update,
                              normal_force, stick_half_width)
from hertz2d.calibration.laws.hertz2d import ACCURATE_MAX_A_OVER_R, max_normal_approach
from hertz2d.calibration.laws.hysteretic import branch_displacement, branch_fraction
from hertz2d.checks.loadpath import LoadPath
from hertz2d.checks import InputError

PAPER = ContactPair.discs(R=0.5, E=10e9, nu=0.25, mu=0.3)  # Section 4.2
DELTA_N = 0.025  # case 1
N0, A0 = (float(v) for v in normal_force(PAPER, DELTA_N))
SLIP = float(full_slip_displacement(PAPER, N0, A0))  # Eq. 27, about 0.0133 m


def virgin(u):
    """The accurate model's first loading at case 1's N (Eqs. 24-27 inverted), any u >= 0."""
    return accurate_tangential_force(PAPER, N0, np.asarray(u, float))[0]


def held_path(delta_t):
    """Case 1's normal stage, then ``delta_t`` (one step per entry) at the held approach."""
    normal = np.linspace(0.1, 1.0, 10) * DELTA_N
    delta_t = np.asarray(delta_t, float)
    return LoadPath("hold-normal", np.r_[normal, np.full(len(delta_t), DELTA_N)],
                    np.r_[np.zeros(10), delta_t],
                    np.r_[["normal"] * 10, ["tangential"] * len(delta_t)])


def cycle(law, amplitude, steps=50, cycles=1):
    return law.run(LoadPath.build("cycle", DELTA_N, amplitude, steps, cycles=cycles))


@st.composite
def pairs(draw):
    radii, moduli, poissons = st.floats(1e-2, 10.0), st.floats(1e6, 1e12), st.floats(0.0, 0.49)
    return ContactPair(draw(radii), draw(radii), draw(moduli), draw(moduli), draw(poissons),
                       draw(poissons), draw(st.floats(0.01, 1.0)))


@given(pairs(), st.floats(1e-6, 0.05), st.floats(0.1, 3.0))
def test_accurate_memory_is_the_accurate_model_on_hold_normal_paths(pair, fraction, reach):
    delta_n = fraction * float(max_normal_approach(pair))
    N, a = normal_force(pair, delta_n)
    assume(a / min(pair.R1, pair.R2) <= ACCURATE_MAX_A_OVER_R)
    slip = float(full_slip_displacement(pair, N, a))
    path = LoadPath.build("hold-normal", delta_n, reach * slip, 8, normal_steps=2)
    memory, accurate = AccurateMemoryModel(pair).run(path), AccurateModel(pair).run(path)
    np.testing.assert_allclose(memory["T"], accurate["T"], rtol=1e-9, atol=1e-12 * pair.mu * N)
    # c ~ sqrt(delta_su - delta_t) near full slip: rounding in delta_t moves it by ~1e-8 a
    np.testing.assert_allclose(memory.c, accurate.c, rtol=1e-9, atol=1e-7 * a)
    clear = np.abs(path.delta_t - slip) > 1e-9 * slip  # at Eq. 27 itself rounding decides
    assert list(memory.slip[clear]) == list(accurate.slip[clear])


@pytest.mark.parametrize("reach", [0.3, 0.8, 1.5])
def test_unloading_and_reloading_are_masings_branches_of_the_virgin_curve(reach):
    amplitude = reach * SLIP
    table = cycle(AccurateMemoryModel(PAPER), amplitude, steps=40, cycles=2)
    peak = virgin(amplitude)
    for stage, expected in (("unloading", lambda d: peak - 2 * virgin((amplitude - d) / 2)),
                            ("reloading", lambda d: -peak + 2 * virgin((d + amplitude) / 2))):
        rows = table[table.stage == stage]
        np.testing.assert_allclose(rows["T"], expected(rows.delta_t), rtol=0,
                                   atol=1e-9 * PAPER.mu * N0)


def test_masing_loops_close_and_are_point_symmetric():
    table = cycle(AccurateMemoryModel(PAPER), 0.6 * SLIP, steps=30, cycles=3)
    peak = table["T"][table.stage == "tangential"].iloc[-1]
    ends = table.groupby((table.stage != table.stage.shift()).cumsum()).tail(1)
    for _, end in ends[ends.stage == "reloading"].iterrows():
        assert end["T"] == pytest.approx(peak, rel=1e-12)  # every loop closes at +A
    unloading = table[table.stage == "unloading"].iloc[:60]
    reloading = table[table.stage == "reloading"].iloc[:60]
    np.testing.assert_allclose(reloading.delta_t.to_numpy(), -unloading.delta_t.to_numpy(),
                               atol=1e-15)
    np.testing.assert_allclose(reloading["T"].to_numpy(), -unloading["T"].to_numpy(),
                               rtol=0, atol=1e-12 * PAPER.mu * N0)


def inner_loop_history():
    """Virgin to 0.6, back to 0.2, up to 0.4, back to 0.3, up to 0.9 (in units of Eq. 27)."""
    turning = [0.0, 0.6, 0.2, 0.4, 0.3, 0.9]
    legs = [np.linspace(start, end, 21)[1:] for start, end in zip(turning, turning[1:])]
    return np.concatenate(legs) * SLIP


def check_memory_rule(table, virgin_force):
    delta_t, T = table.delta_t.to_numpy(), table["T"].to_numpy()
    after = slice(10 + 80, None)  # the last leg, from 0.3 up to 0.9
    d, force = delta_t[after], T[after]
    T2 = virgin_force(0.6 * SLIP) - 2 * virgin_force(0.2 * SLIP)  # turning point at 0.2
    between = (d > 0.4 * SLIP + 1e-12) & (d <= 0.6 * SLIP)
    beyond = d > 0.6 * SLIP + 1e-12
    scale = PAPER.mu * N0
    # past 0.4 the inner loop has closed: back on the branch that rose from 0.2 ...
    np.testing.assert_allclose(force[between],
                               T2 + 2 * virgin_force((d[between] - 0.2 * SLIP) / 2),
                               rtol=0, atol=1e-9 * scale)
    # ... and past 0.6 that loop has closed too: back on the virgin curve
    np.testing.assert_allclose(force[beyond], virgin_force(d[beyond]), rtol=0, atol=1e-9 * scale)


def test_memory_rule_returns_to_the_earlier_branch():
    check_memory_rule(AccurateMemoryModel(PAPER).run(held_path(inner_loop_history())), virgin)


def mindlin_deresiewicz_virgin(law):
    """Hertz's sphere force at case 1's approach, the ultimate slip and Eq. 40's first loading."""
    N = float(4 / 3 * law.pair.modulus * np.sqrt(law.pair.radius) * DELTA_N**1.5)
    slip = float(law.ultimate_slip(DELTA_N))
    return N, slip, lambda u: law.pair.mu * N * (1 - (1 - np.minimum(u, slip) / slip) ** 1.5)


def test_mindlin_deresiewicz_follows_masing_with_memory():
    law = MindlinDeresiewicz(PAPER)
    N, slip, force = mindlin_deresiewicz_virgin(law)
    amplitude = 0.7 * slip
    table = law.run(LoadPath.build("cycle", DELTA_N, amplitude, 40))
    peak = force(amplitude)
    rows = table[table.stage == "unloading"]
    np.testing.assert_allclose(rows["T"], peak - 2 * force((amplitude - rows.delta_t) / 2),
                               rtol=0, atol=1e-12 * PAPER.mu * N)
    # Eq. 40's inverse delta = delta_su (1 - (1 - t)^(2/3)) integrates in closed form
    t = peak / (PAPER.mu * N)
    area = slip * PAPER.mu * N * (t - 0.6 * (1 - (1 - t) ** (5 / 3)))
    assert energy_per_cycle(table) == pytest.approx(4 * amplitude * peak - 8 * area, rel=2e-3)
    # the same memory rule as the 2D law, on the same history scaled to the sphere's slip
    history = MindlinDeresiewicz(PAPER).run(held_path(inner_loop_history() * slip / SLIP))
    rescaled = history.assign(delta_t=history.delta_t * SLIP / slip,
                              T=history["T"] * N0 / N)
    check_memory_rule(rescaled, lambda u: force(np.asarray(u) * slip / SLIP) * N0 / N)


def masing_energy(amplitude, nodes=64):
    """``4 A T_A - 8 integral_0^(T_A) delta(T) dT`` from the forward Eqs. 24-27 (Gauss-Legendre
    in r = c/a, where delta is smooth: T = mu N (1 - r^2), dT = -2 mu N r dr)."""
    limit = PAPER.mu * N0
    peak = float(virgin(amplitude))
    r_peak = np.sqrt(max(0.0, 1 - peak / limit))
    x, weights = np.polynomial.legendre.leggauss(nodes)
    r = r_peak + (1 - r_peak) * (x + 1) / 2
    delta = accurate_tangential_displacement(PAPER, N0, limit * (1 - r**2))
    area = np.sum(weights * delta * 2 * limit * r) * (1 - r_peak) / 2
    return 4 * amplitude * peak - 8 * area


@pytest.mark.parametrize("reach", [0.2, 0.6, 1.0, 1.5])
def test_energy_per_cycle_is_the_area_of_masings_loop(reach):
    table = cycle(AccurateMemoryModel(PAPER), reach * SLIP, steps=150)
    assert energy_per_cycle(table) == pytest.approx(masing_energy(reach * SLIP), rel=1e-3)


def test_small_cycles_dissipate_as_the_cube_of_the_amplitude():
    # f(u) = k0 u - k2 u^2 + ... gives 8 int f - 4 A f(A) = (4/3) k2 A^3: the exponent 3, and the
    # coefficient from the forward law's expansion delta(t) = K1 t + K2 t^2 + K3 t^3, t = T/(mu N)
    limit = PAPER.mu * N0
    t = np.linspace(1e-4, 1e-2, 40)
    delta = accurate_tangential_displacement(PAPER, N0, t * limit)
    K1, K2, _ = np.linalg.lstsq(np.column_stack([t, t**2, t**3]), delta, rcond=None)[0]
    k2 = limit * K2 / K1**3
    amplitudes = np.array([1e-3, 2e-3, 4e-3]) * SLIP
    energies = np.array([energy_per_cycle(cycle(AccurateMemoryModel(PAPER), A, steps=50))
                         for A in amplitudes])
    slopes = np.diff(np.log(energies)) / np.diff(np.log(amplitudes))
    np.testing.assert_allclose(slopes, 3.0, atol=0.02)
    assert energies[0] == pytest.approx(4 / 3 * k2 * amplitudes[0] ** 3, rel=0.01)


@pytest.mark.parametrize("reach", [0.2, 0.4, 0.6, 0.8, 1.0])
def test_hysteretic_law_is_the_accurate_model_with_memory_at_constant_N(reach):
    # the same branches (Eqs. 24-26 with w at c) followed incrementally: the energy per cycle
    # agrees to rounding (X = 1e-9), the forces to 1e-9 mu N
    memory = cycle(AccurateMemoryModel(PAPER), reach * SLIP, steps=20, cycles=2)
    hysteretic = cycle(SimplifiedHystereticModel(PAPER), reach * SLIP, steps=20, cycles=2)
    np.testing.assert_allclose(hysteretic["T"], memory["T"], rtol=0,
                               atol=1e-9 * PAPER.mu * N0)
    assert energy_per_cycle(hysteretic) == pytest.approx(energy_per_cycle(memory), rel=1e-9)
    assert energy_per_cycle(memory) > 0


@pytest.mark.parametrize("law", [AccurateMemoryModel, SimplifiedHystereticModel])
def test_normal_force_rising_keeps_T_and_falling_follows_eq7_at_the_new_N(law):
    # delta_t held at 0.4 delta_su(N0): N rises by 30 %, then falls to 40 % of N0
    held = 0.4 * SLIP
    rise = np.linspace(1.0, 1.3, 11)[1:] * DELTA_N
    fall = np.linspace(1.3, 0.4, 19)[1:] * DELTA_N
    normal = np.linspace(0.1, 1.0, 10) * DELTA_N
    path = LoadPath("file", np.r_[normal, [DELTA_N], rise, fall],
                    np.r_[np.zeros(10), [held], np.full(len(rise) + len(fall), held)],
                    np.full(10 + 1 + len(rise) + len(fall), "file"))
    table = law(PAPER).run(path)
    loaded = table.iloc[10]
    rising = table.iloc[11:11 + len(rise)]
    np.testing.assert_allclose(rising["T"], loaded["T"], rtol=1e-12)  # no tangential change
    falling = table.iloc[11 + len(rise):]
    below = falling[falling.N < loaded.N]  # below the load of the virgin branch
    T, c = accurate_tangential_force(PAPER, below.N.to_numpy(), np.full(len(below), held))
    np.testing.assert_allclose(below["T"], T, rtol=1e-9)  # the new N's virgin curve
    if law is AccurateMemoryModel:
        np.testing.assert_allclose(below.c, stick_half_width(below.N, below["T"], below.a,
                                                             PAPER.mu), rtol=1e-9, atol=1e-8 * A0)


def test_no_slip_while_T_rises_slower_than_mu_N():
    # delta_t = delta_su(N)/2 along a rising approach: the annulus entering contact sticks with
    # half the friction it could carry, so T = mu N / 2 and nothing slips (Mindlin and
    # Deresiewicz's |dT| <= mu dN)
    delta_n = np.linspace(0.1, 1.0, 20) * DELTA_N
    N, a = normal_force(PAPER, delta_n)
    path = LoadPath("file", delta_n, 0.5 * full_slip_displacement(PAPER, N, a),
                    np.full(20, "file"))
    table = AccurateMemoryModel(PAPER).run(path)
    np.testing.assert_allclose(table["T"], 0.5 * PAPER.mu * table.N, rtol=1e-12)
    assert (table.slip == "stick").all()


@pytest.mark.parametrize("law", [AccurateMemoryModel, SimplifiedHystereticModel])
def test_a_contact_that_opens_forgets_its_history(law):
    delta_n = np.r_[np.full(5, DELTA_N), [-1e-3], np.full(6, DELTA_N)]
    delta_t = np.r_[np.linspace(0.1, 0.5, 5), [0.5], 0.5 + np.linspace(0.0, 0.5, 6)] * SLIP
    table = law(PAPER).run(LoadPath("file", delta_n, delta_t, np.full(12, "file")))
    assert table["T"].iloc[5] == 0 and table.slip.iloc[5] == "open"
    np.testing.assert_allclose(table["T"].iloc[6:], virgin(delta_t[6:] - 0.5 * SLIP),
                               rtol=1e-9, atol=1e-9 * PAPER.mu * N0)


@given(st.lists(st.tuples(st.floats(-0.3, 1.0), st.floats(-1.0, 1.0)), min_size=1,
                max_size=25), st.booleans())
@example([(2.225073858507203e-309, 1.0)], False)  # a^2 underflows: found by the search
def test_coulomb_bound_holds_along_any_history(moves, hysteretic):
    # approach and tangential displacement wander, reverse and lose contact
    delta_n = np.clip(np.cumsum([m[0] for m in moves]) * 0.004, -0.01, 0.03)
    delta_t = np.cumsum([m[1] for m in moves]) * 0.005
    path = LoadPath("file", delta_n, delta_t, np.full(len(moves), "file"))
    law = SimplifiedHystereticModel if hysteretic else AccurateMemoryModel
    table = law(PAPER).run(path)
    assert np.all(np.abs(table["T"]) <= PAPER.mu * table.N * (1 + 1e-12))
    assert np.all(table.loc[table.N == 0, "T"] == 0)


def test_hysteretic_update_is_vectorised_over_contacts():
    rng = np.random.default_rng(3)
    n, steps = 20, 6
    pair = ContactPair(rng.uniform(0.2, 1, n), rng.uniform(0.2, 1, n), rng.uniform(1e9, 1e11, n),
                       rng.uniform(1e9, 1e11, n), rng.uniform(0, 0.45, n),
                       rng.uniform(0, 0.45, n), rng.uniform(0.1, 1, n))
    delta_n = rng.uniform(-0.002, 0.01, (steps, n))
    increments = rng.uniform(-2e-3, 2e-3, (steps, n))
    batch = HystereticState.unloaded(n)
    singles = [HystereticState.unloaded() for _ in range(n)]
    for k in range(steps):
        batch = hysteretic_update(pair, delta_n[k], increments[k], batch)
        for i in range(n):
            one = ContactPair(pair.R1[i], pair.R2[i], pair.E1[i], pair.E2[i], pair.nu1[i],
                              pair.nu2[i], pair.mu[i])
            singles[i] = hysteretic_update(one, delta_n[k, i], increments[k, i], singles[i])
        np.testing.assert_allclose([s.T[0] for s in singles], batch.T, rtol=1e-9, atol=1e-6)


def test_spring_laws_dissipate_only_beyond_full_slip():
    # a capped linear spring's loop: 4 mu N (A - mu N/kt) beyond full slip, nothing below
    spring = LinearSpring(2.7e9, 1.5e9, mu=0.3)
    N = 2.7e9 * DELTA_N
    onset = 0.3 * N / 1.5e9
    assert abs(energy_per_cycle(cycle(spring, 0.9 * onset))) < 1e-9 * N * onset
    assert energy_per_cycle(cycle(spring, 1.6 * onset, steps=200)) == pytest.approx(
        4 * 0.3 * N * 0.6 * onset, rel=1e-2)
    # Table 1 at constant N: kt = mu N/delta_su, so the same with delta_su (Eq. 27)
    assert abs(energy_per_cycle(cycle(SimplifiedModel(PAPER), 0.9 * SLIP))) < 1e-9 * N0 * SLIP
    assert energy_per_cycle(cycle(SimplifiedModel(PAPER), 1.5 * SLIP, steps=200)) == (
        pytest.approx(4 * 0.3 * N0 * 0.5 * SLIP, rel=1e-2))


@pytest.mark.parametrize("kind", ["cycle", "unload-normal", "proportional"])
def test_every_law_runs_the_paths_it_declares_and_refuses_the_others(kind):
    path = LoadPath.build(kind, DELTA_N, 0.5 * SLIP, 8, normal_steps=3)
    for law in (SimplifiedModel(PAPER), SimplifiedHystereticModel(PAPER),
                AccurateMemoryModel(PAPER), AccurateModel(PAPER), LinearSpring(2.7e9, 1.5e9),
                HertzMindlin(PAPER), MindlinDeresiewicz(PAPER)):
        if kind in law.paths:
            table = law.run(path)
            assert len(table) == len(path)
            assert np.all(np.abs(table["T"]) <= 0.3 * table.N * (1 + 1e-12))
        else:
            with pytest.raises(InputError, match=f"path='{kind}'"):
                law.run(path)


def test_energy_per_cycle_needs_a_cycle():
    table = AccurateMemoryModel(PAPER).run(LoadPath.build("hold-normal", DELTA_N, SLIP, 5))
    with pytest.raises(InputError, match="unloading"):
        energy_per_cycle(table)


@given(pairs(), st.floats(1e-6, 0.05))
def test_hysteretic_branch_is_eqs_24_to_27_and_its_inverse_inverts_it(pair, fraction):
    N, a = normal_force(pair, fraction * float(max_normal_approach(pair)))
    assume(a / min(pair.R1, pair.R2) <= ACCURATE_MAX_A_OVER_R)
    t = np.r_[0.0, np.logspace(-9, -1e-9, 30), 1.0]
    d = branch_displacement(pair, a, t)
    np.testing.assert_allclose(
        d, accurate_tangential_displacement(pair, N, t * pair.mu * N)
        / full_slip_displacement(pair, N, a), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(branch_fraction(pair, a, d), t, rtol=0, atol=1e-9)
