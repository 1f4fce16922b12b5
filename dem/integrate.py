"""The time loop: velocity Verlet, many steps per compiled call.

One step of length dt (kick-drift-kick, the velocity-Verlet form of leapfrog, as LAMMPS's
``fix nve/sphere``):

1. half kick: ``v += dt/2 F/m`` for the three degrees of freedom (``omega += dt/2 M/I``);
2. drift: ``x += dt v`` (and theta), walls move with their velocities;
3. the Verlet lists are rebuilt if a disc or a wall moved more than half the skin
   (:mod:`hertz2d.dem.neighbours`), every ``every``-th time after the discs are sorted by strips
   of the neighbour grid's width (:mod:`hertz2d.dem.ordering`);
4. contact forces at the new positions (:mod:`hertz2d.dem.forces`); the velocities they see (dashpots,
   tangential increments ``v_t dt``, the sign for local damping) are the half-step ones, which
   are exactly the displacement of the step divided by dt;
5. the servo sets the servo walls' velocities for the next step (:mod:`hertz2d.dem.walls`);
6. per disc, in one pass: its total force (gravity and local damping added), the half kick with
   it, giving the full-step velocity, the step's powers at that velocity for the energy ledger
   (:mod:`hertz2d.dem.energy`), and the next step's half kick and drift (1 and 2), which use the same
   force.

A run of steps ends with the calibrated law's slip term settled
(:func:`hertz2d.dem.energy.settle_slip`: its steps count their work, the energy its tractions hold
is taken off when the ledger can be read) and starts by putting that back.

It is second-order accurate and symplectic for conservative forces; its stability limit for a
contact of stiffness k between masses of reduced mass m* is ``dt < 2 sqrt(m*/k)``.

With reordering (``every > 0``) the loop runs on the discs in the slots ``order`` gives (the
original index of the disc in each slot): :func:`advance` moves the state into them, updates
``order`` at each reorder and moves the state back to the original order before it returns, so
the caller never sees a slot.
"""
from __future__ import annotations

import numpy as np

from hertz2d.dem.contacts import rebuilt
from hertz2d.dem.energy import add_powers, settle_slip
from hertz2d.dem.forces import OK, block_scratch, contact_forces, total_force
from hertz2d.dem.jit import njit
from hertz2d.dem.laws import parameters_tuple
from hertz2d.dem.neighbours import needs_rebuild
from hertz2d.dem.ordering import permuted, strip_order
from hertz2d.dem.walls import servo


@njit(inline=True)
def kick_and_drift(position, velocity, total, inertia, half, dt, i):
    """Disc i's half kick and drift (steps 1 and 2)."""
    for c in range(3):
        velocity[i, c] += half * total[i, c] / inertia[i, c]
        position[i, c] += dt * velocity[i, c]


@njit
def advance(discs, walls, contacts, forces, ledger, code, kernel, p, ratio, alpha, gravity, dt,
            skin, order, every, since, steps):
    """``steps`` steps; returns ``(contacts, status, steps done, since)`` (status 0 when all
    ran). The discs are reordered at every ``every``-th list rebuild (never if 0), ``since``
    rebuilds having passed since the last reorder; ``order`` (each slot's original index, updated
    in place) is the slot order the state is moved into for the steps (module docstring)."""
    if every > 0:
        contacts = permuted(discs, forces, contacts, order)
    contacts, status, done, since = steps_in_slots(
        discs, walls, contacts, forces, ledger, code, kernel, p, ratio, alpha, gravity, dt, skin,
        order, every, since, steps)
    if every > 0:
        contacts = permuted(discs, forces, contacts, np.argsort(order))
    return contacts, status, done, since


@njit
def steps_in_slots(discs, walls, contacts, forces, ledger, code, kernel, p, ratio, alpha,
                   gravity, dt, skin, order, every, since, steps):
    """:func:`advance`'s steps, on the state in the slots ``order`` gives."""
    position, velocity, inertia = discs.position, discs.velocity, discs.inertia
    total = forces.total
    wall_velocity_before = np.empty_like(walls.velocity)
    scratch, indices = block_scratch()
    half = 0.5 * dt
    law = parameters_tuple(p)
    settle_slip(discs, walls, contacts, ledger, code, p, 1.0)
    if steps > 0:
        for i in range(position.shape[0]):
            kick_and_drift(position, velocity, total, inertia, half, dt, i)
    for step in range(steps):
        for w in range(walls.point.shape[0]):
            walls.point[w, 0] += dt * walls.velocity[w, 0]
            walls.point[w, 1] += dt * walls.velocity[w, 1]
        if needs_rebuild(contacts, position, walls.point, skin):
            since += 1
            if every > 0 and since >= every:
                perm = strip_order(position, 2.0 * discs.radius.max() + skin)
                contacts = permuted(discs, forces, contacts, perm)
                order[:] = order[perm]
                since = 0
            contacts = rebuilt(contacts, discs, walls, skin, code, law, ratio, order)
        status = contact_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p,
                                ratio, dt, True, scratch, indices)
        if status != OK:
            settle_slip(discs, walls, contacts, ledger, code, p, -1.0)
            return contacts, status, step, since
        wall_velocity_before[:] = walls.velocity
        servo(walls, forces.wall_elastic, dt)
        elastic = damped = local = 0.0
        next_step = step + 1 < steps
        for i in range(position.shape[0]):
            total_force(forces, velocity, inertia, gravity, alpha, i)
            for c in range(3):
                velocity[i, c] += half * total[i, c] / inertia[i, c]
                elastic += forces.elastic[i, c] * velocity[i, c]
                damped += forces.dashpot[i, c] * velocity[i, c]
                local += forces.local[i, c] * velocity[i, c]
            if next_step:
                kick_and_drift(position, velocity, total, inertia, half, dt, i)
        add_powers(walls, forces, wall_velocity_before, ledger, dt, elastic, damped, local)
    settle_slip(discs, walls, contacts, ledger, code, p, -1.0)
    return contacts, OK, steps, since
