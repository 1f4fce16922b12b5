"""The vectorised assembly of K_lambda and K_mu against scikit-fem's own form assembly."""
import numpy as np
import pytest
import skfem
from skfem.helpers import ddot, div, sym_grad

from hertz2d.fem.elasticity import StiffnessParts, vector_basis
from hertz2d.meshes.halfround import half_round_mesh


@skfem.BilinearForm
def volumetric(u, v, w):
    return div(u) * div(v)


@skfem.BilinearForm
def deviatoric(u, v, w):
    return 2.0 * ddot(sym_grad(u), sym_grad(v))


@pytest.mark.parametrize("order", [1, 2])
def test_parts_equal_scikit_fem_forms(order):
    basis = vector_basis(half_round_mesh(0.5, 0.05, level=0), order=order)
    parts = StiffnessParts.assemble(basis)
    for name, form in (("volumetric", volumetric), ("deviatoric", deviatoric)):
        ours = parts.pattern.copy()
        ours.data = getattr(parts, name)
        theirs = form.assemble(basis)
        assert abs(ours - theirs).max() <= 1e-13 * abs(theirs).max()


def test_rigid_motions_are_strain_free():
    basis = vector_basis(half_round_mesh(0.5, 0.05, level=0), order=2)
    parts = StiffnessParts.assemble(basis)
    x, y = basis.doflocs
    is_x = np.zeros(basis.N, bool)
    is_x[basis.nodal_dofs[0]] = is_x[basis.facet_dofs[0]] = True
    rotation = np.where(is_x, -y, x)
    stiffness = parts.combine(1.0, 0.3)
    for motion in (is_x * 1.0, ~is_x * 1.0, rotation):
        assert np.abs(stiffness @ motion).max() < 1e-12 * np.abs(stiffness).max()
