"""What a run reports besides energies: contact counts and the mean contact stiffnesses.

The mean stiffnesses are the paper's Fig. 17c quantities: averaged over every touching contact,
disc-disc and disc-wall, the normal stiffness N/delta_n (Eq. 29 for the paper's law, kn for the
linear spring, the secant 4/3 E* a for Hertz) and the tangential kt (Eq. 31, kt, 8 G* a), each of
the pair (the disc and its mirror image for a wall).
"""
from __future__ import annotations

import numpy as np

from hertz2d.dem.contacts import HALF_WIDTH, NORMAL, STIFFNESS
from hertz2d.dem.jit import njit
from hertz2d.dem.laws import pair_secant_stiffness


@njit
def contact_statistics(discs, walls, contacts, code, kernel, p):
    """``(disc-disc contacts, disc-wall contacts, mean kn, mean kt)`` (the means NaN without
    contacts)."""
    position, radius = discs.position, discs.radius
    pairs, history = contacts.pairs, contacts.pair_history
    count = wall_count = 0
    kn = kt = 0.0
    for k in range(pairs.shape[0]):
        if history[k, NORMAL] <= 0.0:
            continue
        i, j = pairs[k, 0], pairs[k, 1]
        delta = radius[i] + radius[j] - np.hypot(position[j, 0] - position[i, 0],
                                                 position[j, 1] - position[i, 1])
        kn += pair_secant_stiffness(code, kernel, p, delta, history[k, HALF_WIDTH], radius[i],
                                    radius[j])
        kt += history[k, STIFFNESS]
        count += 1
    for w in range(walls.point.shape[0]):
        for i in range(radius.shape[0]):
            row = contacts.wall_history[w, i]
            if row[NORMAL] <= 0.0:
                continue
            delta = radius[i] - ((position[i, 0] - walls.point[w, 0]) * walls.normal[w, 0]
                                 + (position[i, 1] - walls.point[w, 1]) * walls.normal[w, 1])
            kn += pair_secant_stiffness(code, kernel, p, 2.0 * delta, row[HALF_WIDTH], radius[i],
                                        radius[i])
            kt += row[STIFFNESS]
            wall_count += 1
    touching = count + wall_count
    if touching == 0:
        return count, wall_count, np.nan, np.nan
    return count, wall_count, kn / touching, kt / touching
