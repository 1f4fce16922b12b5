"""The calibrated law one contact at a time: plain functions of floats and small arrays (``math``,
and numpy for one work array), so that numba compiles them unchanged (the DEM, the fit) and they
run as ordinary Python without it (the law's tables). :mod:`calibration.laws.calibrated` explains the law; this module is
its arithmetic.

The tangential state is a superposition of Hertzian tractions (the accurate model with memory's
representation, :mod:`calibration.laws.memory`): pieces ``(b_(j-1), b_j]`` of the contact's
half-width, each with a traction density ``-1 <= phi_j <= 1`` (``|phi| <= 1`` is Coulomb's law), so
that ``T = mu N sum_j phi_j (e_j - e_(j-1)) / a^2`` (``e = b^2``) and the pieces stand for the
tangential displacement ``sum_j phi_j [D(e_j) - D(e_(j-1))]`` with

    ``D(e) = s y (B - kappa log y)``,  ``y = e/a^2``,  ``s = mu N/(pi E*)``                    (C2)

the displacement of a flat-punch traction of half-width b inside the contact of half-width a:
(C1) of :mod:`calibration.laws.calibrated` is ``D(a^2) - D(c^2)``. A step (the new N and a, and a
tangential increment d of the pair displacement):

1. the pieces outside the new a are cut (a falling N releases their traction); a growing contact
   gains an annulus piece that takes the increment first, sticking while ``|d| <= dD``;
2. what the pieces must stand for is the previous displacement plus d; the rest moves a slip front
   in from the edge (every piece it crosses takes ``phi = sigma``), solved for its position by
   (C2)'s inverse: ``y(B - kappa log y) = v`` gives ``y = exp(B/kappa + W_{-1}(-(v/kappa)
   e^{-B/kappa}))`` with Lambert's W_{-1} (:func:`front_fraction`), which a front moving in from
   a nearby edge reaches in fewer operations by Halley's method from that edge
   (:func:`front_from`). A front reaching the centre is full slip (one piece at sigma, the rest
   of d rigid slip);
3. neighbouring pieces of one density merge; beyond :data:`PIECES` the two closest (by density,
   weighed by their size) merge into one of their mean density, which keeps T and nearly keeps
   the displacement (memory bounded for a DEM code).

Two curves. Until its first reversal a contact is on its first loading and (C2) takes the first
loading's constants (B_v, kappa_v); from the first reversal on, the branches' (B_c, kappa_c)
(they differ for a dissimilar pair, whose first loading starts from edges already slipped under
the normal load; they are equal for bodies of one material). At the switch the displacement the
pieces stand for is re-counted with the new constants: T is continuous and the loops that follow
are centred where the first loading left them.

The history of one contact is :data:`HISTORY` doubles: the number of pieces, the displacement
they stand for, the branch (0 no tangential motion yet; +-1 the first loading, moving in that
direction; +-2 after a reversal, the last motion's direction), then per piece e_j, log e_j and
phi_j (all 0 for a new contact).

The curves' constants at the contact's half-width a (:func:`curves`, (C1)'s B and kappa of the
first loading and of the branches) come from a and from :data:`CURVE_DATA` numbers of the pair
that do not depend on a (:func:`calibration.laws.calibrated.curve_data`: the bracket weights,
the penalty polynomial's and the stick weight's terms in nu, the Dundurs coupling's shifts), so
that a DEM code computes those once per pair and only :func:`curves`' few products per step.
"""
from __future__ import annotations

import math

import numpy as np

from calibration.laws.lambert_w import lambert_w_minus1

#: the most traction pieces a contact keeps (one more for the length of a step)
PIECES = 8
#: doubles of history per contact: count, displacement, branch, then e, log e and phi per piece
HISTORY = 3 + 3 * PIECES
#: offsets of the per-piece arrays in the history
EDGES, LOGS, DENSITIES = 3, 3 + PIECES, 3 + 2 * PIECES
#: the smallest stick-zone weight relative to B: keeps e^(-B/kappa) above the smallest double
KAPPA_FLOOR = 1.0 / 500.0
#: log(2), of the half-space term log(2R/a) = log(4R/a) - log(2)
LOG_2 = 0.6931471805599453
#: a pair's numbers for :func:`curves` (:func:`calibration.laws.calibrated.curve_data`): per body
#: (body 2's at +BODY) its bracket weight omega, the penalty factor's terms constant and linear in
#: x = a/R (``w0 + w2 nu + w5 nu^2``, ``w1 + w4 nu``), ``nu/(2(1 - nu))`` and the stick weight's
#: slope ``omega (k0 + k1 nu)/2``; then w3 (of x^2) and the coupling's shifts of B and kappa of
#: the first loading and of the branches
OMEGA, W_CONSTANT, W_LINEAR, POISSON_TERM, STICK_SLOPE, BODY = 0, 1, 2, 3, 4, 5
W_SQUARE, SHIFT_B_FIRST, SHIFT_KAPPA_FIRST, SHIFT_B_CYCLIC, SHIFT_KAPPA_CYCLIC = 10, 11, 12, 13, 14
CURVE_DATA = 15


def curves(a, log_a, R1, R2, log_4R1, log_4R2, data):
    """(C1)'s constants at half-width a (> 0): ``(B_first, kappa_first, B_cyclic, kappa_cyclic)``
    from ``log a``, the radii, ``log(4 R_i)`` and the pair's :data:`CURVE_DATA` numbers ``data``
    (indexable: a tuple of floats, or of arrays to evaluate many contacts at once).

    ``B = sum_i omega_i [log(2 R_i/a) + 1/2 + w_i (log(4 R_i/a) + nu_i/(2(1 - nu_i)))]`` (Eq. 27's
    bracket, w of Eq. 33's form in x_i = a/R_i, not clipped) and ``kappa = 1 + sum_i (omega_i/2)
    x_i (k0 + k1 nu_i)``, each moved by the coupling's shift; kappa kept in [B/500, 0.9 B] so
    that (C1) stays monotone (B > kappa) and concave (kappa > 0).
    """
    x1, x2 = a / R1, a / R2
    l1, l2 = log_4R1 - log_a, log_4R2 - log_a
    w1 = data[W_CONSTANT] + data[W_LINEAR] * x1 + data[W_SQUARE] * x1 * x1
    w2 = data[BODY + W_CONSTANT] + data[BODY + W_LINEAR] * x2 + data[W_SQUARE] * x2 * x2
    bracket = (data[OMEGA] * (l1 - LOG_2 + 0.5 + w1 * (l1 + data[POISSON_TERM]))
               + data[BODY + OMEGA] * (l2 - LOG_2 + 0.5 + w2 * (l2 + data[BODY + POISSON_TERM])))
    kappa = 1.0 + data[STICK_SLOPE] * x1 + data[BODY + STICK_SLOPE] * x2
    B_first = bracket + data[SHIFT_B_FIRST]
    B_cyclic = bracket + data[SHIFT_B_CYCLIC]
    return (B_first, _stick_weight(kappa + data[SHIFT_KAPPA_FIRST], B_first), B_cyclic,
            _stick_weight(kappa + data[SHIFT_KAPPA_CYCLIC], B_cyclic))


def _stick_weight(kappa, bracket):
    """kappa clipped to [B/500, 0.9 B] (:data:`KAPPA_FLOOR`)."""
    return np.minimum(np.maximum(kappa, KAPPA_FLOOR * bracket), 0.9 * bracket)


def front_fraction(v: float, B: float, kappa: float) -> tuple[float, float]:
    """``(y, log y)``, y in (0, 1] with ``y (B - kappa log y) = v`` (0 < v <= B; B > kappa > 0):
    ``log y = B/kappa + W_{-1}(-(v/kappa) e^{-B/kappa})``."""
    if v >= B:
        return 1.0, 0.0
    if v <= 0.0:
        return 0.0, -math.inf
    ratio = B / kappa
    log_y = ratio + lambert_w_minus1(-(v / kappa) * math.exp(-ratio))
    return math.exp(log_y), log_y


def front_from(v: float, B: float, kappa: float, y: float, log_y: float) -> tuple[float, float]:
    """:func:`front_fraction` from a nearby front ``(y, log y)`` (the edge the new front moves
    in from): Halley's method on ``g(L) = e^L (B - kappa L) - v`` in L = log y (``g' = e^L (B -
    kappa - kappa L)``, ``g'' = e^L (B - 2 kappa - kappa L)``), whose error after a correction of
    size h is below ``C h^3`` with C about 20 at most (B - kappa >= B/10): a correction below
    1e-6 leaves the root to 1e-16 in log y. A correction h below 1e-3 moves y by ``e^-h``'s
    Taylor series to h^5 (1e-21) instead of an exponential, so a front that moves by a small
    fraction of the contact costs two or three corrections and at most one exponential, against
    :func:`front_fraction`'s W_{-1} and two exponentials; one that moves far (more than five
    corrections) is solved by :func:`front_fraction`."""
    if v >= B or v <= 0.0:
        return front_fraction(v, B, kappa)
    for _ in range(5):
        slope = B - kappa - kappa * log_y
        residual = y * (B - kappa * log_y) - v
        h = 2.0 * residual * slope / (2.0 * y * slope * slope - residual * (slope - kappa))
        log_y -= h
        if abs(h) < 1e-3:
            y *= 1.0 - h * (1.0 - h * (0.5 - h * (1.0 / 6.0 - h * (1.0 / 24.0 - h / 120.0))))
        else:
            y = math.exp(log_y)
        if abs(h) < 1e-6:
            return y, log_y
    return front_fraction(v, B, kappa)


def _displacement(e: float, log_e: float, s: float, log_area: float, inverse_area: float,
                  B: float, kappa: float) -> float:
    """(C2): D(e) at half-width squared ``1/inverse_area`` (0 at e = 0)."""
    if e <= 0.0:
        return 0.0
    return s * (e * inverse_area) * (B + kappa * (log_area - log_e))


def _stands_for(history, count: int, s: float, log_area: float, inverse_area: float, B: float,
                kappa: float) -> tuple[float, float]:
    """The displacement the pieces stand for, ``sum phi_j [D(e_j) - D(e_(j-1))]``, and their
    traction's resultant over ``mu N``, ``sum phi_j (e_j - e_(j-1)) / a^2``."""
    total, weighted, below, edge = 0.0, 0.0, 0.0, 0.0
    for j in range(count):
        here = _displacement(history[EDGES + j], history[LOGS + j], s, log_area, inverse_area, B,
                             kappa)
        total += history[DENSITIES + j] * (here - below)
        weighted += history[DENSITIES + j] * (history[EDGES + j] - edge)
        below, edge = here, history[EDGES + j]
    return total, weighted * inverse_area


def _merge_closest(history, count: int) -> int:
    """Merge the two neighbouring pieces whose densities differ least (weighed by the pair's
    size) into one of their size-weighted mean density (T unchanged); the new count."""
    best, best_cost = 0, math.inf
    for j in range(count - 1):
        low = history[EDGES + j - 1] if j > 0 else 0.0
        cost = (abs(history[DENSITIES + j] - history[DENSITIES + j + 1])
                * (history[EDGES + j + 1] - low))
        if cost < best_cost:
            best, best_cost = j, cost
    low = history[EDGES + best - 1] if best > 0 else 0.0
    inner, outer = history[EDGES + best] - low, history[EDGES + best + 1] - history[EDGES + best]
    span = inner + outer
    mean = ((history[DENSITIES + best] * inner + history[DENSITIES + best + 1] * outer) / span
            if span > 0.0 else history[DENSITIES + best + 1])
    history[DENSITIES + best] = mean
    for j in range(best, count - 1):  # piece best takes best + 1's outer edge; the rest move down
        history[EDGES + j] = history[EDGES + j + 1]
        history[LOGS + j] = history[LOGS + j + 1]
        if j > best:
            history[DENSITIES + j] = history[DENSITIES + j + 1]
    return count - 1


def _merge_equal(history, count: int) -> int:
    """Neighbouring pieces of one density become one; the new count."""
    kept = 0
    for j in range(count):
        if kept > 0 and history[DENSITIES + kept - 1] == history[DENSITIES + j]:
            history[EDGES + kept - 1] = history[EDGES + j]
            history[LOGS + kept - 1] = history[LOGS + j]
        else:
            history[EDGES + kept] = history[EDGES + j]
            history[LOGS + kept] = history[LOGS + j]
            history[DENSITIES + kept] = history[DENSITIES + j]
            kept += 1
    return kept


def _reset(history) -> None:
    for j in range(HISTORY):
        history[j] = 0.0


def tangential_step(history, N: float, a: float, log_a: float, d: float, mu: float,
                    modulus: float, B_first: float, kappa_first: float, B_cyclic: float,
                    kappa_cyclic: float):
    """One step of one contact at normal force N and half-width a (this step's; ``log_a`` its
    logarithm) with the pair displacement increment d, the curve's constants of the first
    loading and of the branches; ``history`` (:data:`HISTORY` doubles) is updated in place.

    Returns ``(T, kt, front, full)``: the tangential force, the tangent stiffness dT/d(delta)
    (the front's, (C1)'s slope; the first touch's ``pi E*/(B - kappa)`` when nothing slips; 0 in
    full slip), the slip front's half-width (a when nothing slips, 0 in full slip) and whether the
    contact slides.
    """
    if N <= 0.0 or a <= 0.0 or mu * N <= 0.0:
        _reset(history)
        return 0.0, 0.0, 0.0, False
    area = a * a
    inverse_area = 1.0 / area
    log_area = 2.0 * log_a
    s = mu * N / (math.pi * modulus)
    count = int(history[0])
    branch = history[2]
    first = abs(branch) < 1.5
    B, kappa = (B_first, kappa_first) if first else (B_cyclic, kappa_cyclic)
    # 1. a falling N cuts the pieces outside a; a growing contact gains an annulus
    if count > 0 and history[EDGES + count - 1] > area:
        j = 0
        while history[EDGES + j] < area:
            j += 1
        history[EDGES + j], history[LOGS + j] = area, log_area
        count = j + 1
    annulus = count == 0 or history[EDGES + count - 1] < area
    while count > PIECES - (2 if annulus else 1):  # room for the annulus and a front's split
        count = _merge_closest(history, count)
    span = 0.0
    if annulus:
        below = (_displacement(history[EDGES + count - 1], history[LOGS + count - 1], s,
                               log_area, inverse_area, B, kappa) if count > 0 else 0.0)
        history[EDGES + count], history[LOGS + count] = area, log_area
        history[DENSITIES + count] = 0.0
        count += 1
        span = s * B - below
    # 2. the displacement to stand for: the annulus first, then a front from the edge
    needed = history[1] + d - _stands_for(history, count, s, log_area, inverse_area, B, kappa)[0]
    if annulus and span > 0.0:
        share = min(1.0, max(-1.0, needed / span))
        history[DENSITIES + count - 1] = share
        needed -= share * span
    front, full = a, False
    if abs(needed) <= 1e-13 * s * B:  # nothing slips: the first touch's stiffness
        kt = math.pi * modulus / (B - kappa)
    else:
        sigma = 1.0 if needed > 0.0 else -1.0
        if first and branch != 0.0 and sigma != branch:  # the first reversal: the branches' curve
            first, B, kappa = False, B_cyclic, kappa_cyclic
        branch = sigma * (1.0 if first else 2.0)
        rest = abs(needed)
        j = count - 1
        upper = _displacement(history[EDGES + j], history[LOGS + j], s, log_area, inverse_area,
                              B, kappa)
        kt = 0.0
        while j >= 0:
            lower = (_displacement(history[EDGES + j - 1], history[LOGS + j - 1], s, log_area,
                                   inverse_area, B, kappa) if j > 0 else 0.0)
            reach = abs(sigma - history[DENSITIES + j])
            if rest >= reach * (upper - lower):
                rest -= reach * (upper - lower)
                history[DENSITIES + j] = sigma
                j -= 1
                upper = lower
                continue
            y, log_y = front_from((upper - rest / reach) / s, B, kappa,
                                  history[EDGES + j] * inverse_area, history[LOGS + j] - log_area)
            history[EDGES + j] = y * area
            history[LOGS + j] = log_y + log_area
            history[EDGES + j + 1], history[LOGS + j + 1] = area, log_area
            history[DENSITIES + j + 1] = sigma
            count = j + 2
            front = a * math.sqrt(y)
            kt = math.pi * modulus / (B - kappa - kappa * log_y)
            break
        if j < 0:  # the front reached the centre: full slip, the rest is rigid slip
            count, full, front = 1, True, 0.0
            history[EDGES], history[LOGS], history[DENSITIES] = area, log_area, sigma
    count = _merge_equal(history, count)
    history[0] = count
    history[1], weighted = _stands_for(history, count, s, log_area, inverse_area, B, kappa)
    history[2] = branch
    return mu * N * weighted, kt, front, full


def run_batch(N, a, increment, mu, modulus, B_first, kappa_first, B_cyclic, kappa_cyclic, T):
    """Every contact (row) of a batch along its steps (columns) from the unloaded state:
    :func:`tangential_step` with the row's constants (``mu``, ``modulus`` per row; ``N``, ``a``,
    ``increment`` and the curves' constants per row and step), the tangential forces written
    into ``T``."""
    history = np.zeros(HISTORY)
    for row in range(N.shape[0]):
        for j in range(HISTORY):
            history[j] = 0.0
        for k in range(N.shape[1]):
            T[row, k] = tangential_step(history, N[row, k], a[row, k],
                                        math.log(a[row, k]) if a[row, k] > 0.0 else 0.0,
                                        increment[row, k], mu[row], modulus[row],
                                        B_first[row, k], kappa_first[row, k], B_cyclic[row, k],
                                        kappa_cyclic[row, k])[0]
