"""Plane-strain, small-strain, isotropic linear elasticity.

The stiffness is kept in its two material-free parts,
``K = lambda * K_lambda + mu * K_mu`` with ``K_lambda = (div u, div v)`` and
``K_mu = (2 eps(u), eps(v))``, stored on one common sparsity pattern. A sweep over E and nu on
one mesh therefore assembles once, and every material gives a matrix with the same pattern, which
lets :mod:`hertz2d.fem.factor` reuse its ordering and symbolic analysis. In plane strain the Lame
constants are the three-dimensional ones.

Both parts are assembled together from one table of element integrals of shape-function gradient
products (:func:`element_parts`), vectorised over elements, instead of one scikit-fem form
evaluation per pair of local DOFs (a third of the time at the half-round body's P2 mesh).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import skfem

from hertz2d.checks import poisson, positive


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
        """Both parts on a two-component Lagrange basis (:func:`vector_basis`)."""
        volumetric, deviatoric = element_parts(basis)
        dofs = basis.element_dofs.T[:, :, None]
        rows, cols = (np.broadcast_to(d, volumetric.shape).ravel()
                      for d in (dofs, dofs.transpose(0, 2, 1)))
        # one COO -> CSC conversion sums the duplicates of both parts (real and imaginary)
        both = sp.csc_matrix((volumetric.ravel() + 1j * deviatoric.ravel(), (rows, cols)),
                             shape=(basis.N, basis.N))
        both.eliminate_zeros()
        pattern = sp.csc_matrix((np.ones(both.nnz), both.indices, both.indptr), shape=both.shape)
        return cls(pattern, both.data.real.copy(), both.data.imag.copy())

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
        return self.matrix(volumetric=lam, deviatoric=mu)

    def matrix(self, volumetric: float, deviatoric: float) -> sp.csc_matrix:
        """``volumetric * K_lambda + deviatoric * K_mu`` on the common pattern."""
        matrix = self.pattern.copy()
        matrix.data = volumetric * self.volumetric + deviatoric * self.deviatoric
        return matrix


def vector_basis(mesh: skfem.MeshTri, order: int = 2) -> skfem.Basis:
    """Two-component Lagrange basis on triangles, P1 or P2."""
    element = {1: skfem.ElementTriP1, 2: skfem.ElementTriP2}[order]()
    return skfem.Basis(mesh, skfem.ElementVector(element), intorder=2 * order)


def element_parts(basis: skfem.Basis) -> tuple[np.ndarray, np.ndarray]:
    """Element matrices of ``K_lambda`` and ``K_mu``, each of shape (elements, DOFs, DOFs).

    In scikit-fem's two-component basis (``ElementVector``) local DOF ``i`` is the scalar shape
    function ``phi_k``, ``k = i // 2``, along axis ``c = i % 2``. With the scalar integrals
    ``G[a, b, k, l] = int d_a phi_k d_b phi_l`` (the basis' quadrature), for ``i = (k, c)`` and
    ``j = (l, d)``: ``div u_i div u_j = G[c, d, k, l]`` and
    ``2 eps(u_i) : eps(u_j) = delta(c, d) (G[0, 0, k, l] + G[1, 1, k, l]) + G[d, c, k, l]``.
    """
    if not (isinstance(basis.elem, skfem.ElementVector) and basis.elem.dim == 2):
        raise ValueError("element_parts needs a two-component ElementVector basis")
    scalar = np.array([field[0].grad[0] for field in basis.basis[0::2]])  # (k, a, e, q)
    G = np.einsum("kaeq,lbeq,eq->eabkl", scalar, scalar, basis.dx, optimize=True)
    local = np.arange(len(basis.basis))
    k, l = (local // 2)[:, None], (local // 2)[None, :]
    c, d = (local % 2)[:, None], (local % 2)[None, :]
    volumetric = G[:, c, d, k, l]
    deviatoric = (c == d) * (G[:, 0, 0, k, l] + G[:, 1, 1, k, l]) + G[:, d, c, k, l]
    return volumetric, deviatoric
