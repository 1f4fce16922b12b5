"""The verification module's closed forms (hertz2d.calibration.validation.reference_forms) against the
tests' own transcription of the equations and against hand-computed cases."""
import numpy as np
import pytest

from hertz2d.calibration.laws.closed_forms import normal_displacement_eq17
from hertz2d.calibration.validation import halfplane
from hertz2d.calibration.laws.energy import loop_work
from hertz2d.calibration.validation.reference_forms import (approach, dundurs_beta, half_width,
                                                    masing_branch, masing_loop_energy,
                                                    normal_force, normal_loading_stick_ratio)
from hertz2d.fem.twodisc import Disc, RigidFlat
from test_twodisc_reference import (approach_eq22, dundurs_beta_plane_strain, half_width_any,
                                    pressure, stick_half_width)

PAIRS = [((0.3, 10e9, 0.2), (0.7, 70e9, 0.35)), ((0.7, 70e9, 0.35), (0.3, 10e9, 0.2)),
         ((0.5, 10e9, 0.25), (0.5, 10e9, 0.25)), ((0.5, 10e9, 0.25), None),
         ((0.2, 3e9, 0.45), None), ((0.4, 200e9, 0.0), (0.1, 1e9, 0.49))]


def body(spec):
    return RigidFlat() if spec is None else Disc(*spec)


@pytest.mark.parametrize("upper, lower", PAIRS)
def test_eq4_eq22_and_beta_match_the_tests_transcription(upper, lower):
    N = 3e7
    assert half_width(N, body(upper), body(lower)) == pytest.approx(
        half_width_any(N, upper, lower), rel=1e-12)
    assert approach(N, body(upper), body(lower)) == pytest.approx(
        approach_eq22(N, upper, lower), rel=1e-12)
    delta_n = approach_eq22(N, upper, lower)
    assert normal_force(delta_n, body(upper), body(lower)) == pytest.approx(N, rel=1e-9)
    assert dundurs_beta(body(upper), body(lower)) == pytest.approx(
        dundurs_beta_plane_strain(upper, lower), abs=1e-14)
    assert dundurs_beta(body(upper), body(lower)) == pytest.approx(
        -dundurs_beta_plane_strain(lower, upper) if lower is not None else 1 / 3
        if upper[2] == 0.25 else (1 - 2 * upper[2]) / (2 * (1 - upper[2])), abs=1e-14)


def test_a_disc_on_a_wall_is_eq17_of_the_disc():
    disc = Disc(0.5, 10e9, 0.25)
    N = 5e7
    a = half_width(N, disc, RigidFlat())
    assert a == pytest.approx(np.sqrt(4 * N * 0.5 * (1 - 0.25**2) / (np.pi * 10e9)), rel=1e-12)
    assert approach(N, disc, RigidFlat()) == pytest.approx(
        normal_displacement_eq17(N, 10e9, 0.25, 0.5, a), rel=1e-12)


def test_masing_branches_and_loop_energy_of_an_elastic_perfectly_plastic_curve():
    """f = k min(d, d_y): the Masing loop is a parallelogram of area 4 k d_y (A - d_y)."""
    k, d_y, A = 2.0, 1.0, 3.0
    d = np.linspace(0.0, A, 301)[1:]
    f = k * np.minimum(d, d_y)
    down = np.linspace(A, -A, 601)
    unloading = masing_branch(d, f, (A, k * d_y), down)
    assert np.allclose(unloading, np.maximum(k * d_y - k * (A - down), -k * d_y))
    up = down[::-1]
    reloading = masing_branch(d, f, (-A, -k * d_y), up)
    assert np.allclose(reloading, np.minimum(-k * d_y + k * (up + A), k * d_y))
    # down the unloading branch, up the reloading one: the work done is the loop's area
    loop = loop_work(np.r_[down, up[1:]], np.r_[unloading, reloading[1:]])
    assert loop == pytest.approx(4 * k * d_y * (A - d_y), rel=1e-9)
    assert masing_loop_energy(d, f, A) == pytest.approx(4 * k * d_y * (A - d_y), rel=1e-6)
    assert masing_loop_energy(d, k * d, A) == pytest.approx(0.0, abs=1e-9)  # linear: no loss


# -- the half-plane model -----------------------------------------------------------------------

def test_half_planes_of_one_material_give_hertz_and_cattaneo_mindlin():
    """beta = 0: Eq. 1 for the pressure, no shear during normal loading, Eq. 7 for the stick
    zone under the tangential load (to about a cell width, 2.2/120 of a)."""
    run = halfplane.solve(0.0, 0.3, cells=120, normal_steps=4, tangential_steps=30, slip=0.4)
    table = run.table
    loaded = table[table.stage == "normal"].iloc[-1]
    p, q = run.normal_end
    assert np.abs(q).max() == 0.0 and loaded.a == pytest.approx(1.0, abs=0.02)
    assert np.sqrt(np.mean((p - pressure(run.x, loaded.N, 1.0)) ** 2)) < 0.01 * p.max()
    partial = table[(table.stage == "tangential") & (table.c > 0)]
    assert len(partial) > 5
    for row in partial.itertuples():
        assert row.c == pytest.approx(stick_half_width(row.a, row.T, 0.3, row.N), abs=0.03)
        assert row.stick_centre == pytest.approx(0.0, abs=1e-12)


def test_goodmans_half_planes_reproduce_spences_stick_zone():
    """The closed form K(sqrt(1 - k^2))/K(k) = |beta|/mu against the numerical half-planes
    with Goodman's approximation, to a cell width (2.2/120 of a): loaded in 40 steps, the
    self-similar solution is reached to that accuracy (in 10 steps c/a is 4-7 % smaller)."""
    for beta, mu in ((1 / 3, 0.3), (0.3, 0.5), (-0.3, 0.25)):
        run = halfplane.solve(beta, mu, cells=120, normal_steps=40, goodman=True)
        loaded = run.table.iloc[-1]
        assert loaded.c / loaded.a == pytest.approx(normal_loading_stick_ratio(beta, mu),
                                                    abs=2.2 / 120)
        assert loaded["T"] == pytest.approx(0.0, abs=1e-9 * loaded.N)  # odd shear
    assert normal_loading_stick_ratio(0.0, 0.3) == 1.0
    assert normal_loading_stick_ratio(0.1, 10.0) > 0.99 > normal_loading_stick_ratio(0.3, 0.3)
