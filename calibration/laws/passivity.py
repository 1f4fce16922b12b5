"""Passivity of the calibrated law: at no step does it return more energy than it was given.

A law with memory may do negative work over one closed loop: it returns energy it stored on the
loops before (a state that still drifts from one repeat to the next, measured from a point where
much is stored). What it must never do is create energy. At every step the work done on the
contact is at least the change of the energy it stores, the difference being what the step
dissipates,

    ``d_k = T dU + C d(delta_n) - (E_k - E_(k-1)) >= 0``

(per pair displacement; the Hertz force of Eqs. 4 + 22 is conservative and left out of the work and
of the energy alike; C the normal coupling term, E the stored energy of the traction,
:func:`~hertz2d.calibration.laws.calibrated_kernel.stored_energy`). Summed from the unloaded state
the work is then at least the stored energy, never negative, and a state that repeats itself
does non-negative work on every loop. With the trapezoid rule for the work, d_k is exact to that
rule's error, third order in the step: a d_k below zero that does not fall as the step's cube is
energy the law created. C is 0 while the contact is inside the largest area it has covered since
it closed (the structural compliance is held there,
:func:`~hertz2d.calibration.laws.calibrated_kernel.held_curve`) and switches on as it grows past
it: the work of C is the trapezoid's on a step that grows from the largest area, is taken from
the crossing on for a step that crosses it, and is 0 on a step that stays inside it or leaves it
(a trapezoid across the switch would count C where the law has none: first order in the step at
a crossing, second at a turn).
"""
from __future__ import annotations

import numpy as np

from hertz2d.calibration.laws.calibrated import (CalibratedCoefficients, CalibratedState,
                                                 calibrated_update)
from hertz2d.calibration.laws.hertz2d import normal_force
from hertz2d.calibration.laws.pair import ContactPair


def own_frame(pair: ContactPair, overlap, increment, coefficients: CalibratedCoefficients
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(T, N, E)`` of the calibrated law at each step of a path given as the law takes it
    (the overlap at each step and each step's tangential increment, the disc's own for a wall,
    as :func:`calibrated_update`; the first step's increment from the unloaded state): its
    forces (N/m) and the stored energy of its traction (J/m). Several contacts move together
    where ``overlap`` and ``increment`` are (steps, contacts) and ``pair`` holds one entry per
    contact; the outputs then have that shape."""
    overlap, increment = np.asarray(overlap, float), np.asarray(increment, float)
    state = CalibratedState.unloaded(overlap.shape[1] if overlap.ndim == 2 else 1)
    T, N, energy = (np.zeros(overlap.shape) for _ in range(3))
    for k in range(len(overlap)):
        state = calibrated_update(pair, overlap[k], increment[k], state, coefficients)
        T[k], N[k], energy[k] = (value.reshape(T[k].shape)
                                 for value in (state.T, state.N, state.energy))
    return T, N, energy


def step_dissipation(pair: ContactPair, overlap, increment,
                     coefficients: CalibratedCoefficients) -> tuple[np.ndarray, float]:
    """``(d, N_max)``: the dissipation d_k of each step k >= 1 (J/m) of the calibrated law along
    a path given as :func:`own_frame` takes it, and the largest normal force on the path
    (N/m)."""
    overlap, increment = np.asarray(overlap, float), np.asarray(increment, float)
    T, N, energy = own_frame(pair, overlap, increment, coefficients)
    coupling = N - normal_force(pair, pair.pair_displacement(overlap))[0]
    largest = largest_overlap(overlap)
    beyond = overlap[1:] > largest[:-1]  # the step ends beyond the largest area
    crossing = beyond & (overlap[:-1] < largest[:-1])
    coupling_work = np.where(crossing, coupling[1:] * (overlap[1:] - largest[:-1]),
                             np.where(beyond, 0.5 * (coupling[1:] + coupling[:-1])
                                      * np.diff(overlap), 0.0))
    work = (0.5 * (T[1:] + T[:-1]) * pair.pair_displacement(increment[1:])
            + pair.pair_displacement(coupling_work))
    return work - np.diff(energy), float(N.max())


def largest_overlap(overlap) -> np.ndarray:
    """The largest overlap since the contact closed, at each step (0 while it is open): the
    approach of the largest area the law's contact has covered."""
    largest, running = np.zeros(len(overlap)), 0.0
    for k, value in enumerate(overlap):
        running = max(running, value) if value > 0.0 else 0.0
        largest[k] = running
    return largest
