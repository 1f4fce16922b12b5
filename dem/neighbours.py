"""Neighbour search: Verlet lists of disc pairs (built with a cell list) and of discs near walls.

The pair list holds every pair whose gap is below ``skin`` when it is built; it stays valid (no
contact missed) while no disc has moved more than ``skin/2`` since. Building it bins the discs into
square cells of side ``2 r_max + skin`` (a counting sort), so each disc is compared with the discs
of its own and the 8 surrounding cells only: O(n). A pair ``(i, j)`` of slots is listed with first
the disc of the smaller original index (``ids[i] < ids[j]``; ``i < j`` until the discs are
reordered, :mod:`hertz2d.dem.ordering`), so a contact's orientation does not depend on the slots;
pairs come out sorted by ``(i, j)`` (each disc's partners sorted as they are found), the key the
contact history is carried by (:mod:`hertz2d.dem.contacts`). The wall list holds every (wall, disc)
whose gap is below ``skin``, sorted by wall then disc; it stays valid while no disc and no wall has
moved more than ``skin/2``. :func:`needs_rebuild` checks both every step. A contact that was
touching stays listed until the force loop has released it (its history reset and its spring's
energy put in the ledger), even if it opened by more than the skin in one step.
"""
from __future__ import annotations

import numpy as np

from hertz2d.dem.jit import njit

#: the grid never has more cells than this many per disc (a disc flying far away widens the
#: cells instead of allocating a huge grid)
CELLS_PER_DISC = 4


@njit
def candidate_pairs(position, radius, skin, ids):
    """(p, 2) int64 array of the pairs ``(i, j)`` with gap < skin and ``ids[i] < ids[j]`` (each
    slot's original index), sorted by (i, j)."""
    n = radius.shape[0]
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    x_low, x_high = position[:, 0].min(), position[:, 0].max()
    y_low, y_high = position[:, 1].min(), position[:, 1].max()
    size = 2.0 * radius.max() + skin
    while ((x_high - x_low) / size + 1.0) * ((y_high - y_low) / size + 1.0) > (
            CELLS_PER_DISC * n + 16):
        size *= 2.0
    nx = int((x_high - x_low) / size) + 1
    ny = int((y_high - y_low) / size) + 1
    cell = np.empty(n, dtype=np.int64)
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    for i in range(n):
        cx = min(int((position[i, 0] - x_low) / size), nx - 1)
        cy = min(int((position[i, 1] - y_low) / size), ny - 1)
        cell[i] = cx * ny + cy
        start[cell[i] + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    order = np.empty(n, dtype=np.int64)
    fill = start[:-1].copy()
    for i in range(n):
        order[fill[cell[i]]] = i
        fill[cell[i]] += 1

    capacity = 8 * n
    pairs = np.empty((capacity, 2), dtype=np.int64)
    count = 0
    for i in range(n):
        first = count
        cx, cy = cell[i] // ny, cell[i] % ny
        for gx in range(max(cx - 1, 0), min(cx + 2, nx)):
            for gy in range(max(cy - 1, 0), min(cy + 2, ny)):
                c = gx * ny + gy
                for k in range(start[c], start[c + 1]):
                    j = order[k]
                    if ids[j] <= ids[i]:
                        continue
                    reach = radius[i] + radius[j] + skin
                    dx = position[j, 0] - position[i, 0]
                    dy = position[j, 1] - position[i, 1]
                    if dx * dx + dy * dy < reach * reach:
                        if count == capacity:
                            grown = np.empty((2 * capacity, 2), dtype=np.int64)
                            grown[:count] = pairs[:count]
                            pairs, capacity = grown, 2 * capacity
                        # insertion into i's partners found so far, kept sorted (a few)
                        m = count
                        while m > first and pairs[m - 1, 1] > j:
                            pairs[m, 1] = pairs[m - 1, 1]
                            m -= 1
                        pairs[m, 1] = j
                        pairs[count, 0] = i
                        count += 1
    return pairs[:count].copy()


@njit
def wall_candidates(position, radius, point, normal, skin, touching):
    """(q, 2) int64 array of the (wall, disc) pairs with gap < skin or ``touching[w, i]`` (a
    contact not yet released), sorted by wall then disc."""
    n, walls = radius.shape[0], point.shape[0]
    pairs = np.empty((walls * n, 2), dtype=np.int64)
    count = 0
    for w in range(walls):
        for i in range(n):
            gap = ((position[i, 0] - point[w, 0]) * normal[w, 0]
                   + (position[i, 1] - point[w, 1]) * normal[w, 1]) - radius[i]
            if gap < skin or touching[w, i]:
                pairs[count, 0], pairs[count, 1] = w, i
                count += 1
    return pairs[:count].copy()


@njit
def with_pairs_kept(pairs, old_pairs, keep, n):
    """``pairs`` (sorted) and every ``old_pairs[k]`` with ``keep[k]`` that it lacks, sorted."""
    missing = np.empty((old_pairs.shape[0], 2), dtype=np.int64)
    count = m = 0
    for k in range(old_pairs.shape[0]):
        if not keep[k]:
            continue
        key = old_pairs[k, 0] * n + old_pairs[k, 1]
        while m < pairs.shape[0] and pairs[m, 0] * n + pairs[m, 1] < key:
            m += 1
        if m == pairs.shape[0] or pairs[m, 0] * n + pairs[m, 1] != key:
            missing[count] = old_pairs[k]
            count += 1
    if count == 0:
        return pairs
    union = np.concatenate((pairs, missing[:count]))
    return union[np.argsort(union[:, 0] * n + union[:, 1])]


@njit(counted=False)
def moved_too_far(position, reference, skin):
    """True when some point (a disc centre, a wall's point) has moved more than ``skin/2`` from
    its ``reference``."""
    limit = 0.25 * skin * skin
    for i in range(position.shape[0]):
        dx = position[i, 0] - reference[i, 0]
        dy = position[i, 1] - reference[i, 1]
        if dx * dx + dy * dy > limit:
            return True
    return False


@njit(counted=False)
def needs_rebuild(contacts, position, wall_point, skin):
    """True when the lists may miss a contact: a disc or a wall moved more than ``skin/2``."""
    return (moved_too_far(position, contacts.reference, skin)
            or moved_too_far(wall_point, contacts.wall_reference, skin))
