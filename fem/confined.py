"""A full disc held by K contacts (plane strain, P2): the penalty factor of Eq. 20 in a packing.

The half-round body of Section 2.3 measures Eq. 20's tangential displacement against a base that
is either clamped or a mirror plane (:mod:`hertz2d.fem.halfround`). A disc in a packing has neither: it is
held by its other contacts. Here the whole disc is modelled, with K equally spaced flats
(:mod:`hertz2d.meshes.fulldisc`, contact 1 at the top, ``n_k`` the outward normal and ``t_k`` the tangent
of flat k, ``t_1 = (1, 0)``), and every load is self-equilibrated, so no support is needed.

Loads (Hertzian tractions, Eq. 1 shape, on each flat's chord; per unit resultant):

``normal``
    every flat carries a compressive normal traction of resultant N; they balance because the
    flats are equally spaced. At K = 2 this is Johnson's disc between two Hertzian loads, whose
    approach of the top relative to the centre is Eq. 17 (the verification).
``tangential``
    contact 1 carries a tangential traction of resultant T along ``t_1``, balanced in force AND
    moment by one of (:data:`BALANCES`):

    ``contacts`` (K >= 3)
        Hertzian tangential and normal tractions at contacts 2..K whose resultants
        ``(T_k, N_k)`` are the minimum-norm set that equilibrates the disc
        (:func:`balancing_resultants`): for K = 3, ``T_2 = T_3 = -T/2``, ``N_2 = -N_3 =
        -sqrt(3) T/2``; for K = 4 the side contacts carry ``T_k = -T/2``, ``N_k = -/+ T/2`` and the
        bottom contact nothing. With equal normal and tangential contact stiffnesses at the
        holding contacts this is the force distribution they would take. At K = 2 it is
        impossible: the opposite contact's tangential force can cancel T or its moment, not both.
    ``relief`` (any K)
        d'Alembert's body force of a free rigid disc under the unbalanced force T and moment
        ``-h T`` (inertia relief): a uniform density plus the rotational density ``c (-y, x)``,
        i.e. what a free DEM disc under one tangential contact force does (it accelerates and
        spins). The only balance at K = 2.
    ``mirror`` (K = 2)
        contact 2 carries the mirror image of contact 1's traction (same global direction, +x),
        the net force 2T is balanced by a uniform body force and the moments cancel. This is
        exactly the ``symmetric`` half-round body of :mod:`hertz2d.fem.supports` mirrored into a full
        disc; it is the sanity check, not a packing.

    The resultants (force and moment) of a load vector are its products with the three rigid
    modes, which P2 interpolates exactly: the inertia force is computed from them, and the
    Hertzian tractions integrate exactly, so every load is balanced to round-off
    (:attr:`ConfinedResponse.imbalance`).

Rigid motion (the free body's three zero-energy modes): the centre node's two DOFs and the x DOF
of contact 1's centre node are held; with self-equilibrated loads those constraints carry no force
(:attr:`ConfinedResponse.reaction` reports the largest reaction per unit load), and the
displacement is then defined up to a rigid motion, which each measurement removes explicitly.

Measurement. A DEM contact's tangential displacement is the contact point's displacement minus the
disc's rigid motion, centre translation plus ``theta x r``. With the disc deformed, that rigid
motion must be defined; two definitions are computed:

``centre`` (the one Eq. 20 uses, primary)
    translation of the centre node, ``theta`` the area average of the infinitesimal rotation
    ``(1/2)(du_y/dx - du_x/dy)`` over the disc. Eqs. 17 and 20 measure "the top relative to the
    centre", so at K = 2 under ``mirror`` (no rotation) this is the ``symmetric`` half-round's
    measurement exactly.
``mean_axes``
    the least-squares rigid fit (Tisserand's mean axes): translation the area-averaged
    displacement, ``theta = int r x (u - u_mean) dA / int |r|^2 dA`` about the centroid. These are
    the position and rotation whose rates carry the disc's momentum and angular momentum, i.e.
    what a DEM integrates.

``u_t`` at contact 1 is then ``(u(c_1) - u_rigid(c_1)) . t_1`` with ``c_1`` the flat's centre
node, and Eq. 20 is inverted for w with it
(:func:`hertz2d.calibration.laws.closed_forms.penalty_factor_from_displacement`).
Under the ``normal`` load the approach ``-(u(c_1) - u_rigid(c_1)) . n_1`` is compared with Eq. 17.

The stiffness depends on E and nu only through ``lambda K_lambda + mu K_mu`` and the mesh only on
``a/R`` and K, so one :class:`ConfinedDisc` serves every material and balance: each nu is
factorised once at E = 1 and every load solved with that factorisation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import skfem
from skfem.helpers import grad

from hertz2d.fem.elasticity import StiffnessParts, vector_basis
from hertz2d.fem.factor import PatternFactorizer
from hertz2d.fem.loads import hertzian_traction
from hertz2d.checks import InputError, non_negative, one_of, poisson, positive
from hertz2d.meshes.fulldisc import DEFAULT_LEVEL, contact_angles, contact_frames, full_disc_mesh
from hertz2d.meshes.halfround import node_at

#: how the tangential load is balanced (the module docstring says each)
BALANCES = ("contacts", "relief", "mirror")
RIGID_DEFINITIONS = ("centre", "mean_axes")


def check_balance(balance: str, K: int) -> str:
    """``balance`` is one of :data:`BALANCES` and possible with K contacts."""
    one_of("balance", balance, BALANCES)
    if balance == "contacts" and K < 3:
        raise InputError(f"balance='contacts' needs K >= 3 (K={K}): the opposite contact alone "
                         "cannot balance both the force and the moment of T")
    if balance == "mirror" and K != 2:
        raise InputError(f"balance='mirror' is the mirrored half-round body, K=2 only (K={K})")
    return balance


def balancing_resultants(K: int) -> np.ndarray:
    """Minimum-norm resultants ``(T_k, N_k)`` at contacts 2..K (rows) equilibrating a unit T at
    contact 1: ``sum_k T_k t_k - N_k n_k = -t_1`` (force) and ``sum_k T_k = -1`` (moment about the
    centre, every tangential force acting at the same distance h; the normal forces pass through
    the centre). ``N_k`` is compressive positive, like the paper's normal force."""
    if K < 3:
        raise InputError(f"K={K}: contacts 2..K cannot balance force and moment with K < 3")
    normals, tangents = contact_frames(K)
    columns = []
    for n, t in zip(normals[1:], tangents[1:]):
        columns += [[t[0], t[1], 1.0], [-n[0], -n[1], 0.0]]
    equilibrium = np.array(columns).T
    rhs = -np.array([tangents[0, 0], tangents[0, 1], 1.0])
    return (np.linalg.pinv(equilibrium) @ rhs).reshape(K - 1, 2)


def _rotation(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def _body_loads(basis: skfem.Basis) -> np.ndarray:
    """Load vectors (columns) of the unit body-force densities (1, 0), (0, 1) and (-y, x)."""
    forms = (lambda v, w: v[0], lambda v, w: v[1], lambda v, w: -w.x[1] * v[0] + w.x[0] * v[1])
    return np.stack([skfem.LinearForm(form).assemble(basis) for form in forms], axis=1)


@skfem.LinearForm
def _curl(v, w):
    """``(1/2)(dv_y/dx - dv_x/dy)``: the infinitesimal rotation of a test field."""
    g = grad(v)
    return 0.5 * (g[1, 0] - g[0, 1])


@dataclass(frozen=True)
class ConfinedResponse:
    """Contact 1's displacement (m) under the normal loads N on every flat plus a tangential load
    T at contact 1, balanced as ``balance`` says.

    ``u_t``: along ``t_1``, rigid motion removed by the ``centre`` definition (the one Eq. 20
    uses); ``u_t_mean_axes``: the same with the ``mean_axes`` definition; ``approach``: along
    ``-n_1`` (centre definition; the tangential load adds nothing to it, by antisymmetry);
    ``reaction``: the largest constraint reaction per unit of the larger load; ``imbalance``: the
    largest resultant of the applied loads (force, and moment / R) per unit of the larger load.
    """

    balance: str
    T: float
    N: float
    u_t: float
    u_t_mean_axes: float
    approach: float
    reaction: float
    imbalance: float


class ConfinedDisc:
    """One meshed and assembled full disc with K flats; :meth:`response` solves any material."""

    def __init__(self, R: float, a: float, K: int, level: int = DEFAULT_LEVEL):
        self.R, self.a, self.K, self.level = R, a, K, level
        self.mesh = full_disc_mesh(R, a, K, level)
        self.basis = vector_basis(self.mesh, order=2)
        self.parts = StiffnessParts.assemble(self.basis)
        self.h = math.sqrt(R * R - a * a)
        self.normals, self.tangents = contact_frames(K)
        self.centre_node = node_at(self.mesh, 0.0, 0.0)
        self.flat_nodes = [node_at(self.mesh, *(self.h * n)) for n in self.normals]
        self.rigid_modes = self._rigid_modes()
        self.body = _body_loads(self.basis)
        self.tractions = self._flat_tractions()
        held = np.concatenate([self.basis.nodal_dofs[:, self.centre_node],
                               self.basis.nodal_dofs[:1, self.flat_nodes[0]]])
        self.held = held
        self.free = np.setdiff1d(np.arange(self.basis.N), held)
        self.free_parts = self.parts.restricted(self.free)
        self.factorizer = PatternFactorizer()
        self._factored: tuple[float, object, object] | None = None
        self._measures = self._rigid_motion_functionals()
        self._solved: dict[tuple, ConfinedResponse] = {}

    @property
    def dofs(self) -> int:
        return self.basis.N

    # -- loads ---------------------------------------------------------------------------------
    def _rigid_modes(self) -> np.ndarray:
        """Columns: x and y translation and the rotation ``(-y, x)``, exact in P2."""
        x, y = self.basis.doflocs
        component = np.zeros(self.basis.N, dtype=int)
        component[self.basis.nodal_dofs[1]] = 1
        component[self.basis.facet_dofs[1]] = 1
        modes = np.zeros((self.basis.N, 3))
        modes[:, 0] = component == 0
        modes[:, 1] = component == 1
        modes[:, 2] = np.where(component == 0, -y, x)
        return modes

    def _flat_tractions(self) -> np.ndarray:
        """Load vectors of unit Hertzian tractions on each flat, shape (K, 2, N): along ``t_k``
        and compressive (along ``-n_k``).

        :func:`hertz2d.fem.loads.hertzian_traction` integrates a traction given as a function of x on a
        horizontal chord; flat k is made horizontal by rotating the mesh by ``pi/2 - phi_k`` (the
        same triangles, so the same DOF numbering; the flat's nodes are set exactly level, a change
        of round-off size that keeps the quadrature points on the chord), and each DOF pair of
        the result is rotated back to the global axes.
        """
        pairs = np.hstack([self.basis.nodal_dofs, self.basis.facet_dofs])
        out = np.zeros((self.K, 2, self.basis.N))
        for k, phi in enumerate(contact_angles(self.K)):
            back = _rotation(phi - np.pi / 2)
            facets = self.mesh.boundaries[f"flat{k + 1}"]
            points = back.T @ self.mesh.p
            points[1, np.unique(self.mesh.facets[:, facets])] = self.h  # exactly level
            turned = skfem.MeshTri(points, self.mesh.t)
            if not np.array_equal(turned.facets, self.mesh.facets):
                raise RuntimeError("the rotated mesh numbers its facets differently")
            basis = vector_basis(turned, order=2)
            for column, direction in enumerate(((1.0, 0.0), (0.0, -1.0))):
                local = hertzian_traction(basis, facets, 1.0, self.a, direction)
                out[k, column][pairs.ravel()] = (back @ local[pairs]).ravel()
        return out

    def resultants(self, load: np.ndarray) -> np.ndarray:
        """``(F_x, F_y, M)`` of a load vector (M about the origin, counter-clockwise)."""
        return self.rigid_modes.T @ load

    def relieved(self, load: np.ndarray) -> np.ndarray:
        """``load`` plus the body force of uniform and rotational density cancelling its
        resultants: d'Alembert's inertia force of the rigid disc (inertia relief)."""
        coefficients = np.linalg.solve(self.rigid_modes.T @ self.body, -self.resultants(load))
        return load + self.body @ coefficients

    def normal_load(self) -> np.ndarray:
        """Unit compressive Hertzian tractions on every flat."""
        return self.tractions[:, 1].sum(axis=0)

    def tangential_load(self, balance: str) -> np.ndarray:
        """Unit tangential traction at contact 1 along ``t_1``, balanced by ``balance``."""
        balance = check_balance(balance, self.K)
        load = self.tractions[0, 0].copy()
        if balance == "contacts":
            for k, (T_k, N_k) in enumerate(balancing_resultants(self.K), start=1):
                load += T_k * self.tractions[k, 0] + N_k * self.tractions[k, 1]
            return load
        if balance == "mirror":  # contact 2's tangent is -x: the mirror image of +x is -t_2
            load -= self.tractions[1, 0]
        return self.relieved(load)

    # -- measurement ---------------------------------------------------------------------------
    def _rigid_motion_functionals(self) -> dict[str, np.ndarray]:
        """Row vectors that map a displacement field to its rigid motion's parameters."""
        area = self.body[:, 0] @ self.rigid_modes[:, 0]
        centroid = np.array([self.body[:, 1] @ self.rigid_modes[:, 2],
                             -self.body[:, 0] @ self.rigid_modes[:, 2]]) / area
        polar = self.body[:, 2] @ self.rigid_modes[:, 2] - area * centroid @ centroid
        mean = self.body[:, :2].T / area
        tisserand = (self.body[:, 2] - centroid[0] * self.body[:, 1]
                     + centroid[1] * self.body[:, 0]) / polar
        return {"mean": mean, "centroid": centroid, "tisserand": tisserand,
                "mean_rotation": _curl.assemble(self.basis) / area}

    def rigid_motion(self, field: np.ndarray, definition: str) -> tuple[np.ndarray, float,
                                                                         np.ndarray]:
        """``(translation, theta, about)``: the rigid motion of ``field`` by ``definition``."""
        one_of("definition", definition, RIGID_DEFINITIONS)
        m = self._measures
        if definition == "centre":
            return (field[self.basis.nodal_dofs[:, self.centre_node]],
                    float(m["mean_rotation"] @ field), np.zeros(2))
        return m["mean"] @ field, float(m["tisserand"] @ field), m["centroid"]

    def contact_displacement(self, field: np.ndarray, definition: str,
                             contact: int = 1) -> np.ndarray:
        """Contact ``contact``'s centre displacement minus the rigid motion, in its frame
        ``(u . t_k, u . n_k)``."""
        translation, theta, about = self.rigid_motion(field, definition)
        node = self.flat_nodes[contact - 1]
        point = self.mesh.p[:, node] - about
        relative = (field[self.basis.nodal_dofs[:, node]] - translation
                    - theta * np.array([-point[1], point[0]]))
        return np.array([relative @ self.tangents[contact - 1],
                         relative @ self.normals[contact - 1]])

    # -- solve ---------------------------------------------------------------------------------
    def solve(self, E: float, nu: float, load: np.ndarray) -> tuple[np.ndarray, float]:
        """Displacement field under ``load`` and the largest constraint reaction."""
        E, nu = positive("E", E), poisson("nu", nu)
        if self._factored is None or self._factored[0] != nu:
            self._factored = (nu, self.factorizer.factorize(self.free_parts.combine(1.0, nu)),
                              self.parts.combine(1.0, nu)[self.held])
        _, solve, held_rows = self._factored
        field = np.zeros(self.basis.N)
        field[self.free] = solve(load[self.free])
        reaction = held_rows @ field - load[self.held]
        return field / E, float(np.abs(reaction).max())

    def response(self, E: float, nu: float, balance: str, T: float = 1.0,
                 N: float = 1.0) -> ConfinedResponse:
        """Contact 1's displacement under N on every flat and T at contact 1, balanced as
        ``balance`` says.

        One solve at E = 1 per (nu, balance, T, N), scaled by 1/E for any modulus.
        """
        E, nu = positive("E", E), poisson("nu", nu)
        T, N = non_negative("T", T), non_negative("N", N)
        check_balance(balance, self.K)
        if T == 0 and N == 0:
            raise InputError("T=0 and N=0: no load")
        key = (nu, balance, T, N)
        if key not in self._solved:
            load = N * self.normal_load() + T * self.tangential_load(balance)
            field, reaction = self.solve(1.0, nu, load)
            scale = max(T, N)
            resultants = self.resultants(load) * np.array([1.0, 1.0, 1.0 / self.R])
            self._solved[key] = ConfinedResponse(
                balance=balance, T=T, N=N,
                u_t=float(self.contact_displacement(field, "centre")[0]),
                u_t_mean_axes=float(self.contact_displacement(field, "mean_axes")[0]),
                approach=float(-self.contact_displacement(field, "centre")[1]),
                reaction=reaction / scale, imbalance=float(np.abs(resultants).max()) / scale)
        unit = self._solved[key]
        return replace(unit, u_t=unit.u_t / E, u_t_mean_axes=unit.u_t_mean_axes / E,
                       approach=unit.approach / E)
