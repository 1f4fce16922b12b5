"""Spatial reordering of the discs: their slots in memory strip by strip across the domain.

The contact loop reads both discs of every contact and the integrator every disc; when the
discs' slots (their rows in every per-disc array) follow no spatial order, a contact's two discs
lie far apart in memory and, once the arrays outgrow the cache, nearly every contact misses it
(``benchmarks/dem_size_sweep.py --order all`` times a shuffled order). :func:`strip_order` sorts
the discs by strips of the neighbour grid's width, side by side along the longer side of their
bounding box (each strip spans the shorter side), and along each strip: the binned order of
LAMMPS's ``atom_modify sort``, with the bins' rows across the shorter side. A disc's contacts are
then in its own strip and the two beside it, three runs of slots that the loop walks forward
together. Space-filling curves keep neighbours closer on average, but not in runs: on that
benchmark's settled bed of 1e5 discs a Morton (Z-order) and a Hilbert order were measured no
faster than the packing's own order, and the strips faster than all three.

:func:`permuted` moves the whole state with a permutation of the slots: every per-disc array
(:class:`hertz2d.dem.state.Discs`, :class:`hertz2d.dem.forces.Forces`, the lists' reference
positions, the disc-wall constants and histories) and every candidate's row (pair, constants
and history) with its discs. A pair keeps its orientation: its first disc is the one with the
smaller original index (:func:`hertz2d.dem.neighbours.candidate_pairs`), as in a run without
reordering, so each contact's arithmetic is the same; only sums over discs and contacts (a
disc's contact forces, the energy ledger) are taken in another order, which moves results by
rounding. The caller keeps each slot's original index
(:attr:`hertz2d.dem.simulation.Simulation.order`).
"""
from __future__ import annotations

import numpy as np

from hertz2d.dem.contacts import Contacts
from hertz2d.dem.jit import njit

#: bits of a disc's place along its strip in its key (2^BITS places along the strip)
BITS = 20
#: at most this many strips (a disc flown far away widens them)
MOST_STRIPS = 1 << 40


@njit
def strip_order(position, width):
    """The permutation that sorts the slots by strip, then along the strip (to 2^-BITS of its
    length), ties kept in their order; the strips are ``width`` wide, side by side along the
    longer side of the centres' bounding box (module docstring)."""
    n = position.shape[0]
    keys = np.empty(n, dtype=np.int64)
    if n == 0:
        return keys
    x_low, y_low = position[:, 0].min(), position[:, 1].min()
    x_extent, y_extent = position[:, 0].max() - x_low, position[:, 1].max() - y_low
    side, span = (0, 1) if x_extent >= y_extent else (1, 0)
    side_low, span_low = (x_low, y_low) if side == 0 else (y_low, x_low)
    top = (1 << BITS) - 1
    length = min(x_extent, y_extent)
    scale = top / length if length > 0.0 else 0.0
    width = max(width, max(x_extent, y_extent) / MOST_STRIPS)
    for i in range(n):
        strip = int((position[i, side] - side_low) / width)
        place = min(max(int((position[i, span] - span_low) * scale), 0), top)
        keys[i] = (strip << BITS) | place
    return np.argsort(keys, kind="mergesort")


@njit
def sorted_rows(pairs, n):
    """The rows of ``pairs`` sorted by (first, second) slot: the list's key."""
    return np.argsort(pairs[:, 0] * n + pairs[:, 1], kind="mergesort")


@njit
def permuted(discs, forces, contacts, perm):
    """The state with slot ``s`` taking what slot ``perm[s]`` held: the per-disc arrays of
    ``discs`` and ``forces`` and the contacts' per-disc rows permuted in place, and the
    contacts with their candidates' slots renumbered and rows sorted again (returned)."""
    n = perm.shape[0]
    slot = np.empty(n, dtype=np.int64)
    slot[perm] = np.arange(n)
    discs.position[:] = discs.position[perm]
    discs.velocity[:] = discs.velocity[perm]
    discs.radius[:] = discs.radius[perm]
    discs.inertia[:] = discs.inertia[perm]
    forces.elastic[:] = forces.elastic[perm]
    forces.dashpot[:] = forces.dashpot[perm]
    forces.local[:] = forces.local[perm]
    forces.total[:] = forces.total[perm]
    contacts.reference[:] = contacts.reference[perm]
    contacts.wall_constants[:] = contacts.wall_constants[perm]
    for w in range(contacts.wall_history.shape[0]):
        contacts.wall_history[w] = contacts.wall_history[w][perm]
    pairs = np.empty_like(contacts.pairs)
    for k in range(pairs.shape[0]):
        pairs[k, 0], pairs[k, 1] = slot[contacts.pairs[k, 0]], slot[contacts.pairs[k, 1]]
    rows = sorted_rows(pairs, n)
    wall_pairs = np.empty_like(contacts.wall_pairs)
    wall_pairs[:, 0] = contacts.wall_pairs[:, 0]
    for m in range(wall_pairs.shape[0]):
        wall_pairs[m, 1] = slot[contacts.wall_pairs[m, 1]]
    walls_rows = sorted_rows(wall_pairs, n)
    return Contacts(pairs[rows], contacts.pair_constants[rows], contacts.pair_history[rows],
                    wall_pairs[walls_rows], contacts.wall_constants, contacts.wall_history,
                    contacts.reference, contacts.wall_reference)
