"""The calibrated law one contact at a time: plain functions of floats and small arrays (``math``,
and numpy for one work array), so that numba compiles them unchanged (the DEM, the fit) and they
run as ordinary Python without it (the law's tables). :mod:`calibration.laws.calibrated` explains
the law and why it is admissible; this module is its arithmetic.

The tangential state is a superposition of Hertzian tractions (the accurate model with memory's
representation, :mod:`calibration.laws.memory`): pieces ``(b_(j-1), b_j]`` of the contact's
half-width, each with a traction density ``-1 <= phi_j <= 1`` (``|phi| <= 1`` is Coulomb's law), so
that ``T = mu N sum_j phi_j (y_j - y_(j-1))`` with ``y = b^2/a^2``, and the pieces stand for the
tangential displacement ``U = sum_j phi_j [D(y_j) - D(y_(j-1))]`` with

    ``D(y) = s y (B - kappa log y)``,  ``s = mu N/(pi E*)``                                    (C2)

the displacement of a flat-punch traction of half-width b inside the contact of half-width a.
In absolute terms ``D = (mu b^2/(4 R*)) (B(a) + kappa log a^2 - kappa log b^2)``: a piece's own
(local) compliance, which depends on its width alone (kappa is a constant of the pair), plus the
pair's structural compliance ``lambda(a) = (B(a) + kappa log a^2)/(pi E*)`` times the piece's
resultant. A step (the new N and a, and a tangential increment d of the pair displacement):

1. the pieces outside the new a are cut (a falling N releases their traction); a growing contact
   gains an annulus piece that takes the increment first, sticking while ``|d| <= dD``;
2. what the pieces must stand for is the previous displacement plus d; the rest moves a slip front
   in from the edge (every piece it crosses takes ``phi = sigma``), solved for its position by
   (C2)'s inverse: ``y(B - kappa log y) = v`` gives ``y = exp(B/kappa + W_{-1}(-(v/kappa)
   e^{-B/kappa}))`` with Lambert's W_{-1} (:func:`front_fraction`), which a front moving in from
   a nearby edge reaches in fewer operations by Halley's method from that edge
   (:func:`front_from`). A front reaching the centre is full slip (one piece at sigma, the rest
   of d rigid slip);
3. neighbouring pieces of one density merge; beyond :data:`PIECES` the memory is reduced by a
   step that never adds stored energy (:func:`reduce_memory`).

The stored energy of the pieces (:func:`stored_energy`) is the elastic energy of their traction,
``(1/(2 pi E*)) [(B - kappa) T^2 + kappa (mu N)^2 int_0^1 Phi(y)^2/y dy]`` with
``Phi(y) = int_0^y phi``: the kernel ``B - kappa - kappa log(max(y, y'))`` of two punches, positive
definite because it decreases with the wider one (B > kappa). Every operation above either moves
the state elastically or lowers this energy at fixed displacement: the work done on the contact
is never less than the energy it stores.

The history of one contact is :data:`HISTORY` doubles: the number of pieces and the displacement
they stand for, then per piece y_j's absolute counterpart e_j = b_j^2, log e_j and phi_j (all 0
for a new contact).

The curve's constants at the contact's half-width a (:func:`curves`: (C1)'s B and the slope
``a dB/da + 2 kappa`` of the structural compliance, which the normal force's coupling term
needs) come from a and from :data:`CURVE_DATA` numbers of the pair that do not depend on a
(:func:`calibration.laws.calibrated.curve_data`), so that a DEM code computes those once per
pair and only :func:`curves`' few products per step.
"""
from __future__ import annotations

import math

import numpy as np

from calibration.laws.lambert_w import lambert_w_minus1

#: the most traction pieces a contact keeps (one more for the length of a step)
PIECES = 8
#: doubles of history per contact: count, displacement, then e, log e and phi per piece
HISTORY = 2 + 3 * PIECES
#: offsets of the per-piece arrays in the history
EDGES, LOGS, DENSITIES = 2, 2 + PIECES, 2 + 2 * PIECES
#: log(2), of the half-space term log(2R/a) = log(4R/a) - log(2)
LOG_2 = 0.6931471805599453
#: a pair's numbers for :func:`curves` (:func:`calibration.laws.calibrated.curve_data`): per body
#: (body 2's at +BODY) its bracket weight omega, the penalty factor's terms constant and linear in
#: x = a/R (``w0 + w2 nu + w5 nu^2``, ``w1 + w4 nu``) and ``nu/(2(1 - nu))``; then w3 (of x^2),
#: the coupling's shift of B and the pair's kappa
OMEGA, W_CONSTANT, W_LINEAR, POISSON_TERM, BODY = 0, 1, 2, 3, 4
W_SQUARE, SHIFT_B, KAPPA = 8, 9, 10
CURVE_DATA = 11


def curves(a, log_a, R1, R2, log_4R1, log_4R2, data):
    """``(B, slope)`` at half-width a (> 0) from ``log a``, the radii, ``log(4 R_i)`` and the
    pair's :data:`CURVE_DATA` numbers ``data`` (indexable: a tuple of floats, or of arrays to
    evaluate many contacts at once).

    ``B = sum_i omega_i [log(2 R_i/a) + 1/2 + w_i (log(4 R_i/a) + nu_i/(2(1 - nu_i)))] + shift``
    (Eq. 27's bracket, w of Eq. 33's form in x_i = a/R_i, not clipped) and ``slope = a dB/da +
    2 kappa`` = ``sum_i omega_i [-1 - w_i + x_i w_i'(x_i) (log(4 R_i/a) + nu_i/(2(1 - nu_i)))] +
    2 kappa``: the derivative of the structural compliance ``pi E* lambda = B + kappa log a^2``
    with respect to log a.
    """
    x1, x2 = a / R1, a / R2
    l1, l2 = log_4R1 - log_a, log_4R2 - log_a
    p1, p2 = l1 + data[POISSON_TERM], l2 + data[BODY + POISSON_TERM]
    w1 = data[W_CONSTANT] + data[W_LINEAR] * x1 + data[W_SQUARE] * x1 * x1
    w2 = data[BODY + W_CONSTANT] + data[BODY + W_LINEAR] * x2 + data[W_SQUARE] * x2 * x2
    slope1 = x1 * (data[W_LINEAR] + 2.0 * data[W_SQUARE] * x1)
    slope2 = x2 * (data[BODY + W_LINEAR] + 2.0 * data[W_SQUARE] * x2)
    bracket = (data[OMEGA] * (l1 - LOG_2 + 0.5 + w1 * p1)
               + data[BODY + OMEGA] * (l2 - LOG_2 + 0.5 + w2 * p2))
    slope = (data[OMEGA] * (-1.0 - w1 + slope1 * p1) + data[BODY + OMEGA] * (-1.0 - w2 + slope2 * p2)
             + 2.0 * data[KAPPA])
    return bracket + data[SHIFT_B], slope


def normal_coupling(T: float, N: float, slope: float, k_normal: float, modulus: float) -> float:
    """The normal force's term of the tangential state, ``-T^2 slope k_n/(4 N pi E*)``: the
    derivative of the stored energy ``lambda(a) T^2/2`` of the structural compliance with respect
    to the approach at fixed traction (``d lambda/d delta_n = slope/(2 N (u - 1))`` with ``pi E*/
    (u - 1) = k_n``, the tangent of Eqs. 4 + 22). Without it a closed path that loads the contact
    tangentially at one approach and unloads it at another would return more work than it took."""
    if N <= 0.0:
        return 0.0
    return -T * T * slope * k_normal / (4.0 * N * math.pi * modulus)


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


def front_from(r: float, B: float, kappa: float, y: float, log_y: float) -> tuple[float, float]:
    """The front ``(y', log y')`` a distance r in (C2) in from the edge ``(y, log y)`` it moves
    in from: ``D(y) - D(y') = s r``, i.e. in ``h = log y - log y'`` (>= 0)

        ``F(h) = y [(B - kappa log y)(1 - e^-h) - kappa h e^-h] - r = 0``

    (``F' = y' (B - kappa - kappa log y')``, (C1)'s slope, ``F'' = -y' (B - 2 kappa - kappa
    log y')``), written so that a front that moves a small fraction of the contact loses no
    digits to the displacement of the edge: ``1 - e^-h`` is ``-expm1(-h)``. Halley's method from
    the first-order move ``h = r/F'(0)``; its error after a correction of size c is below about
    ``20 c^3`` relative to h (B - kappa >= B/10), so a correction below 1e-6 h leaves h to
    rounding. A move of more than h = 1 (the front's y falls by more than e) or one that does not
    settle in five corrections is solved by :func:`front_fraction` (W_{-1})."""
    edge = B - kappa * log_y
    v = y * edge - r
    if v <= 0.0:
        return front_fraction(v, B, kappa)
    h = r / (y * (edge - kappa))
    if h > 1.0:
        return front_fraction(v, B, kappa)
    for _ in range(5):
        shrink = math.exp(-h)
        inner = y * shrink
        residual = y * (-edge * math.expm1(-h) - kappa * h * shrink) - r
        slope = inner * (edge - kappa + kappa * h)
        curvature = -inner * (edge - 2.0 * kappa + kappa * h)
        correction = 2.0 * residual * slope / (2.0 * slope * slope - residual * curvature)
        h -= correction
        if abs(correction) <= 1e-6 * h or h > 1.0:
            break
    if not 0.0 <= h <= 1.0:
        return front_fraction(v, B, kappa)
    return y * math.exp(-h), log_y - h


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


def _square_integral(low: float, high: float, start: float, phi: float) -> float:
    """``int_low^high Phi(y)^2/y dy`` for ``Phi = start + phi (y - low)`` (0 <= low < high)."""
    alpha = start - phi * low
    value = 2.0 * alpha * phi * (high - low) + 0.5 * phi * phi * (high * high - low * low)
    if low > 0.0:
        value += alpha * alpha * math.log(high / low)
    return value


def energy_integral(history, count: int, inverse_area: float) -> float:
    """``int_0^1 Phi(y)^2/y dy`` of the pieces (``Phi(y) = int_0^y phi``, y = b^2/a^2)."""
    total, low, start = 0.0, 0.0, 0.0
    for j in range(count):
        high = history[EDGES + j] * inverse_area
        phi = history[DENSITIES + j]
        if high > low:
            total += _square_integral(low, high, start, phi)
            start += phi * (high - low)
        low = high
    return total


def stored_energy(history, N: float, a: float, mu: float, modulus: float, B: float,
                  kappa: float) -> float:
    """The elastic energy of the contact's traction (J/m), ``(1/(2 pi E*)) [(B - kappa) T^2 +
    kappa (mu N)^2 int_0^1 Phi(y)^2/y dy]`` (0 for an open contact)."""
    count = int(history[0])
    if count == 0 or N <= 0.0 or a <= 0.0:
        return 0.0
    inverse_area = 1.0 / (a * a)
    _, share = _stands_for(history, count, 0.0, 0.0, inverse_area, B, kappa)
    T = mu * N * share
    return ((B - kappa) * T * T + kappa * (mu * N) ** 2 * energy_integral(history, count,
                                                                         inverse_area)) / (
        2.0 * math.pi * modulus)


def _merge_change(history, j: int, inverse_area: float) -> tuple[float, float]:
    """``(change of int Phi^2/y, mean density)`` if pieces j and j + 1 became one piece of their
    size-weighted mean density (T unchanged)."""
    low = history[EDGES + j - 1] * inverse_area if j > 0 else 0.0
    middle = history[EDGES + j] * inverse_area
    high = history[EDGES + j + 1] * inverse_area
    start = 0.0
    edge = 0.0
    for i in range(j):
        top = history[EDGES + i] * inverse_area
        start += history[DENSITIES + i] * (top - edge)
        edge = top
    inner, outer = history[DENSITIES + j], history[DENSITIES + j + 1]
    span = high - low
    if span <= 0.0:
        return 0.0, outer
    mean = (inner * (middle - low) + outer * (high - middle)) / span
    before = (_square_integral(low, middle, start, inner) if middle > low else 0.0) + (
        _square_integral(middle, high, start + inner * (middle - low), outer)
        if high > middle else 0.0)
    return _square_integral(low, high, start, mean) - before, mean


def _remove_edge(history, count: int, j: int) -> int:
    """Piece j takes piece j + 1's outer edge; the pieces beyond move down; the new count."""
    for i in range(j, count - 1):
        history[EDGES + i] = history[EDGES + i + 1]
        history[LOGS + i] = history[LOGS + i + 1]
        if i > j:
            history[DENSITIES + i] = history[DENSITIES + i + 1]
    return count - 1


def reduce_memory(history, count: int, inverse_area: float) -> int:
    """One piece fewer without adding stored energy; the new count.

    Neighbouring pieces become one of their size-weighted mean density (T unchanged) where that
    lowers ``int Phi^2/y`` (:func:`stored_energy`): of those, the pair whose densities differ
    least (weighed by their size). Where no pair does (every density rising outwards where Phi
    is positive), the innermost pieces relax to the least traction that keeps their resultant
    and Coulomb's bound: ``|Phi|`` as small as ``|Phi'| <= 1`` allows, ``Phi = 0`` from the
    centre and ``phi = +-1`` up to the third piece's edge (two pieces for three), which is
    pointwise no larger, so its energy is no larger either. The displacement the pieces stand
    for changes by a rigid slip of the contact (the caller re-counts it), never its force.
    """
    best, best_cost = -1, math.inf
    for j in range(count - 1):
        change, _ = _merge_change(history, j, inverse_area)
        if change > 0.0:
            continue
        low = history[EDGES + j - 1] if j > 0 else 0.0
        cost = (abs(history[DENSITIES + j] - history[DENSITIES + j + 1])
                * (history[EDGES + j + 1] - low))
        if cost < best_cost:
            best, best_cost = j, cost
    if best >= 0:
        _, mean = _merge_change(history, best, inverse_area)
        history[DENSITIES + best] = mean
        return _remove_edge(history, count, best)
    # the three innermost pieces relax to Phi = 0, then phi = sign(Phi_3) up to e_3
    resultant = 0.0
    edge = 0.0
    for i in range(3):
        resultant += history[DENSITIES + i] * (history[EDGES + i] - edge)
        edge = history[EDGES + i]
    sign = 1.0 if resultant > 0.0 else -1.0
    inner = edge - abs(resultant)  # where |Phi| starts rising with slope 1
    if inner <= 0.0:  # |Phi| rises with slope 1 from the centre: one piece of density +-1
        history[DENSITIES] = resultant / edge
        count = _remove_edge(history, count, 0)
        return _remove_edge(history, count, 0)
    history[DENSITIES], history[EDGES], history[LOGS] = 0.0, inner, math.log(inner)
    history[DENSITIES + 1], history[EDGES + 1] = sign, edge
    history[LOGS + 1] = history[LOGS + 2]
    return _remove_edge(history, count, 1)


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
                    modulus: float, B: float, kappa: float):
    """One step of one contact at normal force N and half-width a (this step's; ``log_a`` its
    logarithm) with the pair displacement increment d and the curve's constants B (this step's)
    and kappa (the pair's); ``history`` (:data:`HISTORY` doubles) is updated in place.

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
    # 1. a falling N cuts the pieces outside a; a growing contact gains an annulus
    if count > 0 and history[EDGES + count - 1] > area:
        j = 0
        while history[EDGES + j] < area:
            j += 1
        history[EDGES + j], history[LOGS + j] = area, log_area
        count = j + 1
    annulus = count == 0 or history[EDGES + count - 1] < area
    slipped = 0.0  # the rigid slip a memory reduction makes
    while count > PIECES - (2 if annulus else 1):  # room for the annulus and a front's split
        before = _stands_for(history, count, s, log_area, inverse_area, B, kappa)[0]
        count = reduce_memory(history, count, inverse_area)
        slipped += before - _stands_for(history, count, s, log_area, inverse_area, B, kappa)[0]
    span = 0.0
    if annulus:
        below = (_displacement(history[EDGES + count - 1], history[LOGS + count - 1], s,
                               log_area, inverse_area, B, kappa) if count > 0 else 0.0)
        history[EDGES + count], history[LOGS + count] = area, log_area
        history[DENSITIES + count] = 0.0
        count += 1
        span = s * B - below
    # 2. the displacement to stand for: the annulus first, then a front from the edge
    needed = (history[1] - slipped + d
              - _stands_for(history, count, s, log_area, inverse_area, B, kappa)[0])
    if annulus and span > 0.0:
        share = min(1.0, max(-1.0, needed / span))
        history[DENSITIES + count - 1] = share
        needed -= share * span
    front, full = a, False
    if abs(needed) <= 1e-13 * s * B:  # nothing slips: the first touch's stiffness
        kt = math.pi * modulus / (B - kappa)
    else:
        sigma = 1.0 if needed > 0.0 else -1.0
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
            y, log_y = front_from(rest / (reach * s), B, kappa, history[EDGES + j] * inverse_area,
                                  history[LOGS + j] - log_area)
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
    return mu * N * weighted, kt, front, full


def run_batch(N, a, increment, mu, modulus, B, kappa, T):
    """Every contact (row) of a batch along its steps (columns) from the unloaded state:
    :func:`tangential_step` with the row's constants (``mu``, ``modulus``, ``kappa`` per row;
    ``N``, ``a``, ``increment`` and ``B`` per row and step), the tangential forces written into
    ``T``."""
    history = np.zeros(HISTORY)
    for row in range(N.shape[0]):
        for j in range(HISTORY):
            history[j] = 0.0
        for k in range(N.shape[1]):
            T[row, k] = tangential_step(history, N[row, k], a[row, k],
                                        math.log(a[row, k]) if a[row, k] > 0.0 else 0.0,
                                        increment[row, k], mu[row], modulus[row], B[row, k],
                                        kappa[row])[0]
