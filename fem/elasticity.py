"""Plane-strain, small-strain, isotropic linear elasticity.

The stiffness is kept in its two material-free parts,
``K = lambda * K_lambda + mu * K_mu`` with ``K_lambda = (div u, div v)`` and
``K_mu = (2 eps(u), eps(v))``, stored on one common sparsity pattern. A sweep over E and nu on
one mesh therefore assembles once, and every material gives a matrix with the same pattern, which
lets :mod:`fem.factor` reuse its ordering and symbolic analysis. In plane strain the Lame
constants are the three-dimensional ones.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import skfem
from skfem.helpers import ddot, div, sym_grad

from meshes.checks import poisson, positive


@skfem.BilinearForm
def _volumetric(u, v, w):
    return div(u) * div(v)


@skfem.BilinearForm
def _deviatoric(u, v, w):
    return 2.0 * ddot(sym_grad(u), sym_grad(v))


def lame(E: float, nu: float) -> tuple[float, float]:
    """Lame constants ``(lambda, mu)`` of an isotropic solid (valid in plane strain)."""
    E, nu = positive("E", E), poisson("nu", nu)
    return E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)), E / (2.0 * (1.0 + nu))


@dataclass(frozen=True)
class StiffnessParts:
    """``K_lambda`` and ``K_mu`` on one CSC pattern; :meth:`combine` gives K for any material."""

    pattern: sp.csc_matrix
    volumetric: np.ndarray
    deviatoric: np.ndarray

    @classmethod
    def assemble(cls, basis: skfem.Basis) -> "StiffnessParts":
        return cls.from_matrices(_volumetric.assemble(basis), _deviatoric.assemble(basis))

    @classmethod
    def from_matrices(cls, volumetric: sp.spmatrix, deviatoric: sp.spmatrix) -> "StiffnessParts":
        volumetric, deviatoric = sp.csc_matrix(volumetric), sp.csc_matrix(deviatoric)
        pattern = (abs(volumetric) + abs(deviatoric)).tocsc()
        pattern.sort_indices()
        entries = pattern.tocoo()
        values = [np.asarray(m[entries.row, entries.col]).ravel() for m in (volumetric, deviatoric)]
        return cls(pattern, *values)

    def restricted(self, dofs: np.ndarray) -> "StiffnessParts":
        """The parts on the rows and columns ``dofs`` (the free DOFs of a support condition)."""
        position = self.pattern.copy()
        position.data = np.arange(1, position.nnz + 1, dtype=float)
        position = position[dofs][:, dofs].tocsc()
        position.sort_indices()
        index = position.data.astype(np.int64) - 1
        return StiffnessParts(position, self.volumetric[index], self.deviatoric[index])

    def combine(self, E: float, nu: float) -> sp.csc_matrix:
        lam, mu = lame(E, nu)
        matrix = self.pattern.copy()
        matrix.data = lam * self.volumetric + mu * self.deviatoric
        return matrix


def vector_basis(mesh: skfem.MeshTri, order: int = 2) -> skfem.Basis:
    """Two-component Lagrange basis on triangles, P1 or P2."""
    element = {1: skfem.ElementTriP1, 2: skfem.ElementTriP2}[order]()
    return skfem.Basis(mesh, skfem.ElementVector(element), intorder=2 * order)
