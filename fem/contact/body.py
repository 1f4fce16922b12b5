"""A body of the contact problem seen from its contact window: an elastic half disc condensed onto
its candidate contact nodes (:class:`CondensedBody`), or a rigid flat wall (:class:`RigidWindow`).

The bulk is linear (plane strain, small strain, P1 triangles) and the only loads are the contact
forces ``f`` on the window nodes, so every quantity the contact problem needs is a linear map of
``f`` built once from one sparse factorisation of the stiffness of the free DOFs:

``u_window = r + C f``, with ``r`` the rigid translation prescribed on the flat (a body whose flat
moves rigidly and that carries no contact force translates rigidly) and ``C`` the dense
compliance of the window DOFs. Static condensation of this kind
is exact for a linear bulk (e.g. Wriggers, *Computational Contact Mechanics*, 2006, Sec. 6.5;
Johnson's influence-coefficient method, *Contact Mechanics*, 1985, Sec. 5.9).

Supports of the flat (:mod:`hertz2d.fem.supports`, the same two as the half-round body): ``clamped``
(the paper's statement: "fixed at the bottom", "prescribed displacements at the top") and
``symmetric`` (roller, inertia relief, a pin carrying nothing). With the relief load ``g`` the
load is ``P^T f + g (e_x . f)``, so ``C = P K^-1 P^T + v e_x^T`` with ``v = P K^-1 g``: still
linear in f, but not symmetric (the body force is not work-conjugate to the pinned
displacement). :meth:`CondensedBody.condense` therefore returns the symmetric part
``S = P K^-1 P^T`` and ``v`` separately.

The condensation is a Schur complement: the free DOFs are put in a fill-reducing order that ends
with the window DOFs and factorised without pivoting (``K`` is SPD). The trailing block of the
factors is then ``L_WW U_WW = K_WW - K_WI K_II^-1 K_IW``, the window stiffness, whose inverse is
``C``: one factorisation gives the compliance without a solve per window DOF (at 14k DOFs: 0.1 s
against 0.7 s for 228 solves). The order is SuperLU's minimum-degree ordering of ``A + A^T``
(``MMD_AT_PLUS_A``; the default ordering is ~50x slower on these matrices, design note 2 in
:mod:`hertz2d.fem.contact`) computed on the graph of the mesh nodes off the window, each node's DOFs kept
together (:func:`fill_reducing_order`): that graph has a quarter of the DOF graph's entries, so
finding the order takes 8 ms at level 2 (7k DOFs), where ordering the DOFs themselves took a
factorisation of its own (SuperLU orders and factorises in one call; 15-18 ms). The factors have
as many entries either way (380k and 379k there).

The reaction on the flat (the force the support exerts on the body) can be recovered from the
full displacement field, ``R_D = K_DF u_F + K_DD u_D - load_D`` (:meth:`reaction`); the tests use
it to show that the supports balance the contact forces and that the ``symmetric`` pin carries
nothing, which is why a load step takes the flat's force from the contact forces directly.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import skfem
from scipy.sparse.linalg import splu

from hertz2d.fem.elasticity import StiffnessParts, lame, vector_basis
from hertz2d.fem.supports import SUPPORTS, fixed_dofs, relief_load
from hertz2d.fem.threads import one_blas_thread
from hertz2d.checks import one_of
from hertz2d.meshes.halfround import node_at


#: SuperLU without pivoting, for symmetric positive definite matrices
_NO_PIVOTING = dict(diag_pivot_thresh=0.0, options=dict(SymmetricMode=True))


def fill_reducing_order(matrix: sp.csc_matrix, node: np.ndarray, last: np.ndarray) -> np.ndarray:
    """An elimination order of the rows of the symmetric ``matrix`` that ends with ``last``.

    ``node[i]`` is the mesh node of row i. The nodes of the other rows are ordered by SuperLU's
    minimum degree on their graph (two nodes adjacent when one of their rows couples), a
    strictly diagonally dominant matrix of that pattern standing in for the stiffness; each
    node's rows follow in ascending order, then ``last`` in its given order.
    """
    at_end = np.zeros(matrix.shape[0], dtype=bool)
    at_end[last] = True
    rest = np.flatnonzero(~at_end)
    ordered = np.zeros(node.max() + 1, dtype=bool)
    ordered[node[rest]] = True
    nodes = np.flatnonzero(ordered)
    compressed = np.full(len(ordered), -1)
    compressed[nodes] = np.arange(len(nodes))
    entries = matrix.tocoo()
    kept = ~at_end[entries.row] & ~at_end[entries.col]
    i, j = compressed[node[entries.row[kept]]], compressed[node[entries.col[kept]]]
    off = i != j
    graph = sp.csc_matrix((np.full(off.sum(), -1.0), (i[off], j[off])),
                          shape=(len(nodes), len(nodes)))
    graph = (graph + sp.diags(1.0 - np.asarray(graph.sum(axis=0)).ravel())).tocsc()
    rank = splu(graph, permc_spec="MMD_AT_PLUS_A", **_NO_PIVOTING).perm_c  # of each node
    return np.concatenate([rest[np.argsort(rank[compressed[node[rest]]], kind="stable")], last])


class _OrderedFactor:
    """``K_FF`` factorised in a fill-reducing order that ends with the window DOFs ``last``
    (``node``: the mesh node of each row)."""

    def __init__(self, matrix: sp.csc_matrix, node: np.ndarray, last: np.ndarray):
        self.order = fill_reducing_order(matrix, node, last)
        self.lu = splu(matrix[self.order][:, self.order].tocsc(), permc_spec="NATURAL",
                       **_NO_PIVOTING)
        if not (np.array_equal(self.lu.perm_r, np.arange(matrix.shape[0]))
                and np.array_equal(self.lu.perm_c, np.arange(matrix.shape[0]))):
            raise RuntimeError("SuperLU pivoted a stiffness matrix: it is not positive definite")
        # the trailing columns of the triangular factors (CSC) hold the trailing blocks: all of
        # L's rows there are trailing, U's are cut to them
        n = len(last)
        self.trailing = (self.lu.L[:, -n:][-n:] @ self.lu.U[:, -n:][-n:]).toarray()

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        x = np.empty_like(rhs)
        x[self.order] = self.lu.solve(rhs[self.order])
        return x


@dataclass(frozen=True)
class WindowOperators:
    """The condensed body seen from its window nodes (2 DOFs per node, x then y)."""

    #: ``P K^-1 P^T``: symmetric compliance of the window DOFs; None for a rigid body (zero,
    #: not stored: a wall's window grows with the slide, its compliance would be dense zeros)
    compliance: np.ndarray | None
    #: ``P K^-1 g``: window displacement under the relief load of a unit x-resultant (0 if clamped)
    relief: np.ndarray


class CondensedBody:
    """A half disc of :mod:`hertz2d.meshes.twodisc` with its flat supported, condensed on its window.

    ``window_nodes`` are the mesh nodes of the ``window`` facets sorted by x; window DOF ``2i`` is
    the x-DOF and ``2i+1`` the y-DOF of ``window_nodes[i]``.
    """

    def __init__(self, mesh: skfem.MeshTri, E: float, nu: float, support: str):
        self.support = one_of("support", support, SUPPORTS)
        self.mesh = mesh
        self.basis = vector_basis(mesh, order=1)
        self.stiffness = StiffnessParts.assemble(self.basis).combine(E, nu)
        self.E, self.nu = E, nu
        nodes = np.unique(mesh.facets[:, mesh.boundaries["window"]])
        self.window_nodes = nodes[np.argsort(mesh.p[0, nodes])]
        self.window_dofs = self.basis.nodal_dofs[:, self.window_nodes].T.ravel()
        flat_y = mesh.p[1, mesh.facets[0, mesh.boundaries["flat"][0]]]
        self.flat_centre = node_at(mesh, 0.0, flat_y)
        self.fixed = fixed_dofs(self.basis, "flat", self.flat_centre, support)
        held = np.zeros(self.basis.N, dtype=bool)
        held[self.fixed] = True
        self.free = np.flatnonzero(~held)
        self.relief_load = relief_load(self.basis, support)
        self._factor: _OrderedFactor | None = None
        self._operators: WindowOperators | None = None

    @property
    def dofs(self) -> int:
        return self.basis.N

    @property
    def nodes(self) -> int:
        return self.mesh.p.shape[1]

    @property
    def window_reference(self) -> np.ndarray:
        """Reference coordinates of the window nodes, shape (n, 2)."""
        return self.mesh.p[:, self.window_nodes].T

    def condense(self) -> WindowOperators:
        """Factorise the free-DOF stiffness once; the window compliance and relief response."""
        if self._operators is None:
            position = np.full(self.dofs, -1)
            position[self.free] = np.arange(len(self.free))
            window = position[self.window_dofs]
            node = np.empty(self.dofs, dtype=np.int64)
            node[self.basis.nodal_dofs] = np.arange(self.nodes)
            self._factor = _OrderedFactor(self.stiffness[self.free][:, self.free].tocsc(),
                                          node[self.free], window)
            with one_blas_thread():  # design note 3 in hertz2d.fem.contact
                compliance = np.linalg.inv(self._factor.trailing)
            relief = self._factor.solve(self.relief_load[self.free])[window]
            self._operators = WindowOperators(0.5 * (compliance + compliance.T), relief)
        return self._operators

    def load(self, forces: np.ndarray) -> np.ndarray:
        """The load vector of window forces ``forces`` (2 per window node), with inertia relief."""
        load = self.relief_load * forces[0::2].sum()
        load[self.window_dofs] += forces
        return load

    def displacement(self, rigid: tuple[float, float], forces: np.ndarray) -> np.ndarray:
        """The full displacement field (basis DOF vector) for window forces ``forces``.

        ``rigid`` is the translation prescribed on the flat.
        """
        self.condense()
        u = np.empty(self.dofs)
        u[0::2], u[1::2] = rigid
        u[self.free] += self._factor.solve(self.load(forces)[self.free])
        return u

    def reaction(self, u: np.ndarray, forces: np.ndarray) -> np.ndarray:
        """Resultant ``(R_x, R_y)`` of the forces the support exerts on the flat, for field ``u``."""
        residual = self.stiffness[self.fixed] @ u - self.load(forces)[self.fixed]
        return np.array([residual[self.fixed % 2 == 0].sum(), residual[self.fixed % 2 == 1].sum()])

    def stress(self, u: np.ndarray) -> np.ndarray:
        """Cauchy stress per triangle (rows: xx, yy, xy, zz) of the P1 field ``u`` (plane strain)."""
        lam, shear = lame(self.E, self.nu)
        grad = self.basis.interpolate(u).grad.mean(axis=-1)
        exx, eyy, exy = grad[0, 0], grad[1, 1], 0.5 * (grad[0, 1] + grad[1, 0])
        trace = exx + eyy
        return np.vstack([lam * trace + 2 * shear * exx, lam * trace + 2 * shear * eyy,
                          2 * shear * exy, lam * trace])


class RigidWindow:
    """A rigid straight wall, the line ``y = 0`` between ``window[0]`` and ``window[1]``.

    It plays the master body of the contact problem with zero compliance and no relief: its
    window nodes, at spacing at most ``element``, only parametrise the straight master surface
    (the friction history's material points, :mod:`hertz2d.fem.contact.surface`), and the forces on them
    go into the wall, which does not move.
    """

    def __init__(self, window: tuple[float, float], element: float):
        nodes = max(4, int(np.ceil((window[1] - window[0]) / element)) + 1)
        self._reference = np.column_stack([np.linspace(window[0], window[1], nodes),
                                           np.zeros(nodes)])
        self._operators = WindowOperators(None, np.zeros(2 * nodes))

    @property
    def window_reference(self) -> np.ndarray:
        """Coordinates of the wall's window nodes, shape (n, 2)."""
        return self._reference

    def condense(self) -> WindowOperators:
        return self._operators
