"""Contacts and their history: per pair of discs and per disc and wall.

A contact's history is what the next step needs besides the positions: the tangential force of
Eq. 32 (the spring's force along the contact tangent), the half-width a (the warm start of the
normal law's Newton solve) and kt (for the energy ledger, :mod:`dem.energy`). The normal force is
kept for output. Every entry is 0 while a contact is open, so the history starts afresh when a
contact is lost (Cundall and Strack's scheme).

Frame rotation: in 2D the tangent is the normal turned by +90 degrees, ``t = (-n_y, n_x)``, and
the history stores the tangential force as one scalar along it. When the line of centres turns,
the force turns with it: the stored scalar is the rotated force vector exactly (no projection
and rescaling, which 3D codes need because there the tangent plane has two directions).

Disc pairs are keyed by ``(i, j)``, i < j, in the order of the Verlet list (:mod:`dem.neighbours`);
when the list is rebuilt, the history of every pair still listed is carried to its new row by a
merge of the two sorted key lists. Disc-wall contacts are indexed by (wall, disc) directly.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dem.jit import njit
from dem.neighbours import candidate_pairs


class Contacts(NamedTuple):
    """The Verlet list and every contact's history."""

    #: (p, 2) disc pairs i < j, sorted
    pairs: np.ndarray
    #: (p, 4) per pair: tangential force T, half-width a, kt, normal force N
    pair_history: np.ndarray
    #: (w, n, 4) per wall and disc: the same four
    wall_history: np.ndarray
    #: (n, 3) positions when the list was built
    reference: np.ndarray


#: columns of the history arrays
TANGENTIAL, HALF_WIDTH, STIFFNESS, NORMAL = 0, 1, 2, 3
HISTORY = 4


def empty_contacts(discs, walls, skin: float) -> Contacts:
    """The list for the discs' current positions, with no history."""
    pairs = candidate_pairs(discs.position, discs.radius, skin)
    return Contacts(pairs, np.zeros((len(pairs), HISTORY)),
                    np.zeros((walls.count, discs.count, HISTORY)), discs.position.copy())


@njit
def carried_history(old_pairs, old_history, new_pairs, n):
    """The history of ``new_pairs``: each pair's row from ``old_pairs`` if it was there, else 0."""
    history = np.zeros((new_pairs.shape[0], old_history.shape[1]))
    k = 0
    for m in range(new_pairs.shape[0]):
        key = new_pairs[m, 0] * n + new_pairs[m, 1]
        while k < old_pairs.shape[0] and old_pairs[k, 0] * n + old_pairs[k, 1] < key:
            k += 1
        if k < old_pairs.shape[0] and old_pairs[k, 0] * n + old_pairs[k, 1] == key:
            history[m] = old_history[k]
    return history


@njit
def rebuilt(contacts, position, radius, skin):
    """The contacts with a new Verlet list for ``position``, history carried over."""
    pairs = candidate_pairs(position, radius, skin)
    history = carried_history(contacts.pairs, contacts.pair_history, pairs, radius.shape[0])
    return Contacts(pairs, history, contacts.wall_history, position.copy())
