"""Load vectors: the assembled Hertzian traction has the intended resultant and centre."""
import numpy as np
import pytest

from hertz2d.fem.elasticity import vector_basis
from hertz2d.fem.loads import hertzian_traction, uniform_body_force
from hertz2d.meshes.halfround import half_round_mesh


@pytest.fixture(scope="module")
def basis():
    return vector_basis(half_round_mesh(0.5, 0.025, level=1), order=2)


def components(basis, load):
    x = np.concatenate([basis.nodal_dofs[0], basis.facet_dofs[0]])
    y = np.concatenate([basis.nodal_dofs[1], basis.facet_dofs[1]])
    return load[x].sum(), load[y].sum()


@pytest.mark.parametrize("direction", [(1.0, 0.0), (0.0, -1.0)])
def test_hertzian_traction_resultant_equals_the_force(basis, direction):
    load = hertzian_traction(basis, basis.mesh.boundaries["flat"], 1e5, 0.025, direction)
    fx, fy = components(basis, load)
    assert fx == pytest.approx(1e5 * direction[0], rel=1e-12, abs=1e-7)
    assert fy == pytest.approx(1e5 * direction[1], rel=1e-12, abs=1e-7)


def test_hertzian_traction_moments_match_eq1(basis):
    # the load vector integrates every quadratic exactly against Eq. 1's profile:
    # int x^2 p dx = N a^2 / 4 (second moment of the elliptical profile), first moment 0
    load = hertzian_traction(basis, basis.mesh.boundaries["flat"], 1.0, 0.025, (0.0, -1.0))
    y_dofs = np.concatenate([basis.nodal_dofs[1], basis.facet_dofs[1]])
    x = basis.doflocs[0][y_dofs]
    assert np.sum(-load[y_dofs] * x) == pytest.approx(0.0, abs=1e-15)
    assert np.sum(-load[y_dofs] * x**2) == pytest.approx(0.025**2 / 4, rel=1e-12)


def test_uniform_body_force_resultant(basis):
    fx, fy = components(basis, uniform_body_force(basis, (-3.0, 2.0)))
    assert (fx, fy) == (pytest.approx(-3.0, rel=1e-12), pytest.approx(2.0, rel=1e-12))
