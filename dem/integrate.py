"""The time loop: velocity Verlet, many steps per compiled call.

One step of length dt (kick-drift-kick, the velocity-Verlet form of leapfrog, as LAMMPS's
``fix nve/sphere``):

1. half kick: ``v += dt/2 F/m`` for the three degrees of freedom (``omega += dt/2 M/I``);
2. drift: ``x += dt v`` (and theta), walls move with their velocities;
3. the Verlet list is rebuilt if a disc moved more than half the skin (:mod:`dem.neighbours`);
4. forces at the new positions (:mod:`dem.forces`); the velocities they see (dashpots,
   tangential increments ``v_t dt``, the sign for local damping) are the half-step ones, which
   are exactly the displacement of the step divided by dt;
5. the servo sets the servo walls' velocities for the next step (:mod:`dem.walls`);
6. half kick with the new forces, giving full-step velocities; the energy ledger adds the step's
   powers at those velocities (:mod:`dem.energy`).

It is second-order accurate and symplectic for conservative forces; its stability limit for a
contact of stiffness k between masses of reduced mass m* is ``dt < 2 sqrt(m*/k)``.
"""
from __future__ import annotations

import numpy as np

from dem.contacts import rebuilt
from dem.energy import add_powers
from dem.forces import OK, compute_forces
from dem.jit import njit
from dem.neighbours import needs_rebuild
from dem.walls import servo


@njit
def advance(discs, walls, contacts, forces, ledger, code, p, ratio, alpha, gravity, dt, skin,
            steps):
    """``steps`` steps; returns ``(contacts, status, steps done)`` (status 0 when all ran)."""
    position, velocity, inertia = discs.position, discs.velocity, discs.inertia
    total = forces.total
    wall_velocity_before = np.empty_like(walls.velocity)
    half = 0.5 * dt
    for step in range(steps):
        for i in range(position.shape[0]):
            for c in range(3):
                velocity[i, c] += half * total[i, c] / inertia[i, c]
                position[i, c] += dt * velocity[i, c]
        for w in range(walls.point.shape[0]):
            walls.point[w, 0] += dt * walls.velocity[w, 0]
            walls.point[w, 1] += dt * walls.velocity[w, 1]
        if needs_rebuild(position, contacts.reference, skin):
            contacts = rebuilt(contacts, position, discs.radius, skin)
        status = compute_forces(discs, walls, contacts, forces, ledger, code, p, ratio, alpha,
                                gravity, dt, True)
        if status != OK:
            return contacts, status, step
        wall_velocity_before[:] = walls.velocity
        servo(walls, forces.wall_elastic, dt)
        for i in range(position.shape[0]):
            for c in range(3):
                velocity[i, c] += half * total[i, c] / inertia[i, c]
        add_powers(discs, walls, forces, wall_velocity_before, ledger, dt)
    return contacts, OK, steps
