"""The incremental Coulomb-capped tangential spring shared by the DEM-style laws.

``T_k = clip(T_(k-1) + k_k (delta_t_k - delta_t_(k-1)), -mu N_k, mu N_k)``, and T = 0 while the
contact is open (the spring is reset when contact is lost, as in Cundall and Strack's scheme).
This is Eq. 32 of the simplified model (with both signs capped, so unloading past zero slips too),
and the tangential update of the linear spring and of Hertz-Mindlin in DEM codes.

The step's stiffness ``k_k`` (:func:`step_stiffness`) is ``(kt_(k-1) + kt_k)/2``: the increment
``int kt d(delta_t)`` over the step by the trapezoidal rule. Where kt varies with the contact
(Eq. 31, Mindlin's 8 G* a) taking ``kt_k`` alone errs by O(dt) per unit of time, a first-order
scheme; the mean is second order (the DEM's oblique impacts show it, tests/test_dem_convergence.py).
A new contact, which has no previous kt, takes ``kt_k``; a constant kt is kept exactly.
"""
from __future__ import annotations

import numpy as np


def step_stiffness(kt_previous, kt) -> np.ndarray:
    """The stiffness of one step, ``(kt_previous + kt)/2``, or ``kt`` for a new contact
    (``kt_previous`` 0)."""
    kt_previous, kt = np.asarray(kt_previous, float), np.asarray(kt, float)
    return np.where(kt_previous > 0, 0.5 * (kt_previous + kt), kt)


def capped_update(T_previous, kt, d_delta_t, N, mu) -> tuple[np.ndarray, np.ndarray]:
    """One step for a batch of contacts (``kt`` the step's stiffness): the new tangential force
    and where the cap acted."""
    N = np.asarray(N, float)
    trial = np.where(N > 0, np.asarray(T_previous, float) + kt * d_delta_t, 0.0)
    bound = mu * N
    return np.clip(trial, -bound, bound), (N > 0) & (np.abs(trial) >= bound)


def capped_history(delta_t, N, kt, mu) -> tuple[np.ndarray, np.ndarray]:
    """:func:`capped_update` along one contact's steps (its history); forces and cap flags."""
    delta_t, N, kt = np.broadcast_arrays(*(np.asarray(v, float) for v in (delta_t, N, kt)))
    T, slipping = np.zeros(len(delta_t)), np.zeros(len(delta_t), dtype=bool)
    force, previous, kt_previous = 0.0, 0.0, 0.0
    for k in range(len(delta_t)):
        force, slipping[k] = capped_update(force, step_stiffness(kt_previous, kt[k]),
                                           delta_t[k] - previous, N[k], mu)
        T[k], previous = force, delta_t[k]
        kt_previous = kt[k] if N[k] > 0 else 0.0
    return T, slipping
