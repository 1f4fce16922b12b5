"""Neighbour search: a Verlet list of disc pairs built with a cell list.

The list holds every pair whose gap is below ``skin`` when it is built; it stays valid (no
contact missed) while no disc has moved more than ``skin/2`` since, which
:func:`needs_rebuild` checks every step. Building it bins the discs into square cells of side
``2 r_max + skin`` (a counting sort), so each disc is compared with the discs of its own and the
8 surrounding cells only: O(n). Pairs come out sorted by ``(i, j)``, ``i < j``, the key the
contact history is carried by (:mod:`dem.contacts`). Walls are few and are checked against every
disc each step, without a list.
"""
from __future__ import annotations

import numpy as np

from dem.jit import njit

#: the grid never has more cells than this many per disc (a disc flying far away widens the
#: cells instead of allocating a huge grid)
CELLS_PER_DISC = 4


@njit
def candidate_pairs(position, radius, skin):
    """(p, 2) int64 array of the pairs ``i < j`` with gap < skin, sorted by (i, j)."""
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
        cx, cy = cell[i] // ny, cell[i] % ny
        for gx in range(max(cx - 1, 0), min(cx + 2, nx)):
            for gy in range(max(cy - 1, 0), min(cy + 2, ny)):
                c = gx * ny + gy
                for k in range(start[c], start[c + 1]):
                    j = order[k]
                    if j <= i:
                        continue
                    reach = radius[i] + radius[j] + skin
                    dx = position[j, 0] - position[i, 0]
                    dy = position[j, 1] - position[i, 1]
                    if dx * dx + dy * dy < reach * reach:
                        if count == capacity:
                            grown = np.empty((2 * capacity, 2), dtype=np.int64)
                            grown[:count] = pairs[:count]
                            pairs, capacity = grown, 2 * capacity
                        pairs[count, 0], pairs[count, 1] = i, j
                        count += 1
    keys = pairs[:count, 0] * n + pairs[:count, 1]
    return pairs[:count][np.argsort(keys)]


@njit
def needs_rebuild(position, reference, skin):
    """True when some disc has moved more than ``skin/2`` since the list was built."""
    limit = 0.25 * skin * skin
    for i in range(position.shape[0]):
        dx = position[i, 0] - reference[i, 0]
        dy = position[i, 1] - reference[i, 1]
        if dx * dx + dy * dy > limit:
            return True
    return False
