"""The energy ledger: where the work done on the discs goes, term by term.

Balance (J/m, from the start of a run):

    work of the walls + work of gravity
        = kinetic + elastic (now minus at the start)
          + dashpots + local damping + slip + kt changes

- work of gravity: ``-Delta(sum m g . x)``, exact;
- work of the walls: the power of every wall's contact forces at the wall's velocity;
- kinetic: ``1/2 sum (m v^2 + I omega^2)``;
- elastic: each contact's normal potential ``U(delta_n)`` (the law's closed form,
  :mod:`hertz2d.calibration.laws.scalar`) plus its tangential spring's ``T^2 / (2 kt)`` (the calibrated
  law: the energy its traction stores, :func:`hertz2d.dem.laws.calibrated_step`); half the pair's for a
  wall (the disc is half of the mirrored pair, Section 3.2);
- dashpots, local damping: minus the power of those forces on the discs (less their power at the
  walls' velocities);
- slip: at each step where the Coulomb cap acts, the mean tangential force of the step times the
  slip ``(T_trial - T)/kt``;
- kt changes: an incremental law with a varying kt (Eq. 32 with Eq. 31, or Mindlin's 8 G* a)
  is not a potential: a step moves T by ``k (d(delta_t) - slip)`` with the step's stiffness
  ``k = (kt0 + kt)/2`` while the stored ``T^2/(2 kt)`` changes by ``T^2/(2 kt) - T0^2/(2 kt0)``;
  the difference, ``T0^2/2 (1/kt0 - 1/k) - T^2/2 (1/kt - 1/k)``, is counted here (0 for a
  constant kt; :func:`hertz2d.dem.forces.contact`), and a contact that opens gives up what its spring
  still holds. The calibrated law (:func:`hertz2d.dem.forces.calibrated_contact`) counts the step's work
  by T and by its normal coupling term less the change of its stored energy as slip: the work
  per step, the energy its tractions hold when a contact opens and at the end of each run of
  steps (:func:`settle_slip`), where the changes telescope to.

The first four terms come from the motion (per-disc powers at the full-step velocities of the
velocity-Verlet integrator, whose kinetic energy changes by exactly the sum of those powers), the
elastic and law terms from the contact laws' own variables. The balance closes only if the forces
applied to the discs are the laws' (signs, lever arms, mirror factors, frame rotation), to
O(dt^2) of the integration, which is what the tests check.
"""
from __future__ import annotations

import numpy as np

from hertz2d.dem.contacts import HALF_WIDTH, NORMAL
from hertz2d.dem.jit import njit
from hertz2d.dem.laws import CALIBRATED, PAIR_CURVES, WALL_CURVES, pair_energy, stored_tangential

#: the cumulative terms the compiled loop adds to, in the ledger array
WALL_WORK, CONTACT_WORK, DASHPOT, LOCAL, SLIP, STIFFNESS_CHANGE = range(6)
TERMS = ("wall_work", "contact_work", "dashpot", "local", "slip", "stiffness_change")


def new_ledger() -> np.ndarray:
    return np.zeros(len(TERMS))


@njit
def add_powers(walls, forces, wall_velocity_before, ledger, dt, elastic, damped, local):
    """Add one step's powers at the full-step velocities: ``elastic``, ``damped`` and ``local``
    are the discs' (each kind of force dotted with the discs' velocities, summed), the walls' are
    added here (after the servo has set the walls' next velocities; a wall's full-step velocity is
    the mean of its two half-step ones)."""
    wall_elastic = wall_damped = 0.0
    for w in range(walls.point.shape[0]):
        for c in range(2):
            v = 0.5 * (wall_velocity_before[w, c] + walls.velocity[w, c])
            wall_elastic += forces.wall_elastic[w, c] * v
            wall_damped += forces.wall_dashpot[w, c] * v
    ledger[WALL_WORK] += dt * (wall_elastic + wall_damped)
    ledger[CONTACT_WORK] -= dt * (elastic - wall_elastic)
    ledger[DASHPOT] -= dt * (damped - wall_damped)
    ledger[LOCAL] -= dt * local


@njit
def elastic_energy(discs, walls, contacts, code, kernel, p):
    """Energy stored in every contact now: normal potentials and tangential springs
    (:func:`held_tangential`), J/m."""
    position, radius = discs.position, discs.radius
    total = 0.0
    pairs, history = contacts.pairs, contacts.pair_history
    for k in range(pairs.shape[0]):
        if history[k, NORMAL] <= 0.0:
            continue
        i, j = pairs[k, 0], pairs[k, 1]
        delta = radius[i] + radius[j] - np.hypot(position[j, 0] - position[i, 0],
                                                 position[j, 1] - position[i, 1])
        total += pair_energy(code, kernel, p, delta, history[k, HALF_WIDTH], radius[i], radius[j])
    for w in range(walls.point.shape[0]):
        for i in range(radius.shape[0]):
            row = contacts.wall_history[w, i]
            if row[NORMAL] <= 0.0:
                continue
            delta = radius[i] - ((position[i, 0] - walls.point[w, 0]) * walls.normal[w, 0]
                                 + (position[i, 1] - walls.point[w, 1]) * walls.normal[w, 1])
            total += 0.5 * pair_energy(code, kernel, p, 2.0 * delta, row[HALF_WIDTH], radius[i],
                                       radius[i])
    return total + held_tangential(discs, walls, contacts, code, p)


@njit
def held_tangential(discs, walls, contacts, code, p):
    """The energy the tangential states of every touching contact hold now
    (:func:`hertz2d.dem.laws.stored_tangential`), half the pair's for a wall, J/m."""
    total = 0.0
    history = contacts.pair_history
    for k in range(history.shape[0]):
        if history[k, NORMAL] > 0.0:
            total += stored_tangential(code, p, PAIR_CURVES, history, k)
    for w in range(walls.point.shape[0]):
        for i in range(discs.radius.shape[0]):
            if contacts.wall_history[w, i, NORMAL] > 0.0:
                total += 0.5 * stored_tangential(code, p, WALL_CURVES, contacts.wall_history[w], i)
    return total


@njit
def settle_slip(discs, walls, contacts, ledger, code, p, sign):
    """The calibrated law's slip term telescoped over a run of steps
    (:func:`hertz2d.dem.forces.calibrated_contact`): ``sign`` -1 at the end of the run takes off the
    energy its tractions hold then (:func:`held_tangential`), +1 at the start of the next puts
    it back, so that between runs the slip term is the sum of every step's work less its change
    of that energy, as the ledger reads it (the other laws count it per step: nothing to do)."""
    if code == CALIBRATED:
        ledger[SLIP] += sign * held_tangential(discs, walls, contacts, code, p)


def gravity_potential(discs, gravity) -> float:
    """``-sum m g . x``, J/m."""
    return float(-np.sum(discs.mass * (discs.position[:, :2] @ np.asarray(gravity))))
