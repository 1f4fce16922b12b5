"""The calibrated law against its closed forms: the virgin curve (C1), Masing's rule and its energy
(bodies of one material and a dissimilar pair alike), the memory rule, the secant of a sticking
proportional load, Coulomb's bound, elastic stick at any friction, the bounded memory, the stored
energy against its double integral, the normal coupling against the derivative of the
structural compliance, and its kernels (Lambert's W, the compiled batch) against independent
evaluations."""
import json
import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq

from hertz2d.calibration.laws import ContactPair, energy_per_cycle
from hertz2d.calibration.laws import calibrated_kernel as kernel
from hertz2d.calibration.laws.calibrated import (FORMAT, FORMAT_VERSION, SHIPPED_COEFFICIENTS,
                                         CalibratedCoefficients, CalibratedModel,
                                         CalibratedState, branch_displacement, calibrated_update,
                                         coupling_beta, curve_constants)
from hertz2d.calibration.laws.hertz2d import normal_force
from hertz2d.calibration.laws.rigid_kinematics import contact_frame
from hertz2d.checks import InputError
from hertz2d.checks.loadpath import LoadPath
from tests.test_readme_performance import benchmark_module

#: a set of coefficients with every term switched on (not a fit: the tests are about the law)
COEFFICIENTS = CalibratedCoefficients(
    penalty=(0.08, 0.85, 0.12, -3.8, 1.8, 0.48), coupling_width=(0.9,),
    bracket=(-0.35, 1.7, 1.3, 0.07), stick=(2.0,), first_slip=(0.3, 0.6))
EQUAL = ContactPair.discs(0.5, 10e9, 0.25, 0.3)
DISSIMILAR = ContactPair(0.3, 0.7, 10e9, 70e9, 0.2, 0.35, 0.4)
DELTA_N = 0.01


def walk(pair, overlaps, increments, coefficients=COEFFICIENTS, seated=True):
    """The law's T, N along prescribed pair overlaps and increments (one contact); ``seated``:
    the contact is first loaded normally at the first overlap (a step with no tangential
    increment, not in the returned arrays), so that a constant overlap is a constant N."""
    state, T, N = CalibratedState.unloaded(), [], []
    if seated:
        state = calibrated_update(pair, np.ravel(overlaps)[0], 0.0, state, coefficients)
    for overlap, increment in zip(np.broadcast_to(overlaps, np.shape(increments)), increments):
        state = calibrated_update(pair, overlap, increment, state, coefficients)
        T.append(state.T[0])
        N.append(state.N[0])
    return np.array(T), np.array(N), state


def constants(pair, coefficients=COEFFICIENTS):
    N, a = (float(v) for v in normal_force(pair, DELTA_N))
    found = curve_constants(pair, a, coefficients)
    s = float(pair.mu) * N / (math.pi * float(pair.modulus))
    return N, s, found


@pytest.mark.parametrize("pair", [EQUAL, DISSIMILAR], ids=["equal", "dissimilar"])
def test_first_loading_is_the_closed_form_c1(pair):
    """The first loading of a contact closed under normal load is (C1) with its displacement
    stretched by ``1 + first_slip`` (Spence's locked-in shear; 1 for one material)."""
    N, s, found = constants(pair)
    stretch = 1.0 + float(found.first_slip)
    assert (stretch > 1.0) == (pair is DISSIMILAR)
    steps = np.full(60, 1.3 * stretch * s * float(found.B) / 60)  # to beyond full slip
    T, _, _ = walk(pair, DELTA_N, steps)
    B, kappa = float(found.B), float(found.kappa)
    for delta, force in zip(np.cumsum(steps), T):
        u = delta / (stretch * s)
        expected = 1.0 if u >= B else brentq(
            lambda t: branch_displacement(t, B, kappa) - u, 0.0, 1.0 - 1e-16, xtol=1e-15)
        assert force / (float(pair.mu) * N) == pytest.approx(expected, rel=1e-10, abs=1e-12)


def cycle_of(pair, fraction, n=400):
    """One cycle of amplitude ``fraction`` of the first loading's full slip at constant N: the
    increments, the displacements, the forces and the constants."""
    N, s, found = constants(pair)
    A = fraction * s * float(found.B)
    increments = np.r_[np.full(n, A / n), np.full(2 * n, -A / n), np.full(2 * n, A / n)]
    T, _, _ = walk(pair, DELTA_N, increments)
    return np.cumsum(increments), T, A, N, s, found


def branch_force(pair, N, s, B, kappa):
    """What a Masing branch has taken off its start after a travel x: 2 mu N t(x/(2 s))."""
    def force(x):
        return 2 * float(pair.mu) * N * brentq(
            lambda t: branch_displacement(t, B, kappa) - x / (2 * s), 0.0, 1.0 - 1e-16,
            xtol=1e-15)
    return force


def test_one_material_follows_masing_and_the_loop_has_its_energy():
    """Bodies of one material (beta = 0): after the reversal at +A, T = T_A - 2 f((A - delta)/2)
    with f the first loading's curve, the loop closes at +A, and its area is
    ``2 integral_0^(2A) g - 2A g(2A)``, g the branch's force taken off (Masing)."""
    delta, T, A, N, s, found = cycle_of(EQUAL, 0.4)
    n = 400
    masing = branch_force(EQUAL, N, s, float(found.B), float(found.kappa))
    T_A = T[n - 1]
    for k in range(n, 5 * n, 53):
        turning = A if k < 3 * n else -A
        start = T_A if k < 3 * n else T[3 * n - 1]
        expected = start - np.sign(turning) * masing(abs(turning - delta[k]))
        assert T[k] == pytest.approx(expected, rel=1e-9, abs=1e-9 * T_A)
    assert T[-1] == pytest.approx(T_A, rel=1e-9) and T[3 * n - 1] == pytest.approx(-T_A, rel=1e-9)
    expected = 2 * quad(masing, 0.0, 2 * A, epsabs=1e-12)[0] - 2 * A * masing(2 * A)
    table = pd.DataFrame({"delta_t": np.r_[0, delta], "Fx": np.r_[0, T],
                          "delta_n": np.zeros(len(delta) + 1), "Fz": np.zeros(len(delta) + 1),
                          "stage": ["normal"] + ["tangential"] * n + ["unloading"] * 2 * n
                          + ["reloading"] * 2 * n})
    assert energy_per_cycle(table) == pytest.approx(expected, rel=1e-4)


def test_a_dissimilar_pair_s_branches_follow_masing_on_the_pair_s_curve():
    """beta != 0: the branch after the reversal is Masing's on the pair's curve, unstretched,
    while its front crosses what the first loading's did (a travel up to 2A over the stretch);
    beyond it the front crosses the untouched area and slips more, so the branch ends below
    -T_A (the FEM's first loading is softer than its loops); from there the loops are Masing's
    among themselves: the second unloading returns to the first's end and the second reloading
    retraces the first."""
    N, s, found = constants(DISSIMILAR)
    stretch = 1.0 + float(found.first_slip)
    A, n = 0.4 * s * float(found.B), 400
    increments = np.r_[np.full(n, A / n), np.full(2 * n, -A / n), np.full(2 * n, A / n),
                       np.full(2 * n, -A / n), np.full(2 * n, A / n)]
    T, _, _ = walk(DISSIMILAR, DELTA_N, increments)
    delta = np.cumsum(increments)
    masing = branch_force(DISSIMILAR, N, s, float(found.B), float(found.kappa))
    T_A = T[n - 1]
    inside = [k for k in range(n, 3 * n) if A - delta[k] <= 2 * A / stretch]
    assert len(inside) > n
    for k in inside:
        assert T[k] == pytest.approx(T_A - masing(A - delta[k]), rel=1e-9, abs=1e-9 * T_A)
    assert T[3 * n - 1] < -T_A * (1 + 1e-3)
    assert T[7 * n - 1] == pytest.approx(T[3 * n - 1], rel=1e-9)
    np.testing.assert_allclose(T[7 * n:9 * n], T[3 * n:5 * n], rtol=1e-9, atol=1e-9 * T_A)


def test_a_closed_inner_loop_returns_to_the_outer_branch():
    """Memory: an inner loop inside the unloading branch closes, and the branch goes on as if it
    had not been there (constant N, bodies of one material)."""
    _, s, found = constants(EQUAL)
    A, n = 0.5 * s * float(found.B), 200
    plain = np.r_[np.full(n, A / n), np.full(2 * n, -A / n)]
    inner = np.r_[np.full(n, A / n), np.full(n // 2, -A / n), np.full(n // 4, A / n),
                  np.full(n // 4, -A / n), np.full(3 * n // 2, -A / n)]
    T_plain, _, _ = walk(EQUAL, DELTA_N, plain)
    T_inner, _, _ = walk(EQUAL, DELTA_N, inner)
    assert T_inner[-1] == pytest.approx(T_plain[-1], rel=1e-9)


@pytest.mark.parametrize("pair", [EQUAL, DISSIMILAR], ids=["equal", "dissimilar"])
def test_a_sticking_proportional_load_follows_the_secant_of_eq31(pair):
    """delta_n and delta rising together below the slip ratio: every annulus sticks, and
    T (1 + annulus_slip T/(mu N)) = pi E* delta / B(a) (the Hertzian traction's compliance, and
    the rim's extra slip between dissimilar bodies, in proportion to the share of the bound T
    has reached), Mindlin and Deresiewicz's proportional loading."""
    steps = 200
    overlaps = DELTA_N * np.arange(1, steps + 1) / steps
    N_end, a_end = (float(v) for v in normal_force(pair, DELTA_N))
    B_end = float(curve_constants(pair, a_end, COEFFICIENTS).B)
    ratio = 0.3 * float(pair.mu) * N_end / DELTA_N / (math.pi * float(pair.modulus) / B_end)
    T, N, _ = walk(pair, overlaps, np.full(steps, ratio * DELTA_N / steps), seated=False)
    a = normal_force(pair, overlaps)[1]
    found = curve_constants(pair, a, COEFFICIENTS)
    elastic = math.pi * float(pair.modulus) * ratio * overlaps / found.B
    extra = found.annulus_slip / (float(pair.mu) * N)
    secant = 2.0 * elastic / (1.0 + np.sqrt(1.0 + 4.0 * extra * elastic))
    assert np.all((found.annulus_slip > 0) == (pair is DISSIMILAR))
    assert np.all(np.abs(T) < float(pair.mu) * N)
    # within 0.5 % (1 % with the extra slip): the finite bodies' compliance (the penalty term,
    # at the current a) changes as the contact grows, so the annuli laid earlier stand for a
    # little more displacement than when they were laid, and the newest annulus takes a little
    # less (at the extra slip's stretch, less again)
    np.testing.assert_allclose(T[steps // 10:], secant[steps // 10:],
                               rtol=1e-2 if pair is DISSIMILAR else 5e-3)


def test_an_entering_annulus_takes_its_share_at_the_extra_slip():
    """A new contact's first step, a tangential increment d with the approach: its one annulus
    (span s B) takes ``d/(s (B + annulus_slip l (B - slope/2)))`` of its density, the extra slip
    measured by (C1) over the widths the contact grew through from 0 (s proportional to a^2, B
    linear in log a^2 at half the slope's rate: the mean of B - kappa over them is B - slope/2
    - kappa, with s B's kappa-free first touch) at the step's middle share of the bound, l =
    |T|/(2 mu N) with T = pi E* d/B the end of the step without the extra (0 at its start):
    T = pi E* d/(B + annulus_slip l (B - slope/2)) exactly."""
    N, a = (float(v) for v in normal_force(DISSIMILAR, DELTA_N))
    found = curve_constants(DISSIMILAR, a, COEFFICIENTS)
    d = 1e-3 * float(found.B) * float(DISSIMILAR.mu) * N / (math.pi * float(DISSIMILAR.modulus))
    T, _, _ = walk(DISSIMILAR, DELTA_N, [d], seated=False)
    B, slope = float(found.B), float(found.slope)
    level = math.pi * float(DISSIMILAR.modulus) * d / B / (2.0 * float(DISSIMILAR.mu) * N)
    expected = math.pi * float(DISSIMILAR.modulus) * d / (
        B + float(found.annulus_slip) * level * (B - 0.5 * slope))
    assert T[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("which, falls", [(0, False), (1, False), (0, True)],
                         ids=["front", "annulus", "front-receding"])
def test_the_extra_slips_converge_at_second_order_in_the_step(which, falls):
    """A seated contact (closed at half the final approach, no tangential load) grows to twice
    its approach while sheared at a constant rate, a slip front moving in from its rim, in n
    equal steps: what the front's or the annulus's extra slip moves T by (T with first_slip or
    annulus_slip less T without) converges at second order in 1/n (each doubling of n cuts its
    change by about 4), where measuring the extra at the step's end alone makes it first order
    (about 2), and so does the rim's share |T|/(mu N) of the bound taken at the step's start.
    Receding: closed at the full approach, it falls to half of it while sheared less (0.1 B s),
    and a thin slip zone at the receding rim crosses the untouched area the rim leaves; each
    step's crossing is cut with the rim in the same step (a crossing taken inside the new rim,
    cut in the next step and crossed again, makes it first order). Inside the largest area the
    structural compliance is held, (C1)'s curve is then the same at every width but for the
    scale, and the receding steps are exact: the extra is the same at every n to rounding."""
    pair = DISSIMILAR
    plain = replace(COEFFICIENTS, first_slip=(0.0, 0.0))
    extra = replace(COEFFICIENTS, first_slip=tuple(
        value if k == which else 0.0 for k, value in enumerate(COEFFICIENTS.first_slip)))
    N, s, found = constants(pair)
    amplitude = (0.1 if falls else 0.8) * float(found.B) * s  # a front moves in, short of full slip

    def end_force(coefficients, n):
        ramp = np.arange(0, n + 1) / n
        overlaps = DELTA_N * ((1.0 - 0.5 * ramp) if falls else (1.0 + ramp) / 2.0)
        T, _, _ = walk(pair, overlaps, np.r_[0.0, np.full(n, amplitude / n)], coefficients)
        return T[-1]

    moved = np.array([end_force(extra, n) - end_force(plain, n) for n in (25, 50, 100, 200)])
    assert abs(moved[-1]) > 1e-3 * float(pair.mu) * N  # the extra slip is there
    if falls:
        assert np.ptp(moved) < 1e-12 * float(pair.mu) * N
        return
    changes = np.diff(moved)
    np.testing.assert_allclose(changes[:-1] / changes[1:], 4.0, rtol=0.1)


def test_the_rim_s_extra_slip_acts_on_fresh_area_only():
    """A contact closed at the full approach recedes to half of it and grows back, sheared at a
    constant rate (a front moving in from the rim): the band it covers again was laid, and
    slipped over, when the contact first closed, so the annulus's extra slip moves T by nothing
    (exactly: it is not taken) while the contact shrinks and grows back. Growing on beyond its
    largest area, to 1.4 times the approach, the fresh annulus slips its extra: T moves by more
    than 1e-3 mu N."""
    pair = DISSIMILAR
    plain = replace(COEFFICIENTS, first_slip=(0.0, 0.0))
    extra = replace(COEFFICIENTS, first_slip=(0.0, COEFFICIENTS.first_slip[1]))
    N, s, found = constants(pair)
    n = 100
    ramp = np.arange(0, n + 1) / n
    overlaps = DELTA_N * np.r_[1.0 - 0.5 * ramp, 0.5 + 0.5 * ramp[1:], 1.0 + 0.4 * ramp[1:]]
    increments = np.r_[0.0, np.full(len(overlaps) - 1, 0.3 * float(found.B) * s / n)]
    moved = walk(pair, overlaps, increments, extra)[0] - walk(pair, overlaps, increments, plain)[0]
    assert np.all(moved[:2 * n + 1] == 0.0)
    assert abs(moved[-1]) > 1e-3 * float(pair.mu) * N


def test_a_contact_that_slides_as_it_closes_has_the_untouched_area_where_it_grows_on():
    """A contact that closes with a tangential motion (a DEM's oblique touch) slides in full in
    its first step, which wipes out the locked-in shear of what it covers; then it grows at a
    fixed tangential displacement, and the area it gains is laid under normal load (the untouched
    area starts again at the rim: its inner edge is the area of the full slip). Sheared back, the
    front crosses that band and slips its extra: T moves by more than 1e-3 mu N against the same
    law without the front's extra (a full slip that ended the untouched area for good would leave
    the two equal)."""
    pair = DISSIMILAR
    plain = replace(COEFFICIENTS, first_slip=(0.0, 0.0))
    extra = replace(COEFFICIENTS, first_slip=(COEFFICIENTS.first_slip[0], 0.0))
    N, s, found = constants(pair)
    n = 100
    overlaps = DELTA_N * np.r_[0.05, np.linspace(0.05, 1.0, n + 1)[1:], np.ones(n)]
    increments = np.r_[float(found.B) * s, np.zeros(n), np.full(n, -0.3 * float(found.B) * s / n)]
    first = walk(pair, overlaps[:1], increments[:1], extra, seated=False)[2]
    area = float(first.history[0, kernel.AREA])
    assert first.slipping[0] and float(first.history[0, kernel.SLID]) == area
    grown = walk(pair, overlaps[:n + 1], increments[:n + 1], extra, seated=False)[2]
    assert float(grown.history[0, kernel.UNTOUCHED]) == float(grown.history[0, kernel.AREA])
    moved = (walk(pair, overlaps, increments, extra, seated=False)[0]
             - walk(pair, overlaps, increments, plain, seated=False)[0])
    assert np.all(moved[:n + 1] == 0.0)
    assert abs(moved[-1]) > 1e-3 * float(pair.mu) * N


def test_the_first_touch_sliding_or_not_leaves_the_step_convergence_smooth():
    """The reversing path of ``benchmarks/calibrated_memory_order.py`` (the paper's disc on a
    rigid wall, approach ``2e-5 sin(pi s)``, tangential displacement ``A' sin(2 pi s)``, reversing
    while the contact grows and while it shrinks): in the first step the contact sticks at few
    steps and slides in full at many (its first annulus cannot take the step's increment). T at
    s = 1/2 and 3/4 change, from n = 200 to 1600 steps, by less each doubling, each change under
    0.6 of the one before: the untouched area, which a full slip starts again at the rim, is laid
    on as the contact grows either way (ended for good by the full slip, T(1/2) and T(3/4) moved
    by 5 and 7 % of themselves between n = 400 and 800)."""
    bench = benchmark_module("calibrated_memory_order")
    pair = ContactPair.disc_on_wall(bench.RADIUS, bench.E, bench.NU, bench.MU)
    coefficients = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    peak = calibrated_update(pair, bench.PEAK, 0.0, CalibratedState.unloaded(), coefficients)
    amplitude = 0.6 * bench.MU * float(peak.N[0]) / float(peak.kt[0])
    found = np.array([bench.reversals(pair, coefficients, amplitude, n, False)[:2]
                      for n in (200, 400, 800, 1600)])
    changes = np.abs(np.diff(found, axis=0))
    assert np.all(changes[1:] < 0.6 * changes[:-1]), changes / np.abs(found[-1])


def test_the_front_s_extra_slip_converges_where_t_crosses_zero_on_a_receding_contact():
    """N rises and falls (the approach a sine) while the tangential displacement reverses
    (``sin(1.5 pi t)``): on the receding contact a slip front of the new sign crosses the
    untouched area while T still has the old sign, and T crosses zero on the way. What the
    front's extra slip moves T by at t = 0.8 (well after the crossing) settles to 2e-5 mu N
    from 400 steps on; a factor switched only at the steps' ends (the extra all or nothing
    within the crossing step) leaves changes of 6e-4 and 1.5e-4 mu N there, first order."""
    pair = DISSIMILAR
    plain = replace(COEFFICIENTS, first_slip=(0.0, 0.0))
    extra = replace(COEFFICIENTS, first_slip=(COEFFICIENTS.first_slip[0], 0.0))
    N, s, found = constants(pair)

    def force(coefficients, n):
        t = 0.8 * np.arange(0, n + 1) / n
        overlaps = DELTA_N * np.sin(np.pi * (0.05 + 0.9 * t))
        shifts = 0.3 * float(found.B) * s * np.sin(1.5 * np.pi * t)
        return walk(pair, overlaps, np.r_[0.0, np.diff(shifts)], coefficients)[0][-1]

    moved = np.array([force(extra, n) - force(plain, n) for n in (400, 800, 1600)])
    assert abs(moved[-1]) > 1e-2 * float(pair.mu) * N  # the extra slip is there
    assert np.all(np.abs(np.diff(moved)) < 2e-5 * float(pair.mu) * N)


def test_the_extra_slip_is_taken_for_the_share_of_a_step_after_t_reaches_its_sign():
    """A step that starts with T negative and whose positive front crosses the untouched area
    (a first loading to -A, then +3A at once) ends with T positive and takes the extra slip for
    its share after T crossed zero: T falls short of the plain law's step (by at least 0.1 %)
    and keeps more than half of it. A step that leaves T negative (+A/4) is the
    plain law's: the extra slip would do negative work there. The same +3A from the seated
    contact (T = 0 before it) is stretched in full. (That the share converges where T crosses
    zero: the test above.)"""
    _, s, found = constants(DISSIMILAR)
    plain = replace(COEFFICIENTS, first_slip=(0.0, 0.0))
    A = 0.2 * s * float(found.B)

    def step_from(increments, last, coefficients):
        state = calibrated_update(DISSIMILAR, DELTA_N, 0.0, CalibratedState.unloaded(),
                                  COEFFICIENTS)
        for increment in increments:
            state = calibrated_update(DISSIMILAR, DELTA_N, increment, state, COEFFICIENTS)
        before = float(state.T[0])
        untouched = float(state.history[0, kernel.UNTOUCHED])
        state = calibrated_update(DISSIMILAR, DELTA_N, last, state, coefficients)
        return before, untouched, state

    before, untouched, stretched = step_from([-A], 3 * A, COEFFICIENTS)
    end = float(step_from([-A], 3 * A, plain)[2].T[0])
    assert before < 0.0 < end and float(stretched.history[0, kernel.UNTOUCHED]) < untouched
    assert end * 0.5 < float(stretched.T[0]) < end * (1 - 1e-3)
    still = step_from([-A], 0.25 * A, COEFFICIENTS)[2]
    assert float(still.T[0]) < 0.0
    assert float(still.T[0]) == pytest.approx(float(step_from([-A], 0.25 * A, plain)[2].T[0]),
                                              rel=1e-12)
    fresh = (float(step_from([], 3 * A, c)[2].T[0]) for c in (COEFFICIENTS, plain))
    assert next(fresh) < next(fresh) * (1 - 1e-3)


@pytest.mark.parametrize("seed", range(4))
def test_random_histories_respect_coulomb_and_bounded_memory(seed):
    rng = np.random.default_rng(seed)
    pair = DISSIMILAR if seed % 2 else ContactPair.disc_on_wall(0.5, 10e9, 0.1, 0.2)
    overlaps = DELTA_N * (0.6 + 0.4 * np.abs(np.sin(np.cumsum(rng.normal(0, 0.3, 600)))))
    overlaps[250:260] = -1e-4  # an opening: the memory goes
    increments = rng.normal(0, 2e-5, 600)
    T, N, state = walk(pair, overlaps, increments)
    assert np.all(np.abs(T) <= float(pair.mu) * N * (1 + 1e-12) + 1e-9)
    assert np.all(T[250:260] == 0.0)
    assert 0 <= state.history[0][0] <= kernel.PIECES


@pytest.mark.parametrize("pair", [
    EQUAL, ContactPair(0.5, 0.5, 10e9, 100e9, 0.25, 0.25, 1e6),
    ContactPair.disc_on_wall(0.5, 10e9, 0.0, 1e6)], ids=["equal", "stiff-counterpart", "wall"])
def test_stick_at_constant_n_is_elastic(pair):
    """0 -> d -> 0 at constant N with friction 1e6: T returns to its start within 1e-9 of its
    peak, and the loading and unloading stiffnesses agree (the review found 7-9 % of the peak
    left for E2/E1 = 10 and a wall at nu = 0 with a first-loading curve of its own)."""
    pair = ContactPair(pair.R1, pair.R2, pair.E1, pair.E2, pair.nu1, pair.nu2, 1e6, pair.wall)
    d = 1e-3 * DELTA_N
    T, _, _ = walk(pair, DELTA_N, np.r_[np.full(50, d / 50), np.full(50, -d / 50)])
    peak = T[49]
    assert abs(T[-1]) <= 1e-9 * peak
    assert (T[1] - T[0]) == pytest.approx(T[49] - T[50], rel=1e-9)


def test_beta_and_the_curves():
    assert float(coupling_beta(EQUAL)) == 0.0
    wall = ContactPair.disc_on_wall(0.5, 10e9, 0.25, 0.3)
    assert float(coupling_beta(wall)) == pytest.approx(1.0 / 3.0)
    assert float(coupling_beta(DISSIMILAR)) == pytest.approx(abs(float(DISSIMILAR.dundurs_beta)))


@pytest.mark.parametrize("pair", [EQUAL, DISSIMILAR, ContactPair.disc_on_wall(0.5, 10e9, 0.0, 0.05),
                                  ContactPair(0.5, 5.0, 10e9, 20e9, 0.35, 0.45, 0.05),
                                  ContactPair.discs(0.5, 10e9, 0.45, 0.1)],
                         ids=["equal", "dissimilar", "wall", "large", "nu045"])
def test_the_structural_compliance_never_grows_with_the_contact(pair):
    """kappa (the pair's stick-zone weight) is at most the ceiling that keeps ``slope = a dB/da
    + 2 kappa`` <= 0 for a/R1 up to 0.3, checked on a grid four times finer than the ceiling's
    own, against B's derivative by central differences: the normal coupling term is then never
    negative and Coulomb's bound holds for the normal force the law reports."""
    a = np.linspace(2e-4, 0.3, 1201) * float(pair.R1)
    found = curve_constants(pair, a, COEFFICIENTS)
    assert np.all(found.slope <= 0.0)
    h = 1e-6 * a
    numeric = a * (curve_constants(pair, a + h, COEFFICIENTS).B
                   - curve_constants(pair, a - h, COEFFICIENTS).B) / (2 * h) + 2 * found.kappa
    np.testing.assert_allclose(found.slope, numeric, atol=1e-7)
    assert np.all(found.B - found.kappa > 1.0)


def test_the_stick_weight_stays_between_its_floor_and_its_ceiling():
    """kappa = FLOOR + (k - FLOOR) exp(-s beta^2) with k = max(ceiling, FLOOR): for every
    admissible s and |beta| up to 1/2 it lies in [FLOOR, k] (the bound the admissibility argument
    needs), is the ceiling itself at s = 0 or beta = 0, and falls with |beta| when s > 0; a
    ceiling below the floor gives the floor."""
    from hertz2d.calibration.laws.calibrated import KAPPA_FLOOR, stick_weight
    low, high = CalibratedCoefficients.admissible()["stick"][0]
    ceiling = np.array([0.01, 0.3, 0.97, 1.2])[:, None, None]
    beta = np.linspace(0.0, 0.5, 11)[None, :, None]
    rate = np.linspace(low, high, 7)[None, None, :]
    kappa = stick_weight(ceiling, beta, rate)
    top = np.maximum(ceiling, KAPPA_FLOOR)
    assert np.all((kappa >= KAPPA_FLOOR) & (kappa <= top + 1e-15))
    np.testing.assert_allclose(kappa[:, :, 0], np.broadcast_to(top[:, :, 0], (4, 11)), rtol=1e-15)
    np.testing.assert_allclose(kappa[:, 0, :], np.broadcast_to(top[:, 0, :], (4, 7)), rtol=1e-15)
    assert np.all(np.diff(kappa[1:, :, 1:], axis=1) < 0)
    assert np.all(kappa[0] == KAPPA_FLOOR)


@pytest.mark.parametrize("ratio", [10 / 9, 1.5, 3.0, 12.0, 60.0])
def test_the_slip_front_inverts_the_displacement_curve(ratio):
    """front_fraction solves ``y (B - kappa log y) = v`` (C2) for y in (0, 1] through W_{-1}:
    put back into the curve, the front gives v to rounding, from a front at the edge (v next to
    B) to one next to the centre (v 1e-12 of B), for every B/kappa the fit allows (>= 10/9)."""
    kappa = 0.7
    B = ratio * kappa
    v = B * np.r_[np.geomspace(1e-12, 0.5, 40), 1 - np.geomspace(1e-12, 0.5, 40)]
    y, log_y = np.array([kernel.front_fraction(float(x), B, kappa) for x in v]).T
    assert np.all((y > 0) & (y <= 1))
    np.testing.assert_allclose(y * (B - kappa * np.log(y)), v, rtol=1e-12)
    np.testing.assert_allclose(log_y, np.log(y), rtol=1e-15, atol=1e-15)
    assert kernel.front_fraction(B, B, kappa) == (1.0, 0.0)
    assert kernel.front_fraction(0.0, B, kappa)[0] == 0


def test_compiled_batch_equals_the_python_law():
    pytest.importorskip("numba")
    from hertz2d.calibration.calibrate.objective import compiled_kernel
    rng = np.random.default_rng(3)
    rows, steps = 5, 120
    N = 1e6 * (1 + 0.5 * np.abs(np.sin(np.cumsum(rng.normal(0, 0.2, (rows, steps)), axis=1))))
    a = 1e-3 * np.sqrt(N / 1e6)
    d = rng.normal(0, 3e-6, (rows, steps))
    mu, modulus = np.full(rows, 0.3), np.full(rows, 5e9)
    B = 9.0 + 0.1 * np.sin(np.arange(steps))[None, :] * np.ones((rows, 1))
    kappa = np.full(rows, 0.9)
    slope = -0.4 + 0.05 * np.cos(np.arange(steps))[None, :] * np.ones((rows, 1))
    first, annulus = np.linspace(0.0, 0.2, rows), np.linspace(0.3, 0.0, rows)
    compiled, plain = np.zeros((rows, steps)), np.zeros((rows, steps))
    compiled_slope, plain_slope = np.zeros((rows, steps)), np.zeros((rows, steps))
    compiled_kernel().run_batch(N, a, d, mu, modulus, B, kappa, slope, first, annulus, compiled,
                                compiled_slope, kernel.FOLD)
    kernel.run_batch(N, a, d, mu, modulus, B, kappa, slope, first, annulus, plain, plain_slope,
                     kernel.FOLD)
    np.testing.assert_allclose(compiled, plain, rtol=1e-12, atol=1e-6)
    np.testing.assert_array_equal(compiled_slope, plain_slope)
    # the coupling's slope is the curve's where the contact covers its largest area, else 0
    at_largest = a >= np.maximum.accumulate(a, axis=1)
    assert np.array_equal(plain_slope != 0.0, at_largest)


def test_model_runs_in_the_frame_of_the_line_of_centres():
    """A wall: no turning frame, Fx = T; two discs: Fx = T cos a - N sin a, |F| = |(N, T)|."""
    wall = CalibratedModel(ContactPair.disc_on_wall(0.5, 10e9, 0.25, 0.3), COEFFICIENTS)
    path = LoadPath.build("hold-normal", 0.005, 0.004, 10)
    table = wall.run(path)
    np.testing.assert_array_equal(table.Fx, table["T"])
    discs = CalibratedModel(EQUAL, COEFFICIENTS).run(LoadPath.build("hold-normal", 0.02, 0.03, 10))
    np.testing.assert_allclose(np.hypot(discs.Fx, discs.Fz), np.hypot(discs.N, discs["T"]),
                               rtol=1e-12)
    frame = contact_frame(path.delta_n, path.delta_t, 0.5, 0.5, False)
    assert np.all(frame.overlap <= path.delta_n + 1e-15) and np.all(np.diff(frame.angle[9:]) > 0)


def _coefficients_file(tmp_path, name: str, **changes) -> Path:
    """A coefficients.json as ``hertz2d calibrate`` writes it, with ``changes`` to its object."""
    path = tmp_path / name
    path.write_text(json.dumps({"format": FORMAT, "format_version": FORMAT_VERSION,
                                "coefficients": COEFFICIENTS.as_dict(), **changes}))
    return path


def test_coefficients_round_trip_and_bad_files(tmp_path):
    again = CalibratedCoefficients.from_vector(COEFFICIENTS.vector())
    assert again.as_dict() == COEFFICIENTS.as_dict()
    good = _coefficients_file(tmp_path, "coefficients.json",
                              training={"ranges": {"mu": [0.1, 1.0]}})
    read = CalibratedCoefficients.from_file(good)
    assert read.as_dict() == COEFFICIENTS.as_dict() and read.ranges == {"mu": [0.1, 1.0]}
    with pytest.raises(InputError, match="does not exist"):
        CalibratedCoefficients.from_file(tmp_path / "none.json")
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe{")
    with pytest.raises(InputError, match="is not UTF-8 text"):
        CalibratedCoefficients.from_file(garbage)
    short = _coefficients_file(tmp_path, "short.json",
                               coefficients={**COEFFICIENTS.as_dict(), "bracket": [1.0]})
    with pytest.raises(InputError, match=r"bracket=\[1.0\] are not 4 finite numbers"):
        CalibratedCoefficients.from_file(short)
    with pytest.raises(InputError, match="training ranges"):
        CalibratedCoefficients.from_file(_coefficients_file(
            tmp_path, "ranges.json", training={"ranges": {"mu": [1.0, 0.1]}}))


@pytest.mark.parametrize("changes, named", [
    ({"format": "hertz2d-law"}, "format='hertz2d-law'"),
    ({"format_version": 9}, "format_version=9 is not 8"),
    ({"format_version": 2}, "format_version=2 is not 8"),
    ({"format_version": True}, "format_version=True"),
    ({"coefficients": {**COEFFICIENTS.as_dict(), "extra": [1.0]}}, "'extra' is not a group"),
    ({"coefficients": {**COEFFICIENTS.as_dict(), "coupling_width": [0.0]}},
     "coupling_width[0]=0.0 is outside [0.05, 30]"),
    ({"coefficients": {**COEFFICIENTS.as_dict(), "stick": [-1.0]}},
     "stick[0]=-1.0 is outside [0, 50]"),
    ({"coefficients": {**COEFFICIENTS.as_dict(), "bracket": [1e12, 0.0, 0.0, 0.0]}},
     "bracket[0]=1000000000000.0 is outside [-50, 50]"),
])
def test_a_coefficients_file_of_another_format_or_group_is_refused(tmp_path, changes, named):
    with pytest.raises(InputError, match=re.escape(named)):
        CalibratedCoefficients.from_file(_coefficients_file(tmp_path, "c.json", **changes))


def test_every_group_declares_an_admissible_range_the_fits_keep_to():
    """Each coefficient group declares its length and a range per coefficient (field metadata),
    and the coefficients every fit has produced lie inside them: the shipped (committed full
    run's), the fit's start (Eq. 33's w, no coupling) and this module's test law; the fit's
    bounds on the coupling width, the stick-zone weight's Dundurs rate and the extra slips
    (which must stay >= 0 to dissipate) are the declared ranges."""
    from hertz2d.calibration.calibrate.fit import BOUNDED, START, _bounds
    ranges = CalibratedCoefficients.admissible()
    assert set(ranges) == set(CalibratedCoefficients.groups())
    assert all(low < high for group in ranges.values() for low, high in group)
    assert set(BOUNDED) == {"coupling_width", "stick", "first_slip"}
    assert all(low == 0.0 for low, _ in ranges["first_slip"])
    low, high = _bounds(BOUNDED)
    assert list(zip(low, high)) == [r for name in ranges if name in BOUNDED for r in ranges[name]]
    for coefficients in (CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS), START,
                         COEFFICIENTS):
        for name, values in coefficients.as_dict().items():
            assert all(low <= v <= high for v, (low, high) in zip(values, ranges[name])), name


def test_the_energy_per_cycle_counts_the_normal_force_s_work():
    """A cycle where the tangential loop encloses nothing but the normal force does work over a
    closed loop of the approach: the dissipation is that loop's area."""
    angle = np.linspace(0.0, 2 * np.pi, 201)
    table = pd.DataFrame({"delta_t": np.r_[0.0, np.sin(angle)], "Fx": np.r_[0.0, np.sin(angle)],
                          "delta_n": np.r_[1.0, 1.0 + 0.1 * np.cos(angle)],
                          "Fz": np.r_[0.0, 5.0 - 2.0 * np.sin(angle)],
                          "stage": ["normal"] + ["tangential"] + ["unloading"] * 100
                          + ["reloading"] * 100})
    # closed integral of Fz d(delta_n) = closed integral of (5 - 2 sin) (-0.1 sin) = 0.2 pi
    assert energy_per_cycle(table) == pytest.approx(0.2 * np.pi, rel=1e-3)


@pytest.mark.parametrize("pair", [EQUAL, DISSIMILAR, ContactPair.disc_on_wall(0.5, 10e9, 0.3, 0.2),
                                  ContactPair.discs(0.5, 10e9, 0.25, 0.0)],
                         ids=["equal", "dissimilar", "wall", "frictionless"])
def test_curve_constants_are_the_brackets_of_eq27_moved_by_the_coupling(pair):
    """curve_constants (the kernel's ``curves`` on the pair's ``curve_data``, which the DEM
    compiles) against the law's formulas written out with the closed forms of Eq. 20, to
    rounding; and the compiled kernel gives the same numbers."""
    from hertz2d.calibration.laws.closed_forms import half_space_bracket, penalty_bracket
    from hertz2d.calibration.laws.calibrated import curve_data
    c = COEFFICIENTS
    a = np.geomspace(1e-4, 0.3, 7) * float(pair.R1)
    bracket = 0.0
    for omega, R, nu in zip(pair.bracket_weights, (pair.R1, pair.R2), (pair.nu1, pair.nu2)):
        x = a / R
        w = np.polyval([c.penalty[3], c.penalty[1] + c.penalty[4] * nu,
                        c.penalty[0] + c.penalty[2] * nu + c.penalty[5] * nu**2], x)
        bracket = bracket + omega * (half_space_bracket(R, a) + w * penalty_bracket(R, a, nu))
    beta = float(coupling_beta(pair))
    phi = 1.0 if float(pair.mu) == 0 else (beta / float(pair.mu))**2 / (
        (beta / float(pair.mu))**2 + c.coupling_width[0]**2)
    v = c.bracket
    B = bracket + phi * (v[0] + v[1] * beta) + v[2] * beta**2 + v[3] * (1.0 if pair.wall else 0.0)
    found = curve_constants(pair, a, c)
    np.testing.assert_allclose(found.B, B, rtol=1e-14)
    compile_functions = pytest.importorskip("hertz2d.dem.jit").compile_functions
    compiled = compile_functions(kernel).curves
    data = tuple(float(v) for v in curve_data(pair, c))
    R1, R2 = float(pair.R1), float(pair.R2)
    for k, value in enumerate(a):
        got = compiled(value, math.log(value), R1, R2, math.log(4 * R1), math.log(4 * R2), data)
        np.testing.assert_allclose(got, (float(found.B[k]), float(found.slope[k])), rtol=1e-13,
                                   atol=1e-15)


@pytest.mark.parametrize("ratio", [10 / 9, 3.0, 60.0])
def test_a_front_moving_in_from_a_nearby_edge_is_the_root_to_rounding(ratio):
    """front_from (Halley's method in the log-distance h the front moves in from an edge, the
    step's usual case) solves (C2), ``D(y0) - D(y0 e^-h) = s r``, to rounding of h itself: against
    a 40-digit root, for moves r from 1e-15 of the edge's displacement (the microslip of a tiny
    increment, which a solve for the front's position y would lose to the edge's digits) to
    moves that reach the centre (W_{-1}), and edges from the rim to 1e-12 of the area."""
    import mpmath
    mpmath.mp.dps = 40
    kappa = 0.7
    B = ratio * kappa

    def D(y):
        return y * (B - kappa * mpmath.log(y))

    for y0 in np.r_[1.0, np.geomspace(1e-12, 0.9, 5)]:
        log_y0 = math.log(y0)
        top = D(mpmath.mpf(y0))
        for move in np.geomspace(1e-15, 0.9, 10):
            r = float(top * move)
            h = kernel.front_from(r, B, kappa, y0, log_y0)
            exact = mpmath.findroot(lambda x: top - D(mpmath.mpf(y0) * mpmath.exp(-x)) - r,
                                    (mpmath.mpf(0), mpmath.mpf(80)), solver="bisect",
                                    tol=mpmath.mpf(10) ** -36, maxsteps=400)
            assert h == pytest.approx(float(exact), rel=5e-14, abs=1e-300)


def test_contacts_run_together_are_independent_of_each_other():
    """run_contacts moves several contacts a step at a time: each contact's table is the one it
    gets alone (bit for bit), whatever the others do; paths of two lengths are refused."""
    from hertz2d.calibration.laws.admissibility import random_loops
    from hertz2d.calibration.laws.calibrated import run_contacts
    coefficients = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    loops = [loop for loop in random_loops(9, seed=5) if not loop.pair.wall][:4]
    paths = [loop.path(40, 2) for loop in loops]
    together = run_contacts([loop.pair for loop in loops], paths, coefficients)
    for loop, path, table in zip(loops, paths, together):
        alone = run_contacts([loop.pair], [path], coefficients)[0]
        pd.testing.assert_frame_equal(table, alone, check_exact=True)
    with pytest.raises(ValueError):
        run_contacts([loops[0].pair, loops[1].pair], [paths[0], loops[1].path(41, 2)],
                     coefficients)
