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

The calibrated law keeps columns of its own in the history rows (:func:`dem.laws.calibrated_step`
updates them in place): the loops call :func:`calibrated_contact` with the history array and
the row for it, and :func:`contact` with the row's :data:`~dem.laws.HISTORY` values (a tuple) for
every other law.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from dem.contacts import NORMAL, STIFFNESS, TANGENTIAL
from dem.damping import dashpot, local_damping
from dem.energy import SLIP, STIFFNESS_CHANGE
from dem.jit import address, njit
from dem.laws import (CALIBRATED, FRICTION, KERNEL, KN, KT, LINEAR, NORMAL_DASHPOT, PAIR_CURVES,
                      REDUCED_MASS, ENERGY, COUPLING, TANGENTIAL_DASHPOT, WALL_CURVES, calibrated_step,
                      constants_row, history_row, kernel_step, law_step, linear_step,
                      parameters_tuple, stored_tangential, store_row)

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
def release(code, history, row, scale):
    """The energy a contact's tangential state still holds when the contact opens
    (:func:`dem.laws.stored_tangential`; half of it for a wall's mirrored pair), dissipated as
    the history row is reset."""
    return stored_tangential(code, history, row) / scale


@njit(inline=True)
def dashpots(code, ratio, pair, k_normal, kt, v_n, v_t, scale, slipping):
    """The contact dashpots' forces ``(N, T)`` at the damping ratio ``ratio`` (:mod:`dem.damping`)
    from the step's stiffnesses (the linear spring's coefficients computed with the list); no
    tangential dashpot while the contact slides."""
    N_dashpot = T_dashpot = 0.0
    if ratio > 0.0:
        if code == LINEAR:  # constant stiffnesses: coefficients computed with the list
            normal, tangential = pair[NORMAL_DASHPOT], pair[TANGENTIAL_DASHPOT]
        else:
            normal = dashpot(ratio, pair[REDUCED_MASS], k_normal)
            tangential = dashpot(ratio, pair[REDUCED_MASS], kt)
        N_dashpot = -normal * scale * v_n
        if not slipping:
            T_dashpot = tangential * scale * v_t
    return N_dashpot, T_dashpot


@njit(inline=True)
def entry_fraction(delta, v_n, dt):
    """The part of the last step a contact that was open before it has been in contact: its
    approach ``delta`` over the approach the step made, ``-v_n dt`` (the positions moved with
    the step's velocities), at most 1. A new contact's tangential increment is this part of
    ``v_t dt``."""
    made = -v_n * dt
    return delta / made if made > delta else 1.0


@njit
def contact(code, kernel, law, vector, ratio, dt, delta, v_n, v_t, pair, state, R1, R2, scale,
            accumulate):
    """One touching contact, from its constants ``pair`` and history ``state`` (tuples,
    :mod:`dem.laws`); ``scale`` is 1 for two discs, 2 for a disc and its mirror (a wall); a
    registered law's ``kernel`` (:func:`dem.laws.kernel_step`) reads the parameter vector at
    the address ``vector`` (an address, not the array: an array passed to this call per contact
    would be reference-counted).

    Returns ``(state, N_dashpot, T_dashpot, k_normal, slip, kt_change)``: the contact's new
    history (:func:`dem.laws.law_step`), the dashpot forces, the tangent normal stiffness and the
    energy the step dissipates by slip and by the change of kt (for the ledger; 0 unless
    ``accumulate``). Its N is NaN if the law fails. A new contact (N 0 in ``state``) takes the
    increment of the part of the step it was in contact (:func:`entry_fraction`).

    Ledger: the step's stiffness k (:func:`dem.laws.law_step`: Eq. 32's trapezoid, or a new
    contact's mean) moves the force elastically by ``k (d(delta_t) - slip)``, the work
    ``(T0 + T)/2`` times that, while the spring's energy ``T^2/(2 kt)`` changes by
    ``T^2/(2 kt) - T0^2/(2 kt0)``: the difference, ``T0^2/2 (1/kt0 - 1/k) - T^2/2 (1/kt -
    1/k)`` (the first term 0 for a new contact), is what a varying kt dissipates (0 for a
    constant kt); the slip dissipates the step's mean force times the slip."""
    d_delta_t = scale * v_t * dt if accumulate else 0.0
    T_previous, kt_previous = state[TANGENTIAL], state[STIFFNESS]
    if state[NORMAL] == 0.0:
        d_delta_t *= entry_fraction(delta, v_n, dt)
    if code == LINEAR:  # the commonest law without the parameter tuple's copy (measured)
        new, k_normal, slipping, k_step = linear_step(law[KN], law[KT], law[FRICTION], state,
                                                      scale * delta, d_delta_t)
    elif code == KERNEL:
        new, k_normal, slipping, k_step = kernel_step(kernel, vector, state, scale * delta,
                                                      d_delta_t, R1, R2)
    else:
        new, k_normal, slipping, k_step = law_step(code, law, pair, state, scale * delta,
                                                   d_delta_t, R1, R2,
                                                   scale * (delta + 0.5 * v_n * dt))
    N, T, kt = new[NORMAL], new[TANGENTIAL], new[STIFFNESS]
    if not N > 0.0:  # NaN: the law failed; 0 cannot happen for a touching contact
        return new, 0.0, 0.0, 0.0, 0.0, 0.0
    slip = change = 0.0
    if accumulate and (slipping or kt != k_step or kt != kt_previous):
        if slipping:
            slip = 0.5 * (T_previous + T) * ((T_previous + k_step * d_delta_t - T) / k_step) / scale
        if kt != k_step or kt != kt_previous:
            change = -0.5 * T * T * (1.0 / kt - 1.0 / k_step) / scale
            if kt_previous > 0.0:
                change += 0.5 * T_previous * T_previous * (1.0 / kt_previous - 1.0 / k_step) / scale
    N_dashpot, T_dashpot = dashpots(code, ratio, pair, k_normal, kt, v_n, v_t, scale, slipping)
    return new, N_dashpot, T_dashpot, k_normal, slip, change


@njit
def calibrated_contact(law, p, ratio, dt, delta, v_n, v_t, pair, history, row, R1, R2, scale,
                       curves, accumulate):
    """:func:`contact` for the calibrated law, whose step (:func:`dem.laws.calibrated_step`,
    (C1)'s numbers from ``p[curves]`` on: the disc pair's or the wall's) updates the contact's
    own columns of ``history[row]`` in place; the same returns.

    Ledger: the step's work on the pair by the tangential force and by the normal force's
    coupling term is ``(T0 + T)/2 d(delta_t) + (C0 + C)/2 d(delta_n)`` (the trapezoid, as for the
    other laws; the rest of N is the normal potential's); the law stores the energy of its
    traction (:data:`dem.laws.ENERGY`), so the step dissipates the work less the change of that
    energy, all of it counted as slip (the law's memory rules only ever lower it)."""
    d_delta_t = scale * v_t * dt if accumulate else 0.0
    T_previous, energy_previous = history[row, TANGENTIAL], history[row, ENERGY]
    coupling_previous = history[row, COUPLING]
    new, k_normal, slipping = calibrated_step(law, p, pair, history[row, ENERGY:], scale * delta,
                                              d_delta_t, R1, R2, curves)
    N, T = new[NORMAL], new[TANGENTIAL]
    if not N > 0.0:  # NaN: the law failed
        return new, 0.0, 0.0, 0.0, 0.0, 0.0
    slip = 0.0
    if accumulate:
        slip = (0.5 * (T_previous + T) * d_delta_t
                - 0.5 * (coupling_previous + history[row, COUPLING]) * scale * v_n * dt
                - (history[row, ENERGY] - energy_previous)) / scale
    N_dashpot, T_dashpot = dashpots(CALIBRATED, ratio, pair, k_normal, new[STIFFNESS], v_n,
                                    v_t, scale, slipping)
    return new, N_dashpot, T_dashpot, k_normal, slip, 0.0


@njit(inline=True)
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


@njit(inline=True)
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
def pair_forces(discs, contacts, forces, ledger, code, kernel, law, p, ratio, dt, accumulate):
    """The disc-disc contacts' forces, added to the discs (:data:`OK` or :data:`LAW_FAILED`)."""
    position, velocity, radius = discs.position, discs.velocity, discs.radius
    elastic, damped = forces.elastic, forces.dashpot
    pairs, history, constants = contacts.pairs, contacts.pair_history, contacts.pair_constants
    vector = address(p.ctypes.data)
    for k in range(pairs.shape[0]):
        i, j = pairs[k, 0], pairs[k, 1]
        dx = position[j, 0] - position[i, 0]
        dy = position[j, 1] - position[i, 1]
        reach = radius[i] + radius[j]
        distance_squared = dx * dx + dy * dy
        if distance_squared >= reach * reach:
            if history[k, NORMAL] != 0.0:
                if accumulate:
                    ledger[STIFFNESS_CHANGE] += release(code, history, k, 1.0)
                history[k, :] = 0.0
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
        if code == CALIBRATED:
            state, N_d, T_d, _, slip, change = calibrated_contact(
                law, p, ratio, dt, delta, v_n, v_t, constants_row(constants, k), history, k,
                radius[i], radius[j], 1.0, PAIR_CURVES, accumulate)
        else:
            state, N_d, T_d, _, slip, change = contact(
                code, kernel, law, vector, ratio, dt, delta, v_n, v_t, constants_row(constants, k),
                history_row(history, k), radius[i], radius[j], 1.0, accumulate)
        N, T = state[NORMAL], state[TANGENTIAL]
        if math.isnan(N):
            return LAW_FAILED
        store_row(history, k, state)
        if slip != 0.0:
            ledger[SLIP] += slip
        if change != 0.0:
            ledger[STIFFNESS_CHANGE] += change
        add_pair_force(elastic, i, j, N, T, nx, ny, lever_i, lever_j)
        if N_d != 0.0 or T_d != 0.0:
            add_pair_force(damped, i, j, N_d, T_d, nx, ny, lever_i, lever_j)
    return OK


@njit
def wall_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                accumulate):
    """The disc-wall contacts' forces, added to the discs and summed per wall, and each wall's
    tangent stiffness for its servo (:data:`OK` or :data:`LAW_FAILED`)."""
    position, velocity, radius = discs.position, discs.velocity, discs.radius
    elastic, damped = forces.elastic, forces.dashpot
    n = radius.shape[0]
    history = contacts.wall_history.reshape((walls.point.shape[0] * n,
                                             contacts.wall_history.shape[2]))
    wall_pairs, wall_constants = contacts.wall_pairs, contacts.wall_constants
    vector = address(p.ctypes.data)
    for m in range(wall_pairs.shape[0]):
        w, i = wall_pairs[m, 0], wall_pairs[m, 1]
        wnx, wny = walls.normal[w, 0], walls.normal[w, 1]
        nx, ny = -wnx, -wny  # from the disc to the wall
        tx, ty = -ny, nx
        row = w * n + i
        delta = radius[i] - ((position[i, 0] - walls.point[w, 0]) * wnx
                             + (position[i, 1] - walls.point[w, 1]) * wny)
        if delta <= 0.0:
            if history[row, NORMAL] != 0.0:
                if accumulate:
                    ledger[STIFFNESS_CHANGE] += release(code, history, row, 2.0)
                history[row, :] = 0.0
            continue
        lever = radius[i] - delta
        rvx = walls.velocity[w, 0] - velocity[i, 0]
        rvy = walls.velocity[w, 1] - velocity[i, 1]
        v_n = rvx * nx + rvy * ny
        v_t = rvx * tx + rvy * ty - velocity[i, 2] * lever
        if code == CALIBRATED:
            state, N_d, T_d, k_normal, slip, change = calibrated_contact(
                law, p, ratio, dt, delta, v_n, v_t, constants_row(wall_constants, i), history,
                row, radius[i], radius[i], 2.0, WALL_CURVES, accumulate)
        else:
            state, N_d, T_d, k_normal, slip, change = contact(
                code, kernel, law, vector, ratio, dt, delta, v_n, v_t,
                constants_row(wall_constants, i),
                history_row(history, row), radius[i], radius[i], 2.0, accumulate)
        N, T = state[NORMAL], state[TANGENTIAL]
        if math.isnan(N):
            return LAW_FAILED
        store_row(history, row, state)
        if slip != 0.0:
            ledger[SLIP] += slip
        if change != 0.0:
            ledger[STIFFNESS_CHANGE] += change
        add_wall_force(elastic, forces.wall_elastic, i, w, N, T, nx, ny, lever)
        if N_d != 0.0 or T_d != 0.0:
            add_wall_force(damped, forces.wall_dashpot, i, w, N_d, T_d, nx, ny, lever)
        walls.stiffness[w] += 2.0 * k_normal  # d(N)/d(disc's approach), mirror rule
    for w in range(walls.point.shape[0]):
        walls.force[w, 0] = -(forces.wall_elastic[w, 0] + forces.wall_dashpot[w, 0])
        walls.force[w, 1] = -(forces.wall_elastic[w, 1] + forces.wall_dashpot[w, 1])
    return OK


@njit
def contact_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                   accumulate):
    """Every contact's forces at the current positions (velocities: the latest half step) with
    the law ``code`` (its ``kernel`` for :data:`dem.laws.KERNEL`) of parameters ``law``
    (:func:`dem.laws.parameters_tuple` of the vector ``p``, which the calibrated law reads its
    (C1) numbers from and a registered kernel its parameters), into
    ``forces.elastic``, ``forces.dashpot`` and the walls' arrays. With ``accumulate`` False (the
    first evaluation of a run) no tangential increment is applied and the ledger is untouched.
    Returns :data:`OK` or :data:`LAW_FAILED`."""
    forces.elastic[:] = 0.0
    forces.dashpot[:] = 0.0
    forces.wall_elastic[:] = 0.0
    forces.wall_dashpot[:] = 0.0
    walls.stiffness[:] = 0.0
    status = pair_forces(discs, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                         accumulate)
    if status != OK:
        return status
    return wall_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                       accumulate)


@njit(inline=True)
def total_force(forces, velocity, inertia, gravity, alpha, i):
    """Disc i's total force (contacts, gravity, local damping) into ``forces.total`` and its local
    damping into ``forces.local``."""
    for c in range(3):
        force = forces.elastic[i, c] + forces.dashpot[i, c]
        if c < 2:
            force += inertia[i, c] * gravity[c]
        local = local_damping(alpha, force, velocity[i, c]) if alpha > 0.0 else 0.0
        forces.local[i, c] = local
        forces.total[i, c] = force + local


@njit
def compute_forces(discs, walls, contacts, forces, ledger, code, kernel, p, ratio, alpha, gravity,
                   dt, accumulate):
    """Every force at the current positions (:func:`contact_forces`, then each disc's
    :func:`total_force`). Returns :data:`OK` or :data:`LAW_FAILED`."""
    status = contact_forces(discs, walls, contacts, forces, ledger, code, kernel,
                            parameters_tuple(p), p, ratio, dt, accumulate)
    for i in range(discs.radius.shape[0]):
        total_force(forces, discs.velocity, discs.inertia, gravity, alpha, i)
    return status
