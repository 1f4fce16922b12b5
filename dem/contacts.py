"""Contacts: the candidate lists, each candidate's constants and each contact's history.

A contact's history is what the next step needs besides the positions. Its first
:data:`HISTORY` columns are the same for every law: the normal force N (kept for output, and 0
exactly while the contact is open), the tangential force T of Eq. 32 (the spring's force along
the contact tangent), the tangential stiffness kt (for the trapezoidal step of Eq. 32 and the
energy ledger, :mod:`hertz2d.dem.energy`) and the half-width a (0 for the linear spring). A law with a
longer memory keeps its own columns after those (:attr:`hertz2d.dem.laws.Law.history_width`: the
calibrated law's stored-energy stiffness and its memory of traction pieces); the arrays are as
wide as the law asks. The force loops pass each contact's first columns to the law's step
(:func:`hertz2d.dem.laws.law_step`) and store the ones it returns; the calibrated law's step updates its
own columns in place (:func:`hertz2d.dem.laws.calibrated_step`). Every entry, a law's own columns
included, is 0 while a contact is open, so the history starts afresh when a contact is lost
(Cundall and Strack's scheme), and a list rebuild carries whole rows.

Frame rotation: in 2D the tangent is the normal turned by +90 degrees, ``t = (-n_y, n_x)``, and
the history stores the tangential force as one scalar along it. When the line of centres turns,
the force turns with it: the stored scalar is the rotated force vector exactly (no projection
and rescaling, which 3D codes need because there the tangent plane has two directions).

Candidates (:mod:`hertz2d.dem.neighbours`): disc pairs ``(i, j)`` of slots, the disc of the smaller
original index first (i < j until the discs are reordered, :mod:`hertz2d.dem.ordering`), sorted,
and disc-wall pairs ``(w, i)``, sorted by wall then disc, both within the skin when the lists
were built. With each
candidate the law's constants of that pair (:func:`hertz2d.dem.laws.pair_constants`: the reduced mass,
constant dashpot coefficients, the normal law's logarithms), computed at the build, not at every
step. When the lists are rebuilt, the history of every disc pair still listed is carried to its
new row by a merge of the two sorted key lists (a contact not yet released stays listed);
disc-wall histories are indexed by (wall, disc) directly.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from hertz2d.dem.jit import njit
from hertz2d.dem.laws import HALF_WIDTH, HISTORY, NORMAL, PAIR_CONSTANTS, STIFFNESS, TANGENTIAL  # noqa
from hertz2d.dem.laws import pair_constants
from hertz2d.dem.neighbours import candidate_pairs, wall_candidates, with_pairs_kept


class Contacts(NamedTuple):
    """The candidate lists, their constants and every contact's history."""

    #: (p, 2) disc pairs, the smaller original index first, sorted
    pairs: np.ndarray
    #: (p, PAIR_CONSTANTS) the law's constants of each pair
    pair_constants: np.ndarray
    #: (p, width) per pair: N, T, kt, a, then the law's own columns
    pair_history: np.ndarray
    #: (q, 2) disc-wall pairs (wall, disc), sorted
    wall_pairs: np.ndarray
    #: (n, PAIR_CONSTANTS) the law's constants of each disc and its mirror image (Section 3.2)
    wall_constants: np.ndarray
    #: (w, n, width) per wall and disc: the same columns
    wall_history: np.ndarray
    #: (n, 3) disc positions when the lists were built
    reference: np.ndarray
    #: (w, 2) wall points when the lists were built
    wall_reference: np.ndarray


@njit
def constants_of_pairs(pairs, radius, inertia, code, law, ratio):
    """The law's constants of each disc pair (:func:`hertz2d.dem.laws.pair_constants`)."""
    constants = np.empty((pairs.shape[0], PAIR_CONSTANTS))
    for k in range(pairs.shape[0]):
        i, j = pairs[k, 0], pairs[k, 1]
        reduced_mass = inertia[i, 0] * inertia[j, 0] / (inertia[i, 0] + inertia[j, 0])
        pair_constants(code, law, ratio, reduced_mass, radius[i], radius[j], constants[k])
    return constants


@njit
def constants_of_walls(radius, inertia, code, law, ratio):
    """The law's constants of each disc against its mirror image (reduced mass m/2)."""
    constants = np.empty((radius.shape[0], PAIR_CONSTANTS))
    for i in range(radius.shape[0]):
        pair_constants(code, law, ratio, 0.5 * inertia[i, 0], radius[i], radius[i],
                       constants[i])
    return constants


def empty_contacts(discs, walls, skin: float, law, ratio: float) -> Contacts:
    """The lists for the current positions, with no history (``law.history_width`` columns),
    each disc in the slot of its original index."""
    pairs = candidate_pairs(discs.position, discs.radius, skin, np.arange(discs.count))
    width, parameters = law.history_width, tuple(float(v) for v in law.parameters)
    return Contacts(
        pairs, constants_of_pairs(pairs, discs.radius, discs.inertia, law.code, parameters,
                                  ratio),
        np.zeros((len(pairs), width)),
        wall_candidates(discs.position, discs.radius, walls.point, walls.normal, skin,
                        np.zeros((walls.count, discs.count), dtype=np.bool_)),
        constants_of_walls(discs.radius, discs.inertia, law.code, parameters, ratio),
        np.zeros((walls.count, discs.count, width)), discs.position.copy(), walls.point.copy())


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
def rebuilt(contacts, discs, walls, skin, code, law, ratio, ids):
    """The contacts with new candidate lists for the current positions, histories carried over
    (``ids``: each slot's original index)."""
    position, radius, n = discs.position, discs.radius, discs.radius.shape[0]
    pairs = with_pairs_kept(candidate_pairs(position, radius, skin, ids), contacts.pairs,
                            contacts.pair_history[:, NORMAL] != 0.0, n)
    history = carried_history(contacts.pairs, contacts.pair_history, pairs, n)
    touching = contacts.wall_history[:, :, NORMAL] != 0.0
    return Contacts(pairs, constants_of_pairs(pairs, radius, discs.inertia, code, law, ratio),
                    history, wall_candidates(position, radius, walls.point, walls.normal, skin,
                                             touching),
                    contacts.wall_constants, contacts.wall_history, position.copy(),
                    walls.point.copy())
