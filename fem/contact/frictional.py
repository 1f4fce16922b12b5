"""Signorini-Coulomb contact of two condensed bodies: node-to-segment, finite sliding, history.

Discretisation (single-pass node-to-segment, e.g. Wriggers, *Computational Contact Mechanics*,
2nd ed. 2006, Ch. 9; Laursen, *Computational Contact and Impact Mechanics*, 2002, Ch. 5):
the slave nodes are the window nodes of the upper body, the master surface the polyline through
the lower body's window nodes with the smoothed normal field of :mod:`hertz2d.fem.contact.surface`. The
lower body is a condensed half disc or a rigid wall (:class:`hertz2d.fem.contact.body.RigidWindow`, no
compliance: its terms below are zero and skipped, the same solver path otherwise).
Slave node j carries a normal force ``lambda_n >= 0`` and a tangential force ``lambda_t`` along
``t = (n_y, -n_x)``; the master nodes of its segment carry the opposite force split by the
linear shape functions ``N_a(xi)``. ``G`` is that map from multipliers to window forces.

Kinematics, in the current configuration (so the upper body can slide over many segments):
``g_j = n_j . (x_s - x_m(xi_j))`` (gap, open when positive) and the slip of the increment
``d_j = t_j . (x_s - x_m(zeta_j^old))``, the tangential distance of the slave node from the master
*material* point it sat on at the end of the previous increment (the friction history; for a node
out of contact it is the point it faced). Coulomb's law, backward-Euler in time:
``|lambda_t| <= mu lambda_n``; ``d = 0`` if the bound is not reached (stick), else ``lambda_t d <= 0``
(slip against the force).

Algorithm per load increment: a fixed point on the geometry, each frozen problem solved exactly.

1. From the current window forces, the positions of both windows (condensed bodies, exact for
   the linear bulk) and the projection of every slave node (xi_j, n_j, t_j). The first
   iteration takes the forces extrapolated from the two converged states before
   (:meth:`ContactState.start_forces`).
2. With that geometry frozen, gap and slip are affine in the multipliers,
   ``(g, d) = (A + a c^T) lambda + b``, ``A = G^T S G`` with S both bodies' symmetric window
   compliances and ``a c^T`` the non-symmetric rank-one inertia relief of the ``symmetric``
   support (:mod:`hertz2d.fem.contact.body`; ``c . lambda`` is the x-resultant of the contact force).
   The discrete Signorini-Coulomb conditions of this frozen problem are solved by the
   primal-dual active set method of Hueber, Stadler & Wohlmuth (:mod:`hertz2d.fem.contact.coulomb`),
   warm-started from the previous iterate. Should it cycle, the iteration instead takes one
   step of the Tresca fixed point (bound ``s = mu lambda_n`` lagged; Haslinger, Dostal & Kucera,
   CMAME 191 (2002) 2261), a convex box problem that always terminates (:mod:`hertz2d.fem.contact.boxqp`).
3. Repeat until the multipliers change by less than :data:`TOLERANCE` (relative). The forces fed
   back to step 1 are Anderson-mixed (depth :data:`MIXING_DEPTH`, restarted when the contact or
   slip sets change): the plain geometric fixed point contracts by about 0.25 per iteration
   while the contact slides (the force split between master nodes and the deformed normals are
   lagged), mixing brings an increment from 13 to 8-9 iterations (level 3, the paper's case 1),
   and with the extrapolated start a step of the map's base case (level 2) takes 4.6-5.0.

The geometric terms frozen in step 2 are the projection point and normal (their first-order
variations vanish at the projection) and the tangential offset ``t . (x_m(xi) - x_m(zeta_old))``
of the master between the current and the old contact point. All of them are updated in step 1,
so the converged increment satisfies the full nonlinear conditions; the fixed point only lags
them. Dense algebra runs with one BLAS thread: on 2 cores the default thread pools made a load
step 2-3x slower at level 3 (benchmarks/twodisc.py); the pools are found once
(:mod:`hertz2d.fem.threads`). On windows of ~50 slave nodes (level 2) an iteration costs ~0.35 ms,
mostly numpy's per-call overhead: the projection and the frozen problem (the congruence by
batched 2 x 2 products per node) about a quarter each, the active-set solve a third.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hertz2d.fem.contact.body import CondensedBody, RigidWindow
from hertz2d.fem.contact.boxqp import solve_box_lcp
from hertz2d.fem.contact.coulomb import solve_coulomb
from hertz2d.fem.contact.surface import Projection, interpolate, project
from hertz2d.fem.threads import one_blas_thread

#: relative change of the multipliers at which an increment has converged
TOLERANCE = 1e-9
#: fixed-point iterations before an increment counts as not converged
MAX_ITERATIONS = 200
#: previous iterates used by the Anderson mixing of the geometric fixed point
MIXING_DEPTH = 3


class ContactNotConverged(RuntimeError):
    """The fixed point of one increment did not converge (the caller may cut the step back)."""


class ContactOutsideWindow(RuntimeError):
    """Contact reached the end of a refined window: the mesh does not cover this load."""


@dataclass(frozen=True)
class ContactState:
    """The converged state at the end of an increment, carried to the next (friction history)."""

    #: (n, 2): lambda_n, lambda_t per slave node
    multipliers: np.ndarray
    #: master surface coordinate of each slave node (a material point of the master)
    zeta: np.ndarray
    #: rigid translation of the upper flat, (delta_t, -delta_n)
    rigid: tuple[float, float]
    #: (n_slave, 2) and (n_master, 2) window forces of the multipliers
    slave_forces: np.ndarray
    master_forces: np.ndarray
    #: the rigid translation and window forces of the state this increment started from (None
    #: for the initial state): the next increment's first geometry is extrapolated from the two
    #: (:meth:`start_forces`)
    preceding: tuple[tuple[float, float], np.ndarray, np.ndarray] | None = None

    def start_forces(self, rigid: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
        """The window forces whose geometry the increment to ``rigid`` begins with.

        Extrapolated linearly from the preceding state and this one while the prescribed
        translation keeps its direction (the first geometry then lags the converged one by the
        forces' second difference instead of their first, about one fixed-point iteration in
        nine fewer on the map's paths); this state's own where it turns (a new stage, a
        reversal) or has no predecessor. Where the fixed point begins changes how many
        iterations it takes, not what it converges to.
        """
        if self.preceding is None:
            return self.slave_forces, self.master_forces
        preceding_rigid, preceding_slave, preceding_master = self.preceding
        before = np.subtract(self.rigid, preceding_rigid)
        now = np.subtract(rigid, self.rigid)
        along = float(before @ now)
        if along <= 0.0 or abs(before[0] * now[1] - before[1] * now[0]) > 1e-9 * along:
            return self.slave_forces, self.master_forces
        ratio = along / float(before @ before)
        return (self.slave_forces + ratio * (self.slave_forces - preceding_slave),
                self.master_forces + ratio * (self.master_forces - preceding_master))


@dataclass(frozen=True)
class Increment:
    """A converged increment: its state, the geometry it converged on, slip and effort."""

    state: ContactState
    projection: Projection
    #: slave nodes whose tangential force is at the Coulomb bound (slip), in contact
    slipping: np.ndarray
    iterations: int
    #: iterations that fell back to a Tresca step because the Coulomb active set cycled
    fallbacks: int


class _Anderson:
    """Anderson mixing of a fixed-point map z -> F(z) (Walker & Ni, SIAM J. Numer. Anal. 49
    (2011) 1715), restarted whenever the contact sets change (the map is smooth only in between).
    """

    def __init__(self, depth: int):
        self.depth = depth
        self.reset()

    def reset(self) -> None:
        self.points, self.images = [], []

    def mix(self, point: np.ndarray, image: np.ndarray) -> np.ndarray:
        self.points.append(point)
        self.images.append(image)
        self.points, self.images = self.points[-self.depth - 1:], self.images[-self.depth - 1:]
        if len(self.points) < 2:
            return image
        residuals = np.array(self.images) - np.array(self.points)
        d_residual = np.diff(residuals, axis=0).T
        d_image = np.diff(np.array(self.images), axis=0).T
        gamma = np.linalg.lstsq(d_residual, residuals[-1], rcond=None)[0]
        return image - d_image @ gamma


class _ForceMap:
    """``G`` of one frozen geometry: multipliers -> window forces, kept in factored form.

    Slave node j pushes its own node along the columns of ``frame[j] = [n_j, t_j]`` and the master
    nodes ``k_j, k_j + 1`` with the weights ``-(1 - xi_j), -xi_j``. Slave nodes projecting beyond
    the master carry no force (zero frame).
    """

    def __init__(self, projection: Projection, n_master: int):
        self.frame = np.where(projection.inside[:, None, None],
                              np.stack([projection.normal, projection.tangent], axis=2), 0.0)
        self.k, xi = projection.segment, projection.xi
        self.weights = np.column_stack([xi - 1.0, -xi])
        self.n_master = n_master
        # per slave node j the 2 x 2 block frame[j]^T and the 1 x 2 weights of its master
        # nodes, for the batched products of the congruence (half the time of broadcasting)
        self._frame_t = np.ascontiguousarray(self.frame.transpose(0, 2, 1))
        self._master_nodes = np.column_stack([self.k, self.k + 1])

    def forces(self, multipliers: np.ndarray):
        """Window forces (n_slave, 2), (n_master, 2) of multipliers (n_slave, 2)."""
        slave = np.einsum("jap,jp->ja", self.frame, multipliers)
        master = np.zeros((self.n_master, 2))
        for r in (0, 1):
            np.add.at(master, self.k + r, self.weights[:, r:r + 1] * slave)
        return slave, master

    def transpose(self, slave: np.ndarray, master: np.ndarray) -> np.ndarray:
        """``G^T`` of window vectors (n_slave, 2), (n_master, 2): [normal block; tangent block]."""
        gathered = slave + (self.weights[:, :1] * master[self.k]
                            + self.weights[:, 1:] * master[self.k + 1])
        return np.einsum("jap,ja->pj", self.frame, gathered).ravel()

    def _rotate_rows(self, matrix: np.ndarray) -> np.ndarray:
        """``F^T M``: slave window rows (j, axis) -> multiplier rows (p, j), F = blockdiag(frame)."""
        rows = np.ascontiguousarray(matrix).reshape(len(self.k), 2, -1)
        out = np.empty((2, len(self.k), rows.shape[2]))
        np.matmul(self._frame_t, rows, out=out.transpose(1, 0, 2))
        return out.reshape(2 * len(self.k), -1)

    def _interpolate_rows(self, matrix: np.ndarray) -> np.ndarray:
        """``W M``: master window rows -> rows at the slave nodes' contact points (weighted)."""
        rows = np.ascontiguousarray(matrix).reshape(self.n_master, -1)
        mixed = self.weights[:, None, :] @ rows[self._master_nodes]
        return mixed.reshape(2 * len(self.k), -1)

    def congruence(self, slave: np.ndarray, master: np.ndarray | None) -> np.ndarray:
        """``G^T S G`` of both bodies' symmetric window compliances (``G = F^T [I; W]``); a
        rigid master (``None``) adds nothing."""
        if master is not None:
            slave = slave + self._interpolate_rows(self._interpolate_rows(master).T)
        return self._rotate_rows(self._rotate_rows(slave).T)


class NodeToSegmentContact:
    """Frictional contact of a slave (upper) condensed body and a master (lower) condensed body or
    rigid wall."""

    def __init__(self, slave: CondensedBody, master: CondensedBody | RigidWindow, mu: float):
        self.slave, self.master, self.mu = slave, master, mu
        so, mo = slave.condense(), master.condense()
        self._S = (so.compliance, mo.compliance)
        self._relief = (so.relief.reshape(-1, 2), mo.relief.reshape(-1, 2))
        self._X = (slave.window_reference, master.window_reference)
        self.n_slave, self.n_master = len(self._X[0]), len(self._X[1])
        #: mean element length along the slave window, the scale of :meth:`gap_residual`
        self.element = float(np.linalg.norm(np.diff(self._X[0], axis=0), axis=1).mean())

    def initial_state(self) -> ContactState:
        """No contact force, both bodies in the reference configuration."""
        return ContactState(np.zeros((self.n_slave, 2)), project(*self._X).zeta, (0.0, 0.0),
                            np.zeros((self.n_slave, 2)), np.zeros((self.n_master, 2)))

    def _positions(self, rigid, slave_forces, master_forces):
        """Current positions of both windows (reference + rigid + elastic, inertia relief)."""
        (S_s, S_m), (v_s, v_m) = self._S, self._relief
        u_s = (S_s @ slave_forces.ravel()).reshape(-1, 2) + v_s * slave_forces[:, 0].sum()
        if S_m is None:  # a rigid wall
            return self._X[0] + np.asarray(rigid) + u_s, self._X[1]
        u_m = (S_m @ master_forces.ravel()).reshape(-1, 2) + v_m * master_forces[:, 0].sum()
        return self._X[0] + np.asarray(rigid) + u_s, self._X[1] + u_m

    def _frozen_problem(self, G: _ForceMap, rigid, projection, old_zeta, master_positions):
        """``A``, ``b``, ``(a, c)`` of ``(g, d) = (A + a c^T) lambda + b``, geometry frozen.

        ``a c^T`` is the inertia relief (zero for the clamped support): ``c . lambda`` is the
        x-resultant of the contact force on the slave body, ``a`` the gap and slip it causes
        through both bodies' relief responses.
        """
        n = self.n_slave
        A = G.congruence(*self._S)
        b = G.transpose(self._X[0] + np.asarray(rigid), self._X[1])
        shift = projection.point - interpolate(master_positions, old_zeta)
        b[n:] += np.einsum("ij,ij->i", projection.tangent, shift)
        v_s, v_m = self._relief
        relief = G.transpose(v_s, -v_m)  # the master carries minus the slave's x-resultant
        resultant = G.frame[:, 0, :].T.ravel()
        return 0.5 * (A + A.T), b, (relief, resultant)

    def _solve_frozen(self, A, b, rank_one, allowed, multipliers):
        """Coulomb by the active set; if it cycles, one Tresca step with the bound lagged.

        Returns the new multipliers, the slip flags and whether the Tresca fallback was used.
        """
        relief, resultant = rank_one
        solution = solve_coulomb(A + np.outer(relief, resultant), b, self.mu, allowed,
                                 multipliers)
        if solution is not None:
            return solution.multipliers, solution.slipping, False
        n = self.n_slave
        bound = self.mu * multipliers[:, 0]
        lower = np.concatenate([np.zeros(n), -bound])
        upper = np.concatenate([np.where(allowed, np.inf, 0.0), bound])
        tresca = solve_box_lcp(A, b, lower, upper, multipliers.T.ravel(), rank_one)
        new = tresca.x.reshape(2, n).T
        # the box solvers put a variable at its bound exactly (bvls to round-off)
        slipping = (new[:, 0] > 0) & (np.abs(new[:, 1]) >= bound * (1 - 1e-12))
        return new, slipping, True

    # -- an increment -------------------------------------------------------------------------

    def increment(self, state: ContactState, rigid: tuple[float, float]) -> Increment:
        """Solve the increment from ``state`` to the flat translation ``rigid``.

        Raises :class:`ContactNotConverged` (the caller may subdivide the increment) or
        :class:`ContactOutsideWindow`.
        """
        multipliers = state.multipliers
        slave_f, master_f = state.start_forces(rigid)
        mixer = _Anderson(MIXING_DEPTH)
        fallbacks, change, sets = 0, np.inf, None
        with one_blas_thread():
            for iteration in range(1, MAX_ITERATIONS + 1):
                slave_x, master_x = self._positions(rigid, slave_f, master_f)
                projection = project(slave_x, master_x)
                G = _ForceMap(projection, self.n_master)
                A, b, rank_one = self._frozen_problem(G, rigid, projection, state.zeta, master_x)
                new, slipping, fallback = self._solve_frozen(A, b, rank_one, projection.inside,
                                                             multipliers)
                fallbacks += fallback
                change = np.abs(new - multipliers).max() / max(np.abs(new).max(), 1e-300)
                multipliers = new
                image = G.forces(multipliers)
                if not change > TOLERANCE:  # converged, or NaN: stop either way
                    slave_f, master_f = image
                    break
                new_sets = (new[:, 0] > 0, slipping)
                if sets is None or not all(np.array_equal(p, q) for p, q in zip(sets, new_sets)):
                    mixer.reset()
                sets = new_sets
                point = np.concatenate([slave_f.ravel(), master_f.ravel()])
                mixed = mixer.mix(point, np.concatenate([image[0].ravel(), image[1].ravel()]))
                slave_f = mixed[:2 * self.n_slave].reshape(-1, 2)
                master_f = mixed[2 * self.n_slave:].reshape(-1, 2)
        if not change <= TOLERANCE:
            raise ContactNotConverged(
                f"contact fixed point did not converge in {iteration} iterations "
                f"(relative change of the contact forces {change:.2e})")
        self._check_window(multipliers, projection)
        new_state = ContactState(multipliers, projection.zeta, tuple(rigid), slave_f, master_f,
                                 (state.rigid, state.slave_forces, state.master_forces))
        return Increment(new_state, projection, slipping, iteration, fallbacks)

    def gap_residual(self, increment: Increment) -> float:
        """How far the converged increment is from Signorini's conditions in its own geometry.

        The geometry is rebuilt from the converged forces (not the frozen one the last solve
        used) and the largest of ``|g|`` at the nodes that press and of the penetration ``-g`` at
        the others is returned in units of the slave element length. It measures what the fixed
        point's :data:`TOLERANCE` leaves of the nonlinear contact conditions.
        """
        state = increment.state
        slave_x, master_x = self._positions(state.rigid, state.slave_forces, state.master_forces)
        projection = project(slave_x, master_x)
        pressing = state.multipliers[:, 0] > 0
        violation = np.where(pressing, np.abs(projection.gap), np.maximum(-projection.gap, 0.0))
        return float(violation[projection.inside].max(initial=0.0) / self.element)

    def _check_window(self, multipliers, projection) -> None:
        """Contact may not reach the last slave node or the last master segment of a window."""
        active = np.flatnonzero(multipliers[:, 0] > 0)
        if active.size == 0:
            return
        k = projection.segment[active]
        if (active[0] == 0 or active[-1] == self.n_slave - 1 or k.min() == 0
                or k.max() == self.n_master - 2):
            raise ContactOutsideWindow("the contact zone reached the end of a refined contact "
                                       "window; the mesh was sized for a smaller load")
