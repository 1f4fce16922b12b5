"""The two-disc frictional contact FEM against closed forms, an independent FE model, and itself.

Default runs use coarse meshes (levels 1-2); ``@pytest.mark.slow`` repeats the checks of the
issue at the default level 3 and checks mesh convergence against level 4.
"""
import numpy as np
import pytest

import hertz2d.fem.contact.frictional as frictional
import hertz2d.fem.twodisc as twodisc
from hertz2d.calibration.laws.closed_forms import penalty_factor_from_displacement
from hertz2d.calibration.validation.verification import onset_of_full_slip
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.checks.loadpath import LoadPath
from hertz2d.fem.twodisc import Disc, TwoBody, solve_two_disc
from hertz2d.checks import InputError
from test_twodisc_reference import (full_slip_displacement, half_width, normal_force, pressure,
                                    stick_half_width, traction)

R, E, NU, MU = 0.5, 10e9, 0.25, 0.3


def case1(steps=50, delta_t=0.025):
    """Case 1 of Section 4.2 with tangential steps of 0.0005 m (50 steps reach 0.025 m)."""
    return LoadPath.build("hold-normal", 0.025, delta_t, steps)


def custom_path(delta_n, delta_t):
    stage = np.where(np.asarray(delta_t) == 0, "normal", "tangential")
    return LoadPath("hold-normal", np.asarray(delta_n, float), np.asarray(delta_t, float), stage)


def profile_rms(profiles, row, reference, scale):
    """RMS of a traction profile against a closed form over the inner 90 % of the contact."""
    prof = profiles[profiles["step"] == row.step]
    x = prof["s"].to_numpy() - row.centre
    a = half_width(row.N, R, R, E, NU)
    inner = np.abs(x) <= 0.9 * a
    return np.sqrt(np.mean((prof[reference[0]].to_numpy() - reference[1](x, a))[inner] ** 2)) / scale


@pytest.fixture(scope="module")
def frictionless():
    path = LoadPath.build("hold-normal", 0.025, 0.0, 1)
    return {support: solve_two_disc(path, mu=0.0, support=support, level=2, profiles=True,
                                    progress=False) for support in ("clamped", "symmetric")}


@pytest.fixture(scope="module")
def partial_slip():
    """Case 1 (clamped, level 2) up to delta_t = 0.015 m, through partial slip into full slip."""
    return solve_two_disc(case1(30, 0.015), support="clamped", level=2, profiles=True,
                          progress=False)


# -- frictionless normal loading ------------------------------------------------------------

def test_symmetric_support_follows_eq23_eq4_and_eq1(frictionless):
    result = frictionless["symmetric"]
    normal = result.table[result.table["stage"] == "normal"]
    h = np.diff(result.profiles["s"].iloc[:2]).item()  # window element length
    for row in normal.itertuples():
        assert row.N == pytest.approx(normal_force(row.delta_n, R, R, E, NU), rel=5e-3)
        # the edge is located to a third of an element (a spans 5 to 20 elements here)
        assert row.a == pytest.approx(half_width(row.N, R, R, E, NU), abs=h / 3)
    loaded = normal.iloc[-1]
    assert loaded.a == pytest.approx(half_width(loaded.N, R, R, E, NU), rel=0.01)
    p0 = 2 * loaded.N / (np.pi * half_width(loaded.N, R, R, E, NU))
    rms = profile_rms(result.profiles, loaded, ("p", lambda x, a: pressure(x, loaded.N, a)), p0)
    assert rms < 0.02


def test_unequal_radii_follow_eq23_with_both_radii():
    path = LoadPath.build("hold-normal", 0.015, 0.0, 1, normal_steps=3)
    table = solve_two_disc(path, Disc(R=0.3), Disc(R=0.5), mu=0.0, support="symmetric",
                           level=2, progress=False).table
    for row in table.itertuples():
        assert row.N == pytest.approx(normal_force(row.delta_n, 0.5, 0.3, E, NU), rel=5e-3)
    assert row.a == pytest.approx(half_width(row.N, 0.5, 0.3, E, NU), rel=0.01)


def test_clamped_flats_are_stiffer_as_the_half_round_model_predicts(frictionless):
    """Eq. 23 is twice Eq. 17, the half-round body on a mirror plane. Clamping the flat stops
    its Poisson expansion: the independent half-round FEM (P2, traction-loaded) predicts the
    ratio of the two supports' normal forces at delta_n = 0.025 m."""
    forces = {s: r.table["N"].iloc[-1] for s, r in frictionless.items()}
    predicted = {}
    for support in forces:
        N = forces["symmetric"]
        for _ in range(3):  # N and a from the half-round compliance (Eq. 22 with FEM)
            a = half_width(N, R, R, E, NU)
            N = 0.025 / (2 * HalfRoundBody(R, a, 1).compliance(E, NU, support).normal)
        predicted[support] = N
    ratio = forces["clamped"] / forces["symmetric"]
    assert ratio > 1.03
    assert ratio == pytest.approx(predicted["clamped"] / predicted["symmetric"], rel=0.01)
    clamped = frictionless["clamped"]
    loaded = clamped.table.iloc[-1]
    p0 = 2 * loaded.N / (np.pi * half_width(loaded.N, R, R, E, NU))
    assert profile_rms(clamped.profiles, loaded, ("p", lambda x, a: pressure(x, loaded.N, a)),
                       p0) < 0.02


def test_every_step_meets_signorini_in_its_converged_geometry(frictionless, partial_slip):
    for result in (*frictionless.values(), partial_slip):
        assert result.failure is None
        assert result.table["gap_residual"].max() < 1e-9  # element lengths
        assert np.allclose(result.table["Fz"], result.table["N"], rtol=0.02)


# -- partial slip, full slip, finite sliding --------------------------------------------------

def test_partial_slip_follows_cattaneo_mindlin(partial_slip):
    table, profiles = partial_slip.table, partial_slip.profiles
    row = table[np.isclose(table["delta_t"], 0.01)].iloc[0]
    a = half_width(row.N, R, R, E, NU)
    c = stick_half_width(a, row["T"], MU, row.N)
    assert 0.3 * a < row.c < 0.7 * a
    assert row.c == pytest.approx(c, rel=0.03)  # Eq. 7
    scale = MU * 2 * row.N / (np.pi * a)
    assert profile_rms(profiles, row, ("q", lambda x, a: traction(x, MU, row.N, a, c)),
                       scale) < 0.03  # Eq. 2
    tangential = table[table["stage"] == "tangential"]
    assert np.all(np.diff(tangential["c"]) <= 1e-3 * a)  # the stick zone shrinks


def test_onset_of_full_slip_matches_eq27_with_the_half_round_penalty_factor(partial_slip):
    tangential = partial_slip.table[partial_slip.table["stage"] == "tangential"]
    onset = onset_of_full_slip(partial_slip.table)  # c^2 extrapolated to 0
    full = tangential[tangential["c"] == 0]
    N = full["N"].iloc[0]
    a = half_width(N, R, R, E, NU)
    w = penalty_factor_from_displacement(HalfRoundBody(R, a, 1).compliance(E, NU, "clamped")
                                         .tangential, 1.0, E, NU, R, a)
    assert onset == pytest.approx(full_slip_displacement(N, R, R, E, NU, MU, w, w), rel=0.02)
    # in full slip the tangential force is mu N, and the horizontal force falls as the contact
    # plane tilts (Appendix C, Eq. C.3: F = mu N cos(alpha) - N sin(alpha))
    assert np.allclose(full["T"], MU * full["N"], rtol=1e-6)
    assert np.all(np.diff(full["Fx"]) < 0)


def test_unloading_from_partial_slip_follows_masings_rule():
    """The friction history: reversing delta_t from partial slip, the FEM traces the loading
    curve scaled by two (Cattaneo-Mindlin unloading), and keeps a reversed force at delta_t = 0."""
    up = np.arange(1, 13) * 0.0005
    delta_t = np.concatenate([np.zeros(4), up, up[::-1][1:], [0.0]])
    delta_n = np.concatenate([np.arange(1, 5) * 0.025 / 4, np.full(len(delta_t) - 4, 0.025)])
    table = solve_two_disc(custom_path(delta_n, delta_t), support="clamped", level=1,
                           progress=False).table
    loading, unloading = table.iloc[4:16], table.iloc[16:]
    peak = loading["Fx"].iloc[-1]

    def loading_curve(d):
        return np.interp(d, np.r_[0.0, loading["delta_t"]], np.r_[0.0, loading["Fx"]])

    for d in (0.005, 0.003, 0.0):
        row = unloading[np.isclose(unloading["delta_t"], d)].iloc[0]
        assert row.Fx == pytest.approx(peak - 2 * loading_curve((0.006 - d) / 2), abs=5e-3 * peak)
    assert unloading["Fx"].iloc[-1] < -0.01 * peak


def test_results_do_not_depend_on_the_step_size_in_partial_slip(partial_slip):
    coarse = solve_two_disc(case1(15, 0.015), support="clamped", level=2, progress=False).table
    fine = partial_slip.table
    for d in (0.005, 0.01, 0.015):
        a = fine[np.isclose(fine["delta_t"], d)].iloc[0]
        b = coarse[np.isclose(coarse["delta_t"], d)].iloc[0]
        assert b.Fx == pytest.approx(a.Fx, rel=5e-3)


def test_proportional_loading_slides_at_once_because_kt_over_kn_exceeds_mu(partial_slip):
    """Mindlin-Deresiewicz: raising delta_t with delta_n (ratio 1), the contact sticks only if the
    tangential-to-normal stiffness ratio is below mu. From case 1, kt/kn is about 0.6 > 0.3,
    so case 2 slips over the whole contact in every step (T = mu N)."""
    table = partial_slip.table
    kn = table[table["stage"] == "normal"]["N"].iloc[-1] / 0.025
    kt = table[table["stage"] == "tangential"]["Fx"].iloc[0] / 0.0005
    assert kt / kn > MU
    case2 = solve_two_disc(LoadPath.build("proportional", 0.025, 0.025, 10), support="clamped",
                           level=1, progress=False).table
    assert np.allclose(case2["T"], MU * case2["N"], rtol=1e-6)
    assert np.all(case2["c"] == 0) and np.all(np.diff(case2["Fx"]) > 0)


# -- robustness ------------------------------------------------------------------------------

def test_the_tresca_fallback_reaches_the_same_solution(monkeypatch):
    path = case1(8, 0.004)
    reference = solve_two_disc(path, support="symmetric", level=1, progress=False).table
    monkeypatch.setattr(frictional, "solve_coulomb", lambda *args: None)
    fallback = solve_two_disc(path, support="symmetric", level=1, progress=False).table
    for column in ("Fx", "Fz", "c"):
        assert np.allclose(fallback[column], reference[column], rtol=1e-6,
                           atol=1e-6 * reference[column].abs().max())


def test_a_step_that_does_not_converge_is_cut_back(monkeypatch):
    path = case1(4, 0.008)
    reference = solve_two_disc(path, level=1, progress=False).table
    monkeypatch.setattr(frictional, "MAX_ITERATIONS", 7)
    cut = solve_two_disc(path, level=1, progress=False)
    assert cut.failure is None and cut.table["increments"].max() > 1
    assert np.allclose(cut.table["Fx"], reference["Fx"], rtol=2e-3, atol=1e3)


def test_a_failed_step_stops_the_path_and_keeps_the_steps_before(monkeypatch):
    monkeypatch.setattr(frictional, "MAX_ITERATIONS", 3)
    monkeypatch.setattr(twodisc, "MAX_CUTS", 0)
    result = solve_two_disc(case1(4, 0.008), level=1, progress=False)
    assert result.failure is not None and "did not converge" in result.failure
    assert len(result.table) < 14 and "relative change" in result.failure
    assert list(result.table["step"]) == list(range(1, len(result.table) + 1))


def test_contact_beyond_the_refined_window_is_reported():
    model = TwoBody.for_path(LoadPath.build("hold-normal", 0.01, 0.0, 1), level=0)
    result = model.run(LoadPath.build("hold-normal", 0.05, 0.0, 1, normal_steps=5),
                       progress=False)
    assert result.failure is not None and "window" in result.failure
    assert 0 < len(result.table) < 5


def test_bad_input_is_refused():
    with pytest.raises(InputError, match="mu"):
        solve_two_disc(case1(2), mu=-0.1, level=0)
    with pytest.raises(InputError, match="would not touch"):
        solve_two_disc(LoadPath.build("hold-normal", 0.025, 0.3, 2), level=0)
    with pytest.raises(InputError, match="support"):
        solve_two_disc(case1(2), support="pinned", level=0)


# -- the default mesh (slow) -----------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_the_default_mesh_meets_the_issue_targets_and_is_converged(support):
    results = {level: {kind: solve_two_disc(LoadPath.build(kind, 0.025, 0.025, 50),
                                            support=support, level=level, profiles=True,
                                            progress=False)
                       for kind in ("hold-normal", "proportional")} for level in (3, 4)}
    table, profiles = results[3]["hold-normal"].table, results[3]["hold-normal"].profiles
    loaded = table[table["stage"] == "normal"].iloc[-1]
    a = half_width(loaded.N, R, R, E, NU)
    assert loaded.a == pytest.approx(a, rel=0.01)
    p0 = 2 * loaded.N / (np.pi * a)
    assert profile_rms(profiles, loaded, ("p", lambda x, a: pressure(x, loaded.N, a)), p0) < 0.02
    if support == "symmetric":
        assert loaded.N == pytest.approx(normal_force(0.025, R, R, E, NU), rel=0.005)
    row = table[np.isclose(table["delta_t"], 0.01)].iloc[0]
    c = stick_half_width(half_width(row.N, R, R, E, NU), row["T"], MU, row.N)
    assert row.c == pytest.approx(c, rel=0.03)
    for kind in ("hold-normal", "proportional"):
        fine, coarse = results[4][kind].table, results[3][kind].table
        assert coarse["Fx"].max() == pytest.approx(fine["Fx"].max(), rel=0.01)
        for column in ("Fx", "Fz"):
            assert coarse[column].iloc[-1] == pytest.approx(fine[column].iloc[-1], rel=0.01)
        assert max(fine["gap_residual"].max(), coarse["gap_residual"].max()) < 1e-9


def test_a_contact_forming_while_it_moves_tangentially_is_resolved_in_time(monkeypatch):
    """The first step of a proportional path: in one increment the whole contact forms with the
    tangential displacement applied (a Cattaneo state, stiffer than the sticking contact that
    grows with both displacements); :data:`FORMATION_INCREMENTS` increments are within 0.2 % of
    four times as many, while one increment is several per cent off."""
    path = LoadPath.build("proportional", 0.01, 0.002, 5)
    model = TwoBody(Disc(R, E, NU), Disc(R, E, NU), MU, "symmetric", 0.01, (0.0, 0.002), 1)

    def first_steps(increments):
        monkeypatch.setattr(twodisc, "FORMATION_INCREMENTS", increments)
        return model.run(path, progress=False).table.Fx.to_numpy()[:3]
    resolved = first_steps(twodisc.FORMATION_INCREMENTS)
    finer = first_steps(4 * twodisc.FORMATION_INCREMENTS)
    single = first_steps(1)
    np.testing.assert_allclose(resolved, finer, rtol=2e-3)
    assert single[0] / finer[0] - 1 > 0.02
