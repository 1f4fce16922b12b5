"""Forces and moments on every disc at the current positions: contacts, gravity, damping.

Geometry of a contact between discs i and j (i < j): unit normal ``n`` from i to j, tangent
``t = (-n_y, n_x)``, approach ``delta = r_i + r_j - |x_j - x_i|``. The contact point is the middle
of the overlap, at lever arms ``l_i = r_i - delta/2`` and ``l_j = r_j - delta/2`` from the centres
(``l = r - delta`` for a wall: the point on the wall). The relative velocity of j's material point
there with respect to i's has the normal component ``v_n`` (> 0 separating) and the tangential
component ``v_t = (v_j - v_i) . t - (omega_i l_i + omega_j l_j)``; the law's tangential increment
is ``v_t dt``. The pair law (:mod:`dem.laws`) gives N and T; disc i receives ``-N n + T t`` and
the moment ``l_i T``, disc j the opposite force and the moment ``l_j T``. A wall is body j with
the wall's velocity and no rotation, and the pair is the disc with its mirror image (Section 3.2):
the law sees twice the disc's approach and tangential increment, the disc receives the pair's
force.

The forces are kept apart by kind (springs, dashpots, local damping) because the energy ledger
(:mod:`dem.energy`) needs the power of each. Each contact also adds to the ledger the energy its
tangential spring dissipates by slip and by changes of kt (see :mod:`dem.energy`).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from dem.contacts import HALF_WIDTH, NORMAL, STIFFNESS, TANGENTIAL
from dem.damping import dashpot, local_damping
from dem.energy import SLIP, STIFFNESS_CHANGE
from dem.jit import njit
from dem.laws import pair_update

#: the ``status`` of a force evaluation
OK, LAW_FAILED = 0, 1


class Forces(NamedTuple):
    """Generalised forces (fx, fy, moment) per disc, by kind, and the walls' forces on discs."""

    #: (n, 3) contact springs
    elastic: np.ndarray
    #: (n, 3) contact dashpots
    dashpot: np.ndarray
    #: (n, 3) local damping
    local: np.ndarray
    #: (n, 3) everything, gravity included: what the integrator uses
    total: np.ndarray
    #: (w, 2) force each wall's springs exert on the discs
    wall_elastic: np.ndarray
    #: (w, 2) force each wall's dashpots exert on the discs
    wall_dashpot: np.ndarray

    @classmethod
    def zeros(cls, discs, walls) -> "Forces":
        n, w = discs.count, walls.count
        return cls(np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)),
                   np.zeros((w, 2)), np.zeros((w, 2)))


@njit
def release(history, row, scale, ledger, accumulate):
    """A contact that opened: its spring's remaining energy is dissipated, its history reset."""
    if accumulate and history[row, STIFFNESS] > 0.0:
        ledger[STIFFNESS_CHANGE] += (0.5 * history[row, TANGENTIAL] ** 2
                                     / history[row, STIFFNESS] / scale)
    history[row, :] = 0.0


@njit
def contact(code, p, ratio, dt, delta, v_n, v_t, reduced_mass, R1, R2, scale, history, row,
            ledger, accumulate):
    """One touching contact: ``(N, T, N_dashpot, T_dashpot, k_normal)`` of the pair, its history
    (``history[row]``) and the ledger updated. ``scale`` is 1 for two discs, 2 for a disc and
    its mirror (a wall); N is NaN if the law fails."""
    d_delta_t = scale * v_t * dt if accumulate else 0.0
    T_previous, kt_previous = history[row, TANGENTIAL], history[row, STIFFNESS]
    N, T, a, k_normal, kt, slipping = pair_update(code, p, scale * delta, d_delta_t, T_previous,
                                                  history[row, HALF_WIDTH], R1, R2)
    if not N > 0.0:  # NaN: the law failed; 0 cannot happen for a touching contact
        return math.nan, 0.0, 0.0, 0.0, 0.0
    if accumulate:
        if slipping:
            slip = (T_previous + kt * d_delta_t - T) / kt
            ledger[SLIP] += 0.5 * (T_previous + T) * slip / scale
        if kt_previous > 0.0 and kt != kt_previous:
            ledger[STIFFNESS_CHANGE] += (0.5 * T_previous * T_previous
                                         * (1.0 / kt_previous - 1.0 / kt) / scale)
    N_dashpot = T_dashpot = 0.0
    if ratio > 0.0:
        N_dashpot = -dashpot(ratio, reduced_mass, k_normal) * scale * v_n
        if not slipping:
            T_dashpot = dashpot(ratio, reduced_mass, kt) * scale * v_t
    history[row, TANGENTIAL], history[row, HALF_WIDTH] = T, a
    history[row, STIFFNESS], history[row, NORMAL] = kt, N
    return N, T, N_dashpot, T_dashpot, k_normal


@njit
def add_pair_force(target, i, j, N, T, nx, ny, lever_i, lever_j):
    """Add a pair contact's normal force N (along n, from i to j, pushing them apart) and
    tangential force T (along t = (-ny, nx)) to discs i and j: forces and torques (lever arms)."""
    fx, fy = -N * nx - T * ny, -N * ny + T * nx
    target[i, 0] += fx
    target[i, 1] += fy
    target[i, 2] += lever_i * T
    target[j, 0] -= fx
    target[j, 1] -= fy
    target[j, 2] += lever_j * T


@njit
def add_wall_force(target, wall_target, i, w, N, T, nx, ny, lever):
    """Add a wall contact's forces to disc i (force and torque) and to wall w (the force the
    disc receives, summed; the wall's own force is its negative)."""
    fx, fy = -N * nx - T * ny, -N * ny + T * nx
    target[i, 0] += fx
    target[i, 1] += fy
    target[i, 2] += lever * T
    wall_target[w, 0] += fx
    wall_target[w, 1] += fy


@njit
def compute_forces(discs, walls, contacts, forces, ledger, code, p, ratio, alpha, gravity, dt,
                   accumulate):
    """Every force at the current positions (velocities: the latest half step). With
    ``accumulate`` False (the first evaluation of a run) no tangential increment is applied and
    the ledger is untouched. Returns :data:`OK` or :data:`LAW_FAILED`."""
    position, velocity, radius, inertia = (discs.position, discs.velocity, discs.radius,
                                           discs.inertia)
    elastic, damped = forces.elastic, forces.dashpot
    elastic[:] = 0.0
    damped[:] = 0.0
    forces.wall_elastic[:] = 0.0
    forces.wall_dashpot[:] = 0.0
    walls.stiffness[:] = 0.0

    pairs, history = contacts.pairs, contacts.pair_history
    for k in range(pairs.shape[0]):
        i, j = pairs[k, 0], pairs[k, 1]
        dx = position[j, 0] - position[i, 0]
        dy = position[j, 1] - position[i, 1]
        reach = radius[i] + radius[j]
        distance_squared = dx * dx + dy * dy
        if distance_squared >= reach * reach:
            if history[k, NORMAL] != 0.0:
                release(history, k, 1.0, ledger, accumulate)
            continue
        distance = math.sqrt(distance_squared)
        nx, ny = dx / distance, dy / distance
        tx, ty = -ny, nx
        delta = reach - distance
        lever_i, lever_j = radius[i] - 0.5 * delta, radius[j] - 0.5 * delta
        rvx = velocity[j, 0] - velocity[i, 0]
        rvy = velocity[j, 1] - velocity[i, 1]
        v_n = rvx * nx + rvy * ny
        v_t = rvx * tx + rvy * ty - (velocity[i, 2] * lever_i + velocity[j, 2] * lever_j)
        reduced_mass = inertia[i, 0] * inertia[j, 0] / (inertia[i, 0] + inertia[j, 0])
        N, T, N_d, T_d, _ = contact(code, p, ratio, dt, delta, v_n, v_t, reduced_mass,
                                    radius[i], radius[j], 1.0, history, k, ledger, accumulate)
        if math.isnan(N):
            return LAW_FAILED
        add_pair_force(elastic, i, j, N, T, nx, ny, lever_i, lever_j)
        if N_d != 0.0 or T_d != 0.0:
            add_pair_force(damped, i, j, N_d, T_d, nx, ny, lever_i, lever_j)

    for w in range(walls.point.shape[0]):
        wnx, wny = walls.normal[w, 0], walls.normal[w, 1]
        nx, ny = -wnx, -wny  # from the disc to the wall
        tx, ty = -ny, nx
        wall_history = contacts.wall_history[w]
        for i in range(radius.shape[0]):
            delta = radius[i] - ((position[i, 0] - walls.point[w, 0]) * wnx
                                 + (position[i, 1] - walls.point[w, 1]) * wny)
            if delta <= 0.0:
                if wall_history[i, NORMAL] != 0.0:
                    release(wall_history, i, 2.0, ledger, accumulate)
                continue
            lever = radius[i] - delta
            rvx = walls.velocity[w, 0] - velocity[i, 0]
            rvy = walls.velocity[w, 1] - velocity[i, 1]
            v_n = rvx * nx + rvy * ny
            v_t = rvx * tx + rvy * ty - velocity[i, 2] * lever
            N, T, N_d, T_d, k_normal = contact(code, p, ratio, dt, delta, v_n, v_t,
                                               0.5 * inertia[i, 0], radius[i], radius[i], 2.0,
                                               wall_history, i, ledger, accumulate)
            if math.isnan(N):
                return LAW_FAILED
            add_wall_force(elastic, forces.wall_elastic, i, w, N, T, nx, ny, lever)
            if N_d != 0.0 or T_d != 0.0:
                add_wall_force(damped, forces.wall_dashpot, i, w, N_d, T_d, nx, ny, lever)
            walls.stiffness[w] += 2.0 * k_normal  # d(N)/d(disc's approach), mirror rule
        walls.force[w, 0] = -(forces.wall_elastic[w, 0] + forces.wall_dashpot[w, 0])
        walls.force[w, 1] = -(forces.wall_elastic[w, 1] + forces.wall_dashpot[w, 1])

    for i in range(radius.shape[0]):
        for c in range(3):
            force = elastic[i, c] + damped[i, c]
            if c < 2:
                force += inertia[i, c] * gravity[c]
            local = local_damping(alpha, force, velocity[i, c]) if alpha > 0.0 else 0.0
            forces.local[i, c] = local
            forces.total[i, c] = force + local
    return OK
