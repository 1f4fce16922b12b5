"""The calibrated law on a batch of paths at once, and the residuals its fit minimises.

:func:`run_batch` runs every path of a :class:`~hertz2d.calibration.calibrate.training.Batch` through the
law's kernel (:func:`hertz2d.calibration.laws.calibrated_kernel.run_batch`, compiled by numba: the fit
evaluates the law on every training path a few hundred times) and returns the driving forces in
the frame of the line of centres. :func:`residuals` compares them with the FEM by the validity
map's two metrics for the forces: per judged step ``(Fx_law - Fx_FEM)/reference``, the
amplitude-relative error (:mod:`hertz2d.calibration.calibrate.training`), and the same relative to
``max(|Fx_FEM|, 0.2 max |Fx_FEM|)``, the floor error (:func:`floor_errors`). The targets count the
paths whose largest error is under a threshold, so a path's residual under each metric is the
:data:`PATH_NORM`-norm of its steps' errors (:func:`path_norms`, a smooth stand-in for the largest
one: a path counts once whatever its length, and a step far off counts about as much as in the
targets); per cycle path its energy per cycle's relative error is one more (weight
:data:`ENERGY_WEIGHT`): the quantities the map's targets are set on.
"""
from __future__ import annotations

import numpy as np

from functools import lru_cache

from hertz2d.calibration.calibrate.training import Batch
from hertz2d.calibration.laws import calibrated_kernel
from hertz2d.calibration.laws.calibrated import (CalibratedCoefficients, Curve, curve_constants,
                                         normal_tangent)
from hertz2d.calibration.laws.calibrated_kernel import FOLD
from hertz2d.calibration.laws.rigid_kinematics import ContactFrame
from hertz2d.calibration.validation.map.errors import FLOOR

#: an energy per cycle's relative error counts as much as a path's force residual under one metric
ENERGY_WEIGHT = 1.0
#: p of the L_p mean of a path's step errors that stands for its largest error (:func:`path_norms`)
PATH_NORM = 16


@lru_cache(maxsize=None)
def compiled_kernel():
    """The law's kernel compiled by numba (the ``dem`` extra, which the fit needs)."""
    from hertz2d.dem.jit import compile_functions
    return compile_functions(calibrated_kernel)


def run_batch(batch: Batch, coefficients: CalibratedCoefficients, folds: bool = FOLD
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(Fx, Fz)`` of the law on every path of ``batch``, (paths, steps) each: the tangential
    force of the kernel and the normal force of Eqs. 4 + 22 with the tangential state's coupling
    term (:func:`hertz2d.calibration.laws.calibrated_kernel.normal_coupling`); ``folds`` as the
    kernel's (the law as shipped folds)."""
    found = curve_constants(batch.pair, np.where(batch.a > 0, batch.a, 1.0), coefficients)
    return run_curves(batch, found, folds)


def run_curves(batch: Batch, found: Curve, folds: bool = FOLD) -> tuple[np.ndarray, np.ndarray]:
    """:func:`run_batch` on (C1)'s constants ``found`` as they are (per path and step, kappa per
    path): the law with other constants than its coefficients give."""
    shape = batch.N.shape

    def full(value):
        return np.ascontiguousarray(np.broadcast_to(value, shape))

    T, held_slope = np.zeros(shape), np.zeros(shape)
    compiled_kernel().run_batch(
        batch.N, batch.a, batch.pair.pair_displacement(batch.increment),
        full(batch.pair.mu)[:, 0].copy(), full(batch.pair.modulus)[:, 0].copy(),
        full(found.B), full(found.kappa)[:, 0].copy(), full(found.slope),
        full(found.first_slip)[:, 0].copy(),
        full(found.annulus_slip)[:, 0].copy(), T, held_slope, folds)
    with np.errstate(divide="ignore", invalid="ignore"):
        coupling = np.where(batch.N > 0, -T * T * held_slope * normal_tangent(batch.pair, batch.a)
                            / (4.0 * batch.N * np.pi * batch.pair.modulus), 0.0)
    return ContactFrame(batch.overlap, batch.increment, batch.angle).driving_forces(
        batch.N + coupling, T)


def cycle_energy(batch: Batch, Fx: np.ndarray, Fz: np.ndarray) -> np.ndarray:
    """The law's energy per cycle on each path's last cycle (the trapezoid rule of
    :func:`hertz2d.calibration.laws.energy_per_cycle`); NaN where the path has no cycle."""
    inside = batch.cycle[:, 1:] & batch.cycle[:, :-1]
    work = (np.diff(batch.delta_t, axis=1) * 0.5 * (Fx[:, 1:] + Fx[:, :-1])
            + np.diff(batch.delta_n, axis=1) * 0.5 * (Fz[:, 1:] + Fz[:, :-1]))
    return np.where(np.isfinite(batch.energy), np.sum(np.where(inside, work, 0.0), axis=1),
                    np.nan)


def force_errors(batch: Batch, Fx: np.ndarray) -> np.ndarray:
    """(paths, steps) amplitude-relative errors of Fx, 0 where a step is not judged."""
    return np.where(batch.judged, (Fx - batch.fem_Fx) / batch.reference, 0.0)


def floor_errors(batch: Batch, Fx: np.ndarray) -> np.ndarray:
    """(paths, steps) floor errors of Fx: relative to ``max(|Fx_FEM|, FLOOR max |Fx_FEM|)`` over
    the path (:data:`hertz2d.calibration.validation.map.errors.FLOOR`), 0 where a step is not
    judged."""
    largest = np.max(np.abs(batch.fem_Fx), axis=1, keepdims=True)
    reference = np.maximum(np.abs(batch.fem_Fx), FLOOR * largest)
    return np.where(batch.judged, (Fx - batch.fem_Fx) / np.where(reference > 0, reference, 1.0),
                    0.0)


def path_norms(batch: Batch, errors: np.ndarray) -> np.ndarray:
    """Per path the ``p``-norm mean ``(mean |e|^p)^(1/p)`` of ``errors`` over its judged steps
    (``p`` = :data:`PATH_NORM`; 0 for a path with none): between the rms and the largest
    error, and smooth in the coefficients where the largest is not. Scaled by each path's
    largest error first, so no power overflows."""
    magnitude = np.abs(np.where(batch.judged, errors, 0.0))
    largest = np.max(magnitude, axis=1, keepdims=True)
    scaled = magnitude / np.where(largest > 0, largest, 1.0)
    steps = np.maximum(batch.judged.sum(axis=1), 1)
    return largest[:, 0] * (np.sum(scaled ** PATH_NORM, axis=1) / steps) ** (1.0 / PATH_NORM)


def residuals(batches: list[Batch], coefficients: CalibratedCoefficients,
              folds: bool = FOLD) -> np.ndarray:
    """The fit's residual vector (see the module docstring); ``folds`` as :func:`run_batch`'s."""
    parts = []
    for batch in batches:
        Fx, Fz = run_batch(batch, coefficients, folds)
        parts += [path_norms(batch, force_errors(batch, Fx)),
                  path_norms(batch, floor_errors(batch, Fx))]
        energy = cycle_energy(batch, Fx, Fz)
        cycles = np.isfinite(batch.energy) & (batch.energy > 0)
        parts.append(ENERGY_WEIGHT * (energy[cycles] - batch.energy[cycles])
                     / batch.energy[cycles])
    return np.concatenate(parts)
