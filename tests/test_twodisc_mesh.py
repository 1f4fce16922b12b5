"""The two half discs of Fig. 10 (or a disc over a wall): geometry, tags, the uniform contact
windows, refinement, the sizing estimate."""
import math

import numpy as np
import pytest

from hertz2d.checks import InputError
from hertz2d.meshes.halfround import node_at
from hertz2d.meshes.twodisc import (build_half_disc, contact_windows, expected_half_width, tagged_mesh,
                            two_body_meshes)

R1, R2 = 0.5, 0.4  # lower, upper
#: one material: (1 - nu^2)/E of E = 10 GPa, nu = 0.25
C = (1 - 0.25**2) / 10e9


def two_disc_meshes(R_lower, R_upper, delta_n, delta_t, level):
    return two_body_meshes(delta_n, delta_t, (R_lower, R_upper), (C, C), level)


@pytest.fixture(scope="module")
def bodies():
    return two_disc_meshes(R1, R2, 0.02, (0.0, 0.02), level=1)


def _nodes(mesh, name):
    return np.unique(mesh.facets[:, mesh.boundaries[name]])


def test_each_body_is_a_half_disc_touching_the_other_at_the_origin(bodies):
    lower, upper, _ = bodies
    for mesh, R, centre, side in ((lower, R1, -R1, +1), (upper, R2, R2, -1)):
        assert set(mesh.boundaries) >= {"flat", "arc", "window"}
        arc = _nodes(mesh, "arc")
        radius = np.hypot(mesh.p[0, arc], mesh.p[1, arc] - centre)
        assert np.allclose(radius, R, rtol=1e-9)
        flat = _nodes(mesh, "flat")
        assert np.allclose(mesh.p[1, flat], centre)
        assert np.ptp(mesh.p[0, flat]) == pytest.approx(2 * R)
        node_at(mesh, 0.0, centre)  # the pin of the symmetric support is a node
        # the body lies on its side of the flat, within the disc; the arcs meet at (0, 0)
        assert np.all(side * (mesh.p[1] - centre) >= -1e-12)
        assert np.all(np.hypot(mesh.p[0], mesh.p[1] - centre) <= R * (1 + 1e-9))
        e1, e2 = mesh.p[:, mesh.t[1]] - mesh.p[:, mesh.t[0]], mesh.p[:, mesh.t[2]] - mesh.p[:, mesh.t[0]]
        area = 0.5 * np.abs(e1[0] * e2[1] - e1[1] * e2[0]).sum()
        assert area == pytest.approx(0.5 * np.pi * R * R, rel=2e-3)
    assert lower.p[1].max() <= 1e-12 and upper.p[1].min() >= -1e-12


def test_the_windows_are_uniform_and_cover_contact_and_slide(bodies):
    lower, upper, sizing = bodies
    a = sizing.half_width
    windows = contact_windows(0.02, (0.0, 0.02), (R1, R2), (C, C))
    windows = (windows.lower, windows.upper)
    for mesh, (left, right) in zip((lower, upper), windows):
        facets = mesh.facets[:, mesh.boundaries["window"]]
        lengths = np.linalg.norm(mesh.p[:, facets[0]] - mesh.p[:, facets[1]], axis=0)
        assert np.ptp(lengths) < 1e-6 * lengths.mean()
        assert lengths.mean() <= 0.1 * a  # level 1: a/10
        x = mesh.p[0, _nodes(mesh, "window")]
        assert x.min() == pytest.approx(left) and x.max() == pytest.approx(right)
        assert left < -a and right > a
    # the rigid slide moves the contact centre to +R1/(R1+R2) delta_t on the lower arc
    assert windows[0][1] == pytest.approx(0.02 * R1 / (R1 + R2) + 1.3 * a)
    assert windows[1][0] == pytest.approx(-0.02 * R2 / (R1 + R2) - 1.3 * a)


@pytest.mark.parametrize("side", [+1, -1])
def test_the_tagged_mesh_is_scikit_fems_reading_of_the_gmsh_file(tmp_path, side):
    from skfem.io.meshio import from_meshio

    from hertz2d.meshes.cache import read_checked

    windows = contact_windows(0.02, (-0.01, 0.02), (R1, R2), (C, C))
    build_half_disc(str(tmp_path / "body.msh"), R1 if side > 0 else R2, side,
                    windows.lower if side > 0 else windows.upper, windows.half_width, 1)
    raw = read_checked(tmp_path / "body.msh")
    ours, theirs = tagged_mesh(raw), from_meshio(raw)
    assert np.array_equal(ours.p, theirs.p) and np.array_equal(ours.t, theirs.t)
    assert set(ours.boundaries) == set(theirs.boundaries) == {"flat", "arc", "window"}
    for name, facets in theirs.boundaries.items():
        assert np.array_equal(ours.boundaries[name], facets)
        assert np.array_equal(ours.facets[:, ours.boundaries[name]], theirs.facets[:, facets])


def test_one_level_halves_the_window_elements():
    sizes = []
    for level in (0, 1, 2):
        lower, _, _ = two_disc_meshes(0.5, 0.5, 0.025, (0.0, 0.0), level)
        facets = lower.facets[:, lower.boundaries["window"]]
        sizes.append(np.linalg.norm(lower.p[:, facets[0]] - lower.p[:, facets[1]], axis=0).mean())
    assert sizes[1] / sizes[0] == pytest.approx(0.5, rel=0.05)
    assert sizes[2] / sizes[1] == pytest.approx(0.5, rel=0.05)


def test_a_wall_is_not_meshed_and_its_window_follows_the_whole_slide():
    """On a flat the disc's contact point stays at its lowest point while the contact centre
    moves with delta_t on the wall, in either direction."""
    lower, upper, windows = two_body_meshes(0.01, (-0.03, 0.02), (math.inf, 0.5), (0.0, C), 0)
    a = windows.half_width
    assert lower is None and upper.p[1].min() >= -1e-12
    assert windows.lower == pytest.approx((-0.03 - 1.3 * a, 0.02 + 1.3 * a))
    assert windows.upper == pytest.approx((-1.3 * a, 1.3 * a))


def test_the_sizing_estimate_weighs_each_body_by_its_compliance():
    """Eq. 22 with Eq. 4: the shares of the compliances matter, not their sum, and a rigid flat
    (R = inf, C = 0) is the limit of a very stiff and very large disc."""
    one = expected_half_width(0.01, (0.5, 0.3), (C, C))
    assert expected_half_width(0.01, (0.5, 0.3), (7 * C, 7 * C)) == pytest.approx(one, rel=1e-12)
    assert expected_half_width(0.01, (0.5, 0.3), (C, 3 * C)) != pytest.approx(one, rel=1e-3)
    wall = expected_half_width(0.01, (math.inf, 0.5), (0.0, C))
    assert expected_half_width(0.01, (1e8, 0.5), (1e-8 * C, C)) == pytest.approx(wall, rel=1e-6)
    # the disc against its mirror image at twice the approach (Section 3.2)
    assert expected_half_width(0.02, (0.5, 0.5), (C, C)) == pytest.approx(wall, rel=1e-12)


def test_loads_the_half_discs_cannot_take_are_rejected():
    with pytest.raises(InputError, match="delta_n"):
        expected_half_width(-0.01, (0.5, 0.5), (C, C))
    with pytest.raises(InputError, match="does not fit"):
        contact_windows(0.025, (0.0, 0.8), (0.5, 0.5), (C, C))
    with pytest.raises(InputError, match="does not fit"):
        contact_windows(0.025, (-0.8, 0.0), (0.5, 0.5), (C, C))
    with pytest.raises(InputError, match="too large"):
        expected_half_width(0.6, (0.5, 0.5), (C, C))
    with pytest.raises(InputError, match="deformable"):
        expected_half_width(0.01, (math.inf, 0.5), (0.0, 0.0))
