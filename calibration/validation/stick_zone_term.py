"""Eq. 26's stick-zone term, three ways: what makes the accurate model dissipate twice the FEM.

The accurate model (Eqs. 24-27) writes the tangential displacement at constant N as the full-slip
traction's displacement less that of the stick zone's corrective traction (a Hertzian traction
of half-width c and resultant ``mu N (c/a)^2``, Eq. 2)::

    delta_t = mu N / (pi E*) [B(a) - (c/a)^2 B(c)],   B(x) = sum_i omega_i [h(x) + w_i(x) P(x)]

with ``h(x) = log(2R/x) + 1/2`` the half-space part and ``w P(x) = w (log(4R/x) + nu/(2(1-nu)))``
the penalty term of Eq. 20, both at the half-width x of the traction. The curvature of the
virgin curve, and with it the energy per cycle at small amplitudes and the drop of the secant
stiffness over partial slip, is set by how fast ``B(c)`` grows as c shrinks
(``d B / d log(1/c)``, the ``eps`` of :mod:`hertz2d.calibration.laws.energy`). Three variants:

``Eq. 26 as printed``
    w at the stick half-width, ``w(c/R)`` (Eq. 33 or any penalty factor):
    ``d B / d log(1/c) = sum omega_i (1 + w_i)`` for a constant w.
``w(c) of the half-round FEM``
    the same, with w tabulated from the half-round FEM of the same support at each c
    (:class:`TabulatedPenalty`): the penalty term of a body trimmed to half-width c.
``penalty term at a``
    only the half-space part follows c; the penalty term stays at the contact's half-width a
    (the finite body's share of the displacement is set by the resultant and the body, not by
    how the resultant is spread inside a contact of fixed width): ``d B / d log(1/c) =
    sum omega_i``.

:func:`virgin_curve` tabulates each; the Masing loop of a virgin curve
(:func:`hertz2d.calibration.validation.reference_forms.masing_loop_energy`) is the accurate model with
memory's loop at constant N exactly (:mod:`hertz2d.calibration.laws.memory`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hertz2d.calibration.laws import ContactPair, full_slip_displacement, half_width
from hertz2d.calibration.laws.closed_forms import (half_space_bracket, penalty_bracket,
                                           penalty_factor_from_displacement)
from hertz2d.calibration.laws.hertz2d import accurate_tangential_displacement
from hertz2d.calibration.laws.penalty_factor import bounded
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.meshes.halfround import DEFAULT_LEVEL

#: the forms of the stick-zone term compared
VARIANTS = ("Eq. 26 as printed", "w(c) of the half-round FEM", "penalty term at a")


@dataclass(frozen=True)
class TabulatedPenalty:
    """w(a/R) interpolated in a table (one Poisson ratio), usable wherever a penalty factor is."""

    a_over_R: tuple[float, ...]
    w: tuple[float, ...]
    label: str = "w tabulated"

    def __call__(self, a_over_R, nu):
        return np.interp(a_over_R, self.a_over_R, self.w)


def half_round_w(R: float, E: float, nu: float, support: str, half_widths,
                 level: int = DEFAULT_LEVEL) -> np.ndarray:
    """Eq. 20 inverted on the half-round FEM (at mesh ``level``) at each half-width."""
    return np.array([float(penalty_factor_from_displacement(
        HalfRoundBody(R, float(c), level).compliance(E, nu, support).tangential, 1.0, E, nu, R,
        float(c))) for c in half_widths])


def half_round_penalty(R: float, E: float, nu: float, support: str, a: float,
                       points: int = 24, level: int = DEFAULT_LEVEL) -> TabulatedPenalty:
    """The half-round FEM's w over stick half-widths from 0.01 a to a (denser near a, where small
    amplitudes live)."""
    ratios = np.unique(np.r_[np.geomspace(0.01, 0.5, points // 3),
                             np.linspace(0.5, 1.0, points - points // 3)])
    w = half_round_w(R, E, nu, support, ratios * a, level)
    return TabulatedPenalty(tuple(ratios * a / R), tuple(w), f"half-round FEM w(c), {support}")


def virgin_curve(pair: ContactPair, N: float, penalty, variant: str,
                 points: int = 4001) -> tuple[np.ndarray, np.ndarray]:
    """``(delta_t, T)`` of the virgin curve at constant N from 0 to full slip (Eqs. 24-27) with the
    stick-zone term of ``variant`` (one of :data:`VARIANTS`); equal pairs or any pair."""
    a = float(half_width(pair, N))
    ratio = np.linspace(1.0, 0.0, points)  # c/a, from stick to full slip
    T = pair.mu * N * (1.0 - ratio**2)  # Eq. 3
    if variant in VARIANTS[:2]:
        return accurate_tangential_displacement(pair, np.full(points, N), T, penalty), T
    if variant != VARIANTS[2]:
        raise ValueError(f"variant={variant!r} is not one of {VARIANTS}")
    full = float(full_slip_displacement(pair, N, a, penalty))
    omega = sum(pair.bracket_weights)
    with np.errstate(divide="ignore", invalid="ignore"):
        # B(c) = B(a) + sum omega_i [h(c) - h(a)], h(c) - h(a) = log(a/c)
        stick = np.where(ratio > 0, ratio**2 * (1.0 + omega * np.log(1.0 / ratio) /
                                                _bracket_at(pair, a, penalty)), 0.0)
    return full * (1.0 - stick), T


def _bracket_at(pair: ContactPair, a: float, penalty) -> float:
    """B(a) of Eq. 27 (the full-slip displacement over mu N / (pi E*))."""
    return float(sum(omega * (half_space_bracket(R, a) + bounded(penalty, a / R, nu) *
                              penalty_bracket(R, a, nu))
                     for omega, R, nu in zip(pair.bracket_weights, (pair.R1, pair.R2),
                                             (pair.nu1, pair.nu2))))


def secant_drop(delta_t: np.ndarray, T: np.ndarray, steps: np.ndarray) -> float:
    """``1 - (T/delta_t)(last) / (T/delta_t)(first)`` over the ``steps`` (delta_t values) below
    full slip, the force read off the virgin curve ``(delta_t, T)``: Fig. 13's drop."""
    partial = steps[(steps > 0) & (steps < delta_t[-1])]
    secant = np.interp(partial, delta_t, T) / partial
    return float(1.0 - secant[-1] / secant[0])
